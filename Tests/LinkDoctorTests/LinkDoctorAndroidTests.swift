import AssociatedDomains
import Foundation
@testable import LinkDoctor
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting

/// Android's verifier rules (`StatementService`) in `doctor domain`, and Android's answer in `doctor campaign`.
struct LinkDoctorAndroidTests {
    static func statement(_ extensions: String = "", package: String = "com.example.app") -> String {
        #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "\#(package)", "sha256_cert_fingerprints": ["\#(Fixtures.fingerprint)"]}\#(extensions)}"#
    }

    @Test func dynamicRulesAndroidWouldDropAreAnError() async throws {
        let standIns = try StandIns()
        let dropped = #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/pub/acc"}, {"?": {"a": 1}}]}}"#
        standIns.files.serve("[\(Self.statement(dropped))]", at: AssociationFileServer.assetLinksPath)
        let findings = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(findings.codes == ["assetlinks.dynamicRulesDropped"])
        #expect(findings.first?.message.contains(#"dynamic_app_link_components[1]."?"."a": expected a string, found a number (1)"#) == true)

        let fine = #", "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [{"/": "/pub/acc"}]}}"#
        standIns.files.serve("[\(Self.statement(fine))]", at: AssociationFileServer.assetLinksPath)
        #expect(await standIns.doctor().checkDomain(standIns.check(android: true)).isEmpty)
    }

    @Test func anIncludeIsFollowedOneLevel() async throws {
        let standIns = try StandIns()
        let included = "/shared/assetlinks.json"
        standIns.files.serve(#"[{"include": "\#(standIns.url(included))"}]"#, at: AssociationFileServer.assetLinksPath)
        standIns.files.serve("[\(Self.statement())]", at: included)
        #expect(await standIns.doctor().checkDomain(standIns.check(android: true, fingerprints: [Fixtures.fingerprint])).isEmpty)

        // Two levels: the statement behind the second include does not count.
        let deeper = "/deeper/assetlinks.json"
        standIns.files.serve(#"[{"include": "\#(standIns.url(deeper))"}]"#, at: included)
        standIns.files.serve("[\(Self.statement())]", at: deeper)
        let nested = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(nested.codes == ["assetlinks.include", "assetlinks.packageMissing"])
        #expect(nested.first?.message.contains("Android follows includes one level only") == true)

        standIns.files.serve("gone", at: included, status: 404, contentType: "text/plain")
        let missing = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(missing.codes == ["assetlinks.include", "assetlinks.packageMissing"])
        #expect(missing.first?.message.contains("answers 404") == true)
    }

    @Test func aDeclaredLengthOverOneMebibyteIsRefused() {
        let doctor = LinkDoctor()
        let big = TransportResponse(statusCode: 200, headerFields: ["Content-Length": "1048577"], body: Data("[]".utf8))
        #expect(doctor.androidVerifierFindings(big, package: "p.q", subject: "s").map(\.code) == [.assetlinksDeclaredTooLarge])
        let fine = TransportResponse(statusCode: 200, headerFields: ["Content-Length": "1048576"], body: Data("[]".utf8))
        #expect(doctor.androidVerifierFindings(fine, package: "p.q", subject: "s").isEmpty)
    }
}
