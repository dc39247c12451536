import Foundation
import LinkDoctor
import UniversalLinkKit
import UniversalLinkKitTesting

/// Fixtures shared by the doctor's tests.
enum Fixtures {
    /// `Tests/LinkDoctorTests/Fixtures`: the email corpus and the named-reference table, read by path.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let app = "ABCDE12345.com.example.app"
    static let otherApp = "ZZZZZ99999.com.example.other"

    /// The Responsys file `linux-host aasa generate --responsys` writes: `/pub/acc` opens, `/pub/cc` does not.
    static let responsysAASA = #"""
        {"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app",
          "appIDs": ["ABCDE12345.com.example.app"],
          "components": [{"/": "/pub/cc", "exclude": true}, {"/": "/pub/acc"}],
          "paths": ["NOT /pub/cc", "/pub/acc"]}]}}
        """#

    /// A file that opens everything on the domain for the app, unsubscribe links included.
    static let openEverythingAASA = #"""
        {"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}]}]}}
        """#

    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    static func assetLinks(package: String = "com.example.app", fingerprint: String = Fixtures.fingerprint) -> String {
        #"""
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "\#(package)",
                     "sha256_cert_fingerprints": ["\#(fingerprint)"]}}]
        """#
    }
}

extension LinkDoctor.Configuration {
    /// A configuration whose Apple CDN is a stand-in at `appleCDNBaseURL`.
    init(timeout: Duration, policy: ResolutionPolicy = .init(), appleCDNBaseURL: URL, checksTLS: Bool = true) {
        self.init(timeout: timeout, policy: policy, checksTLS: checksTLS)
        self.appleCDNBaseURL = appleCDNBaseURL
    }
}

/// A domain and Apple's CDN as two loopback stubs, and a doctor allowed to reach them over http.
final class StandIns: Sendable {
    let origin: ResponseHandlerStub
    let cdn: ResponseHandlerStub
    let files: AssociationFileServer
    let cdnFiles: AssociationFileServer

    /// `127.0.0.1:PORT` of the origin.
    var domain: String { "127.0.0.1:\(origin.port)" }

    /// A clean domain: the Responsys file at the well-known location, the same copy on the CDN, and the
    /// Android file.
    init(clean: Bool = true) throws {
        origin = try ResponseHandlerStub()
        cdn = try ResponseHandlerStub()
        files = AssociationFileServer(on: origin)
        cdnFiles = AssociationFileServer(on: cdn)
        if clean {
            files.serve(Fixtures.responsysAASA, at: AssociationFileServer.wellKnownPath)
            cdnFiles.serve(Fixtures.responsysAASA, at: AssociationFileServer.cdnPath(for: domain))
            files.serve(Fixtures.assetLinks(), at: AssociationFileServer.assetLinksPath)
        }
    }

    deinit {
        origin.shutdown()
        cdn.shutdown()
    }

    /// A clock whose time never moves: no fetch deadline (the doctor's timeout, Android's 5 s verifier wait, a
    /// campaign's budget) ever fires, so only the stand-ins' answers end a fetch. Time is not what these tests are
    /// about, and a full parallel run under a sanitizer can hold a loopback answer for longer than 5 s. A test about
    /// a deadline gives the doctor a clock of its own.
    static let frozen: ClosureClock = {
        let start = ContinuousClock.now
        return ClosureClock(now: { start }, sleep: { _ in
            while true { try await Task.sleep(for: .seconds(3600)) }
        })
    }()

    func doctor(timeout: Duration = .seconds(30), clock: ClosureClock = StandIns.frozen) -> LinkDoctor {
        LinkDoctor(
            configuration: .init(
                timeout: timeout, policy: ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true),
                appleCDNBaseURL: cdn.baseURL),
            clock: clock)
    }

    func check(
        apps: [String] = [Fixtures.app], responsys: Bool = true, android: Bool = false, fingerprints: [String] = []
    ) -> DomainCheck {
        DomainCheck(
            domain: domain, appIDs: apps, expectsResponsysPaths: responsys,
            androidPackage: android ? "com.example.app" : nil, fingerprints: fingerprints)
    }

    func url(_ path: String) -> String { origin.url(path).absoluteString }
    func cdnURL() -> String { cdn.url(AssociationFileServer.cdnPath(for: domain)).absoluteString }
}

extension Array where Element == Finding {
    var codes: [String] { map(\.code.rawValue) }

    func first(_ code: Finding.Code) -> Finding? { first { $0.code == code } }
}

/// A clock made of two closures, for the tests that decide when time is up.
struct ClosureClock: Clock {
    typealias Instant = ContinuousClock.Instant

    private let nowBody: @Sendable () -> Instant
    private let sleepBody: @Sendable (Instant) async throws -> Void

    init(now: @escaping @Sendable () -> Instant, sleep: @escaping @Sendable (Instant) async throws -> Void) {
        nowBody = now
        sleepBody = sleep
    }

    var now: Instant { nowBody() }
    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await sleepBody(deadline)
    }
}
