/// The branded domains of a campaign, looked up in time independent of how many there are: exact hosts in a set,
/// `*.example.com` patterns as suffixes (usually a handful, given by hand).
///
/// An email with thousands of hosts infers thousands of branded domains; comparing every link with every one
/// cost links x hosts.
struct BrandedDomainSet {
    private let exact: Set<String>
    /// `(pattern, suffix)`: `("*.example.com", ".example.com")`.
    private let wildcards: [(pattern: String, suffix: String)]

    /// - Parameter patterns: Normalised hosts and `*.example.com` patterns.
    init(_ patterns: [String]) {
        exact = Set(patterns.filter { !$0.hasPrefix("*.") })
        wildcards = patterns.filter { $0.hasPrefix("*.") }.map { ($0, String($0.dropFirst())) }
    }

    /// The patterns a normalised host matches: itself when listed, and every wildcard it is a subdomain of (not
    /// `example.com` itself for `*.example.com`).
    func patterns(matching host: String) -> [String] {
        var matched = exact.contains(host) ? [host] : []
        for wildcard in wildcards where host.count > wildcard.suffix.count && host.hasSuffix(wildcard.suffix) {
            matched.append(wildcard.pattern)
        }
        return matched
    }
}
