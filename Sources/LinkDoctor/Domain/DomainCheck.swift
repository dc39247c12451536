/// What ``LinkDoctor/checkDomain(_:)`` checks: a domain, the apps it should open, the URLs it should and should
/// not open, and optionally an Android app.
///
/// ```swift
/// var check = DomainCheck(domain: "news.example.com", appIDs: ["ABCDE12345.com.example.app"])
/// check.expectsResponsysPaths = true                       // /pub/acc opens the app, /pub/cc does not
/// check.androidPackage = "com.example.app"
/// check.fingerprints = ["14:6D:E9:...:A1"]
/// ```
public struct DomainCheck: Sendable, Hashable {
    /// The domain, as devices see it in links (`news.example.com`); it may carry a port (`127.0.0.1:8443`) for
    /// a local stand-in, which the policy must allow.
    public var domain: String
    /// The app IDs (`TEAMID.bundle.identifier`) the file must name.
    public var appIDs: [String]
    /// Absolute URLs that must open the app (each checked for every app ID).
    public var expectOpen: [String]
    /// Absolute URLs that must open the web (each checked for every app ID).
    public var expectWeb: [String]
    /// Adds the Responsys expectations: `https://DOMAIN/pub/acc` opens the app, `https://DOMAIN/pub/cc` does not.
    public var expectsResponsysPaths: Bool
    /// The Android application ID; when set, `/.well-known/assetlinks.json` is checked too.
    public var androidPackage: String?
    /// SHA-256 signing-certificate fingerprints that the package's statement must list (any case, colons
    /// optional).
    public var fingerprints: [String]

    /// Creates a domain check.
    ///
    /// - Parameters:
    ///   - domain: The domain, optionally with a port.
    ///   - appIDs: The app IDs the file must name.
    ///   - expectOpen: URLs that must open the app.
    ///   - expectWeb: URLs that must open the web.
    ///   - expectsResponsysPaths: Expect `/pub/acc` to open and `/pub/cc` not.
    ///   - androidPackage: The Android package, or `nil` to skip `assetlinks.json`.
    ///   - fingerprints: Fingerprints the package's statement must list.
    public init(
        domain: String, appIDs: [String], expectOpen: [String] = [], expectWeb: [String] = [],
        expectsResponsysPaths: Bool = false, androidPackage: String? = nil, fingerprints: [String] = []
    ) {
        self.domain = domain
        self.appIDs = appIDs
        self.expectOpen = expectOpen
        self.expectWeb = expectWeb
        self.expectsResponsysPaths = expectsResponsysPaths
        self.androidPackage = androidPackage
        self.fingerprints = fingerprints
    }
}
