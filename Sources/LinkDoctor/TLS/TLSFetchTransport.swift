import Foundation
import UniversalLinkKit

/// A `LinkTransport` that verifies nothing, to read the files of a domain whose certificate the doctor reports
/// rather than refuses (a verified fetch goes through `CurlTransport`, with the CA file's roots when one is given).
///
/// Each request is one libcurl transfer on a thread of its own (``TLSProbe``), on a fresh connection that is never
/// reused (so it is never re-sent), to the addresses the host resolved to once and that passed the address check
/// (public only, unless ``TransportRequest/allowsLocalAddresses``). `GET` only, no redirect followed, no proxy,
/// nothing inflated, the body and the header block capped, the whole transfer ended by the request's deadline (or
/// ``fallbackTimeout``).
package struct TLSFetchTransport: LinkTransport {
    /// The limit of a request without a deadline of its own.
    package var fallbackTimeout: Duration = .seconds(30)
    /// The largest header block accepted.
    package var maxHeaderBytes = 64 * 1024

    /// A transport that accepts any certificate.
    package init() {}

    /// Sends a `GET`; see the type's documentation.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - maxBodyBytes: The largest body accepted.
    /// - Returns: The answer.
    /// - Throws: `TransportError`, or `CancellationError`.
    package func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = request.url.host(percentEncoded: false), !host.isEmpty
        else { throw TransportError(.noAnswer, detail: "not an http(s) URL with a host") }
        let deadline = request.deadline ?? (.now + fallbackTimeout)
        let addresses = try await CheckedAddress.resolve(
            host, with: .system, allowsLocalAddresses: request.allowsLocalAddresses, deadline: deadline)
        let probe = TLSProbe(
            url: request.url, headerLines: request.headerFields.map { "\($0.key): \($0.value)" },
            addresses: addresses.map(\.text), settings: .permissive, maxBodyBytes: maxBodyBytes,
            maxHeaderBytes: maxHeaderBytes, deadline: deadline)
        let outcome = try await probe.run()
        if outcome.headOverCap { throw TransportError(.headersTooLarge, detail: "the header block is over \(maxHeaderBytes) bytes") }
        if outcome.bodyOverCap { throw TransportError(.bodyTooLarge, detail: "the body is over \(maxBodyBytes) bytes") }
        if outcome.encodedBody { throw TransportError(.encodedBody, detail: "a Content-Encoding that was not asked for") }
        // A non-2xx answer stops at its first body byte on purpose: its status and headers are the answer.
        guard outcome.succeeded || (outcome.answered && !(200..<300).contains(outcome.status)) else {
            if outcome.timedOut { throw TransportError(.timedOut, detail: outcome.message) }
            throw TransportError(outcome.answered ? .failedAfterAnswer : .noAnswer, detail: outcome.message)
        }
        var fields: [String: String] = [:]
        for line in outcome.head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        return TransportResponse(statusCode: outcome.status, headerFields: fields, body: outcome.body)
    }
}
