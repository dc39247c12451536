import Foundation

/// The parameters handed to a route handler: the JLRoutes dictionary, plus typed access to it.
///
/// ``values`` holds exactly the keys and values JLRoutes 2.1 would pass: query items, then route variables, then the
/// caller's parameters, then ``RouteKey/pattern``, ``RouteKey/url`` and ``RouteKey/scheme`` (later sources win).
///
/// ```swift
/// router.addRoute("/products/:id") { parameters in
///     guard let id = parameters.value("id", as: Int.self) else { return false }
///     show(product: id)
///     return true
/// }
/// ```
public struct RouteParameters: Sendable {
    /// One value of the dictionary: a string, or an array of strings (repeated query items, wildcard components).
    public enum Value: Sendable, Hashable {
        /// A single string.
        case string(String)
        /// An array of strings.
        case strings([String])
    }

    /// Where the values come from: a dictionary given to ``init(values:url:)``, or what the router matched.
    private enum Storage: Sendable {
        case dictionary([String: Value], URL)
        case match(RouteMatch)
    }

    private let storage: Storage

    /// The JLRoutes parameter dictionary, `JLRouteURL` as the URL's absolute string.
    ///
    /// For parameters made by the router, the dictionary is built on first use (then kept): the subscript,
    /// ``strings(_:)`` and ``value(_:as:)`` answer without it.
    public var values: [String: Value] {
        switch storage {
        case .dictionary(let values, _): values
        case .match(let match): match.values
        }
    }

    /// The URL that was routed.
    ///
    /// For a string routed with ``LinkRouter/route(_:parameters:)-(String,_)``, made from the string on first use.
    public var url: URL {
        switch storage {
        case .dictionary(_, let url): url
        case .match(let match): match.url
        }
    }

    /// Creates parameters from a dictionary; the router builds these, a test of a handler may too.
    ///
    /// - Parameters:
    ///   - values: the dictionary, which should hold the ``RouteKey`` entries.
    ///   - url: the routed URL.
    public init(values: [String: Value], url: URL) {
        storage = .dictionary(values, url)
    }

    /// Parameters that read `match` on demand.
    init(match: RouteMatch) {
        storage = .match(match)
    }

    /// The value under `key`, without building the dictionary when the router made these parameters.
    private func lookup(_ key: String) -> Value? {
        switch storage {
        case .dictionary(let values, _): values[key]
        case .match(let match): match.value(forKey: key)
        }
    }

    /// The single string under `key`, or `nil` when it is missing or an array (as `params[key] as? String` would be).
    public subscript(key: String) -> String? {
        if case .string(let value)? = lookup(key) { return value }
        return nil
    }

    /// The strings under `key`: the array, or the single string as a one-element array; `nil` when missing.
    ///
    /// - Parameter key: a parameter name.
    /// - Returns: the values in URL order.
    public func strings(_ key: String) -> [String]? {
        switch lookup(key) {
        case .string(let value)?: [value]
        case .strings(let array)?: array
        case nil: nil
        }
    }

    /// The single string under `key` converted to `T` (`Int`, `Double`, `Bool`, any `LosslessStringConvertible`).
    ///
    /// - Parameters:
    ///   - key: a parameter name.
    ///   - type: the type to convert to.
    /// - Returns: the converted value, or `nil` when missing, an array, or not convertible.
    public func value<T: LosslessStringConvertible>(_ key: String, as type: T.Type = T.self) -> T? {
        self[key].flatMap(T.init)
    }
}
