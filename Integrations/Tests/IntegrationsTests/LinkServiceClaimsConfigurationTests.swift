import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import UniversalLinkKit
import UniversalLinkKitHummingbird
import UniversalLinkKitService
import UniversalLinkKitPostgres

/// link-service's claim store variables, and `readyz` when the store cannot be reached: no database needed.
struct LinkServiceClaimsConfigurationTests {
    static let base = ["ULK_BRANDED_DOMAINS": "news.example.com"]

    @Test func withoutPostgresClaimsStayInTheProcessAndTheWindowIsTwoSeconds() throws {
        let configuration = try LinkServiceConfiguration(environment: Self.base)
        #expect(configuration.postgresURL == nil)
        #expect(configuration.claimSecret == nil)
        #expect(configuration.claimsOnFailure == .resolveLocally)
        #expect(configuration.duplicateWindow == .seconds(2))
    }

    @Test func theClaimVariablesAreRead() throws {
        let configuration = try LinkServiceConfiguration(environment: Self.base.merging([
            "ULK_POSTGRES_URL": "postgres://links:pw@db.internal:6432/claims", "ULK_CLAIM_SECRET": "0123456789abcdef",
            "ULK_CLAIMS_ON_FAILURE": "reject", "ULK_DUPLICATE_WINDOW_SECONDS": "5.5",
        ]) { $1 })
        #expect(configuration.postgresURL?.redacted == "postgres://links:***@db.internal:6432/claims")
        #expect(configuration.claimSecret == Array("0123456789abcdef".utf8))
        #expect(configuration.claimsOnFailure == .reject)
        #expect(configuration.duplicateWindow == .milliseconds(5500))
    }

    @Test(arguments: [
        (["ULK_POSTGRES_URL": "postgres://links@db/claims"], "ULK_CLAIM_SECRET", "required with ULK_POSTGRES_URL"),
        (["ULK_POSTGRES_URL": "postgres://links@db/claims", "ULK_CLAIM_SECRET": "too-short"], "ULK_CLAIM_SECRET", "at least 16"),
        (["ULK_CLAIM_SECRET": "0123456789abcdef"], "ULK_CLAIM_SECRET", "without ULK_POSTGRES_URL"),
        (["ULK_POSTGRES_URL": "mysql://links:pw-hidden@db/claims", "ULK_CLAIM_SECRET": "0123456789abcdef"], "ULK_POSTGRES_URL", "expected postgres://"),
        (["ULK_CLAIMS_ON_FAILURE": "retry"], "ULK_CLAIMS_ON_FAILURE", "expected local"),
        (["ULK_DUPLICATE_WINDOW_SECONDS": "-1"], "ULK_DUPLICATE_WINDOW_SECONDS", "expected seconds"),
    ])
    func aClaimVariableItCannotUseIsNamed(environment: [String: String], variable: String, text: String) {
        let error = #expect(throws: LinkServiceConfiguration.Error.self) {
            try LinkServiceConfiguration(environment: Self.base.merging(environment) { $1 })
        }
        #expect(error?.variable == variable)
        #expect(error?.message.contains(text) == true, "\(String(describing: error))")
        #expect(error?.message.contains("pw-hidden") == false)
    }

    @Test(arguments: [(ClaimStoreFailurePolicy.reject, HTTPResponse.Status.serviceUnavailable, "claim store unreachable\n"),
                      (.resolveLocally, .ok, "ready (claim store unreachable: resolving with local claims)\n")])
    func readyzReportsAnUnreachableClaimStore(policy: ClaimStoreFailurePolicy, status: HTTPResponse.Status, body: String) async throws {
        let port = try SilentListener.closedPort()
        var configuration = LinkServiceConfiguration(
            port: 0, brandedDomains: ["news.example.com"],
            postgresURL: try .init("postgres://ulk@127.0.0.1:\(port)/ulk?sslmode=disable"),
            claimSecret: Array("0123456789abcdef".utf8), claimsOnFailure: policy)
        configuration.logLevel = .critical
        let service = try LinkService(configuration: configuration, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await service.application.test(.router) { client in
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == status)
                #expect(String(buffer: response.body) == body)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"ulk_claims_total{result="failed"} 0"#))
            }
        }
    }
}
