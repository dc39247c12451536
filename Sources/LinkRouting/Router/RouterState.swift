/// Everything a ``LinkRouter`` knows, as one value: routing works on a copy taken under the lock.
struct RouterState: Sendable {
    init(
        options: LinkRouter.Options, maximumExpansions: Int = OptionalGroupExpander.maximumTableExpansions,
        indexLimit: Int = SegmentIndex.maximumCount
    ) {
        self.options = options
        self.maximumExpansions = maximumExpansions
        self.indexLimit = indexLimit
        global = Namespace(index: SegmentIndex(limit: indexLimit))
    }

    struct Entry: Sendable {
        let declaredPattern: String
        let registration: Int
        let compiled: CompiledPattern
        let namespace: RouteNamespace
        let rank: RouteRank
        let group: String?
        let handler: LinkRouter.Handler
        let location: SegmentIndex.Location
        var isRemoved = false
    }

    struct Namespace: Sendable {
        var index = SegmentIndex()
        var fallsBackToGlobalRoutes = false
        var unmatchedHandler: LinkRouter.UnmatchedHandler?
        /// Entry numbers in registration order.
        var entries: [Int] = []
        /// The lowest priority registered here: a new route can only shadow existing ones below its own priority.
        var lowestPriority = Int.max
    }

    var options: LinkRouter.Options
    var entries: [Entry] = []
    var registrations = 0
    var global = Namespace()
    var schemes: [String: Namespace] = [:]
    var disabledGroups: Set<String> = []
    var diagnostics: [RouteDiagnostic] = []
    /// Route names to the entry numbers of the registration that holds the name (its expansions, in rank order).
    /// A later registration with the same name takes the name over. One dictionary, not a field of ``Entry``:
    /// every routing pass copies the state, and every registration the entries.
    var names: [String: [Int]] = [:]
    /// Routes registered from patterns with optional groups, all namespaces together; at most
    /// ``OptionalGroupExpander/maximumTableExpansions``.
    var expandedRoutes = 0
    /// The budget for ``expandedRoutes``.
    var maximumExpansions = OptionalGroupExpander.maximumTableExpansions
    /// The size limit of every namespace's index (``SegmentIndex/maximumCount``; lowered by tests).
    let indexLimit: Int

    /// The name of the route with entry number `number`, if it has one (a scan of the named routes: for reporting a
    /// match, not for routing).
    func name(ofEntry number: Int) -> String? {
        guard !names.isEmpty else { return nil }
        return names.first { $0.value.contains(number) }?.key
    }

    /// Whether any namespace holds a host-aware route (`https://host/path`); requests skip the hostless split
    /// otherwise.
    var hasHostAwareRoutes: Bool {
        global.index.nodes[SegmentIndex.hostRoot].hasLiterals
            || schemes.values.contains { $0.index.nodes[SegmentIndex.hostRoot].hasLiterals }
    }

    /// The namespace `request` is routed in; its scheme is only made into a string when scheme namespaces exist.
    func selectedNamespace(for request: RouteRequest) -> RouteNamespace {
        schemes.isEmpty ? .global : selectedNamespace(for: request.scheme)
    }

    /// The namespace a URL with `scheme` is routed in.
    func selectedNamespace(for scheme: String?) -> RouteNamespace {
        if let scheme, schemes[scheme] != nil { return .scheme(scheme) }
        return .global
    }

    subscript(namespace: RouteNamespace) -> Namespace? {
        switch namespace {
        case .global: global
        case .scheme(let scheme): schemes[scheme]
        }
    }

    /// The index of a namespace, without copying the rest of the namespace.
    func index(of namespace: RouteNamespace) -> SegmentIndex? {
        switch namespace {
        case .global: global.index
        case .scheme(let scheme): schemes[scheme]?.index
        }
    }

    /// The lowest priority registered in a namespace, without copying the namespace.
    func lowestPriority(in namespace: RouteNamespace) -> Int? {
        switch namespace {
        case .global: global.lowestPriority
        case .scheme(let scheme): schemes[scheme]?.lowestPriority
        }
    }

    /// Runs `body` on the namespace, creating it when missing (as JLRoutes' `routesForScheme:` does).
    mutating func modify<Result>(_ namespace: RouteNamespace, _ body: (inout Namespace) -> Result) -> Result {
        switch namespace {
        case .global:
            return body(&global)
        case .scheme(let scheme):
            return body(&schemes[scheme, default: Namespace(index: SegmentIndex(limit: indexLimit))])
        }
    }

    /// Whether `entries[number]` is neither removed nor in a disabled group (read without copying the entry).
    func isActive(_ number: Int) -> Bool {
        guard !entries[number].isRemoved else { return false }
        guard !disabledGroups.isEmpty, let group = entries[number].group else { return true }
        return !disabledGroups.contains(group)
    }

    /// The components `entry` matches against in `request`.
    static func components(for entry: Entry, in request: RouteRequest) -> [[UInt8]] {
        !entry.compiled.isHostAware ? request.components : request.hostlessComponents
    }

    // MARK: - Registration

    mutating func add(
        _ declared: String, namespace: RouteNamespace, priority: Int, group: String?, name: String? = nil,
        handler: @escaping LinkRouter.Handler
    ) -> [RouteDiagnostic] {
        registrations += 1
        let registration = registrations
        let firstEntry = entries.count
        // Overlaps are collected apart and reported after the pattern's own problems, which are only complete once
        // every expansion is compiled.
        var overlaps: [RouteDiagnostic] = []
        var compiledAny = false
        var expansions = 0
        let problems = CompiledPattern.compile(
            declared, expansionBudget: maximumExpansions - expandedRoutes, expansionLimit: maximumExpansions
        ) { pattern in
            compiledAny = true
            expansions += 1
            // A mutating call: reading `self` in this closure would copy the whole state per route.
            add(pattern, declared: declared, registration: registration, namespace: namespace, priority: priority,
                group: group, handler: handler, overlaps: &overlaps)
        }
        if !compiledAny { modify(namespace) { _ in } }
        if expansions > 1 { expandedRoutes += expansions }
        if let name { overlaps += assign(name, to: declared, namespace: namespace, entries: firstEntry..<entries.count) }
        guard !problems.isEmpty || !overlaps.isEmpty else { return [] }
        var found = problems.map {
            RouteDiagnostic(code: $0.0, subject: declared, namespace: namespace, message: "'\(declared)': \($0.1)")
        }
        found += overlaps
        diagnostics += found
        return found
    }

    /// Gives `name` to the registration of `declared` (its expansions are `entries`), taking it from an earlier live
    /// route; the warning when it does. Apart from ``add(_:namespace:priority:group:name:handler:)`` so that unnamed
    /// routes, the usual ones, pay nothing for names.
    private mutating func assign(
        _ name: String, to declared: String, namespace: RouteNamespace, entries range: Range<Int>
    ) -> [RouteDiagnostic] {
        var found: [RouteDiagnostic] = []
        if let previous = names[name]?.first(where: { !entries[$0].isRemoved }) {
            let other = entries[previous].declaredPattern
            found.append(RouteDiagnostic(
                code: .duplicateName, subject: declared, namespace: namespace, relatedPattern: other,
                message: "'\(declared)' takes the name '\(name)' from '\(other)'; url(forRoute:) builds URLs for this route from here on"))
        }
        names[name] = Array(range)
        return found
    }

    /// Indexes one compiled expansion of `declared`, adding what it overlaps to `overlaps`.
    private mutating func add(
        _ pattern: CompiledPattern, declared: String, registration: Int, namespace: RouteNamespace, priority: Int,
        group: String?, handler: @escaping LinkRouter.Handler, overlaps: inout [RouteDiagnostic]
    ) {
        let number = entries.count
        let rank = RouteRank(priority: priority, sequence: number)
        // The index's numbers are 32-bit: a namespace that cannot take the route refuses it rather than overflow.
        guard (index(of: namespace) ?? SegmentIndex(limit: indexLimit)).canInsert(pattern) else {
            overlaps.append(RouteDiagnostic(
                code: .tooLarge, subject: pattern.pattern, namespace: namespace,
                message: "'\(pattern.pattern)' is not registered: the index of \(namespace.name) is full (at most \(indexLimit) nodes, edges and literal bytes); split the table over namespaces or routers"))
            return
        }
        if let overlap = earlierRoute(covering: pattern, in: namespace, before: rank, registration: registration) {
            overlaps.append(overlap)
        }
        if let lowest = lowestPriority(in: namespace), lowest < priority {
            overlaps += laterRoutes(coveredBy: pattern, in: namespace, after: rank)
        }
        let location = modify(namespace) { space in
            space.lowestPriority = min(space.lowestPriority, priority)
            space.entries.append(number)
            return space.index.insert(pattern, rank: rank, entry: number)
        }
        entries.append(Entry(
            declaredPattern: declared, registration: registration, compiled: pattern, namespace: namespace,
            rank: rank, group: group, handler: handler, location: location))
    }

    /// Existing lower-priority routes that `pattern` now hides (it matches every URL they match and is tried first).
    ///
    /// Walks the index the other way round: a literal of the pattern follows only the same literal, a variable
    /// follows every edge, a `*` covers its whole subtree. The walk stops after ``shadowWalkLimit`` nodes, so a
    /// `/*` added over a huge table reports what it found so far rather than stalling registration.
    private func laterRoutes(coveredBy pattern: CompiledPattern, in namespace: RouteNamespace, after rank: RouteRank) -> [RouteDiagnostic] {
        guard let index = index(of: namespace) else { return [] }
        let nodes = index.nodes
        let start: Int? = pattern.host.map { index.literalChild(of: SegmentIndex.hostRoot, $0.indexKey) } ?? SegmentIndex.plainRoot
        guard let start else { return [] }
        var covered: [SegmentIndex.Leaf] = []
        // Leaf lists are sorted by rank, so the routes tried after the new one are a suffix: only its start is read.
        func collect(_ leaves: ArraySlice<SegmentIndex.Leaf>) {
            var low = leaves.startIndex
            var high = leaves.endIndex
            while low < high {
                let middle = (low + high) / 2
                if leaves[middle].rank < rank { low = middle + 1 } else { high = middle }
            }
            covered += leaves[low...].prefix(Self.shadowReportLimit * 2)
        }
        var visited = 0
        var stack: [(node: Int, depth: Int, everything: Bool)] = [(start, 0, false)]
        while let (node, depth, everything) = stack.popLast(), visited < Self.shadowWalkLimit {
            visited += 1
            let current = nodes[node]
            let component: CompiledPattern.Component? = depth < pattern.components.count ? pattern.components[depth] : nil
            if everything || component?.kind == .wildcard {
                collect(index.leaves(of: node, wildcard: false))
                collect(index.leaves(of: node, wildcard: true))
                stack += index.literalChildren(of: node).map { ($0, depth + 1, true) }
                if let child = current.variable { stack.append((child, depth + 1, true)) }
                continue
            }
            switch component?.kind {
            case nil:
                collect(index.leaves(of: node, wildcard: false))
            case .literal?:
                if let component, let child = index.literalChild(of: node, component, in: pattern) {
                    stack.append((child, depth + 1, false))
                }
            case .variable?:
                stack += index.literalChildren(of: node).map { ($0, depth + 1, false) }
                if let child = current.variable { stack.append((child, depth + 1, false)) }
            case .wildcard?:
                break
            }
        }
        return covered
            .filter { rank < $0.rank && !entries[$0.entry].isRemoved }
            .sorted { $0.rank < $1.rank }
            .prefix(Self.shadowReportLimit)
            .map { leaf in
                let hidden = entries[leaf.entry].compiled.pattern
                return RouteDiagnostic(
                    code: .shadowed, subject: hidden, namespace: namespace, relatedPattern: pattern.pattern,
                    message: "'\(hidden)' is shadowed from here on by '\(pattern.pattern)', which has a higher priority and matches every URL it matches; it only runs when that handler returns false")
            }
    }

    /// How many index nodes ``laterRoutes(coveredBy:in:after:)`` visits at most.
    static let shadowWalkLimit = 1_024
    /// How many newly shadowed routes one registration reports at most.
    static let shadowReportLimit = 10

    /// The best-ranked existing route that matches every URL `pattern` matches, as a diagnostic.
    ///
    /// Walks the index with the pattern itself: a literal may follow a literal or a variable edge, a variable only a
    /// variable edge; a `*` met on the way, or a route ending where the pattern ends, covers it. The walk runs
    /// as a loop and reads nodes in place: it runs for every registered route, and nothing is formatted unless a route
    /// is found.
    private func earlierRoute(
        covering pattern: CompiledPattern, in namespace: RouteNamespace, before rank: RouteRank, registration: Int
    ) -> RouteDiagnostic? {
        var best: Covering?
        switch namespace {
        case .global:
            Self.findCovering(pattern, in: global.index, entries: entries, before: rank, registration: registration, best: &best)
        case .scheme(let scheme):
            guard let index = schemes[scheme]?.index else { return nil }
            Self.findCovering(pattern, in: index, entries: entries, before: rank, registration: registration, best: &best)
        }
        guard let best else { return nil }
        let other = entries[best.leaf.entry].compiled.pattern
        if best.sameShape {
            return RouteDiagnostic(
                code: .duplicate, subject: pattern.pattern, namespace: namespace, relatedPattern: other,
                message: "'\(pattern.pattern)' duplicates '\(other)', registered earlier with the same or a higher priority; it only runs when that handler returns false")
        }
        return RouteDiagnostic(
            code: .shadowed, subject: pattern.pattern, namespace: namespace, relatedPattern: other,
            message: "'\(pattern.pattern)' is shadowed by '\(other)', which is tried first and matches every URL it matches; it only runs when that handler returns false")
    }

    /// A route covering a new one, and whether it has the same shape (a duplicate).
    private struct Covering {
        var leaf: SegmentIndex.Leaf
        var sameShape: Bool
    }

    private static func findCovering(
        _ pattern: CompiledPattern, in index: SegmentIndex, entries: [Entry], before rank: RouteRank, registration: Int,
        best: inout Covering?
    ) {
        let start: Int?
        if let host = pattern.host {
            start = index.literalChild(of: SegmentIndex.hostRoot, host.indexKey)
        } else {
            start = SegmentIndex.plainRoot
        }
        guard let start else { return }
        let patternIsWildcard = pattern.hasWildcard
        let fixedCount = pattern.components.count - (patternIsWildcard ? 1 : 0)
        walkCovering(
            start, pattern: pattern, patternIsWildcard: patternIsWildcard, fixedCount: fixedCount,
            index: index, entries: entries, before: rank, registration: registration, best: &best)
    }

    /// The walk of ``earlierRoute(covering:in:before:registration:)`` from `start`. The best candidate does not
    /// depend on the order nodes are visited in (ranks are unique), so a loop with a stack of the branches not yet
    /// taken finds what a recursion would, without a stack frame per component: a pattern of a million components
    /// is a million steps. Only a node with both a literal and a variable child pushes onto `pending`.
    private static func walkCovering(
        _ start: Int, pattern: CompiledPattern, patternIsWildcard: Bool, fixedCount: Int,
        index: SegmentIndex, entries: [Entry], before rank: RouteRank, registration: Int, best: inout Covering?
    ) {
        var pending: [(node: Int, depth: Int, exact: Bool)] = []
        var next: (node: Int, depth: Int, exact: Bool)? = (start, 0, true)
        while let (node, depth, exact) = next ?? pending.popLast() {
            next = nil
            if index.hasLeaves(at: node, wildcard: true) {
                considerCovering(
                    index.leaves(of: node, wildcard: true), sameShape: exact && patternIsWildcard && depth == fixedCount,
                    entries: entries, before: rank, registration: registration, best: &best)
            }
            if depth == fixedCount {
                if !patternIsWildcard, index.hasLeaves(at: node, wildcard: false) {
                    considerCovering(
                        index.leaves(of: node, wildcard: false), sameShape: exact, entries: entries, before: rank,
                        registration: registration, best: &best)
                }
                continue
            }
            let variable = index.nodes[node].variable
            let component = pattern.components[depth]
            switch component.kind {
            case .literal:
                if let variable { pending.append((variable, depth + 1, false)) }
                if let child = index.literalChild(of: node, component, in: pattern) { next = (child, depth + 1, exact) }
            case .variable:
                if let variable { next = (variable, depth + 1, exact) }
            case .wildcard:
                continue
            }
        }
    }

    /// Leaf lists are sorted by rank: the first live leaf of a list is its best candidate.
    private static func considerCovering(
        _ leaves: ArraySlice<SegmentIndex.Leaf>, sameShape: Bool, entries: [Entry], before rank: RouteRank, registration: Int,
        best: inout Covering?
    ) {
        for leaf in leaves {
            guard leaf.rank < rank else { return }
            guard !entries[leaf.entry].isRemoved, entries[leaf.entry].registration != registration else { continue }
            guard let current = best else {
                best = Covering(leaf: leaf, sameShape: sameShape)
                return
            }
            // A same-shape route (a duplicate) is the more useful report; otherwise the earliest tried.
            if (sameShape && !current.sameShape) || (sameShape == current.sameShape && leaf.rank < current.leaf.rank) {
                best = Covering(leaf: leaf, sameShape: sameShape)
            }
            return
        }
    }
}
