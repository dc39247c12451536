import Foundation
import Testing

/// The console contract of `linux-host route`, run as a user runs it.
struct RouteCommandTests {
    static let table = """
        {"decodePlusSymbols": true, "alwaysTreatsHostAsPathComponent": false, "namespaces": [
          {"scheme": null, "fallbackToGlobal": false, "routes": [
            {"pattern": "/user/view/:userID", "priority": 0, "handles": true},
            {"pattern": "/files/*", "priority": 0, "handles": true},
            {"pattern": "/declines/:x", "priority": 0, "handles": false}]},
          {"scheme": "tests", "fallbackToGlobal": true, "routes": []}]}
        """

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func routePrintsTheHandlersParametersOnePerURLInInputOrder() async throws {
        let table = try write(Self.table)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let result = try await HostProcess.run([
            "route", "--table", table,
            "myapp://user/view/joeldev?tag=a&tag=b", "tests://files/a/b", "https://www.example.com/declines/1", "not a url",
        ])
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect(lines.map { $0["url"] as? String } == [
            "myapp://user/view/joeldev?tag=a&tag=b", "tests://files/a/b", "https://www.example.com/declines/1", "not a url",
        ])
        #expect(lines.map { $0["routed"] as? Bool } == [true, true, false, false])
        let user = try #require(lines[0]["parameters"] as? [String: Any])
        #expect(user["userID"] as? String == "joeldev")
        #expect(user["tag"] as? [String] == ["a", "b"])
        #expect(user["JLRoutePattern"] as? String == "/user/view/:userID")
        #expect(user["JLRouteURL"] as? String == "myapp://user/view/joeldev?tag=a&tag=b")
        #expect(user["JLRouteScheme"] as? String == "JLRoutesGlobalRoutesScheme")
        let files = try #require(lines[1]["parameters"] as? [String: Any])
        #expect(files["JLRouteWildcardComponents"] as? [String] == ["a", "b"])
        #expect(lines[2]["parameters"] is NSNull)
    }

    @Test func canRouteMatchesWithoutCallingHandlers() async throws {
        let table = try write(Self.table)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let result = try await HostProcess.run(["route", "--table", table, "--can-route", "myapp://user/view/1", "https://www.example.com/declines/1"])
        #expect(result.status == 0)
        #expect(try result.jsonLines().map { $0["canRoute"] as? Bool } == [true, true])
    }

    @Test func aRepeatedKeyIsAWarningAndItsLastValueCounts() async throws {
        let table = try write("""
            {"namespaces": [{"scheme": null, "routes": [
              {"pattern": "/first/:id", "pattern": "/user/:id", "priority": 1, "priority": 2}]}]}
            """)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let result = try await HostProcess.run(["route", "--table", table, "myapp://user/7", "myapp://first/7"])
        #expect(result.status == 1)
        #expect(try result.jsonLines().map { $0["routed"] as? Bool } == [true, false])
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("appears more than once") }
        #expect(warnings.map(String.init) == [
            #"linux-host: route: warning: namespaces[0].routes[0].pattern: key "pattern" appears more than once in this object; the last value counts, as JSONSerialization reads it: remove the others"#,
            #"linux-host: route: warning: namespaces[0].routes[0].priority: key "priority" appears more than once in this object; the last value counts, as JSONSerialization reads it: remove the others"#,
        ])
    }

    /// The example of the LinkRouting article "Routing in detail", with the table it names, prints what it shows.
    @Test func theDocumentedExampleRunsAsWritten() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let table = root.appendingPathComponent("docs/examples/routes.json").path
        let result = try await HostProcess.run([
            "route", "--table", table, "--explain", "--disable-group", "sale", "example-app://offers/48h",
        ])
        #expect(result.status == 1)
        #expect(result.stdout == #"""
            {"explanation":"example-app://offers/48h -> namespace example-app, components [\"offers\", \"48h\"]\nno route matches; nearest:\n  /offers/:id (example-app): its group 'sale' is disabled\n  /offers/:id/terms (example-app): the URL has 2 components, the pattern needs 3\n  /user/view/:userID (JLRoutesGlobalRoutesScheme): component 0 is 'offers', the pattern expects 'user'","parameters":null,"routed":false,"url":"example-app://offers/48h"}

            """#)
        #expect(result.stderr == """
            linux-host: route: warning: example-app: /products/:id: '/products/:id' duplicates '/products/:id', registered earlier with the same or a higher priority; it only runs when that handler returns false

            """)
    }

    @Test func aBadTableExitsTwoNamingTheKey() async throws {
        let table = try write(#"{"namespaces": [{"scheme": null, "routes": [{"pattern": 7}]}]}"#)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let result = try await HostProcess.run(["route", "--table", table, "myapp://x"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("namespaces[0].routes[0].pattern"))
        #expect(result.stdout.isEmpty)
        #expect(try await HostProcess.run(["route", "--table", "/nonexistent/routes.json", "myapp://x"]).status == 2)
        #expect(try await HostProcess.run(["route", "myapp://x"]).status == 2)
    }
}

/// `route --explain`, `--disable-group` and the registration warnings.
struct RouteDiagnosticsTests {
    static let table = """
        {"namespaces": [{"scheme": null, "routes": [
          {"pattern": "/user/view/:userID"},
          {"pattern": "/user/view/:id"},
          {"pattern": "/invites/:code", "group": "invites"}]}]}
        """

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func explainSaysWhichRouteMatchedOrWhereTheNearestStopped() async throws {
        let table = try write(Self.table)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let result = try await HostProcess.run(["route", "--table", table, "--explain", "myapp://user/view/7", "myapp://user/edit/7"])
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect((lines[0]["explanation"] as? String)?.contains("matches /user/view/:userID") == true)
        let miss = try #require(lines[1]["explanation"] as? String)
        #expect(miss.contains("no route matches; nearest:"))
        #expect(miss.contains("component 1 is 'edit'"))
    }

    @Test func registrationProblemsAreWarningsOnStderr() async throws {
        let table = try write(Self.table)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let result = try await HostProcess.run(["route", "--table", table, "myapp://user/view/7"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("linux-host: route: warning: "))
        #expect(result.stderr.contains("/user/view/:id"))
        #expect(try result.jsonLines().count == 1)
    }

    @Test func disabledGroupsDoNotRoute() async throws {
        let table = try write(Self.table)
        defer { try? FileManager.default.removeItem(atPath: table) }
        let on = try await HostProcess.run(["route", "--table", table, "myapp://invites/ABC"])
        #expect(on.status == 0)
        let off = try await HostProcess.run(["route", "--table", table, "--disable-group", "invites", "--disable-group", "nothing",
                                            "myapp://invites/ABC"])
        #expect(off.status == 1)
        #expect(try off.jsonLines().first?["routed"] as? Bool == false)
        #expect(off.stderr.contains("no route of the table is in group 'nothing'"))
    }
}
