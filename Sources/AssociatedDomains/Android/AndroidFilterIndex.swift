/// The intent filters of one manifest, indexed for the question ``AndroidLinkMatcher`` asks of every URL: which
/// filters take it?
///
/// A filter can only take a URL whose host it lists (or any host, when it lists none), so the hosts are looked up
/// (``AffixIndex``: exact hosts, and the suffixes of `*.` hosts), and of those filters only the ones whose `path`,
/// `pathPrefix` or `pathSuffix` values the path has (looked up the same way) or whose glob patterns match it (tried
/// one by one) take it. A URL then costs its length plus the filters that list its host, not every host and path of
/// the manifest: a filter of 40 000 hosts answers as quickly as a filter of one.
struct AndroidFilterIndex: Sendable {
    /// One `android:host` of a filter, with the `android:port` of its `<data>`.
    struct Host: Sendable {
        var filter: Int
        var port: Int?
    }

    /// The filters that declare `VIEW`, `BROWSABLE` and `DEFAULT`, in manifest order.
    let tapped: [Int]
    /// Of those, the ones that list no host (they take every host).
    let tappedWithoutHosts: [Int]
    /// Per filter: ``AndroidIntentFilter/takesTappedLinks``.
    let isTapped: [Bool]
    /// Per filter: ``AndroidIntentFilter/isAppLinkFilter``.
    let isAppLink: [Bool]
    /// Per filter: it takes tapped links and lists `http` or `https` (what Android 11 and earlier verify, all or
    /// nothing, once one filter asks).
    let isTappedWeb: [Bool]
    /// Some filter is an App Link filter.
    let hasAppLinkFilter: Bool
    private let exactHosts: AffixIndex<Host>
    private let wildcardHosts: AffixIndex<Host>
    private let literalPaths: AffixIndex<Int>
    private let prefixPaths: AffixIndex<Int>
    private let suffixPaths: AffixIndex<Int>
    /// Per filter, its `pathPattern` and `pathAdvancedPattern` values: no index holds those.
    private let globs: [[AndroidPattern]]

    init(_ manifest: AndroidManifest) {
        let filters = manifest.intentFilters
        let isTapped = filters.map(\.takesTappedLinks)
        let isAppLink = filters.map(\.isAppLinkFilter)
        let tapped = filters.indices.filter { isTapped[$0] }
        self.isTapped = isTapped
        self.isAppLink = isAppLink
        self.tapped = tapped
        isTappedWeb = filters.map { $0.takesTappedLinks && $0.schemes.contains { $0 == "http" || $0 == "https" } }
        hasAppLinkFilter = isAppLink.contains(true)
        tappedWithoutHosts = tapped.filter { filters[$0].authorities.isEmpty }
        var exact: [(units: [UInt16], payload: Host)] = []
        var wildcard: [(units: [UInt16], payload: Host)] = []
        var literal: [(units: [UInt16], payload: Int)] = []
        var prefix: [(units: [UInt16], payload: Int)] = []
        var suffix: [(units: [UInt16], payload: Int)] = []
        var globs: [[AndroidPattern]] = []
        for (f, filter) in filters.enumerated() {
            for authority in filter.authorities {
                let host = Host(filter: f, port: authority.port)
                if authority.isWildcard {
                    wildcard.append((AndroidFilterIndex.hostKey(String(authority.host.dropFirst())), host))
                } else {
                    exact.append((AndroidFilterIndex.hostKey(authority.host), host))
                }
            }
            var filterGlobs: [AndroidPattern] = []
            for pattern in filter.paths {
                switch pattern.kind {
                case .literal: literal.append((pattern.units, f))
                case .prefix: prefix.append((pattern.units, f))
                case .suffix: suffix.append((pattern.units, f))
                case .simpleGlob, .advancedGlob: filterGlobs.append(pattern)
                }
            }
            globs.append(filterGlobs)
        }
        exactHosts = AffixIndex(.exact, exact)
        wildcardHosts = AffixIndex(.suffix, wildcard)
        literalPaths = AffixIndex(.exact, literal)
        prefixPaths = AffixIndex(.prefix, prefix)
        suffixPaths = AffixIndex(.suffix, suffix)
        self.globs = globs
    }

    /// A host as filters compare it: lower-cased, as UTF-16 code units.
    static func hostKey(_ host: String) -> [UInt16] {
        Array(host.lowercased().utf16)
    }

    /// The filters with a host that matches `host` (a ``hostKey(_:)``) and takes `port` (any port when `nil`), in
    /// manifest order, each once.
    /// Adds to `steps` the entries looked at.
    func filters(host: [UInt16], port: Int?, steps: inout Int) -> [Int] {
        var found: [Int] = []
        var looked = 0
        func add(_ hosts: [Host]) {
            looked += hosts.count
            for entry in hosts where port == nil || entry.port == nil || entry.port == port { found.append(entry.filter) }
        }
        exactHosts.forEachMatch(host, add)
        // A wildcard's rest must end the host, or be all of it: `*.example.com` takes `a.example.com` but not
        // `example.com`, which `*example.com` takes.
        wildcardHosts.forEachMatch(host, add)
        steps += looked
        return Self.sortedDistinct(found)
    }

    /// The filters whose `android:path`, `pathPrefix` or `pathSuffix` values take `path`, as a set.
    func filtersWithAffixTaking(_ path: [UInt16]) -> Set<Int> {
        var found: Set<Int> = []
        for index in [literalPaths, prefixPaths, suffixPaths] {
            index.forEachMatch(path) { found.formUnion($0) }
        }
        return found
    }

    /// Whether a path attribute of filter `f` takes `path`, given ``filtersWithAffixTaking(_:)`` for it.
    func pathTakes(_ f: Int, _ path: [UInt16], affixes: Set<Int>) -> Bool {
        affixes.contains(f) || globs[f].contains { $0.matches(utf16: path) }
    }

    /// How many glob patterns filter `f` has: what trying its path costs beyond the lookups.
    func globCount(_ f: Int) -> Int { globs[f].count }

    /// The elements of `values` in increasing order, each once.
    static func sortedDistinct(_ values: [Int]) -> [Int] {
        guard values.count > 1 else { return values }
        var sorted = values.sorted()
        var kept = 1
        for i in 1..<sorted.count where sorted[i] != sorted[kept - 1] {
            sorted[kept] = sorted[i]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }
}
