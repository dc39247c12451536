import Foundation
import Testing

/// The one argument parser of `linux-host`, as a user meets it: help, option forms, usage errors, typed values.
struct CommandLineTests {
    static let commands: [[String]] = [
        [], ["demo"], ["resolve"], ["inapp"], ["push"], ["serve"], ["route"],
        ["aasa"], ["aasa", "match"], ["aasa", "check"], ["aasa", "generate"],
        ["assetlinks"], ["assetlinks", "generate"],
        ["doctor"], ["doctor", "domain"], ["doctor", "campaign"],
    ]

    @Test(arguments: commands)
    func everyCommandPrintsItsHelpAndExitsZero(command: [String]) async throws {
        for flag in ["--help", "-h"] {
            let result = try await HostProcess.run(command + [flag])
            #expect(result.status == 0, "\(command) \(flag): \(result.stderr)")
            #expect(result.stderr.isEmpty)
            let name = (["linux-host"] + command).joined(separator: " ")
            #expect(result.stdout.hasPrefix("\(name): "), "\(result.stdout)")
            #expect(result.stdout.contains("usage: \(name)"))
            #expect(result.stdout.contains("-h, --help"))
        }
    }

    @Test(arguments: [
        (["resolve"], ["--json", "--timeout SECONDS", "(default: 10)", "--allow-loopback", "--allow-http",
                       "--branded-domain HOST", "(repeatable)", "URL..."]),
        (["inapp"], ["--execute-rsys-web-url", "--no-execute-rsys-web-url", "--timeout SECONDS"]),
        (["push"], ["--execute-rsys-web-url", "PAYLOAD_JSON", "\"u\""]),
        (["serve"], ["--port N", "(default: 0)"]),
        (["route"], ["--table FILE", "(required)", "--can-route", "--explain", "--disable-group NAME"]),
        (["aasa", "generate"], ["--include PATH", "--exclude PATH", "--format FORMAT", "(default: both)"]),
        (["aasa"], ["match", "check", "generate"]),
        (["doctor", "domain"], ["DOMAIN", "--app TEAMID.BUNDLE", "(required; repeatable)", "--responsys",
                                "--expect-open URL", "--expect-web URL", "--android-package P", "--fingerprint SHA256",
                                "--apple-cdn BASE_URL", "(default: https://app-site-association.cdn-apple.com)",
                                "--timeout SECONDS", "(0.001 to 3600) (default: 10)", "--allow-loopback", "--allow-http",
                                "--json", "--junit FILE"]),
        (["doctor", "campaign"], ["--email FILE", "(required)", "--app TEAMID.BUNDLE", "--aasa FILE",
                                  "--routes TABLE", "--resolve", "--branded-domain HOST", "(repeatable)",
                                  "--timeout SECONDS", "(0.001 to 3600) (default: 10)", "--allow-loopback",
                                  "--allow-http", "--json", "--junit FILE"]),
        (["doctor"], ["domain", "campaign"]),
        ([], ["demo (default)", "resolve", "assetlinks", "doctor"]),
    ])
    func helpListsEveryOptionWithItsDefault(command: [String], expected: [String]) async throws {
        let result = try await HostProcess.run(command + ["--help"])
        for text in expected {
            #expect(result.stdout.contains(text), "\(command) --help lacks \(text)")
        }
    }

    @Test func helpWorksAsACommandToo() async throws {
        let result = try await HostProcess.run(["help", "aasa", "check"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("linux-host aasa check: "))
    }

    @Test func optionValuesMayBeJoinedWithAnEqualsSign() async throws {
        let spaced = try await HostProcess.run(["resolve", "--json", "--timeout", "5", "https://127.1/pub/acc"])
        let joined = try await HostProcess.run(["resolve", "--json", "--timeout=5", "https://127.1/pub/acc"])
        #expect(spaced.status == 1)  // refused host: handled with an error, not a usage error
        #expect(joined.status == 1)
        #expect(joined.stdout == spaced.stdout)
    }

    @Test func aDoubleDashEndsTheOptions() async throws {
        let result = try await HostProcess.run(["resolve", "--json", "--", "--json"])
        #expect(result.status == 1)
        #expect(try result.jsonLines().map { $0["url"] as? String } == ["--json"])
    }

    @Test(arguments: [
        (["resolve", "--timeout", "0x10", "https://x.example/pub/acc"], "--timeout: expected decimal seconds from 0.001 to 3600, got '0x10'"),
        (["resolve", "--timeout=1e3", "https://x.example/pub/acc"], "got '1e3'"),
        (["resolve", "--timeout", "-1", "https://x.example/pub/acc"], "got '-1'"),
        (["resolve", "--timeout", "inf", "https://x.example/pub/acc"], "got 'inf'"),
        (["resolve", "--timeout", "0", "https://x.example/pub/acc"], "got '0'"),
        (["resolve", "--timeout", "1", "--timeout", "2", "https://x.example/pub/acc"], "--timeout given more than once"),
        (["resolve", "--json=yes", "https://x.example/pub/acc"], "--json takes no value"),
        (["resolve", "--bogus", "u"], "unknown option '--bogus'"),
        (["resolve", "-x", "u"], "unknown option '-x'"),
        (["resolve", "--branded-domain", "https://news.example.com", "u"], "--branded-domain: expected a host name"),
        (["resolve"], "expected at least one URL"),
        (["push", "{}", "{}"], "unexpected argument '{}'"),
        (["serve", "--port", "http"], "--port: expected a port number from 0 to 65535, got 'http'"),
        (["serve", "--port", "65536"], "got '65536'"),
        (["route", "myapp://x"], "--table FILE is required"),
        (["aasa", "frobnicate"], "unknown command 'frobnicate' (expected match, check or generate)"),
        (["aasa"], "aasa: expected match, check or generate"),
        (["aasa", "generate", "--app", "ABCDE12345.com.x", "--format", "yaml", "--responsys"], "--format: expected components, legacy, both, got 'yaml'"),
        (["nonsense"], "unknown command 'nonsense'"),
        (["demo", "extra"], "unexpected argument 'extra'"),
    ])
    func usageErrorsNameTheBadOptionOrValueAndExitTwo(arguments: [String], message: String) async throws {
        let result = try await HostProcess.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("linux-host: "))
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("usage: linux-host"))
        #expect(result.stdout.isEmpty)
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() async throws {
        let result = try await HostProcess.run([
            "aasa", "generate", "--app", "ABCDE12345.com.example.a", "--app=ABCDE12345.com.example.b",
            "--exclude", "/products/internal/*", "--include", "/products/*", "--format", "components",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let detail = try #require(((object["applinks"] as? [String: Any])?["details"] as? [[String: Any]])?.first)
        #expect(detail["appIDs"] as? [String] == ["ABCDE12345.com.example.a", "ABCDE12345.com.example.b"])
        let components = try #require(detail["components"] as? [[String: Any]])
        #expect(components.map { $0["/"] as? String } == ["/products/internal/*", "/products/*"])
    }

    /// `CommandLine.arguments` turns bytes that are not UTF-8 into U+FFFD, so such a path names no file: the
    /// message says why instead of "No such file or directory".
    @Test(arguments: [
        (["aasa", "check", "--file"], "--file: "), (["route", "example-app://p/1", "--table"], "--table: "),
        (["doctor", "campaign", "--app", "ABCDE12345.com.example.app", "--email"], "--email: "),
    ])
    func aPathThatIsNotUTF8IsSaidToBeSo(_ command: [String], _ label: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("utf8-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A file whose name is the single byte 0xFF (Latin-1 "ÿ"), as a user's older tools may have written it.
        let name = Array(directory.utf8) + [UInt8(ascii: "/"), 0xFF, 0]
        let descriptor = name.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        // The shell appends the raw byte as the option's value: a Swift String cannot carry it to the process.
        let result = try await HostProcess.run(command, redirection: "\"$(printf '%s/\\377' '\(directory)')\"")
        #expect(result.status == 2)
        #expect(result.stderr.contains(label), "\(result.stderr)")
        #expect(result.stderr.contains("the path is not valid UTF-8"), "\(result.stderr)")
        #expect(!result.stderr.contains("No such file"))
    }
}
