import Foundation
import Testing
import UniversalLinkKitTesting

/// The console contract of `linux-host resolve`, `inapp` and `push`, run as a user runs them.
struct ResolveCommandTests {
    @Test func theDemoTellsTheWholeStoryAndExitsZero() async throws {
        let result = try await HostProcess.run([])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("PIORsysWebURLResolvedNotification"))
        #expect(result.stdout.contains("example-app://products/1234"))
        #expect(!result.stdout.contains("UNEXPECTED"))
        #expect(try await HostProcess.run(["demo"]).status == 0)
    }

    @Test func theDemoExplainsItsTermsItsCountsAndEndsWithAVerdict() async throws {
        let result = try await HostProcess.run(["demo"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let intro = lines.prefix(12).joined(separator: " ")
        for term in ["Response Handler", "\"pub-web\" link", "executeRsysWebURL"] {
            #expect(intro.contains(term), "the intro does not say what \(term) is")
        }
        #expect(result.stdout.contains("router -> https://www.example.com/invites/:invite_code, invite_code = ABC123"))
        #expect(result.stdout.contains("9 notifications for 13 steps: every step posts one except 4 (the duplicate;"))
        #expect(lines.last { !$0.isEmpty && !$0.hasPrefix("Next:") } == "Verdict: all 13 steps behaved as described.")
    }

    @Test func aBrandedDomainWithATrailingDotIsTheSameHost() async throws {
        // Both are refused for another reason (an IP literal host would be too); here the host check passes and
        // the error is the network's, not hostNotAllowed.
        let url = "https://news.invalid/pub/acc?_ri_=1"
        for domain in ["news.invalid.", "news.invalid"] {
            let result = try await HostProcess.run(["resolve", "--json", "--timeout", "2", "--branded-domain", domain, url])
            let notification = try #require(try result.jsonLines().first?["notification"] as? [String: Any])
            let code = (notification["PIOErrorResolveWebURL"] as? [String: Any])?["code"] as? String
            #expect(code != nil && code != "hostNotAllowed", "\(domain): \(notification)")
        }
        let other = try await HostProcess.run(["resolve", "--json", "--branded-domain", "other.invalid.", url])
        let notification = try #require(try other.jsonLines().first?["notification"] as? [String: Any])
        #expect((notification["PIOErrorResolveWebURL"] as? [String: Any])?["code"] as? String == "hostNotAllowed")
    }

    @Test func resolvePrintsOneJSONLinePerInputInInputOrder() async throws {
        let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        let product = stub.url("/pub/acc?_ri_=product").absoluteString
        let webOnly = stub.url("/pub/acc?_ri_=web-only").absoluteString
        let article = stub.url("/pub/cc?_ri_=article").absoluteString
        let result = try await HostProcess.run(["resolve", "--json", "--allow-loopback", "--allow-http", product, webOnly, product, article])
        #expect(result.status == 1)  // the /pub/cc link is not handled
        let lines = try result.jsonLines()
        #expect(lines.map { $0["url"] as? String } == [product, webOnly, product, article])
        #expect(lines.map { $0["handled"] as? Bool } == [true, true, true, false])
        #expect(lines.map { $0["duplicate"] as? Bool } == [false, false, true, false])
        let first = try #require(lines[0]["notification"] as? [String: Any])
        #expect(first["PIORequestedWebURL"] as? String == product)
        #expect(first["PIOResolvedDeeplinkURL"] as? String == "example-app://products/1234")
        #expect(first["PIOResolvedWeblinkURL"] as? String == "https://www.example.com/products/1234")
        #expect(first["PIORequestedWebURLIsPubWebType"] as? Bool == true)
        #expect(first["PIOErrorResolveWebURL"] is NSNull)
        let second = try #require(lines[1]["notification"] as? [String: Any])
        #expect(second["PIOResolvedDeeplinkURL"] is NSNull)
        let duplicate = try #require(lines[2]["notification"] as? [String: Any])
        #expect(duplicate["PIOResolvedDeeplinkURL"] as? String == "example-app://products/1234")
        #expect(lines[3]["notification"] is NSNull)
        #expect(lines.allSatisfy { $0["opened"] is NSNull })
        #expect(stub.requests.count == 2)
    }

    @Test func resolveExitsZeroWhenEveryInputWasHandledWithoutError() async throws {
        let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        let result = try await HostProcess.run(["resolve", "--json", "--allow-loopback", "--allow-http", stub.url("/pub/acc?_ri_=product").absoluteString])
        #expect(result.status == 0, "\(result.stdout)")
    }

    @Test func errorsCarryTheirCodeAndMessage() async throws {
        let stub = try ResponseHandlerStub(links: [:])
        stub.setDefaultBehavior(.noResponse)
        let url = stub.url("/pub/acc?_ri_=slow").absoluteString
        let result = try await HostProcess.run(["resolve", "--json", "--timeout", "0.5", "--allow-loopback", "--allow-http", url])
        #expect(result.status == 1)
        let timeout = try #require(try result.jsonLines().first?["notification"] as? [String: Any])
        #expect((timeout["PIOErrorResolveWebURL"] as? [String: Any])?["code"] as? String == "timeout")

        let refused = try await HostProcess.run(["resolve", "--json", "https://127.1/pub/acc"])
        #expect(refused.status == 1)
        let notification = try #require(try refused.jsonLines().first?["notification"] as? [String: Any])
        let error = try #require(notification["PIOErrorResolveWebURL"] as? [String: Any])
        #expect(error["code"] as? String == "hostNotAllowed")
        #expect(error["message"] as? String
            == "Refused to resolve https://127.1/pub/acc: IP address hosts are not resolved (allow local hosts for test servers).")
        stub.shutdown()
    }

    @Test func junkInputIsReportedAsNotHandledNeverACrash() async throws {
        let result = try await HostProcess.run(["resolve", "--json", "not a url", "", "https://[::1", "%", "https://"])
        #expect(result.status == 1)
        let lines = try result.jsonLines()
        #expect(lines.map { $0["url"] as? String } == ["not a url", "", "https://[::1", "%", "https://"])
        #expect(lines.allSatisfy { $0["handled"] as? Bool == false && $0["notification"] is NSNull })
    }

    @Test(arguments: [["resolve"], ["resolve", "--timeout", "soon", "https://x.example/pub/acc"], ["resolve", "--bogus", "u"],
                      ["push"], ["push", "{}", "{}"], ["nonsense"], ["serve", "--port", "http"]])
    func usageErrorsExitTwoWithAMessageOnStderr(arguments: [String]) async throws {
        let result = try await HostProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("linux-host: "))
        #expect(result.stdout.isEmpty)
    }

    @Test func inAppHyperlinksGoToTheOpenerUnlessExecuteRsysWebURLIsOn() async throws {
        let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        let article = stub.url("/pub/cc?_ri_=article").absoluteString
        let off = try await HostProcess.run(["inapp", "--json", article])
        #expect(off.status == 0)
        let offLine = try #require(off.jsonLines().first)
        #expect(offLine["handled"] as? Bool == true)
        #expect(offLine["notification"] is NSNull)
        #expect(offLine["opened"] as? String == article)

        let on = try await HostProcess.run(["inapp", "--json", "--execute-rsys-web-url", "--allow-loopback", "--allow-http", article, "https://www.example.com/x"])
        #expect(on.status == 0)
        let lines = try on.jsonLines()
        #expect((lines[0]["notification"] as? [String: Any])?["PIOResolvedWeblinkURL"] as? String == "https://www.example.com/articles/42")
        #expect((lines[1]["notification"] as? [String: Any])?["PIORequestedWebURLIsPubWebType"] as? Bool == false)
        #expect(stub.requests.count == 1)
    }

    @Test func unsafeInAppHyperlinksAreNeverOpened() async throws {
        let result = try await HostProcess.run(["inapp", "--json", "--no-execute-rsys-web-url", "javascript:alert(1)", "data:text/html,x"])
        #expect(result.status == 1)
        for line in try result.jsonLines() {
            #expect(line["opened"] is NSNull)
            #expect(((line["notification"] as? [String: Any])?["PIOErrorResolveWebURL"] as? [String: Any])?["code"] as? String == "unsafeLink")
        }
    }

    @Test func pushReadsTheURLUnderU() async throws {
        let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        let product = stub.url("/pub/acc?_ri_=product").absoluteString
        let payload = #"{"aps":{"alert":"Hi"},"u":"\#(product)"}"#
        let result = try await HostProcess.run(["push", "--json", "--execute-rsys-web-url", "--allow-loopback", "--allow-http", payload])
        #expect(result.status == 0)
        let line = try #require(result.jsonLines().first)
        #expect(line["url"] as? String == payload)
        #expect((line["notification"] as? [String: Any])?["PIOResolvedDeeplinkURL"] as? String == "example-app://products/1234")

        let other = try await HostProcess.run(["push", "--json", #"{"u":"example-app://inbox"}"#])
        #expect(try other.jsonLines().first?["opened"] as? String == "example-app://inbox")
        #expect(try await HostProcess.run(["push", "--json", "not json"]).status == 1)
    }

    @Test func pushWithoutUSaysSo() async throws {
        let result = try await HostProcess.run(["push", #"{"aps": {"alert": "Hi"}}"#])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"not handled (the payload has no "u" key, so it carries no link)"#), "\(result.stdout)")
    }

    @Test(arguments: [
        (#"{"u":5}"#, "is a number"), (#"{"u":2.5}"#, "is a number"), (#"{"u":true}"#, "is a boolean"),
        (#"{"u":null}"#, "is null"), (#"{"u":["https://x.example/pub/acc"]}"#, "is an array"), (#"{"u":{}}"#, "is an object"),
    ])
    func pushNamesTheJSONTypeOfAUValueThatIsNotAString(_ payload: String, _ kind: String) async throws {
        let result = try await HostProcess.run(["push", payload])
        #expect(result.status == 1)
        #expect(result.stdout.contains(#"not handled (the "u" value \#(kind), not a URL string)"#), "\(result.stdout)")
    }

    /// A burst's notification blocks are all printed before the process exits, in the order of the input, not the
    /// order the resolutions end. Twelve runs of the same burst, whose first link answers last: the same complete
    /// output each time, one block per input in input order.
    @Test(arguments: ["resolve", "inapp"])
    func aBurstPrintsEveryNotificationInInputOrderEveryTime(_ command: String) async throws {
        let stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        defer { stub.shutdown() }
        stub.setResponder { request in request.query == "_ri_=product" ? .delay(0.2) : nil }
        let inputs = ["/pub/acc?_ri_=product", "/pub/acc?_ri_=web-only", "/pub/acc?_ri_=invite", "/pub/acc?_ri_=product"]
            .map { stub.url($0).absoluteString }
        var flags = ["--allow-loopback", "--allow-http"]
        if command == "inapp" { flags.append("--execute-rsys-web-url") }
        var outputs: Set<String> = []
        for _ in 0..<12 {
            let result = try await HostProcess.run([command] + flags + inputs)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            outputs.insert(result.stdout)
        }
        #expect(outputs.count == 1, "\(outputs.sorted().joined(separator: "\n----\n"))")
        let lines = try #require(outputs.first).split(separator: "\n").map(String.init)
        // Each input's block: its arrow, its notification (none for the duplicate), its summary.
        #expect(lines.filter { $0.hasPrefix("-> ") } == inputs.map { "-> \(command) \($0)" })
        #expect(lines.filter { $0.contains("<- PIORsysWebURLResolvedNotification") }.count == 3)
        let requested = lines.filter { $0.contains("PIORequestedWebURL ") }.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(requested == Array(inputs.prefix(3)))
        var blocks: [[String]] = []
        for line in lines {
            if line.hasPrefix("-> ") { blocks.append([]) }
            if !blocks.isEmpty { blocks[blocks.count - 1].append(line) }
        }
        #expect(blocks.count == inputs.count)
        for (block, (index, input)) in zip(blocks, inputs.enumerated()) {
            #expect(block.last?.hasPrefix("   \(input): handled") == true, "\(block)")
            let notified = block.contains { $0.contains("PIORequestedWebURL ") && $0.hasSuffix(" \(input)") }
            #expect(notified == (index < 3), "\(block)")
        }
    }
}
