/// One matchable form of a registered pattern: an optional-group expansion, split into components.
struct CompiledPattern: Sendable, Hashable {
    /// One pattern component.
    enum Component: Sendable, Hashable {
        /// Must equal the URL component byte for byte (both still percent-encoded).
        case literal([UInt8])
        /// `:name`: matches any single component, even an empty one.
        case variable(String)
        /// `*`: ends matching and captures the remaining components.
        case wildcard
    }

    /// The expanded pattern as reported under `JLRoutePattern`.
    let pattern: String
    /// The required scheme and host for a host-aware route.
    let host: HostPattern?
    /// The components, cut after the first `*` (JLRoutes stops matching there).
    let components: [Component]

    /// Compiles `declared` into its expansions (one when it has no optional group), with registration warnings.
    static func compile(_ declared: String) -> (patterns: [CompiledPattern], problems: [(RouteDiagnostic.Kind, String)]) {
        var patterns: [CompiledPattern] = []
        let problems = compile(declared, expansionBudget: .max) { patterns.append($0) }
        return (patterns, problems)
    }

    /// Compiles `declared`, handing each expansion to `body` in order (longest first), and returns the registration
    /// warnings; registration uses it so that the usual single pattern goes into no array of its own. A pattern with
    /// more expansions than `expansionBudget` (what is left of the router's `expansionLimit`) is used as written,
    /// with a warning.
    static func compile(
        _ declared: String, expansionBudget: Int, expansionLimit: Int = OptionalGroupExpander.maximumTableExpansions,
        each body: (CompiledPattern) -> Void
    ) -> [(RouteDiagnostic.Kind, String)] {
        var problems: [(RouteDiagnostic.Kind, String)] = []
        let split = HostPattern.split(declared)
        let path = split?.path ?? declared
        // Most patterns have no parentheses: one scan instead of the balance, size and expansion passes, and no
        // array of expansions to build.
        guard Self.containsParenthesis(path) else {
            let components = Self.components(of: path, problems: &problems)
            body(CompiledPattern(pattern: reported(path, split), host: split?.host, components: components))
            return uniqued(problems)
        }
        if !OptionalGroupExpander.isBalanced(path) {
            problems.append((.unbalancedParentheses, "its optional groups '( )' are unbalanced or nested; JLRoutes would crash or misparse it"))
        }
        if OptionalGroupExpander.hasTooManySubpaths(path) {
            problems.append((.tooManyOptionalGroups, "it has more than \(OptionalGroupExpander.maximumSubpaths) optional groups and parts, too many to expand; it is used as written, parentheses included"))
        }
        var expansions: [String] = []
        let count = OptionalGroupExpander.expansionCount(path)
        if count > 1, count > expansionBudget {
            problems.append((.tooManyOptionalGroups, "its \(count) expansions would take the router past its limit of \(expansionLimit) optional-group expansions in all (the limit that keeps a table's memory proportional to its size); it is used as written, parentheses included: register fewer optional groups"))
        } else {
            expansions = OptionalGroupExpander.expand(path)
        }
        if expansions.isEmpty { expansions = [path] }
        for expansion in expansions {
            let components = Self.components(of: expansion, problems: &problems)
            body(CompiledPattern(pattern: reported(expansion, split), host: split?.host, components: components))
        }
        return uniqued(problems)
    }

    /// The pattern reported under `JLRoutePattern` for one expansion of the path.
    private static func reported(_ expansion: String, _ split: (host: HostPattern, path: String)?) -> String {
        split.map { "\($0.host.scheme)://\($0.host.isWildcard ? "*" : "")\($0.host.host)\(expansion)" } ?? expansion
    }

    /// `problems` without repeated messages, first occurrences kept in order.
    private static func uniqued(_ problems: [(RouteDiagnostic.Kind, String)]) -> [(RouteDiagnostic.Kind, String)] {
        guard problems.count > 1 else { return problems }
        var seen: Set<String> = []
        return problems.filter { seen.insert($0.1).inserted }
    }

    /// Whether `path` has a `(` or a `)`, in one pass over its bytes.
    private static func containsParenthesis(_ path: String) -> Bool {
        func isParenthesis(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") }
        return path.utf8.withContiguousStorageIfAvailable { $0.contains(where: isParenthesis) }
            ?? path.utf8.contains(where: isParenthesis)
    }

    /// The components of one expansion, split on its bytes in place (no intermediate arrays: this runs for every
    /// registered route), with the problems found.
    private static func components(of expansion: String, problems: inout [(RouteDiagnostic.Kind, String)]) -> [Component] {
        var expansion = expansion
        return expansion.withUTF8 { all in
            var start = 0
            var end = all.count
            if start < end, all[start] == UInt8(ascii: "/") { start += 1 }
            // JLRoutes keeps a trailing `/` as an empty last component that no normalised URL can match: fixed here.
            if start < end, all[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var count = 1
            for index in start..<end where all[index] == UInt8(ascii: "/") { count += 1 }
            var components: [Component] = []
            components.reserveCapacity(count)
            var partStart = start
            var index = start
            while true {
                guard index == end || all[index] == UInt8(ascii: "/") else {
                    index += 1
                    continue
                }
                let part = UnsafeBufferPointer(rebasing: all[partStart..<index])
                if part.count == 1, part[0] == UInt8(ascii: "*") {
                    components.append(.wildcard)
                    if index != end {
                        problems.append((.wildcardNotAtEnd, "'*' is not its last component, so the components after it are ignored"))
                    }
                    break
                }
                if part.first == UInt8(ascii: ":") {
                    let name = variableName(part)
                    // Routes have a handful of variables: a linear search of the components so far, no set.
                    if components.contains(where: { if case .variable(let existing) = $0 { existing == name } else { false } }) {
                        problems.append((.conflictingVariableNames, "the variable '\(name)' appears twice; the later value wins"))
                    }
                    if name.utf8.first == UInt8(ascii: "J"), name == RouteKey.pattern || name == RouteKey.url || name == RouteKey.scheme {
                        problems.append((.conflictingVariableNames, "the variable '\(name)' is a reserved key and is always overwritten"))
                    }
                    components.append(.variable(name))
                } else {
                    components.append(.literal(Array(part)))
                }
                if index == end { break }
                index += 1
                partStart = index
            }
            return components
        }
    }

    /// JLRoutes' `routeVariableNameForValue`: one leading `:` and one trailing `#` dropped, each only when longer
    /// than one character (so `/:` captures under the key `:`).
    /// The same on the component's bytes, as registration splits them (no `Character` walking).
    static func variableName(_ component: UnsafeBufferPointer<UInt8>) -> String {
        // One `:` or `#` byte is one UTF-16 unit, so "longer than one character" is "more than one byte" whenever
        // the rest is ASCII; otherwise fall back to the String rules.
        guard component.allSatisfy({ $0 < 0x80 }) else {
            return variableName(Substring(String(decoding: component, as: UTF8.self)))
        }
        var start = 0
        var end = component.count
        if end - start > 1, component[start] == UInt8(ascii: ":") { start += 1 }
        if end - start > 1, component[end - 1] == UInt8(ascii: "#") { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: component[start..<end]), as: UTF8.self)
    }

    static func variableName(_ component: Substring) -> String {
        var name = component
        if name.utf16.count > 1, name.first == ":" { name = name.dropFirst() }
        if name.utf16.count > 1, name.last == "#" { name = name.dropLast() }
        return String(name)
    }

    /// Whether the components of `request` (hostless ones for a host-aware pattern) match this pattern.
    ///
    /// The reference matcher: ``CandidateSearch`` only yields routes whose literals it found along the URL's
    /// components, and the router asserts this agrees (debug builds, so every test run). Nothing is captured here;
    /// ``RouteMatch`` reads the variables from the request's components when a handler asks for them.
    func matches(_ request: RouteRequest) -> Bool {
        let spans = request.spans(hostAware: host != nil)
        if !hasWildcard, spans.count != components.count { return false }
        var span = spans.startIndex
        for component in components {
            switch component {
            case .wildcard:
                return true
            case .variable:
                guard span < spans.endIndex else { return false }
            case .literal(let bytes):
                guard span < spans.endIndex, spans[span].count == bytes.count,
                      request.bytes[spans[span]].elementsEqual(bytes) else { return false }
            }
            span += 1
        }
        return true
    }

    /// The names of the `:variables`, in order.
    var variableNames: [String] {
        components.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    /// Whether the last component is `*`.
    var hasWildcard: Bool {
        if case .wildcard? = components.last { return true }
        return false
    }

    /// JLRoutes' variable value: percent-decoded, one trailing `#` dropped (when longer than one character),
    /// then `+` to space when asked.
    static func variableValue(_ raw: ArraySlice<UInt8>, decodePlusSymbols: Bool) -> String {
        // Nothing to decode, no `#` to drop, no `+` to replace: the value is the bytes (the usual case).
        if raw.last != UInt8(ascii: "#"), !raw.contains(where: { $0 == UInt8(ascii: "%") || (decodePlusSymbols && $0 == UInt8(ascii: "+")) }) {
            return String(decoding: raw, as: UTF8.self)
        }
        var value = PercentDecoding.decode(String(decoding: raw, as: UTF8.self))
        if value.utf16.count > 1, value.hasSuffix("#") { value.removeLast() }
        return decodePlusSymbols ? PercentDecoding.plusToSpace(value) : value
    }
}
