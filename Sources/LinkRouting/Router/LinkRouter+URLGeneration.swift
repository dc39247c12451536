import Foundation

extension LinkRouter {
    /// Builds a URL that routes to the route registered under `name`, with `parameters` as its variables.
    ///
    /// Each `:variable` is filled with its parameter, percent-encoded (every byte but `A-Z a-z 0-9 - . _ ~`), so a
    /// value may hold spaces, `/`, `%`, `?`, `#` or any Unicode. For a pattern with optional groups, the expansion
    /// used is the one that takes the most of the given parameters (then the shortest): `/path/:thing(/:id)` gives
    /// `/path/a/7` for `["thing": "a", "id": "7"]` and `/path/a` for `["thing": "a"]`. Parameters that are not
    /// variables of that expansion become query items, sorted by name. A `*` adds no component.
    ///
    /// The URL's scheme and host: a host-aware route's own (`https://www.example.com/invites/ABC`); a scheme
    /// namespace's scheme (`myapp://products/42`); `scheme` for a global route. The first component is written as
    /// the host when the router reads it back as a path component (no dot, not `localhost`), otherwise the URL is
    /// `myapp:///...`.
    ///
    /// Every URL returned is checked before it is returned: split as the router splits URLs, it matches this route's
    /// expansion and gives back exactly `parameters` (through ``explain(_:)``'s match too, unless a route ranked before
    /// this one, in another registration, also matches it: that is not checked). Disabled groups do not affect it.
    ///
    /// ```swift
    /// router.addRoute("/products/:id", namespace: .scheme("myapp"), name: "product") { _ in true }
    /// try router.url(forRoute: "product", parameters: ["id": "42 b"])   // myapp://products/42%20b
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name given at registration.
    ///   - parameters: the variables' values, and any query items to add.
    ///   - scheme: the URL scheme for a global route; ignored for scheme namespaces and host-aware routes.
    /// - Returns: the URL.
    /// - Throws: ``RouteError``: ``RouteError/Code-swift.struct/unknownRoute``, ``RouteError/Code-swift.struct/missingParameter``,
    ///   ``RouteError/Code-swift.struct/missingScheme`` or ``RouteError/Code-swift.struct/unrepresentableValue``.
    public func url(
        forRoute name: String, parameters: [String: String] = [:], scheme: String? = nil
    ) throws(RouteError) -> URL {
        let state = snapshot()
        let entries = (state.names[name] ?? []).map { state.entries[$0] }.filter { !$0.isRemoved }
        guard let first = entries.first else {
            throw RouteError(code: .unknownRoute, subject: name, message: "no route has this name; give it with addRoute(_:name:) or \"name\" in the route table")
        }
        let prefixes: [String]
        if let host = first.compiled.host {
            guard !host.isWildcard else {
                throw RouteError(
                    code: .unrepresentableValue, subject: name,
                    message: "'\(first.declaredPattern)' matches any host ending in '\(host.host)'; register the route for one host to build its URLs")
            }
            prefixes = ["\(host.scheme)://\(host.host)/"]
        } else {
            let urlScheme: String
            switch first.namespace {
            case .scheme(let namespaceScheme):
                urlScheme = namespaceScheme
            case .global:
                guard let scheme, !scheme.isEmpty else {
                    throw RouteError(
                        code: .missingScheme, subject: name,
                        message: "'\(first.declaredPattern)' is a global route; pass the URL scheme, as in url(forRoute: \"\(name)\", parameters: ..., scheme: \"myapp\")")
                }
                urlScheme = scheme
            }
            // The host form first, as people write these URLs; the empty-host form when the host would not read back
            // as the first component (a dot, `localhost`, an escape, an empty component).
            prefixes = ["\(urlScheme)://", "\(urlScheme):///"]
        }
        let candidates = entries.enumerated()
            .filter { $0.element.compiled.variableNames.allSatisfy { parameters[$0] != nil } }
            .sorted { lhs, rhs in
                let (left, right) = (lhs.element.compiled, rhs.element.compiled)
                if left.variableNames.count != right.variableNames.count { return left.variableNames.count > right.variableNames.count }
                if left.components.count != right.components.count { return left.components.count < right.components.count }
                return lhs.offset < rhs.offset
            }
            .map(\.element)
        guard !candidates.isEmpty else {
            let missing = entries.map { entry in entry.compiled.variableNames.filter { parameters[$0] == nil } }
                .min { $0.count < $1.count } ?? []
            throw RouteError(
                code: .missingParameter, subject: name,
                message: "'\(first.declaredPattern)' needs a value for \(missing.map { "'\($0)'" }.joined(separator: ", "))")
        }
        let decodePlus = state.options.decodePlusSymbols
        for candidate in candidates {
            let used = Set(candidate.compiled.variableNames)
            var path: [String] = []
            let compiled = candidate.compiled
            for component in compiled.components {
                switch component.kind {
                case .literal: path.append(String(Substring(compiled.bytes(of: component))))
                case .variable: path.append(RouteURLText.percentEncoded(parameters[compiled.name(of: component)] ?? ""))
                case .wildcard: break
                }
            }
            let query = parameters.keys.filter { !used.contains($0) }.sorted()
                .map { "\(RouteURLText.percentEncoded($0))=\(RouteURLText.percentEncoded(parameters[$0] ?? ""))" }
                .joined(separator: "&")
            for prefix in prefixes {
                let text = prefix + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query)
                if Self.readsBack(text, as: candidate, among: entries, parameters: parameters, state: state),
                   let url = URL(string: text) {
                    return url
                }
            }
        }
        var hint = "they do not read back unchanged from any URL"
        if decodePlus, parameters.values.contains(where: { $0.contains("+") }) {
            hint = "a value holds '+', which the router decodes as a space (decodePlusSymbols); turn decodePlusSymbols off to route '+'"
        } else if parameters.values.contains(where: { $0.hasSuffix("#") }) {
            hint = "a value ends in '#', which the router drops from variable values"
        } else if parameters.values.contains(where: \.isEmpty) {
            hint = "an empty value would make an empty component that the router does not read back"
        }
        throw RouteError(code: .unrepresentableValue, subject: name, message: "cannot write \(parameters.keys.sorted()) into '\(first.declaredPattern)': \(hint)")
    }

    /// Whether `text`, split as the router splits URLs, matches `candidate` first among the route's expansions and
    /// gives back exactly `parameters`.
    private static func readsBack(
        _ text: String, as candidate: RouterState.Entry, among entries: [RouterState.Entry], parameters: [String: String],
        state: RouterState
    ) -> Bool {
        let request = RouteRequest(
            text: text, url: nil, alwaysTreatsHostAsPathComponent: state.options.alwaysTreatsHostAsPathComponent)
        let first = entries.sorted { $0.rank < $1.rank }.first { $0.compiled.matches(request) }
        guard let first, first.rank == candidate.rank else { return false }
        let match = RouteMatch(
            request: request, pattern: candidate.compiled, namespaceName: candidate.namespace.name, parameters: [:],
            decodePlusSymbols: state.options.decodePlusSymbols)
        return parameters.allSatisfy { match.value(forKey: $0.key) == .string($0.value) }
    }
}
