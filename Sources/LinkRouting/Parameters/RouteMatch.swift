import Foundation
import Synchronization
internal import _LinkKitLocking

/// What one routed URL matched, kept as found: ``RouteParameters`` answers lookups from it without building the
/// JLRoutes dictionary, which costs more than the rest of a lookup, and builds the dictionary (and the `URL`) only
/// when asked for them.
///
/// A lookup follows JLRoutes' precedence, highest first: ``RouteKey/pattern``, ``RouteKey/url`` and
/// ``RouteKey/scheme``; the caller's parameters; ``RouteKey/wildcardComponents``; the route's variables (a later
/// variable of the same name wins); the query items (URL query, then a fragment query). ``values`` inserts the same
/// sources in the opposite order into a dictionary (later sources overwrite), so the two always agree.
final class RouteMatch: Sendable {
    private struct Cache {
        var values: [String: RouteParameters.Value]?
        var url: URL?
    }

    let request: RouteRequest
    let pattern: CompiledPattern
    let namespaceName: String
    let parameters: [String: String]
    let decodePlusSymbols: Bool
    /// The dictionary and the `URL`, made on first use; handlers that read a variable or two never take the lock.
    private let cache = Mutex(Cache())

    init(request: RouteRequest, pattern: CompiledPattern, namespaceName: String, parameters: [String: String], decodePlusSymbols: Bool) {
        self.request = request
        self.pattern = pattern
        self.namespaceName = namespaceName
        self.parameters = parameters
        self.decodePlusSymbols = decodePlusSymbols
    }

    /// The value JLRoutes' dictionary holds under `key`.
    func value(forKey key: String) -> RouteParameters.Value? {
        let keyLength = key.utf8.count
        // The reserved keys all start with "JL": most keys skip the three comparisons.
        if key.utf8.first == UInt8(ascii: "J") {
            if key == RouteKey.pattern { return .string(pattern.pattern) }
            if key == RouteKey.url { return .string(request.text) }
            if key == RouteKey.scheme { return .string(namespaceName) }
        }
        if !parameters.isEmpty, let value = parameters[key] { return .string(value) }
        let spans = request.spans(hostAware: pattern.isHostAware)
        if pattern.hasWildcard, key == RouteKey.wildcardComponents {
            return .strings(wildcardComponents(spans))
        }
        var position = pattern.components.endIndex
        var ordinal = pattern.variableNames.endIndex
        while position > pattern.components.startIndex {
            position -= 1
            guard pattern.components[position].kind == .variable else { continue }
            ordinal -= 1
            // Lengths first: comparing strings that differ is the slow path of `==`.
            let name = pattern.variableNames[ordinal]
            if name.utf8.count == keyLength, name == key { return .string(variableValue(at: position, spans)) }
        }
        let values = request.queryValues(named: key, decodePlusSymbols: decodePlusSymbols)
        switch values.count {
        case 0: return nil
        case 1: return .string(values[0])
        default: return .strings(values)
        }
    }

    /// The JLRoutes dictionary, built on first use.
    var values: [String: RouteParameters.Value] {
        if let cached = cache.withTrackedLock({ $0.values }) { return cached }
        let built = makeValues()
        cache.withTrackedLock { $0.values = built }
        return built
    }

    /// The routed URL: the one given to the router, else one made from the text on first use.
    var url: URL {
        if let given = request.givenURL { return given }
        if let cached = cache.withTrackedLock({ $0.url }) { return cached }
        // `route(_: String)` only skips `URL(string:)` for text that `RouteURLText.certainlyParses` accepts, which
        // the property test in RouteURLTextTests checks against Foundation; the fallback is never taken.
        let made = request.makeURL() ?? URL(fileURLWithPath: "/")
        cache.withTrackedLock { $0.url = made }
        return made
    }

    private func makeValues() -> [String: RouteParameters.Value] {
        let query = request.queryParameters(decodePlusSymbols: decodePlusSymbols)
        let spans = request.spans(hostAware: pattern.isHostAware)
        // Sized once: growing the dictionary key by key rehashes it several times.
        var values: [String: RouteParameters.Value] = [:]
        values.reserveCapacity(query.count + pattern.components.count + parameters.count + 4)
        for (name, value) in query { values[name] = value }
        var ordinal = 0
        for (position, component) in pattern.components.enumerated() where component.kind == .variable {
            values[pattern.variableNames[ordinal]] = .string(variableValue(at: position, spans))
            ordinal += 1
        }
        if pattern.hasWildcard { values[RouteKey.wildcardComponents] = .strings(wildcardComponents(spans)) }
        for (name, value) in parameters { values[name] = .string(value) }
        values[RouteKey.pattern] = .string(pattern.pattern)
        values[RouteKey.url] = .string(request.text)
        values[RouteKey.scheme] = .string(namespaceName)
        return values
    }

    private func variableValue(at position: Int, _ spans: ArraySlice<Range<Int>>) -> String {
        CompiledPattern.variableValue(request.bytes[spans[spans.startIndex + position]], decodePlusSymbols: decodePlusSymbols)
    }

    /// The raw components from the `*` on (JLRoutes does not decode them).
    private func wildcardComponents(_ spans: ArraySlice<Range<Int>>) -> [String] {
        let first = spans.startIndex + pattern.components.count - 1
        return spans[first...].map { String(decoding: request.bytes[$0], as: UTF8.self) }
    }
}
