/// Expands `( )` optional groups the way JLRoutes 2.1's `JLRParsingUtilities` does.
///
/// `/path/:thing(/new)(/another/:other)` becomes every ordered combination of the optional subpaths that keeps all
/// required ones, each joined under `/`, sorted longest string first (ties keep generation order):
/// `/path/:thing/new/another/:other`, `/path/:thing/another/:other`, `/path/:thing/new`, `/path/:thing`.
enum OptionalGroupExpander {
    private struct Subpath: Hashable {
        var components: [Substring]
        var isOptional: Bool
    }

    /// The most subpaths (required parts and optional groups) a pattern may have to be expanded.
    ///
    /// JLRoutes builds every subset of the subpaths before keeping those with all required parts: 2^n lists. At 40
    /// groups that never finishes and exhausts memory while the route is being added; 10 is at most 1 024 lists.
    static let maximumSubpaths = 10

    /// The most optional-group expansions one router or route table holds, all patterns together.
    ///
    /// ``maximumSubpaths`` bounds one pattern at 1 024 expansions, but that multiplies across a table: 16 000
    /// routes of 512 expansions each (a 924 KB table) would be 8 million routes. Past this budget a pattern is
    /// used as written (a router) or the table is refused (``RouteTable/init(json:)``).
    static let maximumTableExpansions = 100_000

    /// How many routes ``expand(_:)`` makes of `pattern` (1 without optional groups or when it is used as
    /// written), counted without expanding: every combination of the optional subpaths, times, for each required
    /// subpath written m times, the 2^m - 1 combinations that keep at least one copy (JLRoutes keeps a combination
    /// when it holds every required subpath, compared by value).
    static func expansionCount(_ pattern: String) -> Int {
        guard pattern.utf8.contains(UInt8(ascii: "(")) else { return 1 }
        let subpaths = subpaths(of: pattern)
        guard !subpaths.isEmpty, subpaths.count <= maximumSubpaths else { return 1 }
        var copies: [Subpath: Int] = [:]
        var count = 1
        for subpath in subpaths {
            if subpath.isOptional { count *= 2 } else { copies[subpath, default: 0] += 1 }
        }
        for (_, m) in copies { count *= (1 << m) - 1 }
        return count
    }

    /// Whether `pattern` has more subpaths than ``maximumSubpaths``, and so is not expanded.
    static func hasTooManySubpaths(_ pattern: String) -> Bool {
        pattern.utf8.contains(UInt8(ascii: "(")) && subpaths(of: pattern).count > maximumSubpaths
    }

    /// The expansions of `pattern`, or `[]` when it has no `(`, nothing to expand, or more than
    /// ``maximumSubpaths`` subpaths (then it is used as written).
    static func expand(_ pattern: String) -> [String] {
        let hasGroup = pattern.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "(")) }
            ?? pattern.utf8.contains(UInt8(ascii: "("))
        guard hasGroup else { return [] }
        let subpaths = subpaths(of: pattern)
        guard !subpaths.isEmpty, subpaths.count <= maximumSubpaths else { return [] }
        let required = Set(subpaths.filter { !$0.isOptional })

        var combinations: [[Subpath]] = [[]]
        for subpath in subpaths {
            combinations += combinations.map { $0 + [subpath] }
        }
        let routes = combinations
            .filter { required.isSubset(of: Set($0)) }
            .map { combination -> String in
                var route: [UInt8] = [UInt8(ascii: "/")]
                for subpath in combination {
                    let joined = subpath.components.joined(separator: "/")
                    guard !joined.isEmpty else { continue }
                    route = RouteRequest.appendingPathComponent(route, Array(joined.utf8))
                }
                return String(decoding: route, as: UTF8.self)
            }
        // A stable sort on the UTF-16 length, as NSSortDescriptor(key: "length", ascending: false) sorts.
        return routes.enumerated()
            .sorted { lhs, rhs in
                let (left, right) = (lhs.element.utf16.count, rhs.element.utf16.count)
                return left != right ? left > right : lhs.offset < rhs.offset
            }
            .map(\.element)
    }

    /// Whether every `(` has its `)` and groups do not nest.
    static func isBalanced(_ pattern: String) -> Bool {
        pattern.utf8.withContiguousStorageIfAvailable(isBalanced) ?? isBalanced(Array(pattern.utf8))
    }

    private static func isBalanced<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var open = false
        for byte in bytes {
            if byte == UInt8(ascii: "(") { if open { return false }; open = true }
            if byte == UInt8(ascii: ")") { if !open { return false }; open = false }
        }
        return !open
    }

    private static func subpaths(of pattern: String) -> [Subpath] {
        var result: [Subpath] = []
        var rest = pattern[...]
        while !rest.isEmpty {
            let open = rest.firstIndex(of: "(") ?? rest.endIndex
            let before = rest[rest.startIndex..<open]
            rest = open == rest.endIndex ? rest[open...] : rest[rest.index(after: open)...]
            if !before.isEmpty, before != ")", before != "/" {
                result.append(Subpath(components: trimmedComponents(before), isOptional: false))
            }
            if rest.isEmpty { break }
            let close = rest.firstIndex(of: ")") ?? rest.endIndex
            let inside = rest[rest.startIndex..<close]
            rest = close == rest.endIndex ? rest[close...] : rest[rest.index(after: close)...]
            if !inside.isEmpty {
                result.append(Subpath(components: trimmedComponents(inside), isOptional: true))
            }
        }
        return result
    }

    /// Trims every leading and trailing `/`, then splits on `/`.
    private static func trimmedComponents(_ text: Substring) -> [Substring] {
        var trimmed = text
        while trimmed.first == "/" { trimmed = trimmed.dropFirst() }
        while trimmed.last == "/" { trimmed = trimmed.dropLast() }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }
}
