/// An `apple-app-site-association` file as iOS reads it: the `applinks` section that decides which URLs open which
/// app, and the `webcredentials`, `appclips` and `activitycontinuation` sections (read, not matched), with every
/// finding about it.
///
/// Read a file once, keep the diagnostics, and build an ``AppLinkMatcher`` to answer many URLs. To write a file,
/// describe its rules with ``AppLinkRuleSet``.
///
/// ```swift
/// let file = try AppSiteAssociation(parsing: bytes)
/// for d in file.diagnostics { log(d.description) }
/// let matcher = AppLinkMatcher(file)
/// matcher.match("https://news.example.com/pub/acc?_ri_=1", appID: "ABCDE12345.com.example.app").outcome // .match
/// ```
public struct AppSiteAssociation: Sendable, Hashable {
    /// The `applinks` section, if present.
    package var applinks: AppLinks?
    /// The `webcredentials` section (`{"apps": [...]}`), if present.
    package var webcredentials: AppIDList?
    /// The `appclips` section (`{"apps": [...]}`), if present.
    package var appclips: AppIDList?
    /// The `activitycontinuation` section (`{"apps": [...]}`), if present.
    package var activitycontinuation: AppIDList?
    /// Findings from reading the file: errors first, then warnings.
    public var diagnostics: [AssociationDiagnostic]

    /// Creates a file from its sections.
    /// - Parameters:
    ///   - applinks: The `applinks` section.
    ///   - webcredentials: The `webcredentials` section.
    ///   - appclips: The `appclips` section.
    ///   - activitycontinuation: The `activitycontinuation` section.
    ///   - diagnostics: Findings to carry along; empty for a file built in code.
    package init(
        applinks: AppLinks? = nil,
        webcredentials: AppIDList? = nil,
        appclips: AppIDList? = nil,
        activitycontinuation: AppIDList? = nil,
        diagnostics: [AssociationDiagnostic] = []
    ) {
        self.applinks = applinks
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.activitycontinuation = activitycontinuation
        self.diagnostics = diagnostics
    }

    /// Limits applied while reading a file: the defaults are Apple's and what bounds a hostile file; tests lower them.
    package struct Configuration: Sendable, Hashable {
        /// Files larger than this are refused outright (``AssociationError/Code-swift.struct/unreadableFile``),
        /// so a hostile or runaway input cannot exhaust memory. Default 8 MiB.
        package var maximumReadSize: Int
        /// Apple's CDN refuses files over this size; larger files get an error diagnostic but are still read.
        /// Default 128 KB (131 072 bytes).
        package var appleSizeLimit: Int
        /// JSON nesting deeper than this is refused as not readable. Default 64 (real files need about 6).
        package var maximumDepth: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - maximumReadSize: Hard size limit in bytes.
        ///   - appleSizeLimit: Apple's size limit in bytes, reported as an error.
        ///   - maximumDepth: JSON nesting limit.
        package init(maximumReadSize: Int = 8 << 20, appleSizeLimit: Int = 128 * 1024, maximumDepth: Int = 64) {
            self.maximumReadSize = maximumReadSize
            self.appleSizeLimit = appleSizeLimit
            self.maximumDepth = maximumDepth
        }
    }
}

/// A section holding only a list of app IDs: `webcredentials`, `appclips`, `activitycontinuation`.
package struct AppIDList: Sendable, Hashable {
    /// The app IDs, `TEAMID.bundle.identifier`.
    package var apps: [String]

    /// Creates a list.
    /// - Parameter apps: The app IDs.
    package init(apps: [String]) {
        self.apps = apps
    }
}
