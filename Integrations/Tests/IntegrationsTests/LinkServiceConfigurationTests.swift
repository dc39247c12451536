import Logging
import Testing
import UniversalLinkKitHummingbird
import UniversalLinkKitService

struct LinkServiceConfigurationTests {
    @Test func defaultsListenOnLoopbackPort8080WithATenSecondDeadline() throws {
        let configuration = try LinkServiceConfiguration(
            environment: ["ULK_BRANDED_DOMAINS": "news.example.com"], fileDescriptorLimit: 20_000)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.logLevel == .info)
        #expect(configuration.timeout == .seconds(10))
        #expect(configuration.shutdownGracePeriod == .seconds(10))
        #expect(configuration.brandedDomains == ["news.example.com"])
        #expect(configuration.resolvedHosts == ["news.example.com"])
        #expect(!configuration.allowsLocalHosts)
        #expect(!configuration.logsFullURLs)
        #expect(configuration.routesFile == nil)
        #expect(configuration.idleTimeout == .seconds(15))
        #expect(configuration.headerTimeout == .seconds(5))
        #expect(configuration.maximumConnections == 10_000)
    }

    @Test func everyVariableIsRead() throws {
        let configuration = try LinkServiceConfiguration(environment: [
            "HOST": "0.0.0.0", "PORT": "9090", "LOG_LEVEL": "DEBUG",
            "ULK_BRANDED_DOMAINS": " news.example.com, *.example.net ,", "ULK_ALLOW_LOCAL": "1",
            "ULK_TIMEOUT_SECONDS": "2.5", "ULK_SHUTDOWN_GRACE_SECONDS": "0", "ULK_ROUTES_FILE": "/etc/routes.json",
            "ULK_LOG_FULL_URLS": "1", "ULK_IDLE_TIMEOUT_SECONDS": "30", "ULK_HEADER_TIMEOUT_SECONDS": "0.25",
            "ULK_MAX_CONNECTIONS": "500",
        ], fileDescriptorLimit: 1024)
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 9090)
        #expect(configuration.logLevel == .debug)
        #expect(configuration.brandedDomains == ["news.example.com", "*.example.net"])
        #expect(configuration.allowsLocalHosts)
        #expect(configuration.timeout == .milliseconds(2500))
        #expect(configuration.shutdownGracePeriod == .zero)
        #expect(configuration.routesFile == "/etc/routes.json")
        #expect(configuration.logsFullURLs)
        #expect(configuration.idleTimeout == .seconds(30))
        #expect(configuration.headerTimeout == .milliseconds(250))
        #expect(configuration.maximumConnections == 500)
    }

    @Test func brandedDomainsAreRequiredUnlessLocalHostsAreAllowedAndThenOnlyLoopbackIsResolved() throws {
        #expect(throws: LinkServiceConfiguration.Error.self) { try LinkServiceConfiguration(environment: [:]) }
        let local = try LinkServiceConfiguration(environment: ["ULK_ALLOW_LOCAL": "1"])
        #expect(local.brandedDomains.isEmpty)
        #expect(local.resolvedHosts.contains("127.0.0.1"))
        #expect(!local.resolvedHosts.contains { $0.contains("example") })
        // Both set: the branded domains still restrict the hosts.
        let both = try LinkServiceConfiguration(environment: ["ULK_ALLOW_LOCAL": "1", "ULK_BRANDED_DOMAINS": "127.0.0.1"])
        #expect(both.resolvedHosts == ["127.0.0.1"])
    }

    @Test(arguments: [(20_000, 10_000), (65_536, 10_000), (4096, 3072), (1024, 512), (100, 50)])
    func theDefaultConnectionLimitStaysUnderTheFileDescriptorLimit(descriptors: Int, connections: Int) {
        #expect(LinkServiceConfiguration.defaultMaximumConnections(fileDescriptorLimit: descriptors) == connections)
    }

    @Test(arguments: [
        ("PORT", "http"), ("PORT", "70000"), ("LOG_LEVEL", "verbose"), ("ULK_TIMEOUT_SECONDS", "0"),
        ("ULK_TIMEOUT_SECONDS", "ten"), ("ULK_TIMEOUT_SECONDS", "7200"), ("ULK_SHUTDOWN_GRACE_SECONDS", "-1"),
        ("ULK_SHUTDOWN_GRACE_SECONDS", "nan"), ("ULK_IDLE_TIMEOUT_SECONDS", "0"), ("ULK_HEADER_TIMEOUT_SECONDS", "soon"),
        ("ULK_ALLOW_LOCAL", "yes"), ("ULK_LOG_FULL_URLS", "true"), ("ULK_MAX_CONNECTIONS", "0"),
        ("ULK_MAX_CONNECTIONS", "19990"), ("ULK_BRANDED_DOMAINS", "http://news.example.com"),
        ("ULK_BRANDED_DOMAINS", "news.example.com/pub"), ("ULK_BRANDED_DOMAINS", "news.example.com:443"),
        ("ULK_BRANDED_DOMAINS", "news..example.com"), ("ULK_BRANDED_DOMAINS", "-news.example.com"),
        ("ULK_BRANDED_DOMAINS", "news example.com"), ("ULK_BRANDED_DOMAINS", "user@news.example.com"),
    ])
    func aMalformedVariableIsNamedInTheError(variable: String, value: String) {
        var environment = ["ULK_BRANDED_DOMAINS": "news.example.com"]
        environment[variable] = value
        #expect {
            try LinkServiceConfiguration(environment: environment, fileDescriptorLimit: 20_000)
        } throws: { error in
            (error as? LinkServiceConfiguration.Error)?.variable == variable && "\(error)".contains(value)
        }
    }

    @Test(arguments: ["news.example.com", "*.example.net", "127.0.0.1", "::1", "[::1]", "localhost", "münchen.de", "News.Example.COM."])
    func hostNamesAreAccepted(host: String) throws {
        let configuration = try LinkServiceConfiguration(environment: ["ULK_BRANDED_DOMAINS": host])
        #expect(configuration.brandedDomains == [host])
    }

    @Test func anUnknownULKVariableIsRefusedAsATypo() {
        #expect {
            try LinkServiceConfiguration(environment: ["ULK_BRANDED_DOMAINS": "news.example.com", "ULK_TIMEOUT": "5"])
        } throws: { error in
            (error as? LinkServiceConfiguration.Error)?.variable == "ULK_TIMEOUT"
        }
    }

    @Test func theConnectionLimitNamesTheFileDescriptorLimitItWouldExceed() {
        #expect {
            try LinkServiceConfiguration(environment: ["ULK_BRANDED_DOMAINS": "a.example", "ULK_MAX_CONNECTIONS": "5000"], fileDescriptorLimit: 1024)
        } throws: { error in
            "\(error)".contains("1024") && "\(error)".contains("at most 960")
        }
    }
}
