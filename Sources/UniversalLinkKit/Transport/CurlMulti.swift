import Foundation
import Synchronization
internal import _CLibcurl
internal import _LinkKitText
internal import _LinkKitLocking

/// One libcurl multi handle and the one thread that drives it, shared by every request of a ``CurlTransport``.
///
/// Invariant: an easy handle belongs to the caller until ``submit(_:continuation:)``, then to the driving thread
/// alone, which adds it, removes it and frees it. The lock guards only the hand-over lists and the map of
/// callers waiting; libcurl is never called under it. A caller is resumed exactly once: by its answer, by its
/// cancellation (at once, without waiting for libcurl) or by the transport's shutdown.
///
/// A transfer is known by its address, which the allocator may hand to the next transfer once the driving thread
/// has freed it; so each wait also carries a serial number, and a cancellation ends only the wait it was registered
/// for (a task cancelled just after its answer came, as at a resolution's deadline, must not end another link's
/// request).
final class CurlMulti: Sendable {
    private struct State {
        /// Transfers handed over, not yet added to the multi handle (addresses of `ulk_transfer`).
        var toAdd: [UInt] = []
        /// Transfers whose caller gave up; the driving thread removes and frees them.
        var toRemove: [UInt] = []
        /// Callers waiting, by transfer address, each with its wait's serial number.
        var waiting: [UInt: (serial: UInt64, continuation: CheckedContinuation<TransportResponse, any Error>)] = [:]
        var nextSerial: UInt64 = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// The multi handle's address; touched by the driving thread only, except for the thread-safe wakeup.
    private let multi: UInt

    /// Creates the multi handle and starts its thread, or returns `nil` when libcurl cannot be loaded.
    init?(maximumConnectionsPerHost: Int) {
        guard ulk_curl_load() == 0,
              let handle = ulk_multi_create(maximumConnectionsPerHost, 0, max(16, maximumConnectionsPerHost * 2))
        else { return nil }
        multi = UInt(bitPattern: handle)
        let thread = Thread { [self] in drive() }
        thread.name = "UniversalLinkKit.CurlTransport"
        thread.start()
    }

    private var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: multi)! }

    /// Hands a transfer over and waits for its answer.
    func perform(_ transfer: UnsafeMutablePointer<ulk_transfer>) async throws -> TransportResponse {
        let address = UInt(bitPattern: transfer)
        // Taken before the wait is registered, so that a cancellation that comes first finds a number to match.
        let serial = state.withTrackedLock { state -> UInt64 in
            state.nextSerial += 1
            return state.nextSerial
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let accepted = state.withTrackedLock { state -> Bool in
                    guard !state.stopped else { return false }
                    state.waiting[address] = (serial, continuation)
                    state.toAdd.append(address)
                    return true
                }
                guard accepted else {
                    ulk_transfer_free(transfer)
                    continuation.resume(throwing: CancellationError())
                    return
                }
                ulk_multi_wakeup(handle)
                // Cancelled before the handler below could find the transfer waiting.
                if Task.isCancelled { abandon(address, serial: serial) }
            }
        } onCancel: {
            abandon(address, serial: serial)
        }
    }

    /// Resumes the caller of wait `serial` with `CancellationError` now, if nothing has, and has the thread drop its
    /// transfer. A wait that has ended is left alone, and so is a later transfer the allocator put at its address.
    private func abandon(_ address: UInt, serial: UInt64) {
        let continuation = state.withTrackedLock { state -> CheckedContinuation<TransportResponse, any Error>? in
            guard let waiting = state.waiting[address], waiting.serial == serial else { return nil }
            state.waiting[address] = nil
            state.toRemove.append(address)
            return waiting.continuation
        }
        guard let continuation else { return }
        ulk_multi_wakeup(handle)
        continuation.resume(throwing: CancellationError())
    }

    /// Callers waiting for an answer.
    var waitingCount: Int { state.withTrackedLock { $0.waiting.count } }

    /// Stops the thread; callers still waiting get `CancellationError`.
    func shutdown() {
        state.withTrackedLock { $0.stopped = true }
        ulk_multi_wakeup(handle)
    }

    private func drive() {
        var added = Set<UInt>()
        while true {
            let (adds, removes, stopped) = state.withTrackedLock { state in
                defer { state.toAdd.removeAll(keepingCapacity: true); state.toRemove.removeAll(keepingCapacity: true) }
                return (state.toAdd, state.toRemove, state.stopped)
            }
            for address in adds {
                let transfer = Self.transfer(address)
                if ulk_multi_add(handle, transfer) == 0 {
                    added.insert(address)
                } else {
                    finish(address, with: .failure(TransportError(.noAnswer, detail: "libcurl refused the transfer")))
                }
            }
            for address in removes {
                if added.remove(address) != nil { ulk_multi_remove(handle, Self.transfer(address)) }
                ulk_transfer_free(Self.transfer(address))
            }
            if stopped { break }
            ulk_multi_perform(handle)
            var code: Int32 = 0
            while let transfer = ulk_multi_next_done(handle, &code) {
                let address = UInt(bitPattern: transfer)
                added.remove(address)
                ulk_multi_remove(handle, transfer)
                finish(address, with: Self.outcome(transfer.pointee, code: code))
            }
            ulk_multi_poll(handle, 1000)
        }
        let waiting = state.withTrackedLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for address in added {
            ulk_multi_remove(handle, Self.transfer(address))
            ulk_transfer_free(Self.transfer(address))
        }
        for (_, waiting) in waiting { waiting.continuation.resume(throwing: CancellationError()) }
        ulk_multi_free(handle)
    }

    /// Resumes the caller, unless it gave up already (the transfer is then in `toRemove`, which frees it).
    private func finish(_ address: UInt, with outcome: Result<TransportResponse, TransportError>) {
        guard let waiting = state.withTrackedLock({ $0.waiting.removeValue(forKey: address) }) else { return }
        ulk_transfer_free(Self.transfer(address))
        waiting.continuation.resume(with: outcome)
    }

    private static func transfer(_ address: UInt) -> UnsafeMutablePointer<ulk_transfer> {
        UnsafeMutablePointer(bitPattern: address)!
    }

    /// What a finished transfer amounts to. Nothing is retried here: a request that got a status line was answered.
    static func outcome(_ t: ulk_transfer, code: Int32) -> Result<TransportResponse, TransportError> {
        if t.head_over_cap != 0 {
            return .failure(TransportError(.headersTooLarge, detail: "header block over \(t.header_cap) bytes, transfer stopped"))
        }
        if t.over_cap != 0 {
            return .failure(TransportError(.bodyTooLarge, detail: "answer over \(t.cap) bytes, transfer stopped"))
        }
        if t.address_mismatch != 0 {
            return .failure(TransportError(.addressNotAllowed, detail: "the connection did not go to the checked address"))
        }
        if t.got_status != 0, t.status >= 200, t.status < 300, t.bad_framing != 0 {
            // An answer arrived: never retried, and its body is not read.
            return .failure(TransportError(.failedAfterAnswer, detail: "status \(t.status) whose body length cannot be trusted"
                + " (differing Content-Length fields, Content-Length beside Transfer-Encoding, or a transfer coding other than chunked)"))
        }
        if t.got_status != 0, t.status >= 200, t.status < 300, t.encoded != 0 {
            return .failure(TransportError(.encodedBody, detail: "status \(t.status) with a Content-Encoding"))
        }
        if code == 0 || (t.finished_early != 0 && t.got_status != 0) {
            return .success(response(t))
        }
        let detail = String(cString: ulk_strerror(code)) + Self.errorText(t)
        // At the deadline libcurl fails a transfer still waiting for a connection slot with CURLE_OPERATION_TIMEDOUT
        // (its timeout is the deadline): nothing was sent, as when the pre-request callback refuses it.
        if t.deadline_passed != 0 || (code == 28 && t.sends == 0 && ulk_curl_counts_requests() != 0) {
            let waited = connectionWait(t).map { " (waited \($0.text))" } ?? ""
            return .failure(TransportError(.timedOut, detail: "not sent: its deadline passed while it waited for a connection\(waited)"))
        }
        if t.resend_refused != 0 {
            return .failure(TransportError(.noAnswer, detail: "the connection closed before an answer; not re-sent"))
        }
        // CURLE_OPERATION_TIMEDOUT: the request may have reached the server.
        if code == 28 { return .failure(TransportError(.timedOut, detail: detail)) }
        return .failure(TransportError(t.got_status != 0 ? .failedAfterAnswer : .noAnswer, detail: detail))
    }

    /// From the transfer's creation to its first connection attempt or its send on a reused connection.
    private static func connectionWait(_ t: ulk_transfer) -> Duration? {
        guard t.started_ns > 0, t.started_ns >= t.created_ns else { return nil }
        return .nanoseconds(t.started_ns - t.created_ns)
    }

    private static func errorText(_ t: ulk_transfer) -> String {
        var buffer = t.error
        let text = withUnsafeBytes(of: &buffer) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text.isEmpty ? "" : " (\(text))"
    }

    private static func response(_ t: ulk_transfer) -> TransportResponse {
        let head = t.head.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: t.head_len), as: UTF8.self) }
        let body = t.body.map { Data(bytes: $0, count: t.body_len) } ?? Data()
        var response = TransportResponse(statusCode: t.status, headerFields: headerFields(head ?? ""), body: body)
        response.connectionWait = connectionWait(t)
        return response
    }

    /// The fields of a header block (`Name: value` lines separated by CRLF): names lower-cased, values trimmed, the
    /// first of a repeated name kept, lines without a colon (the status line) skipped.
    static func headerFields(_ block: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in block.components(separatedBy: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            if fields[name] == nil {
                fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return fields
    }
}
