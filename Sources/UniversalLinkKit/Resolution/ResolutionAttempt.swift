import Foundation

/// One resolution's requests: the redirect chain and the single retry, on the task that runs them.
///
/// It holds what it needs as values (settings, transport, clock, deadline, events) and calls nothing back: the
/// resolver builds it, runs it, and words what it throws.
///
/// - A 3xx answer moves to a target the policy admits, or ends the resolution: an answer without a usable
///   `Location` is still an answer, so it is never requested again.
/// - A request is sent again only when no answer arrived or the answer was 502, 503 or 504; only once per
///   resolution; only when the pause (the server's `Retry-After`, if it fits under the cap, else the configured
///   delay) leaves the retried request some time before the deadline. The retry asks for a fresh connection.
struct ResolutionAttempt: Sendable {
    let configuration: LinkManager.Configuration.Resolution
    let headerFields: [String: String]
    let transport: any LinkTransport
    let clock: LinkClock
    let deadline: Deadline
    let events: EventReporter

    /// Requests `requestedURL`, following redirects, and decodes the answer.
    ///
    /// - Throws: ``LinkError``, ``TransportError``, ``DeadlineExceeded`` or `CancellationError`.
    func run(_ requestedURL: URL) async throws -> ResolutionAnswer {
        var url = requestedURL
        var redirects = 0
        var retryLeft = true
        while true {
            var response: TransportResponse
            do {
                response = try await send(url, attempt: 1, requestedURL)
                if [502, 503, 504].contains(response.statusCode), retryLeft,
                   let pause = pause(retryAfter: response.headerField("Retry-After")) {
                    retryLeft = false
                    events.emit(.retrying, requestedURL, attempt: 2, duration: pause, reason: "status \(response.statusCode)")
                    try await clock.sleep(until: clock.now + pause)
                    response = try await send(url, attempt: 2, requestedURL)
                }
            } catch let error as TransportError where error.kind == .noAnswer {
                guard retryLeft, let pause = pause(retryAfter: nil) else { throw error }
                retryLeft = false
                events.emit(.retrying, requestedURL, attempt: 2, duration: pause, reason: "no answer (\(error.kind.description))")
                try await clock.sleep(until: clock.now + pause)
                response = try await send(url, attempt: 2, requestedURL)
            }
            switch response.statusCode {
            case 200..<300:
                // Checked here too, so a transport that ignores the cap cannot hand over a huge body.
                guard response.body.count <= configuration.maxBodyBytes else {
                    throw TransportError(.bodyTooLarge, detail: "\(response.body.count) bytes")
                }
                return try ResolutionAnswer.decode(response.body, for: requestedURL)
            case 301, 302, 303, 307, 308:
                let status = response.statusCode
                guard let location = response.headerField("Location"), !location.isEmpty,
                      let target = URL(string: location, relativeTo: url)?.absoluteURL
                else { throw LinkError.status(status, url: requestedURL, "a redirect without a usable Location") }
                redirects += 1
                guard redirects <= configuration.maxRedirects else {
                    throw LinkError.status(status, url: requestedURL, "more than \(configuration.maxRedirects) redirects")
                }
                if let refusal = configuration.policy.check(target) {
                    throw LinkError.redirectRefused(requestedURL, refusal)
                }
                events.emit(.redirected, requestedURL, target: target)
                url = target
            case let status:
                throw LinkError.status(status, url: requestedURL, "status \(status)")
            }
        }
    }

    /// The pause before the retry, or `nil` when there is to be none: the server asks for too long, or the retry
    /// would not fit before the deadline (the retried request needs some time of its own).
    private func pause(retryAfter: String?) -> Duration? {
        var pause = configuration.retryDelay
        if let retryAfter {
            guard let seconds = Self.seconds(retryAfter: retryAfter, now: Date()),
                  seconds <= Double(configuration.maxRetryAfter.components.seconds)
                      + Double(configuration.maxRetryAfter.components.attoseconds) / 1e18
            else { return nil }
            pause = .milliseconds(Int64(seconds * 1000))
        }
        guard clock.now + pause + .milliseconds(50) < deadline.instant else { return nil }
        return pause
    }

    /// One request through the transport, reported as events; the retry (attempt 2) asks for a fresh connection.
    /// No request starts after the deadline (a retry's pause can end close to it).
    private func send(_ url: URL, attempt: Int, _ requestedURL: URL) async throws -> TransportResponse {
        let now = clock.now
        guard now < deadline.instant else { throw DeadlineExceeded() }
        let request = TransportRequest(
            url: url,
            headerFields: headerFields,
            allowsLocalAddresses: configuration.policy.allowsLocalHosts,
            allowsReusedConnection: attempt == 1,
            // The transport keeps the system's clock, which an injected clock need not follow: the time left.
            deadline: ContinuousClock.now + (deadline.instant - now))
        events.emit(.requestSent, requestedURL, attempt: attempt, target: url == requestedURL ? nil : url)
        let response = try await transport.send(request, maxBodyBytes: configuration.maxBodyBytes)
        events.emit(
            .answered, requestedURL, attempt: attempt, statusCode: response.statusCode, bytes: response.body.count,
            duration: clock.now - now, connectionWait: response.connectionWait)
        return response
    }

    /// An HTTP `Retry-After` value in seconds (delay seconds, or an HTTP-date; never negative), or `nil` when it
    /// is neither.
    static func seconds(retryAfter value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            let digits = trimmed.drop { $0 == "0" }
            // More than nine significant digits is years: far past any deadline, and past Double's exact range.
            return digits.count > 9 ? .infinity : Double(digits.isEmpty ? "0" : String(digits))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
