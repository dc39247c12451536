import Foundation
import Testing
import UniversalLinkKitTesting

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

    /// Options are typed keys declared once per command; reading one the command did not declare traps
    /// (tests run a debug build). Every command runs here, down each path that reads options, with every option
    /// its help lists: such a read fails this test, and so does an option added without being exercised here.
    @Test func everyCommandRunsWithEveryOptionItDeclares() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func file(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let app = "ABCDE12345.com.example.app"
        let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
        let aasa = try file("aasa.json", #"{"applinks": {"details": [{"appIDs": ["\#(app)"], "components": [{"/": "/pub/acc"}]}]}}"#)
        let table = try file("routes.json", #"{"namespaces": [{"scheme": "myapp", "routes": [{"pattern": "/x", "group": "g"}]}]}"#)
        let email = try file("email.html", #"<a href="https://news.invalid/pub/acc?_ri_=1">x</a>"#)
        let manifest = try file("AndroidManifest.xml", """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"><application>
            <activity android:name=".Main"><intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW"/><category android:name="android.intent.category.DEFAULT"/>
            <category android:name="android.intent.category.BROWSABLE"/>
            <data android:scheme="https" android:host="news.invalid" android:pathPrefix="/pub/"/>
            </intent-filter></activity></application></manifest>
            """)
        let assetLinks = try file("assetlinks.json", #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": ["\#(fingerprint)"]}}]"#)
        let junit = directory.appendingPathComponent("report.xml").path
        let html = directory.appendingPathComponent("report.html").path
        // A port that is taken: `serve` reads its option, then fails to listen (exit 1) instead of serving forever.
        let taken = try ResponseHandlerStub()
        defer { taken.shutdown() }
        let network = ["--timeout", "1", "--allow-loopback", "--allow-http"]
        let roots = try TestPKI()
        let invocations: [[String]] = [
            ["resolve", "--json", "--branded-domain", "x.invalid", "--ca-file", roots.rootFile] + network + ["not a url"],
            ["resolve"] + network + ["not a url"],
            ["inapp", "--json", "--branded-domain", "x.invalid", "--execute-rsys-web-url", "--no-execute-rsys-web-url",
             "--ca-file", roots.rootFile] + network + ["not a url"],
            ["push", "--json", "--branded-domain", "x.invalid", "--no-execute-rsys-web-url", "--execute-rsys-web-url",
             "--ca-file", roots.rootFile] + network + ["{}"],
            ["serve", "--port", "\(taken.port)"],
            ["route", "--table", table, "--can-route", "--explain", "--disable-group", "g", "myapp://x"],
            ["aasa", "match", "--file", aasa, "--app", app, "--domain", "news.example.com", "--legacy", "--json",
             "https://news.example.com/pub/acc"],
            ["aasa", "check", "--file", aasa, "--json"],
            ["aasa", "generate", "--app", app, "--responsys", "--include", "/a", "--exclude", "/b", "--format", "both"],
            ["assetlinks", "generate", "--intent-filter", "--domain", "news.example.com", "--responsys", "--include", "/a",
             "--exclude", "/b", "--form", "android15"],
            ["assetlinks", "generate", "--package", "com.example.app", "--fingerprint", fingerprint],
            ["assetlinks", "generate", "--package", "com.example.app", "--fingerprint", fingerprint, "--include", "/a",
             "--exclude", "/b"],
            ["android", "match", "--manifest", manifest, "--assetlinks", assetLinks, "--package", "com.example.app",
             "--platform", "android12", "--json", "https://news.invalid/pub/acc"],
            ["android", "pattern", "--type", "simple", "--android15-escaped-dot", "--json", "/a.*", "/ab"],
            ["android", "check", "--manifest", manifest, "--assetlinks", assetLinks, "--package", "com.example.app",
             "--aasa", aasa, "--app", app, "--json", "https://news.invalid/pub/acc"],
            ["doctor", "domain", "127.0.0.1:1", "--app", app, "--responsys", "--expect-open", "https://127.0.0.1:1/pub/acc",
             "--expect-web", "https://127.0.0.1:1/pub/cc", "--android-package", "com.example.app", "--fingerprint",
             fingerprint, "--apple-cdn", "http://127.0.0.1:1", "--json", "--junit", junit, "--html", html, "--ca-file",
             roots.rootFile]
                + network,
            ["doctor", "campaign", "--email", email, "--app", app, "--aasa", aasa, "--routes", table, "--resolve",
             "--branded-domain", "news.invalid", "--json", "--junit", junit, "--ca-file", roots.rootFile] + network,
            ["doctor", "campaign", "--email", email, "--app", app, "--aasa", aasa, "--manifest", manifest,
             "--assetlinks", assetLinks, "--package", "com.example.app", "--html", html],
        ]
        var given: [String: Set<String>] = [:]
        for invocation in invocations {
            let words = invocation.prefix { !$0.hasPrefix("-") && !$0.hasPrefix("/") && !$0.contains(".") }
            let command = words.joined(separator: " ")
            given[command, default: []].formUnion(invocation.filter { $0.hasPrefix("--") })
            let result = try await HostProcess.run(invocation)
            #expect(result.status == 0 || result.status == 1, "\(invocation): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("does not declare"), "\(invocation): \(result.stderr)")
        }
        for (command, options) in given {
            let help = try await HostProcess.run(command.split(separator: " ").map(String.init) + ["--help"])
            let declared = help.stdout.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  --") else { return nil }
                return line.dropFirst(2).split(separator: " ").first.map(String.init)
            }
            #expect(!declared.isEmpty, "\(command)")
            #expect(Set(declared).isSubset(of: options), "\(command) declares \(Set(declared).subtracting(options)), not run here")
        }
        // Every command that runs and takes options (the demo takes none).
        #expect(Set(given.keys) == [
            "resolve", "inapp", "push", "serve", "route", "aasa match", "aasa check", "aasa generate",
            "assetlinks generate", "android match", "android pattern", "android check", "doctor domain", "doctor campaign",
        ])
    }
}
