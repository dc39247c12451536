import Foundation

extension LinkRouter {
    /// Says which route a URL would match, or why none does.
    ///
    /// Handlers are not called, as with ``canRoute(_:)``. When a route matches, ``RouteExplanation/match`` is it,
    /// with the parameters its handler would get. When nothing matches, the nearest routes of the namespaces tried are
    /// listed with the first component where each one stops matching (components counted from 0, as the explanation's
    /// description lists them).
    ///
    /// ```swift
    /// print(router.explain("myapp://user/edit/42") ?? "not a URL")
    /// // myapp://user/edit/42 -> namespace JLRoutesGlobalRoutesScheme, components ["user", "edit", "42"]
    /// // no route matches; nearest:
    /// //   /user/view/:userID (JLRoutesGlobalRoutesScheme): component 1 is 'edit', the pattern expects 'view'
    /// ```
    ///
    /// - Parameter urlString: the URL as text, split as written (see ``route(_:parameters:)-(String,_)``).
    /// - Returns: the explanation, or `nil` when the text is not a URL.
    public func explain(_ urlString: String) -> RouteExplanation? {
        URL(string: urlString).map { explain(text: urlString, url: $0) }
    }

    /// ``explain(_:)`` for a `URL`.
    package func explain(_ url: URL) -> RouteExplanation {
        explain(text: url.absoluteString, url: url)
    }

    private func explain(text: String, url: URL) -> RouteExplanation {
        let state = snapshot()
        let request = RouteRequest(text: text, url: url, alwaysTreatsHostAsPathComponent: state.options.alwaysTreatsHostAsPathComponent)
        let selected = state.selectedNamespace(for: request.scheme)
        let components = request.components.map { String(decoding: $0, as: UTF8.self) }
        let matched = match(text: text, url: url)
        var misses: [(pattern: String, namespace: RouteNamespace, count: Int, reason: String, rank: RouteRank)] = []
        if matched == nil {
            var tried = [selected]
            if selected != .global, state[selected]?.fallsBackToGlobalRoutes == true { tried.append(.global) }
            for namespace in tried {
                for number in state[namespace]?.entries ?? [] {
                    let entry = state.entries[number]
                    guard !entry.isRemoved else { continue }
                    let (count, reason) = Self.mismatch(entry, request: request, state: state)
                    misses.append((entry.compiled.pattern, namespace, count, reason, entry.rank))
                }
            }
        }
        let nearest = misses
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.rank < $1.rank }
            .prefix(3)
            .map { "\($0.pattern) (\($0.namespace.name)): \($0.reason)" }
        return RouteExplanation(
            url: text, namespace: selected, pathComponents: components, match: matched,
            nearMisses: Array(nearest))
    }

    /// How many components of `request` the entry's pattern matches, and why it stops.
    private static func mismatch(_ entry: RouterState.Entry, request: RouteRequest, state: RouterState) -> (Int, String) {
        if let host = entry.compiled.host {
            let keys = request.scheme.flatMap { scheme in request.host.map { HostPattern.indexKeys(scheme: scheme, host: $0) } } ?? []
            if !keys.contains(host.indexKey) {
                return (0, "the URL's scheme and host '\(request.scheme ?? "")://\(request.host ?? "")' are not '\(String(decoding: host.indexKey, as: UTF8.self))'")
            }
        }
        let path = RouterState.components(for: entry, in: request)
        var index = 0
        for component in entry.compiled.components {
            switch component.kind {
            case .wildcard:
                return (index, "its group '\(entry.group ?? "")' is disabled")
            case .variable:
                guard index < path.count else {
                    return (index, "the URL has \(path.count) components, the pattern needs \(entry.compiled.components.count)")
                }
            case .literal:
                guard index < path.count else {
                    return (index, "the URL has \(path.count) components, the pattern needs \(entry.compiled.components.count)")
                }
                let bytes = entry.compiled.bytes(of: component)
                guard path[index].elementsEqual(bytes) else {
                    return (index, "component \(index) is '\(String(decoding: path[index], as: UTF8.self))', the pattern expects '\(String(Substring(bytes)))'")
                }
            }
            index += 1
        }
        if path.count != index {
            return (index, "the URL has \(path.count) components, the pattern has \(index)")
        }
        return (index, "its group '\(entry.group ?? "")' is disabled")
    }
}
