/// One matchable form of a registered pattern: an optional-group expansion, split into components.
///
/// Compact, because a whole route table stays in memory: a component is 8 bytes, a range of the UTF-8 of ``pattern``
/// and its kind, so a pattern costs its text, shared with the declared pattern when it has no optional group, and 8
/// bytes a component; no array per literal, no string per variable name.
struct CompiledPattern: Sendable, Hashable {
    /// One pattern component: its kind and a range of the pattern's UTF-8 (for a variable, the name's bytes).
    struct Component: Sendable, Hashable {
        enum Kind: UInt32, Sendable {
            /// Must equal the URL component byte for byte (both still percent-encoded).
            case literal
            /// `:name`: matches any single component, even an empty one.
            case variable
            /// `*`: ends matching and captures the remaining components.
            case wildcard
        }

        /// Where the bytes start in the pattern's UTF-8.
        private let start: UInt32
        /// The byte count shifted left by 2, the kind in the low 2 bits.
        private let countAndKind: UInt32

        init(_ kind: Kind, bytes: Range<Int>) {
            // ``CompiledPattern/maximumLength`` keeps both in range: the compiler refuses longer patterns first.
            start = UInt32(bytes.lowerBound)
            countAndKind = UInt32(bytes.count) << 2 | kind.rawValue
        }

        var kind: Kind { Kind(rawValue: countAndKind & 3)! }
        /// The offsets of the bytes in the pattern's UTF-8.
        var bytes: Range<Int> { Int(start)..<Int(start) + Int(countAndKind >> 2) }
    }

    /// The longest pattern (expanded, in UTF-8 bytes) that compiles: a component's offset and length are 32-bit.
    /// A longer one (a gigabyte of pattern) is refused with a `tooLarge` diagnostic.
    static let maximumLength = (1 << 30) - 1

    /// The expanded pattern as reported under `JLRoutePattern`; its UTF-8 holds the components' bytes.
    let pattern: String
    /// The required scheme and host for a host-aware route.
    var host: HostPattern? { hostBox?.host }
    /// Whether the route is host-aware, without reading the host out of its box (routing asks on every match).
    var isHostAware: Bool { hostBox != nil }
    /// Most routes have no host: a reference, not 40 bytes inline in every route.
    private let hostBox: HostBox?
    /// The components, cut after the first `*` (JLRoutes stops matching there).
    let components: [Component]

    /// The names of the `:variables`, in order: kept as strings (routes have a few), because a handler's every
    /// parameter read compares its key with them, and `String ==` on two native strings is the fastest way to do it.
    let variableNames: [String]

    /// The bytes the pattern's buffers take: its text, its components and its variables' names (a name longer than
    /// a small string's 15 bytes has storage of its own).
    var allocatedBytes: Int {
        pattern.utf8.count + components.capacity * MemoryLayout<Component>.stride
            + variableNames.capacity * MemoryLayout<String>.stride
            + variableNames.reduce(0) { $0 + ($1.utf8.count > 15 ? $1.utf8.count + 32 : 0) }
    }

    private init(pattern: String, host: HostPattern?, components: [Component]) {
        self.pattern = pattern
        self.hostBox = host.map { HostBox($0) }
        self.components = components
        variableNames = components.compactMap { component in
            component.kind == .variable ? Self.text(of: component.bytes, in: pattern) : nil
        }
    }

    /// The UTF-8 bytes of `component`: a literal's, or a variable's name.
    func bytes(of component: Component) -> Substring.UTF8View {
        let utf8 = pattern.utf8
        let range = component.bytes
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return utf8[start..<utf8.index(start, offsetBy: range.count)]
    }

    /// Runs `body` on the bytes of `component` where they lie (a copy only for a string without contiguous UTF-8).
    func withBytes<Result>(of component: Component, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let range = component.bytes
        if let result = pattern.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[range]))) }) {
            return result
        }
        return Array(bytes(of: component)).withUnsafeBytes(body)
    }

    /// The name of a variable component.
    func name(of component: Component) -> String {
        Self.text(of: component.bytes, in: pattern)
    }

    /// The text of bytes `range` of `pattern`'s UTF-8.
    private static func text(of range: Range<Int>, in pattern: String) -> String {
        pattern.utf8.withContiguousStorageIfAvailable { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
            ?? String(decoding: Array(pattern.utf8)[range], as: UTF8.self)
    }

    /// Compiles `declared` into its expansions (one when it has no optional group), with registration warnings.
    static func compile(_ declared: String) -> (patterns: [CompiledPattern], problems: [(RouteDiagnostic.Code, String)]) {
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
    ) -> [(RouteDiagnostic.Code, String)] {
        var problems: [(RouteDiagnostic.Code, String)] = []
        let split = HostPattern.split(declared)
        let path = split?.path ?? declared
        // Most patterns have no parentheses: one scan instead of the balance, size and expansion passes, and no
        // array of expansions to build.
        guard Self.containsParenthesis(path) else {
            if let compiled = make(path, split, problems: &problems) { body(compiled) }
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
            if let compiled = make(expansion, split, problems: &problems) { body(compiled) }
        }
        return uniqued(problems)
    }

    /// The compiled form of one expansion of the path, or `nil` (with a problem) when it is too long to index.
    private static func make(
        _ expansion: String, _ split: (host: HostPattern, path: String)?, problems: inout [(RouteDiagnostic.Code, String)]
    ) -> CompiledPattern? {
        var pattern = reported(expansion, split)
        guard pattern.utf8.count <= maximumLength else {
            problems.append((.tooLarge, "it is \(pattern.utf8.count) bytes long, longer than the \(maximumLength) bytes a pattern can have; it is not registered"))
            return nil
        }
        // Components are ranges of this text: contiguous UTF-8, read in place (a no-op for a native string).
        pattern.makeContiguousUTF8()
        let components = Self.components(of: pattern, from: pattern.utf8.count - expansion.utf8.count, problems: &problems)
        return CompiledPattern(pattern: pattern, host: split?.host, components: components)
    }

    /// The pattern reported under `JLRoutePattern` for one expansion of the path.
    private static func reported(_ expansion: String, _ split: (host: HostPattern, path: String)?) -> String {
        split.map { "\($0.host.scheme)://\($0.host.isWildcard ? "*" : "")\($0.host.host)\(expansion)" } ?? expansion
    }

    /// `problems` without repeated messages, first occurrences kept in order.
    private static func uniqued(_ problems: [(RouteDiagnostic.Code, String)]) -> [(RouteDiagnostic.Code, String)] {
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

    /// The components of the path that starts at byte `pathStart` of `pattern`, split on its bytes in place (no
    /// intermediate arrays: this runs for every registered route), with the problems found.
    private static func components(
        of pattern: String, from pathStart: Int, problems: inout [(RouteDiagnostic.Code, String)]
    ) -> [Component] {
        var pattern = pattern
        return pattern.withUTF8 { all in
            var start = pathStart
            var end = all.count
            if start < end, all[start] == UInt8(ascii: "/") { start += 1 }
            // JLRoutes keeps a trailing `/` as an empty last component that no normalised URL can match: fixed here.
            if start < end, all[end - 1] == UInt8(ascii: "/") { end -= 1 }
            var count = 1
            for index in start..<end where all[index] == UInt8(ascii: "/") { count += 1 }
            var components: [Component] = []
            components.reserveCapacity(count)
            // Routes have a handful of variables: a linear search of the names so far, until there are many (a
            // pattern of 100 000 variables must not cost 10^10 comparisons).
            var variableCount = 0
            var names: Set<String> = []
            var partStart = start
            var index = start
            while true {
                guard index == end || all[index] == UInt8(ascii: "/") else {
                    index += 1
                    continue
                }
                let part = UnsafeBufferPointer(rebasing: all[partStart..<index])
                if part.count == 1, part[0] == UInt8(ascii: "*") {
                    components.append(Component(.wildcard, bytes: partStart..<index))
                    if index != end {
                        problems.append((.wildcardNotAtEnd, "'*' is not its last component, so the components after it are ignored"))
                    }
                    break
                }
                if part.first == UInt8(ascii: ":") {
                    let nameBytes = variableNameRange(part)
                    let name = UnsafeBufferPointer(rebasing: part[nameBytes])
                    let repeated: Bool
                    if variableCount < 16 {
                        repeated = components.contains { component in
                            component.kind == .variable
                                && UnsafeBufferPointer(rebasing: all[component.bytes]).elementsEqual(name)
                        }
                        if variableCount == 15 {
                            for component in components where component.kind == .variable {
                                names.insert(String(decoding: UnsafeBufferPointer(rebasing: all[component.bytes]), as: UTF8.self))
                            }
                            names.insert(String(decoding: name, as: UTF8.self))
                        }
                    } else {
                        repeated = !names.insert(String(decoding: name, as: UTF8.self)).inserted
                    }
                    variableCount += 1
                    if repeated {
                        problems.append((.conflictingVariableNames, "the variable '\(String(decoding: name, as: UTF8.self))' appears twice; the later value wins"))
                    }
                    if name.first == UInt8(ascii: "J") {
                        let text = String(decoding: name, as: UTF8.self)
                        if text == RouteKey.pattern || text == RouteKey.url || text == RouteKey.scheme {
                            problems.append((.conflictingVariableNames, "the variable '\(text)' is a reserved key and is always overwritten"))
                        }
                    }
                    components.append(Component(
                        .variable, bytes: partStart + nameBytes.lowerBound..<partStart + nameBytes.upperBound))
                } else {
                    components.append(Component(.literal, bytes: partStart..<index))
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
    /// The same on the component's bytes, as registration splits them (no `Character` walking): the range of the
    /// name within `component`.
    static func variableNameRange(_ component: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        // One `:` or `#` byte is one UTF-16 unit, so "longer than one character" is "more than one byte" whenever
        // the rest is ASCII; otherwise fall back to the String rules, which also drop one byte at either end or none.
        guard component.allSatisfy({ $0 < 0x80 }) else {
            let text = Substring(String(decoding: component, as: UTF8.self))
            // `variableName(_: Substring)` drops the first byte, the last byte, both or neither.
            let start = text.utf16.count > 1 && text.first == ":" ? 1 : 0
            return start..<start + variableName(text).utf8.count
        }
        var start = 0
        var end = component.count
        if end - start > 1, component[start] == UInt8(ascii: ":") { start += 1 }
        if end - start > 1, component[end - 1] == UInt8(ascii: "#") { end -= 1 }
        return start..<end
    }

    /// The name of the variable written `component`.
    static func variableName(_ component: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: component[variableNameRange(component)]), as: UTF8.self)
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
            switch component.kind {
            case .wildcard:
                return true
            case .variable:
                guard span < spans.endIndex else { return false }
            case .literal:
                guard span < spans.endIndex, spans[span].count == component.bytes.count,
                      request.bytes[spans[span]].elementsEqual(bytes(of: component)) else { return false }
            }
            span += 1
        }
        return true
    }

    /// Whether the last component is `*`.
    var hasWildcard: Bool {
        components.last?.kind == .wildcard
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

/// The host of a host-aware pattern, held by reference.
private final class HostBox: Sendable {
    let host: HostPattern

    init(_ host: HostPattern) {
        self.host = host
    }
}

extension CompiledPattern {
    static func == (lhs: CompiledPattern, rhs: CompiledPattern) -> Bool {
        lhs.pattern == rhs.pattern && lhs.host == rhs.host && lhs.components == rhs.components
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(host)
        hasher.combine(components)
    }
}
