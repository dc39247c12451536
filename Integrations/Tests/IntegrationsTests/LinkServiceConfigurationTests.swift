import LinkServiceCore
import Testing

struct LinkServiceConfigurationTests {
    @Test func defaultsListenOnLoopbackPort8080WithATenSecondDeadline() throws {
        let configuration = try LinkServiceConfiguration(environment: ["ULK_BRANDED_DOMAINS": "news.example.com"])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.timeout == .seconds(10))
        #expect(configuration.brandedDomains == ["news.example.com"])
        #expect(!configuration.allowsLocalHosts)
        #expect(configuration.routesFile == nil)
    }

    @Test func everyVariableIsRead() throws {
        let configuration = try LinkServiceConfiguration(environment: [
            "HOST": "0.0.0.0", "PORT": "9090", "ULK_BRANDED_DOMAINS": " news.example.com, click.example.com ,",
            "ULK_ALLOW_LOCAL": "1", "ULK_TIMEOUT_SECONDS": "2.5", "ULK_ROUTES_FILE": "/etc/routes.json",
        ])
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 9090)
        #expect(configuration.brandedDomains == ["news.example.com", "click.example.com"])
        #expect(configuration.allowsLocalHosts)
        #expect(configuration.timeout == .milliseconds(2500))
        #expect(configuration.routesFile == "/etc/routes.json")
    }

    @Test func brandedDomainsAreRequiredUnlessLocalHostsAreAllowed() throws {
        #expect(throws: LinkServiceConfiguration.Error.self) { try LinkServiceConfiguration(environment: [:]) }
        let local = try LinkServiceConfiguration(environment: ["ULK_ALLOW_LOCAL": "1"])
        #expect(local.brandedDomains.isEmpty)
    }

    @Test(arguments: [
        ("PORT", "http"), ("PORT", "70000"), ("ULK_TIMEOUT_SECONDS", "0"), ("ULK_TIMEOUT_SECONDS", "ten"),
        ("ULK_ALLOW_LOCAL", "yes"),
    ])
    func aMalformedVariableIsNamedInTheError(variable: String, value: String) {
        var environment = ["ULK_BRANDED_DOMAINS": "news.example.com"]
        environment[variable] = value
        #expect {
            try LinkServiceConfiguration(environment: environment)
        } throws: { error in
            (error as? LinkServiceConfiguration.Error)?.variable == variable
                && "\(error)".contains(value)
        }
    }
}
