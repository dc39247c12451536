import Foundation

/// One resolution's requests: the redirect chain and the single retry, on the task that runs it.
///
/// It holds what it needs as values (settings, transport, clock, deadline, step hook) and calls nothing back: the
/// resolver builds it, runs it, and maps what it throws.
struct ResolutionAttempt: Sendable {
    let configuration: LinkResolver.Configuration
    /// `Accept` and `User-Agent`, as every request sends them.
    let headerFields: HeaderFields
    let transport: any LinkTransport
    let clock: LinkClock
    let deadline: Deadline
    let onStep: (@Sendable (ResolutionStep) -> Void)?

    /// Requests `requestedURL`, following redirects, and decodes the answer.
    ///
    /// - Throws: ``LinkError``, ``TransportError``, ``DeadlineExceeded`` or `CancellationError`.
    func run(_ requestedURL: URL) async throws -> ResolutionResponse {
        var redirects = RedirectState(
            requestedURL: requestedURL, maxRedirects: configuration.maxRedirects, policy: configuration.policy)
        var retry = RetryBudget(delay: configuration.retryDelay, maxRetryAfter: configuration.maxRetryAfter)
        while true {
            let url = redirects.current
            // The first request of each hop is awaited from this frame, not through a helper: each async call
            // allocates a frame on the task, and a link that is answered at once makes only this request.
            var response: TransportResponse
            do {
                let request = try request(url, attempt: 1)
                if onStep == nil {
                    response = try await transport.send(request, maxBodyBytes: configuration.maxBodyBytes)
                } else {
                    response = try await reported(request, attempt: 1)
                }
                if RetryBudget.isRetryable(response.statusCode) {
                    response = try await retried(url, after: response, budget: &retry)
                }
            } catch let error as TransportError where error.kind == .noAnswer {
                response = try await retried(url, afterNoAnswer: error, budget: &retry)
            }
            switch response.statusCode {
            case 200..<300:
                // Checked here too, so a custom transport that ignores the cap cannot hand over a huge body.
                guard response.body.count <= configuration.maxBodyBytes else {
                    throw TransportError(.bodyTooLarge, detail: "\(response.body.count) bytes")
                }
                return try ResolutionResponse.decode(response.body, requestedURL: requestedURL)
            case let status where RedirectState.isRedirect(status):
                let target = try redirects.follow(response)
                onStep?(.redirected(to: target.redacted))
            case let status:
                throw LinkError.status(status, url: requestedURL, "status \(status)")
            }
        }
    }

    /// The retry of a request answered with a retryable status, when the budget allows it; otherwise that answer.
    private func retried(
        _ url: URL, after response: TransportResponse, budget: inout RetryBudget
    ) async throws -> TransportResponse {
        guard let pause = budget.spend(
            retryAfter: response.headerField("Retry-After"), now: clock.now, deadline: deadline.instant)
        else { return response }
        onStep?(.retrying(reason: "status \(response.statusCode)", after: pause))
        try await clock.sleep(until: clock.now + pause)
        return try await send(url, attempt: 2)
    }

    /// The retry of a request that got no answer, when the budget allows it; otherwise `error` is thrown.
    ///
    /// The budget holds one retry: a retried request that gets no answer either finds it spent, so its error is
    /// thrown as it comes.
    private func retried(
        _ url: URL, afterNoAnswer error: TransportError, budget: inout RetryBudget
    ) async throws -> TransportResponse {
        guard let pause = budget.spend(retryAfter: nil, now: clock.now, deadline: deadline.instant) else { throw error }
        onStep?(.retrying(reason: "no answer (\(error.kind))", after: pause))
        try await clock.sleep(until: clock.now + pause)
        return try await send(url, attempt: 2)
    }

    /// One request through the transport; the retry (attempt 2) asks for a fresh connection.
    private func send(_ url: URL, attempt: Int) async throws -> TransportResponse {
        let request = try request(url, attempt: attempt)
        guard onStep != nil else { return try await transport.send(request, maxBodyBytes: configuration.maxBodyBytes) }
        return try await reported(request, attempt: attempt)
    }

    /// The request for `url`, or ``DeadlineExceeded`` when its deadline has passed: no request may start after it (a
    /// retry's pause can end close to it).
    private func request(_ url: URL, attempt: Int) throws -> TransportRequest {
        let now = clock.now
        guard now < deadline.instant else { throw DeadlineExceeded() }
        // The transport keeps the system's clock, which an injected clock need not follow: hand it the time left
        // (on the system's clock, the deadline itself).
        return TransportRequest(
            url: url,
            headerFields: headerFields,
            allowsLocalAddresses: configuration.policy.allowsLocalHosts,
            allowsReusedConnection: attempt == 1,
            deadline: clock.isSystem ? deadline.instant : ContinuousClock.now + (deadline.instant - now)
        )
    }

    /// Sends `request` and reports it as steps: sent, then answered or failed.
    private func reported(_ request: TransportRequest, attempt: Int) async throws -> TransportResponse {
        onStep?(.requestSent(attempt: attempt, url: request.url.redacted))
        let sent = clock.now
        do {
            let response = try await transport.send(request, maxBodyBytes: configuration.maxBodyBytes)
            onStep?(.answered(
                attempt: attempt, statusCode: response.statusCode, bytes: response.body.count,
                duration: clock.now - sent, connectionWait: response.connectionWait))
            return response
        } catch let error as TransportError {
            onStep?(.requestFailed(attempt: attempt, kind: error.kind))
            throw error
        }
    }
}
