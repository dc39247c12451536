import Foundation
import LinkRouting
import UniversalLinkKit
import UniversalLinkKitTesting

/// `linux-host` / `linux-host demo`: the story a new user needs to see, against an embedded loopback stub.
///
/// Every step states what should happen and checks it; the demo exits 1 if any step does not behave as
/// described, so it doubles as CI's smoke test.
enum DemoCommand {
    struct Step {
        var title: String
        /// The link or payload the step hands over, as a user would see it.
        var input: String
        /// Why the step posts no notification, in a few words (for the closing count); nil when it posts one.
        var silentBecause: String? = nil
        /// Whether the step shows the deadline firing: only such a step runs under the short demo deadline, so the
        /// others hold on a slow machine (a sanitizer-built binary is about ten times slower).
        var demonstratesTimeout = false
        var act: (LinkManager, URL) -> LinkHandle
        /// Checks the outcome; returns the sentence that explains it, or nil when it is not as described.
        var check: (LinkHandle, LinkOutcome) -> String?
    }

    static let command = Command(
        name: "demo",
        summary: "Tells the whole story against an embedded loopback stub: every step says what should happen and checks it.",
        details: "Exit status: 0 when every step behaved as described, 1 otherwise (the last line says which did not).",
        run: { _ in await run() })

    static let domain = "news.example.com"
    /// The deadline of the step that shows a server that never answers: short, so the demo does not wait long.
    static let shortDeadline = Duration.milliseconds(1500)
    /// The deadline of every other step: the library's default, ample even for a sanitizer-built binary.
    static let deadline = Duration.seconds(10)

    static func run() async -> Int32 {
        let stub: ResponseHandlerStub
        do {
            stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        } catch {
            Console.err("linux-host: demo: \(error)")
            return 1
        }
        defer { stub.shutdown() }
        for (target, behavior) in ResponseHandlerStub.demoBehaviors {
            stub.enqueue([behavior], for: target)
        }

        Console.out("""
            UniversalLinkKit demo

            Responsys rewrites every link of a marketing email into a click-tracking link on the account's branded
            domain, here https://\(domain). Such a "pub-web" link has the path /pub/acc (an app link: iOS opens the
            app) or /pub/cc (always the web). The Response Handler is Responsys' server behind that domain: asked
            for a tracking link with Accept: application/json, it counts the click and answers where the link goes,
            on the web (webLinkUrl) and in the app (mobileDeepLinkUrl, often null). executeRsysWebURL is the SDK
            switch for links tapped inside in-app messages: on, they are resolved like email links; off, they go to
            the browser.

            Here a Response Handler stub on \(stub.baseURL.absoluteString) stands in for https://\(domain). Every
            handled link is broadcast once as PIORsysWebURLResolvedNotification; the observer below prints each one
            as it arrives.

            """)

        var configuration = LinkManager.Configuration()
        configuration.policy.brandedDomains = [domain]
        configuration.timeout = deadline
        let center = NotificationCenter()
        let observer = HostObserver(center: center, printing: .asItArrives)  // registered before any link is handed over
        defer { observer.stop() }
        let opener = URLOpener { url in
            Console.out("  opener <- \(url.absoluteString)")
            return true
        }
        let transport = StubHostTransport(hosts: [domain], stub: stub)
        let router = makeRouter()
        let manager = LinkManager(
            configuration: configuration, transport: transport, notificationCenter: center, opener: opener, router: router)
        // The same parts, with the short deadline, for the step that shows the deadline firing.
        var shortConfiguration = configuration
        shortConfiguration.timeout = shortDeadline
        let shortManager = LinkManager(
            configuration: shortConfiguration, transport: transport, notificationCenter: center, opener: opener,
            router: router)

        let steps = steps()
        var failed: [Int] = []
        for (index, step) in steps.enumerated() {
            Console.out("\(index + 1). \(step.title)")
            Console.out("  -> \(step.input)")
            guard let url = LinkInput.url(urlText(of: step.input)) else {
                failed.append(index + 1)
                Console.out("  => UNEXPECTED: '\(step.input)' is not a URL\n")
                continue
            }
            let stepManager = step.demonstratesTimeout ? shortManager : manager
            let handle = step.act(stepManager, url)
            let outcome = await handle.outcome
            // Notifications are delivered on the broadcaster's queue: let the observer print this step's first.
            await stepManager.waitUntilIdle()
            let notified = outcome.resolvedLink != nil && !handle.isDuplicate
            if let explanation = step.check(handle, outcome), notified == (step.silentBecause == nil) {
                Console.out("  => \(explanation)\n")
            } else {
                failed.append(index + 1)
                Console.out("  => UNEXPECTED: handled \(handle.isHandled), duplicate \(handle.isDuplicate), \(outcome)\n")
            }
        }
        let silent = steps.compactMap(\.silentBecause)
        Console.out("""
            \(observer.count) notifications for \(steps.count) steps: every step posts one except \(silent.count) \
            (\(silent.joined(separator: "; "))).
            \(stub.requests.count) requests reached the stub: one per link resolved, none for the duplicate, the links that are not pub-web app links, the in-app link with \
            executeRsysWebURL off, nor the refused host.
            """)
        guard failed.isEmpty else {
            let list = failed.map(String.init).joined(separator: ", ")
            Console.out("Verdict: \(failed.count) of \(steps.count) steps did not behave as described (step \(list)).")
            Console.err("linux-host: demo: \(failed.count) step(s) did not behave as described: \(list)")
            return 1
        }
        Console.out("Verdict: all \(steps.count) steps behaved as described.")
        Console.out("Next: `swift run linux-host serve` and `linux-host resolve --allow-loopback --allow-http URL`; see README.md.")
        return 0
    }

    /// The URL a step's input names: the input itself, or the `"u"` of a push payload.
    private static func urlText(of input: String) -> String {
        guard input.hasPrefix("{"),
              let payload = (try? JSONSerialization.jsonObject(with: Data(input.utf8))) as? [String: Any],
              let link = payload["u"] as? String
        else { return input }
        return link
    }

    /// The app's routes: deep-link routes and a host-aware universal-link route in a group that can be switched off.
    ///
    /// Each handler prints its pattern as it is written, so a host-aware route shows its host.
    static func makeRouter() -> LinkRouter {
        let router = LinkRouter()
        func add(_ pattern: String, namespace: RouteNamespace = .global, group: String? = nil, key: String) {
            router.addRoute(pattern, namespace: namespace, group: group) { parameters in
                Console.out("  router -> \(pattern), \(key) = \(parameters[key] ?? "")")
                return true
            }
        }
        add("/products/:productID", namespace: .scheme("example-app"), key: "productID")
        add("/offers/:offerID", namespace: .scheme("example-app"), key: "offerID")
        add("https://www.example.com/invites/:invite_code", group: "invites", key: "invite_code")
        return router
    }

    /// A tracking link on the demo's branded domain.
    static func link(_ query: String, path: String = "/pub/acc") -> String {
        "https://\(domain)\(path)?_ri_=\(query)"
    }

    static func steps() -> [Step] {
        [
            Step(
                title: "An email's app link whose campaign has a deep link (continueUserActivity)",
                input: link("product"),
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { _, outcome in
                    outcome.routedURL?.absoluteString == "example-app://products/1234"
                        ? "the click is counted and the deep link is routed to the product screen" : nil
                }
            ),
            Step(
                title: "The same link tapped again a moment later",
                input: link("product"),
                silentBecause: "the duplicate",
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { handle, _ in
                    handle.isDuplicate ? "a duplicate: no second request, no second click, no second notification" : nil
                }
            ),
            Step(
                title: "An app link whose deep link is null (the link table's app column is empty)",
                input: link("web-only"),
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { _, outcome in
                    let link = outcome.resolvedLink
                    return link?.deepLinkURL == nil && outcome.openedURL?.absoluteString == "https://www.example.com/sale"
                        ? "no deep link and no route for the web link: it goes to the opener" : nil
                }
            ),
            Step(
                title: "A non-app /pub/cc link arriving as a universal link",
                input: link("article", path: "/pub/cc"),
                silentBecause: "the /pub/cc link, not an app link",
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { handle, _ in
                    handle.isHandled ? nil : "not handled: /pub/cc links open the web, iOS would not open the app"
                }
            ),
            Step(
                title: "A plain web URL",
                input: "https://www.example.com/about",
                silentBecause: "the plain web URL, not a pub-web link",
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { handle, _ in handle.isHandled ? nil : "not handled: not a pub-web link, nothing is requested" }
            ),
            Step(
                title: "An in-app message hyperlink with executeRsysWebURL on",
                input: link("article", path: "/pub/cc"),
                act: { manager, url in
                    manager.executeRsysWebURL = true
                    return manager.inAppHyperlink(url)
                },
                check: { _, outcome in
                    outcome.resolvedLink?.webLinkURL?.absoluteString == "https://www.example.com/articles/42"
                        ? "resolved and notified; no route takes the article, so its web link goes to the opener" : nil
                }
            ),
            Step(
                title: "An in-app message hyperlink with executeRsysWebURL off",
                input: "https://www.example.com/terms",
                silentBecause: "the in-app link with executeRsysWebURL off, which goes to the browser",
                act: { manager, url in
                    manager.executeRsysWebURL = false
                    return manager.inAppHyperlink(url)
                },
                check: { _, outcome in
                    outcome.openedURL != nil && outcome.resolvedLink == nil
                        ? "handed to the opener (the browser on iOS), no notification" : nil
                }
            ),
            Step(
                title: "A push notification whose payload carries the link under \"u\"",
                input: #"{"aps": {"alert": "48h sale"}, "u": "\#(link("push-offer"))"}"#,
                act: { manager, url in
                    manager.executeRsysWebURL = true
                    return manager.remoteNotification(["aps": ["alert": "48h sale"], "u": url.absoluteString])
                },
                check: { _, outcome in
                    outcome.routedURL?.absoluteString == "example-app://offers/48h"
                        ? "a pub-web URL in a push is handled like an in-app hyperlink: resolved, notified, routed" : nil
                }
            ),
            Step(
                title: "An invitation link while the invitation-only launch is switched off (route group \"invites\" off)",
                input: link("invite"),
                act: { manager, url in
                    manager.router?.setGroup("invites", enabled: false)
                    return manager.handle(UserActivity(browsingWeb: url))
                },
                check: { _, outcome in
                    outcome.routedURL == nil && outcome.openedURL != nil
                        ? "a disabled route behaves as if absent: the web link goes to the opener" : nil
                }
            ),
            Step(
                title: "The same campaign's invitation once the group is switched on again, no new build needed",
                input: link("invite-again"),
                act: { manager, url in
                    manager.router?.setGroup("invites", enabled: true)
                    return manager.handle(UserActivity(browsingWeb: url))
                },
                check: { _, outcome in
                    outcome.routedURL?.absoluteString == "https://www.example.com/invites/ABC123"
                        ? "no deep link, so the web link is routed by the host-aware invitation route" : nil
                }
            ),
            Step(
                title: "A link the server fails to resolve (HTTP 500)",
                input: link("broken"),
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { _, outcome in
                    outcome.resolvedLink?.error?.code == .httpStatus
                        ? "one notification with error httpStatus: not retried (the click may have counted); open the web" : nil
                }
            ),
            Step(
                title: "A server that never answers (deadline 1.5 s in this demo, 10 s by default)",
                input: link("slow"),
                demonstratesTimeout: true,
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { _, outcome in
                    outcome.resolvedLink?.error?.code == .timeout
                        ? "one notification with error timeout, on time: the library enforces the deadline itself" : nil
                }
            ),
            Step(
                title: "A tracking link on a domain that is not the account's",
                input: "https://evil.example.org/pub/acc?_ri_=x",
                act: { $0.handle(UserActivity(browsingWeb: $1)) },
                check: { _, outcome in
                    outcome.resolvedLink?.error?.code == .hostNotAllowed
                        ? "hostNotAllowed, and no request was made: the backend is not a proxy for arbitrary URLs" : nil
                }
            ),
        ]
    }
}
