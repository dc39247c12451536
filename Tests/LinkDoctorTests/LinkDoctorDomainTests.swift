import AssociatedDomains
import Foundation
import LinkDoctor
import Synchronization
import Testing
import UniversalLinkKit
import UniversalLinkKitTesting
import _LinkKitLocking

/// `checkDomain` against loopback stand-ins for the domain and Apple's CDN, through the real transport.
struct LinkDoctorDomainTests {
    @Test func aCleanDomainHasNoFindings() async throws {
        let standIns = try StandIns()
        let findings = await standIns.doctor().checkDomain(standIns.check(android: true, fingerprints: [Fixtures.fingerprint]))
        #expect(findings.isEmpty, "\(findings)")
        // Apple's fetcher was asked too, with its own user agent.
        #expect(standIns.origin.requests.contains { $0.header("User-Agent") == "AASA-Bot/1.0.0" })
    }

    @Test func neitherLocationAnsweringIsUnreachableWithEachStatus() async throws {
        let standIns = try StandIns(clean: false)
        standIns.files.serve("oops", at: AssociationFileServer.rootPath, status: 500, contentType: "text/plain")
        let findings = await standIns.doctor().checkDomain(standIns.check())
        // The well-known 404 and the root 500 are each reported, then the verdict.
        #expect(findings.codes == ["aasa.status", "aasa.status", "aasa.unreachable", "aasa.cdnUnavailable"])
        #expect(findings.first(.aasaUnreachable)?.severity == .error)
        #expect(findings.first(.aasaUnreachable)?.message.contains("answers 404") == true)
        #expect(findings[1].subject == standIns.url(AssociationFileServer.rootPath))
        #expect(findings[1].message.contains("status 500"))
    }

    @Test func aRedirectIsReportedWithItsLocationAndNotFollowed() async throws {
        let standIns = try StandIns(clean: false)
        standIns.files.redirect(AssociationFileServer.wellKnownPath, to: "https://www.example.com/aasa.json")
        standIns.files.serve(Fixtures.responsysAASA, at: "/aasa.json")
        let findings = await standIns.doctor().checkDomain(standIns.check())
        let redirect = try #require(findings.first(.aasaRedirect))
        #expect(redirect.severity == .error)
        #expect(redirect.subject == standIns.url(AssociationFileServer.wellKnownPath))
        #expect(redirect.message.contains("301 to https://www.example.com/aasa.json"))
        #expect(findings.codes.contains("aasa.unreachable"))
        #expect(standIns.origin.requestCount(for: "/aasa.json") == 0)
    }

    @Test func onlyTheRootLocationServingIsAWarning() async throws {
        let standIns = try StandIns(clean: false)
        standIns.files.serve(Fixtures.responsysAASA, at: AssociationFileServer.rootPath)
        standIns.cdnFiles.serve(Fixtures.responsysAASA, at: AssociationFileServer.cdnPath(for: standIns.domain))
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.codes == ["aasa.wellKnownMissing"])
        #expect(findings.first?.severity == .warning)
    }

    @Test func aWrongContentTypeSaysWhatItWas() async throws {
        let standIns = try StandIns()
        standIns.files.serve(Fixtures.responsysAASA, at: AssociationFileServer.wellKnownPath, contentType: "text/html")
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.codes == ["aasa.contentType"])
        #expect(findings.first?.message.contains("'text/html'") == true)
        // A charset parameter is fine.
        standIns.files.serve(
            Fixtures.responsysAASA, at: AssociationFileServer.wellKnownPath, contentType: "application/json; charset=utf-8")
        #expect(await standIns.doctor().checkDomain(standIns.check()).isEmpty)
    }

    @Test func aFileOverAppleLimitIsTooLargeWhateverItsSize() async throws {
        for size in [128 * 1024 + 1, 400 * 1024] {
            let standIns = try StandIns()
            let padding = String(repeating: " ", count: size - Fixtures.responsysAASA.utf8.count)
            standIns.files.serve(Fixtures.responsysAASA + padding, at: AssociationFileServer.wellKnownPath)
            let findings = await standIns.doctor().checkDomain(standIns.check(responsys: false))
            #expect(findings.codes.contains("aasa.tooLarge"), "\(size): \(findings.codes)")
            #expect(!findings.codes.contains("aasa.invalid"))
        }
    }

    /// A header block over the transport's cap makes the answer unreadable: the well-known location is reported as
    /// what it is (not as a file over 128 KB), and the file the root location serves is still the one checked.
    @Test func anAnswerOverTheCapAtTheWellKnownLocationStillLetsTheRootFileBeChecked() async throws {
        let standIns = try StandIns(clean: false)
        let padding = (0..<8).map { ("X-Padding-\($0)", String(repeating: "a", count: 10_000)) }
        standIns.files.answer(
            .status(200, headers: [("Content-Type", "application/json")] + padding, body: Fixtures.responsysAASA),
            at: AssociationFileServer.wellKnownPath)
        standIns.files.serve(Fixtures.responsysAASA, at: AssociationFileServer.rootPath)
        standIns.cdnFiles.serve(Fixtures.responsysAASA, at: AssociationFileServer.cdnPath(for: standIns.domain))
        let findings = await standIns.doctor().checkDomain(standIns.check(apps: [Fixtures.app, Fixtures.otherApp]))
        // The root file was read: it names one of the two apps.
        #expect(findings.codes == ["aasa.headersTooLarge", "aasa.appMissing"], "\(findings)")
        #expect(findings.first?.subject == standIns.url(AssociationFileServer.wellKnownPath))
        #expect(findings.first?.message.contains("header block over the transport's cap") == true)
        #expect(findings.first?.message.contains("128 KB") == false)
        #expect(findings.last?.subject == standIns.url(AssociationFileServer.rootPath))
    }

    @Test func aHeaderBlockOverTheCapIsItsOwnFindingForEveryFile() async throws {
        let standIns = try StandIns(clean: false)
        let padding = (0..<8).map { ("X-Padding-\($0)", String(repeating: "a", count: 10_000)) }
        let oversized = Behavior.status(
            200, headers: [("Content-Type", "application/json")] + padding, body: Fixtures.responsysAASA)
        // The only location that answers 200 does so with huge headers: no file is read, and none is called large.
        standIns.files.answer(oversized, at: AssociationFileServer.wellKnownPath)
        standIns.files.answer(oversized, at: AssociationFileServer.assetLinksPath)
        let findings = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(findings.codes.contains("aasa.headersTooLarge"), "\(findings.codes)")
        #expect(findings.codes.contains("assetlinks.headersTooLarge"), "\(findings.codes)")
        #expect(!findings.codes.contains("aasa.tooLarge"))
        #expect(!findings.codes.contains("assetlinks.tooLarge"))
    }

    /// One header line longer than libcurl's own limit (100 KiB) is over the header cap as a 90 KB one is: the
    /// file is unreadable for its headers, never "missing".
    @Test(arguments: [90_000, 200_000])
    func anOversizedHeaderLineIsAHeaderBlockOverTheCap(_ length: Int) async throws {
        let standIns = try StandIns(clean: false)
        let oversized = Behavior.status(
            200, headers: [("Content-Type", "application/json"), ("X-Padding", String(repeating: "a", count: length))],
            body: Fixtures.responsysAASA)
        standIns.files.answer(oversized, at: AssociationFileServer.wellKnownPath)
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.codes.contains("aasa.headersTooLarge"), "\(findings.codes)")
        #expect(!findings.codes.contains("aasa.wellKnownMissing"), "\(findings.codes)")
    }

    /// A keep-alive connection the server closed without `Connection: close` fails the next request sent on it
    /// before any answer: the doctor sends it once more, on a fresh connection, instead of reporting that the
    /// domain blocks Apple's fetcher.
    @Test func aFetchClosedBeforeAnyAnswerIsSentOnceMoreInsteadOfReportingTheBotBlocked() async throws {
        let standIns = try StandIns(clean: false)
        standIns.cdnFiles.serve(Fixtures.responsysAASA, at: AssociationFileServer.cdnPath(for: standIns.domain))
        let botRequests = Mutex(0)
        standIns.origin.setResponder { request in
            guard request.path == AssociationFileServer.wellKnownPath else { return nil }
            let isBot = request.headers.contains { $0.name.lowercased() == "user-agent" && $0.value.hasPrefix("AASA-Bot") }
            let first = isBot && botRequests.withTrackedLock { count in
                count += 1
                return count == 1
            }
            return first ? .dropConnection
                : .status(200, headers: [("Content-Type", "application/json")], body: Fixtures.responsysAASA)
        }
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.isEmpty, "\(findings)")
        #expect(botRequests.withTrackedLock { $0 } == 2)
    }

    @Test func aFileWithErrorsCarriesThemWithTheirKeyPaths() async throws {
        let standIns = try StandIns(clean: false)
        let bad = #"{"applinks": {"apps": [], "details": [{"appID": "bad", "paths": ["NOT/x"]}]}}"#
        standIns.files.serve(bad, at: AssociationFileServer.wellKnownPath)
        let findings = await standIns.doctor().checkDomain(standIns.check(responsys: false))
        let invalid = findings.filter { $0.code == .aasaInvalid }
        #expect(invalid.count >= 2)
        #expect(invalid.allSatisfy { $0.severity == .error })
        #expect(invalid.contains { $0.message.hasPrefix("applinks.details[0].appID: ") })
        #expect(invalid.contains { $0.message.hasPrefix("applinks.details[0].paths[0]: ") })
    }

    @Test func anAppTheFileDoesNotNameIsMissing() async throws {
        let standIns = try StandIns()
        let findings = await standIns.doctor().checkDomain(standIns.check(apps: [Fixtures.app, Fixtures.otherApp]))
        #expect(findings.codes == ["aasa.appMissing"])
        #expect(findings.first?.message.contains(Fixtures.otherApp) == true)
        #expect(findings.first?.message.contains("the file names \(Fixtures.app)") == true)
    }

    @Test func expectationsAndTheResponsysPathsAreChecked() async throws {
        let standIns = try StandIns()
        standIns.files.serve(Fixtures.openEverythingAASA, at: AssociationFileServer.wellKnownPath)
        standIns.cdnFiles.serve(Fixtures.openEverythingAASA, at: AssociationFileServer.cdnPath(for: standIns.domain))
        var check = standIns.check()
        check.expectOpen = ["https://\(standIns.domain)/products/1"]
        check.expectWeb = ["https://\(standIns.domain)/unsubscribe"]
        let findings = await standIns.doctor().checkDomain(check)
        // /pub/cc and /unsubscribe open the app although they should not; /pub/acc and /products/1 are fine.
        #expect(findings.codes == ["aasa.expectationFailed", "aasa.expectationFailed"])
        #expect(Set(findings.map(\.subject)) == ["https://\(standIns.domain)/unsubscribe", "https://\(standIns.domain)/pub/cc"])
        #expect(findings.allSatisfy { $0.message.contains("should open the web but opens \(Fixtures.app)") })

        check.expectOpen = ["https://\(standIns.domain)/elsewhere"]
        check.expectWeb = []
        standIns.files.serve(Fixtures.responsysAASA, at: AssociationFileServer.wellKnownPath)
        standIns.cdnFiles.serve(Fixtures.responsysAASA, at: AssociationFileServer.cdnPath(for: standIns.domain))
        let second = await standIns.doctor().checkDomain(check)
        #expect(second.codes == ["aasa.expectationFailed"])
        #expect(second.first?.message.contains("should open \(Fixtures.app) but opens the browser") == true)
    }

    @Test func anOriginThatAnswersAppleFetcherDifferentlyIsBotBlocked() async throws {
        let standIns = try StandIns()
        standIns.files.serve(
            "Forbidden", at: AssociationFileServer.wellKnownPath, status: 403, contentType: "text/plain",
            forUserAgentContaining: "AASA-Bot")
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.codes == ["aasa.botBlocked"])
        #expect(findings.first?.message.contains("answers 403") == true)
    }

    @Test func theCDNCopyIsComparedByRulesNotBytes() async throws {
        let standIns = try StandIns()
        // Same rules, other spacing: no finding.
        let reformatted = Fixtures.responsysAASA.replacingOccurrences(of: ", ", with: ",")
            .replacingOccurrences(of: ": ", with: ":").replacingOccurrences(of: "\n", with: "")
        #expect(reformatted != Fixtures.responsysAASA)
        standIns.cdnFiles.serve(reformatted, at: AssociationFileServer.cdnPath(for: standIns.domain))
        #expect(await standIns.doctor().checkDomain(standIns.check()).isEmpty)

        standIns.cdnFiles.serve(Fixtures.openEverythingAASA, at: AssociationFileServer.cdnPath(for: standIns.domain))
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.codes == ["aasa.cdnMismatch"])
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.subject == standIns.cdnURL())
    }

    @Test func aCDNWithoutACopyIsUnavailable() async throws {
        let standIns = try StandIns()
        standIns.cdnFiles.remove(AssociationFileServer.cdnPath(for: standIns.domain))
        let findings = await standIns.doctor().checkDomain(standIns.check())
        #expect(findings.codes == ["aasa.cdnUnavailable"])
        #expect(findings.first?.message.contains("answers 404") == true)
    }

    @Test func eachFetchHasADeadline() async throws {
        let standIns = try StandIns()
        standIns.cdnFiles.answer(.noResponse, at: AssociationFileServer.cdnPath(for: standIns.domain))
        // Real requests through the real transport; the deadlines run on a clock whose time is up only once the
        // other three fetches (both locations, then Apple's fetcher) have ended and the CDN has the request: only
        // the silent CDN can time out, however slow the machine (a sanitizer slows it tenfold).
        let timeUp = TimeUpAfterOthers(others: 3)
        let clock = LinkClock(ClosureClock(now: { ContinuousClock.now }, sleep: { _ in try await timeUp.sleep() }))
        let cdn = standIns.cdn
        let real = LinkResolver.defaultTransport()
        defer { real.shutdown() }
        let transport = ClosureTransport { request, cap in
            guard request.url.port != cdn.port else { return try await real.send(request, maxBodyBytes: cap) }
            // A fetch has ended once its deadline is disarmed (only the CDN's is left armed), which happens after
            // its transport call returned: at the call's end it could still fire, for the very fetch that ended.
            defer { timeUp.fetchEnded { cdn.requests.count >= 1 && clock.scheduler.pendingCount <= 1 } }
            return try await real.send(request, maxBodyBytes: cap)
        }
        let doctor = LinkDoctor(
            configuration: .init(
                timeout: .seconds(600), policy: ResolutionPolicy(allowsHTTP: true, allowsLocalHosts: true),
                appleCDNBaseURL: standIns.cdn.baseURL),
            transport: transport, clock: clock)
        let findings = await doctor.checkDomain(standIns.check())
        #expect(findings.codes == ["aasa.cdnUnavailable"], "\(findings)")
        #expect(findings.first?.message.contains("no answer within 600 s") == true)
        #expect(standIns.cdn.requests.count == 1)
    }

    /// A clock's sleep that returns only once the time is up: once `others` fetches have ended and `ready` holds
    /// (checked every millisecond, for at most a minute), the time is up for every deadline still armed (the
    /// deadline scheduler sleeps once for all of them), and before, for none. `ready` is polled because a fetch's
    /// deadline is disarmed after its transport call returns, and the scheduler has no event for that; an event for
    /// tests alone would cost every resolution's disarm a check.
    final class TimeUpAfterOthers: Sendable {
        private struct State {
            var ended = 0
            var isUp = false
            var sleepers: [Int: CheckedContinuation<Void, any Error>] = [:]
            var nextID = 0
        }

        private let state = Mutex(State())
        private let others: Int

        init(others: Int) {
            self.others = others
        }

        /// Counts a fetch that ended; after the last of the others, the time is up as soon as `ready` holds.
        func fetchEnded(ready: @escaping @Sendable () -> Bool) {
            let last = state.withTrackedLock { state -> Bool in
                state.ended += 1
                return state.ended == others
            }
            guard last else { return }
            Task {
                let start = ContinuousClock.now
                while !ready(), ContinuousClock.now - start < .seconds(60) {
                    try? await Task.sleep(for: .milliseconds(1))
                }
                let due = state.withTrackedLock { state -> [CheckedContinuation<Void, any Error>] in
                    state.isUp = true
                    defer { state.sleepers.removeAll() }
                    return Array(state.sleepers.values)
                }
                for sleeper in due { sleeper.resume() }
            }
        }

        /// Returns once the time is up; throws `CancellationError` when cancelled first.
        func sleep() async throws {
            let id = state.withTrackedLock { state in
                state.nextID += 1
                return state.nextID
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let now = state.withTrackedLock { state -> Bool in
                        if state.isUp { return true }
                        state.sleepers[id] = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let sleeper = state.withTrackedLock { $0.sleepers.removeValue(forKey: id) }
                sleeper?.resume(throwing: CancellationError())
            }
        }
    }

    @Test func theAndroidFileIsCheckedForItsPackageAndFingerprints() async throws {
        let standIns = try StandIns()
        let check = { (fingerprints: [String]) in standIns.check(android: true, fingerprints: fingerprints) }
        // Lower case without colons is the same fingerprint.
        let plain = Fixtures.fingerprint.replacingOccurrences(of: ":", with: "").lowercased()
        #expect(await standIns.doctor().checkDomain(check([plain])).isEmpty)

        let other = Array(repeating: "CD", count: 32).joined(separator: ":")
        let sha1 = Array(repeating: "AB", count: 20).joined(separator: ":")
        let missing = await standIns.doctor().checkDomain(check([other, sha1]))
        #expect(missing.codes == ["assetlinks.fingerprintMissing", "assetlinks.fingerprintMissing"])
        #expect(missing[0].message.contains("does not list \(other)"))
        #expect(missing[1].message.contains("SHA-1"))

        standIns.files.serve(Fixtures.assetLinks(package: "com.example.other"), at: AssociationFileServer.assetLinksPath)
        #expect(await standIns.doctor().checkDomain(check([])).codes == ["assetlinks.packageMissing"])
    }

    /// A location that does not answer 200 is what it answered, then `assetlinks.unreachable`: the one location
    /// of the Android file, as the two of the AASA.
    @Test(arguments: [
        ("redirect", ["assetlinks.redirect", "assetlinks.unreachable"]),
        ("status", ["assetlinks.status", "assetlinks.unreachable"]),
        ("missing", ["assetlinks.status", "assetlinks.unreachable"]),
        ("html", ["assetlinks.contentType"]), ("object", ["assetlinks.invalid"]), ("drop", ["assetlinks.unreachable"]),
    ])
    func androidFileProblemsHaveTheirCodes(_ problem: String, _ codes: [String]) async throws {
        let standIns = try StandIns()
        let path = AssociationFileServer.assetLinksPath
        switch problem {
        case "redirect": standIns.files.redirect(path, to: "https://www.example.com/assetlinks.json")
        case "status": standIns.files.serve("gone", at: path, status: 410, contentType: "text/plain")
        case "html": standIns.files.serve(Fixtures.assetLinks(), at: path, contentType: "text/html")
        case "object": standIns.files.serve(#"{"relation": []}"#, at: path)
        case "missing": standIns.files.remove(path)
        default: standIns.files.answer(.resetConnection, at: path)
        }
        let findings = await standIns.doctor().checkDomain(standIns.check(android: true))
        #expect(findings.codes == codes)
        #expect(findings.allSatisfy { $0.subject == standIns.url(path) })
        #expect(findings.allSatisfy { $0.severity == ($0.code == .assetlinksContentType ? .warning : .error) })
    }
}

/// The per-fetch deadline and the codes that need a hand-made answer, through injected transports and clocks (the
/// doctor's own TLS checks off: these hosts stand for the network and must never be reached).
struct LinkDoctorInjectedTests {
    @Test func theDeadlineIsMeasuredOnTheInjectedClock() async {
        // A transport that never answers, and a clock whose sleep ends at once: every fetch times out, without
        // waiting for real time.
        let transport = ClosureTransport { _, _ in
            try await Task.sleep(for: .seconds(3600))
            return TransportResponse(statusCode: 200)
        }
        // Time stands still on it, so every deadline it is asked to sleep to is the start plus the timeout.
        let start = ContinuousClock.now
        let asked = Mutex<[ContinuousClock.Instant]>([])
        let clock = ClosureClock(now: { start }, sleep: { deadline in asked.withTrackedLock { $0.append(deadline) } })
        let doctor = LinkDoctor(configuration: .init(timeout: .seconds(3600), checksTLS: false), transport: transport, clock: clock)
        let findings = await doctor.checkDomain(DomainCheck(domain: "news.example.com", appIDs: [Fixtures.app]))
        #expect(!asked.withTrackedLock { $0.isEmpty })
        #expect(asked.withTrackedLock { $0.allSatisfy { $0 == start + .seconds(3600) } })
        #expect(findings.codes == ["aasa.unreachable", "aasa.cdnUnavailable"])
        #expect(findings.allSatisfy { $0.message.contains("no answer within 3600 s") })
    }

    /// Android's verifier waits 5 s; an `assetlinks.json` slower than that does not verify on a device,
    /// whatever the doctor's own (longer) timeout, while the AASA fetches keep the doctor's.
    @Test func theAssetLinksFetchGivesUpAfterAndroidsFiveSeconds() async {
        let transport = ClosureTransport { _, _ in
            try await Task.sleep(for: .seconds(3600))
            return TransportResponse(statusCode: 200)
        }
        let clock = ClosureClock(now: { ContinuousClock.now }, sleep: { _ in })
        let doctor = LinkDoctor(configuration: .init(timeout: .seconds(3600), checksTLS: false), transport: transport, clock: clock)
        let findings = await doctor.checkDomain(DomainCheck(
            domain: "news.example.com", appIDs: [Fixtures.app], androidPackage: "com.example.app",
            fingerprints: [Fixtures.fingerprint]))
        let assetLinks = findings.first(.assetlinksUnreachable)
        #expect(assetLinks?.message.contains("no answer within 5 s") == true, "\(findings)")
        #expect(findings.first(.aasaUnreachable)?.message.contains("no answer within 3600 s") == true)
    }

    /// Operators read `within 10 s`, not `within 9.999969194 s`.
    @Test(arguments: [
        (Duration.milliseconds(250), "250 ms"), (.milliseconds(1500), "1.5 s"), (.seconds(10) - .microseconds(31), "10 s"),
        (.seconds(2), "2 s"),
    ])
    func durationsInMessagesAreRounded(_ timeout: Duration, _ shown: String) async {
        let transport = ClosureTransport { _, _ in
            try await Task.sleep(for: .seconds(3600))
            return TransportResponse(statusCode: 200)
        }
        let clock = ClosureClock(now: { ContinuousClock.now }, sleep: { _ in })
        let doctor = LinkDoctor(configuration: .init(timeout: timeout, checksTLS: false), transport: transport, clock: clock)
        let findings = await doctor.checkDomain(DomainCheck(domain: "news.example.com", appIDs: [Fixtures.app]))
        #expect(findings.first(.aasaUnreachable)?.message.contains("no answer within \(shown))") == true, "\(findings)")
    }

    @Test func onlyAFetchWithNoAnswerAtAllIsSentAgainAndThenOnAFreshConnection() async {
        let sent = Mutex<[Bool]>([])
        let transport = ClosureTransport { request, _ in
            guard request.url.path == "/.well-known/apple-app-site-association" else { return TransportResponse(statusCode: 404) }
            let attempt = sent.withTrackedLock { sent in
                sent.append(request.allowsReusedConnection)
                return sent.count
            }
            // The ordinary fetch loses its connection before any answer; Apple's fetcher's fails after one.
            if attempt == 1 { throw TransportError(.noAnswer, detail: "the connection closed before an answer") }
            if attempt == 3 { throw TransportError(.failedAfterAnswer, detail: "reset after the status line") }
            return TransportResponse(
                statusCode: 200, headerFields: ["Content-Type": "application/json"], body: Data(Fixtures.responsysAASA.utf8))
        }
        let doctor = LinkDoctor(configuration: .init(timeout: .seconds(600), checksTLS: false), transport: transport, clock: StandIns.frozen)
        let findings = await doctor.checkDomain(DomainCheck(domain: "news.example.com", appIDs: [Fixtures.app]))
        #expect(sent.withTrackedLock { $0 } == [true, false, true])
        #expect(findings.codes.contains("aasa.botBlocked"))
        #expect(!findings.codes.contains("aasa.unreachable"))
    }

    @Test func theDomainIsRequestedLowerCasedWithoutItsTrailingDotAtTheOriginAndOnTheCDN() async {
        let requested = Mutex<[String]>([])
        let transport = ClosureTransport { request, _ in
            requested.withTrackedLock { $0.append(request.url.absoluteString) }
            return TransportResponse(statusCode: 404)
        }
        let doctor = LinkDoctor(configuration: .init(timeout: .seconds(600), checksTLS: false), transport: transport, clock: StandIns.frozen)
        let findings = await doctor.checkDomain(DomainCheck(domain: "News.Example.COM.", appIDs: [Fixtures.app]))
        #expect(Set(requested.withTrackedLock { $0 }) == [
            "https://news.example.com/.well-known/apple-app-site-association",
            "https://news.example.com/apple-app-site-association",
            "https://app-site-association.cdn-apple.com/a/v1/news.example.com",
        ])
        #expect(findings.first(.aasaCdnUnavailable)?.subject == "https://app-site-association.cdn-apple.com/a/v1/news.example.com")
    }

    @Test func theBodyCapsAreTheAASAAndAssetLinksLimitsAndLintWarningsAreCarried() async {
        let caps = Mutex<[String: Int]>([:])
        let transport = ClosureTransport { request, cap in
            caps.withTrackedLock { $0[request.url.path] = cap }
            if request.url.path.hasSuffix("assetlinks.json") {
                throw TransportError(.bodyTooLarge, detail: "over the cap")
            }
            // An unknown key is a warning of the checker, not an error.
            let body = #"{"applinks": {"details": [{"appIDs": ["\#(Fixtures.app)"], "components": [{"/": "/pub/acc", "colour": 1}]}]}}"#
            return TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let doctor = LinkDoctor(
            // A deadline far beyond what a full parallel run under a sanitizer stalls a test: fetches end by the
            // transport, not by time.
            configuration: .init(timeout: .seconds(3600), appleCDNBaseURL: URL(string: "https://cdn.example.net")!, checksTLS: false),
            transport: transport,
            clock: StandIns.frozen)
        var check = DomainCheck(domain: "news.example.com", appIDs: [Fixtures.app], androidPackage: "com.example.app")
        check.expectOpen = ["https://news.example.com/pub/acc?x=1"]
        let findings = await doctor.checkDomain(check)
        let aasaCap = 128 * 1024 + 1
        let expected: [String: Int] = [
            "/.well-known/apple-app-site-association": aasaCap, "/apple-app-site-association": aasaCap,
            "/a/v1/news.example.com": aasaCap, "/.well-known/assetlinks.json": 1024 * 1024,
        ]
        let seen = caps.withTrackedLock { $0 }
        #expect(seen == expected)
        #expect(findings.codes.contains("aasa.lint"))
        #expect(findings.first(.aasaLint)?.severity == .warning)
        #expect(findings.codes.contains("assetlinks.tooLarge"))
        #expect(!findings.contains { $0.severity == .error && $0.code != .assetlinksTooLarge })
    }

    @Test func aNonURLOnTheBrandedDomainIsMalformed() async {
        let doctor = LinkDoctor(transport: ClosureTransport { _, _ in TransportResponse(statusCode: 404) }, clock: StandIns.frozen)
        let report = await doctor.checkCampaign(CampaignCheck(
            html: #"<a href="https://news.example.com/pub/acc">ok</a><a href="https://[news.example.com/x">bad</a>"#,
            appIDs: [Fixtures.app], association: try? AppSiteAssociation(parsing: Fixtures.responsysAASA)))
        #expect(report.links.map { $0.findings.map(\.code.rawValue) } == [[], ["link.malformed"]])
    }
}
