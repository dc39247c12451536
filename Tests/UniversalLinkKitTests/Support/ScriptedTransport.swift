import Foundation
import Synchronization
import _LinkKitLocking
import UniversalLinkKit

/// A transport whose answers the test scripts, recording every request and the peak concurrency.
final class ScriptedTransport: LinkTransport {
    typealias Step = @Sendable (TransportRequest) async throws -> TransportResponse

    private struct State {
        var steps: [Step] = []
        var fallback: Step
        var requests: [TransportRequest] = []
        var inFlight = 0
        var peak = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var shutdowns = 0
    }

    private let state: Mutex<State>

    init(_ steps: [Step] = [], fallback: @escaping Step = { _ in .json(#"{"webLinkUrl":"https://www.example.com/p"}"#) }) {
        state = Mutex(State(steps: steps, fallback: fallback))
    }

    var requests: [TransportRequest] { state.withTrackedLock { $0.requests } }
    var count: Int { state.withTrackedLock { $0.requests.count } }
    var peakConcurrency: Int { state.withTrackedLock { $0.peak } }
    /// How many times ``shutdown()`` was called.
    var shutdowns: Int { state.withTrackedLock { $0.shutdowns } }

    func shutdown() {
        state.withTrackedLock { $0.shutdowns += 1 }
    }

    /// Returns once `count` requests have been sent (at once if they already have), so a test can act while a
    /// request is in flight instead of guessing how long the caller takes to get there.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withTrackedLock { state in
                guard state.requests.count < count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        let (step, reached) = state.withTrackedLock { state in
            state.requests.append(request)
            state.inFlight += 1
            state.peak = max(state.peak, state.inFlight)
            let count = state.requests.count
            let reached = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (state.steps.isEmpty ? state.fallback : state.steps.removeFirst(), reached)
        }
        for waiter in reached { waiter.resume() }
        defer { state.withTrackedLock { $0.inFlight -= 1 } }
        let response = try await step(request)
        if response.body.count > maxBodyBytes { throw TransportError(.bodyTooLarge) }
        return response
    }
}

extension TransportResponse {
    static func json(_ body: String, status: Int = 200) -> TransportResponse {
        TransportResponse(statusCode: status, headerFields: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    static func status(_ code: Int, headers: [String: String] = [:]) -> TransportResponse {
        TransportResponse(statusCode: code, headerFields: headers)
    }
}

extension URL {
    /// A URL literal known to be valid in the test source.
    init(_ string: StaticString) {
        guard let url = URL(string: "\(string)") else { preconditionFailure("bad URL literal \(string)") }
        self = url
    }
}

/// A transport that never answers until cancelled.
struct HangingTransport: LinkTransport {
    let honoursCancellation: Bool
    func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        if honoursCancellation {
            try await Task.sleep(for: .seconds(3600))
        } else {
            // Ignores cancellation: the resolver's deadline must still hold. Awaiting a detached task's value does
            // not pass the caller's cancellation on to it.
            await Task.detached { try? await Task.sleep(for: .seconds(120)) }.value
        }
        return .status(500)
    }
}
