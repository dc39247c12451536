import Foundation
import Synchronization
internal import _LinkKitLocking

/// A JLRoutes 2.1-compatible URL router, safe to share between threads, matching through an index.
///
/// Routes live in namespaces: the global one and one per URL scheme. A URL is routed in its scheme's namespace when
/// that exists (which then hides the global routes unless it falls back to them), else in the global one. Candidates
/// are tried in priority order, then registration order; a handler returning `false` passes the URL on.
///
/// ```swift
/// let router = LinkRouter()
/// router.addRoute("/user/view/:userID") { parameters in
///     print(parameters["userID"] ?? "")
///     return true
/// }
/// router.addRoute("https://www.example.com/invites/:code", group: "invites") { _ in true }
/// router.route("myapp://user/view/joeldev")                  // true
/// router.setGroup("invites", enabled: false)                 // invitation links fall through from here on
/// ```
///
/// URLs are given as text and split as written: Foundation's `URL(string:)` re-encodes every `%` of a string with
/// one malformed escape, while the router splits the bytes given, so `%zz` stays literal and the valid escapes next
/// to it still decode. ``route(_:parameters:)-(URL,_)`` also takes a `URL` you hold (a resolved link's destination);
/// for the other questions, pass its `absoluteString`.
///
/// Adding routes and routing may happen concurrently from any thread. Handlers run on the caller's thread, never
/// while the router's lock is held: a handler may add routes or route another URL. A routing pass works on the
/// routes as they were when it started (JLRoutes iterates a copy of its list too).
public final class LinkRouter: Sendable {
    /// A route handler: gets the parameters, returns whether it handled the URL (`false` passes it on).
    public typealias Handler = @Sendable (RouteParameters) -> Bool

    /// Called when no route of a namespace accepted a URL, with the URL and the caller's parameters.
    typealias UnmatchedHandler = @Sendable (URL, [String: String]) -> Void

    private let state: Mutex<RouterState>

    /// Creates an empty router.
    ///
    /// - Parameter options: JLRoutes' global options, for this router only.
    public init(options: Options = .init()) {
        state = Mutex(RouterState(options: options))
    }

    /// Creates an empty router with another optional-group expansion budget than
    /// ``OptionalGroupExpander/maximumTableExpansions`` (tests reach it without registering 100 000 routes).
    init(options: Options = .init(), maximumExpansions: Int) {
        state = Mutex(RouterState(options: options, maximumExpansions: maximumExpansions))
    }

    /// Creates an empty router whose namespaces hold at most `indexLimit` index nodes, edges and literal bytes
    /// instead of ``SegmentIndex/maximumCount`` (tests reach the limit without 2^31 segments).
    init(options: Options = .init(), indexLimit: Int) {
        state = Mutex(RouterState(options: options, indexLimit: indexLimit))
    }

    /// The options; changing them affects URLs routed afterwards (JLRoutes' tests switch them between two URLs).
    package var options: Options {
        get { state.withTrackedLock { $0.options } }
        set { state.withTrackedLock { $0.options = newValue } }
    }

    // MARK: - Registering

    /// Adds a route.
    ///
    /// The pattern is JLRoutes': `/user/view/:userID`, `/files/*`, `/path/:thing(/new)(/other/:id)` (expanded into
    /// one route per combination, longest first). A pattern starting with `scheme://host` is host-aware: it only
    /// matches URLs with that scheme and host (`*.example.com` for any subdomain), and its path is matched without
    /// the host whatever the dot heuristic says.
    ///
    /// - Parameters:
    ///   - pattern: the route pattern.
    ///   - namespace: `.global` (default) or `.scheme("myapp")`; the namespace is created when missing.
    ///   - priority: higher priorities are tried first; equal priorities in registration order.
    ///   - group: a group name, to switch the route off and on with ``setGroup(_:enabled:)``.
    ///   - name: a name for ``url(forRoute:parameters:scheme:)`` and ``MatchedRoute/name``; a later route given the
    ///     same name takes it over (with a `duplicateName` warning).
    ///   - handler: called with the parameters; returns `false` to pass the URL on to the next route.
    /// - Returns: the warnings about this route (also kept in ``diagnostics``).
    @discardableResult
    public func addRoute(
        _ pattern: String, namespace: RouteNamespace = .global, priority: Int = 0, group: String? = nil,
        name: String? = nil, handler: @escaping Handler
    ) -> [RouteDiagnostic] {
        state.withTrackedLock {
            $0.add(pattern, namespace: namespace, priority: priority, group: group, name: name, handler: handler)
        }
    }

    /// Creates the namespace of `scheme` if needed and sets whether it falls back to the global routes.
    ///
    /// An existing namespace, even an empty one, hides the global routes from URLs with its scheme, unless it falls
    /// back (JLRoutes' `shouldFallbackToGlobalRoutes`).
    ///
    /// - Parameters:
    ///   - scheme: the URL scheme, compared case-sensitively.
    ///   - fallsBackToGlobalRoutes: whether unmatched URLs are tried against the global routes.
    public func addNamespace(_ scheme: String, fallsBackToGlobalRoutes: Bool = false) {
        state.withTrackedLock { $0.modify(.scheme(scheme)) { $0.fallsBackToGlobalRoutes = fallsBackToGlobalRoutes } }
    }

    /// Removes the namespace of `scheme` and its routes (JLRoutes' `unregisterRouteScheme:`).
    package func removeNamespace(_ scheme: String) {
        state.withTrackedLock { state in
            guard let removed = state.schemes.removeValue(forKey: scheme) else { return }
            for number in removed.entries { state.entries[number].isRemoved = true }
        }
    }

    /// Removes the first route (in trial order) whose pattern is `pattern`, as JLRoutes' `removeRoute:` does
    /// (a missing leading `/` is added). For an optional-group route, pass one of its expansions.
    ///
    /// - Parameters:
    ///   - pattern: the pattern as registered (or reported under `JLRoutePattern`).
    ///   - namespace: where to look.
    /// - Returns: whether a route was removed.
    @discardableResult
    public func removeRoute(_ pattern: String, namespace: RouteNamespace = .global) -> Bool {
        let wanted = Set([pattern, pattern.hasPrefix("/") ? pattern : "/" + pattern])
        return state.withTrackedLock { state in
            guard let space = state[namespace] else { return false }
            let found = space.entries
                .filter { !state.entries[$0].isRemoved && wanted.contains(state.entries[$0].compiled.pattern) }
                .min { state.entries[$0].rank < state.entries[$1].rank }
            guard let found else { return false }
            state.entries[found].isRemoved = true
            let location = state.entries[found].location
            state.modify(namespace) { $0.index.remove(entry: found, at: location) }
            return true
        }
    }

    /// Removes every route of a namespace; the namespace itself stays.
    ///
    /// - Parameter namespace: the namespace to empty.
    public func removeAllRoutes(namespace: RouteNamespace = .global) {
        state.withTrackedLock { state in
            guard let space = state[namespace] else { return }
            for number in space.entries { state.entries[number].isRemoved = true }
            state.modify(namespace) { $0.index = SegmentIndex(); $0.entries = [] }
        }
    }

    /// Sets the handler called when nothing in `namespace` accepts a URL (not called by ``canRoute(_:)``).
    ///
    /// As in JLRoutes, when a scheme namespace falls back to the global routes and those do not accept the URL
    /// either, the global handler is called first, then the scheme's.
    ///
    /// - Parameters:
    ///   - handler: the handler, or `nil` to remove it.
    ///   - namespace: the namespace (created when missing).
    public func setUnmatchedURLHandler(
        _ handler: (@Sendable (URL, [String: String]) -> Void)?, namespace: RouteNamespace = .global
    ) {
        state.withTrackedLock { $0.modify(namespace) { $0.unmatchedHandler = handler } }
    }

    /// Switches the routes of a group off or on; a disabled route behaves as if it were absent. Groups are enabled
    /// until disabled.
    ///
    /// - Parameters:
    ///   - name: the group name given to ``addRoute(_:namespace:priority:group:name:handler:)``.
    ///   - enabled: `false` to disable.
    public func setGroup(_ name: String, enabled: Bool) {
        state.withTrackedLock { state in
            if enabled { state.disabledGroups.remove(name) } else { state.disabledGroups.insert(name) }
        }
    }

    /// The warnings produced so far: by route registration, and for a router made from a ``RouteTable``, by reading
    /// the table (keys that repeat).
    public var diagnostics: [RouteDiagnostic] {
        state.withTrackedLock { $0.diagnostics }
    }

    // MARK: - Routing

    /// Routes a URL: calls the handlers of matching routes in order until one returns `true`.
    ///
    /// When none does, the namespace falls back to the global routes if it is set to, then the unmatched-URL
    /// handlers run. The text is split as written; ``RouteKey/url`` is `urlString` itself.
    ///
    /// - Parameters:
    ///   - urlString: the URL as text.
    ///   - parameters: extra parameters; they override query items and route variables, not the `JLRoute*` keys.
    /// - Returns: whether a handler accepted the URL; `false` without calling anything when it is not a URL at all.
    @discardableResult
    public func route(_ urlString: String, parameters: [String: String] = [:]) -> Bool {
        // Skips `URL(string:)`, which costs more than the rest of a lookup, for text that certainly parses.
        if RouteURLText.certainlyParses(urlString) { return route(text: urlString, url: nil, parameters: parameters) }
        guard let url = URL(string: urlString) else { return false }
        return route(text: urlString, url: url, parameters: parameters)
    }

    /// Whether some route matches the URL; never calls a handler (so a handler that would decline still counts).
    ///
    /// - Parameter urlString: the URL as text.
    /// - Returns: `false` when it is not a URL or nothing matches.
    public func canRoute(_ urlString: String) -> Bool {
        guard RouteURLText.certainlyParses(urlString) || URL(string: urlString) != nil else { return false }
        return matchingRoute(text: urlString, url: nil) != nil
    }

    /// The route JLRoutes' ranking tries first for the URL, with the parameters its handler would get; no handler is
    /// called. ``explain(_:)``'s ``RouteExplanation/match``, without looking for near misses.
    ///
    /// - Parameter urlString: the URL as text.
    /// - Returns: the matched route, or `nil` when it is not a URL or no route matches.
    package func match(_ urlString: String) -> MatchedRoute? {
        if RouteURLText.certainlyParses(urlString) { return match(text: urlString, url: nil) }
        guard let url = URL(string: urlString) else { return nil }
        return match(text: urlString, url: url)
    }

    /// Routes a `URL` you hold (a resolved link's destination, an activity's web page URL) as
    /// ``route(_:parameters:)-(String,_)`` routes its absolute string.
    ///
    /// - Parameters:
    ///   - url: the URL.
    ///   - parameters: extra parameters, as for a URL given as text.
    /// - Returns: whether a handler accepted the URL.
    @discardableResult
    public func route(_ url: URL, parameters: [String: String] = [:]) -> Bool {
        route(text: url.absoluteString, url: url, parameters: parameters)
    }

    // MARK: - The same for a `URL`, and the accepting route (the manager's)

    /// Whether some route matches a `URL`, as ``canRoute(_:)``.
    package func canRoute(_ url: URL) -> Bool {
        matchingRoute(text: url.absoluteString, url: url) != nil
    }

    /// The first matching route of a `URL`, as ``match(_:)``.
    package func match(_ url: URL) -> MatchedRoute? {
        match(text: url.absoluteString, url: url)
    }

    /// Routes a URL exactly as ``route(_:parameters:)-(String,_)`` does (handlers, fallback, unmatched handlers) and returns
    /// the route whose handler accepted it, with the parameters as the handler saw them; `nil` when none did.
    @discardableResult
    package func routeReturningMatch(_ url: URL, parameters: [String: String] = [:]) -> MatchedRoute? {
        route(text: url.absoluteString, url: url, parameters: parameters, accepted: Self.matchedRoute)
    }

    /// ``routeReturningMatch(_:parameters:)-(URL,_)`` for text, split as written; `nil` also when it is not a URL.
    @discardableResult
    package func routeReturningMatch(_ urlString: String, parameters: [String: String] = [:]) -> MatchedRoute? {
        if RouteURLText.certainlyParses(urlString) {
            return route(text: urlString, url: nil, parameters: parameters, accepted: Self.matchedRoute)
        }
        guard let url = URL(string: urlString) else { return nil }
        return route(text: urlString, url: url, parameters: parameters, accepted: Self.matchedRoute)
    }

    /// Whether a group is enabled.
    package func isGroupEnabled(_ name: String) -> Bool {
        state.withTrackedLock { !$0.disabledGroups.contains(name) }
    }

    /// The namespaces that exist, global first, then schemes sorted.
    package var namespaces: [RouteNamespace] {
        state.withTrackedLock { [.global] + $0.schemes.keys.sorted().map(RouteNamespace.scheme) }
    }

    /// The registered routes of a namespace in the order they are tried (optional groups expanded), disabled
    /// groups included.
    package func routes(in namespace: RouteNamespace = .global) -> [RegisteredRoute] {
        state.withTrackedLock { state in
            guard let space = state[namespace] else { return [] }
            return space.entries.map { state.entries[$0] }
                .filter { !$0.isRemoved }
                .sorted { $0.rank < $1.rank }
                .map {
                    RegisteredRoute(
                        pattern: $0.compiled.pattern, declaredPattern: $0.declaredPattern, namespace: $0.namespace,
                        priority: $0.rank.priority, group: $0.group)
                }
        }
    }

    /// Adds `diagnostics` to the router's, for a router made from a table (its reading's findings come first).
    func report(_ diagnostics: [RouteDiagnostic]) {
        state.withTrackedLock { $0.diagnostics += diagnostics }
    }

    private func route(text: String, url: URL?, parameters: [String: String]) -> Bool {
        route(text: text, url: url, parameters: parameters) { _, _, _ in () } != nil
    }

    /// Routes as ``route(_:parameters:)-(String,_)`` does and hands the accepting route to `accepted`, whose result it returns;
    /// `nil` when no handler accepted the URL. Only an accepted URL pays for `accepted`.
    private func route<Result>(
        text: String, url: URL?, parameters: [String: String],
        accepted: (RouterState, Int, RouteMatch) -> Result
    ) -> Result? {
        let snapshot = state.withTrackedLock { $0 }
        let request = RouteRequest(
            text: text, url: url, alwaysTreatsHostAsPathComponent: snapshot.options.alwaysTreatsHostAsPathComponent,
            splitsHostlessPath: snapshot.hasHostAwareRoutes)
        let selected = snapshot.selectedNamespace(for: request)
        if let (number, match) = Self.attempt(selected, request: request, state: snapshot, parameters: parameters) {
            return accepted(snapshot, number, match)
        }
        if selected != .global, snapshot[selected]?.fallsBackToGlobalRoutes == true {
            if let (number, match) = Self.attempt(.global, request: request, state: snapshot, parameters: parameters) {
                return accepted(snapshot, number, match)
            }
            if let handler = snapshot.global.unmatchedHandler, let url = request.makeURL() { handler(url, parameters) }
        }
        if let handler = snapshot[selected]?.unmatchedHandler, let url = request.makeURL() { handler(url, parameters) }
        return nil
    }

    private static func matchedRoute(_ state: RouterState, _ number: Int, _ match: RouteMatch) -> MatchedRoute {
        MatchedRoute(
            entry: state.entries[number], name: state.name(ofEntry: number), match: match,
            namespace: state.entries[number].namespace)
    }

    func match(text: String, url: URL?) -> MatchedRoute? {
        let snapshot = state.withTrackedLock { $0 }
        guard let (number, request) = Self.firstMatch(text: text, url: url, state: snapshot) else { return nil }
        let entry = snapshot.entries[number]
        let match = RouteMatch(
            request: request, pattern: entry.compiled, namespaceName: entry.namespace.name, parameters: [:],
            decodePlusSymbols: snapshot.options.decodePlusSymbols)
        return MatchedRoute(entry: entry, name: snapshot.name(ofEntry: number), match: match, namespace: entry.namespace)
    }

    // MARK: - Internals

    /// The first active matching route's pattern and namespace, as `canRoute` sees it.
    func matchingRoute(text: String, url: URL?) -> (pattern: String, namespace: RouteNamespace)? {
        let snapshot = state.withTrackedLock { $0 }
        guard let (number, _) = Self.firstMatch(text: text, url: url, state: snapshot) else { return nil }
        return (snapshot.entries[number].compiled.pattern, snapshot.entries[number].namespace)
    }

    /// A copy of the state, for ``explain(_:)``.
    func snapshot() -> RouterState {
        state.withTrackedLock { $0 }
    }

    /// The entry number of the first active route matching the text, in the selected namespace then the global one
    /// when it falls back, with the request it was matched on.
    private static func firstMatch(text: String, url: URL?, state: RouterState) -> (Int, RouteRequest)? {
        let request = RouteRequest(
            text: text, url: url, alwaysTreatsHostAsPathComponent: state.options.alwaysTreatsHostAsPathComponent,
            splitsHostlessPath: state.hasHostAwareRoutes)
        let selected = state.selectedNamespace(for: request)
        if let found = firstMatch(selected, request: request, state: state) { return (found, request) }
        if selected != .global, state[selected]?.fallsBackToGlobalRoutes == true,
           let found = firstMatch(.global, request: request, state: state) {
            return (found, request)
        }
        return nil
    }

    private static func firstMatch(_ namespace: RouteNamespace, request: RouteRequest, state: RouterState) -> Int? {
        switch namespace {
        case .global:
            return firstMatch(in: state.global.index, request: request, state: state)
        case .scheme(let scheme):
            guard let index = state.schemes[scheme]?.index else { return nil }
            return firstMatch(in: index, request: request, state: state)
        }
    }

    private static func firstMatch(in index: SegmentIndex, request: RouteRequest, state: RouterState) -> Int? {
        var search = CandidateSearch(index: index, request: request)
        while let number = search.next(in: index, for: request) {
            guard state.isActive(number) else { continue }
            assert(state.entries[number].compiled.matches(request), "the index yielded a route that does not match")
            return number
        }
        return nil
    }

    /// The entry number and match of the first route of `namespace` whose handler accepts the request.
    private static func attempt(
        _ namespace: RouteNamespace, request: RouteRequest, state: RouterState, parameters: [String: String]
    ) -> (Int, RouteMatch)? {
        // The global index is passed as a borrow of the snapshot: copying the namespace would retain its arrays.
        switch namespace {
        case .global:
            return attempt(namespace, in: state.global.index, request: request, state: state, parameters: parameters)
        case .scheme(let scheme):
            guard let index = state.schemes[scheme]?.index else { return nil }
            return attempt(namespace, in: index, request: request, state: state, parameters: parameters)
        }
    }

    private static func attempt(
        _ namespace: RouteNamespace, in index: SegmentIndex, request: RouteRequest, state: RouterState, parameters: [String: String]
    ) -> (Int, RouteMatch)? {
        let decodePlus = state.options.decodePlusSymbols
        var search = CandidateSearch(index: index, request: request)
        while let number = search.next(in: index, for: request) {
            // Fields read one by one: copying the whole entry retains all of its strings and arrays.
            guard state.isActive(number) else { continue }
            // The index only yields routes whose components match; the reference matcher checks it in debug builds
            // (and so in every test run).
            assert(state.entries[number].compiled.matches(request), "the index yielded a route that does not match")
            // The parameters read the request on demand: the JLRoutes dictionary is built only if a handler asks.
            let match = RouteMatch(
                request: request, pattern: state.entries[number].compiled, namespaceName: namespace.name,
                parameters: parameters, decodePlusSymbols: decodePlus)
            if state.entries[number].handler(RouteParameters(match: match)) { return (number, match) }
        }
        return nil
    }
}
