import Foundation
import Synchronization
import _LinkKitLocking
import Testing
@testable import LinkRouting

/// Records what handlers receive, from any thread.
final class Recorder: Sendable {
    private let calls = Mutex<[RouteParameters]>([])

    /// A handler that records and returns `result`.
    func handler(returning result: Bool = true) -> LinkRouter.Handler {
        { parameters in
            self.calls.withTrackedLock { $0.append(parameters) }
            return result
        }
    }

    var all: [RouteParameters] { calls.withTrackedLock { $0 } }
    var last: RouteParameters? { all.last }
    func reset() { calls.withTrackedLock { $0.removeAll() } }
}

extension RouteParameters {
    /// The parameters without the three keys JLRoutes always adds (JLRoutes' tests count "count - 3").
    var userValues: [String: Value] {
        values.filter { ![RouteKey.pattern, RouteKey.url, RouteKey.scheme].contains($0.key) }
    }
}

/// Routes `string` and returns whether it routed and the parameters of the accepting handler.
@discardableResult
func route(
    _ router: LinkRouter, _ recorder: Recorder, _ string: String, parameters: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> RouteParameters? {
    recorder.reset()
    let url = try #require(URL(string: string), sourceLocation: sourceLocation)
    let routed = router.route(url, parameters: parameters)
    return routed ? recorder.last : nil
}

/// Shorthand for a string value.
func s(_ value: String) -> RouteParameters.Value { .string(value) }
