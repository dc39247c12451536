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
        var input: String
        var act: (LinkManager) -> LinkHandle
        /// Checks the outcome; returns the sentence that explains it, or nil when it is not as described.
        var check: (LinkHandle, LinkOutcome) -> String?
    }

    static let domain = "news.example.com"

    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.isEmpty else { return Console.usageError("demo takes no arguments") }
        let stub: ResponseHandlerStub
        do {
            stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks)
        } catch {
            Console.err("linux-host: demo: \(error)")
            return 1
        }
        defer { stub.shutdown() }
        stub.enqueue([.status(500, body: "internal error")], for: "/pub/acc?_ri_=broken")
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=slow")
        stub.setLink(
            .init(webLinkUrl: "https://www.example.com/offers/48h", mobileDeepLinkUrl: "example-app://offers/48h"),
            for: "/pub/acc?_ri_=push-offer")
        for key in ["/pub/acc?_ri_=invite", "/pub/acc?_ri_=invite-again"] {
            stub.setLink(.init(webLinkUrl: "https://www.example.com/invites/ABC123", mobileDeepLinkUrl: nil), for: key)
        }

        Console.out("""
            UniversalLinkKit demo
            A Response Handler stub on \(stub.baseURL.absoluteString) stands in for https://\(domain), the branded
            click-tracking domain of a Responsys account. Every handled link is broadcast once as
            PIORsysWebURLResolvedNotification; the observer below prints each one as it arrives.

            """)

        var configuration = LinkManager.Configuration()
        configuration.resolution.policy.brandedDomains = [domain]
        configuration.resolution.timeout = .milliseconds(1500)
        let center = NotificationCenter()
        let observer = HostObserver(center: center, printing: true)  // registered before any link is handed over
        defer { observer.stop() }
        let opener = URLOpener { url in
            Console.out("  opener <- \(url.absoluteString)")
            return true
        }
        let manager = LinkManager(
            configuration: configuration,
            transport: StubHostTransport(hosts: [domain], stub: stub),
            notificationCenter: center,
            opener: opener,
            router: makeRouter()
        )

        var failures = 0
        for (number, step) in steps().enumerated() {
            Console.out("\(number + 1). \(step.title)")
            Console.out("  -> \(step.input)")
            let handle = step.act(manager)
            let outcome = await handle.outcome
            if let explanation = step.check(handle, outcome) {
                Console.out("  => \(explanation)\n")
            } else {
                failures += 1
                Console.out("  => UNEXPECTED: handled \(handle.isHandled), duplicate \(handle.isDuplicate), \(outcome)\n")
            }
        }
        Console.out("\(observer.count) notifications for \(steps().count) steps; \(stub.requestCount) requests reached the stub.")
        if failures > 0 {
            Console.err("linux-host: demo: \(failures) step(s) did not behave as described")
            return 1
        }
        Console.out("Next: `swift run linux-host serve` and `linux-host resolve --allow-loopback --allow-http URL`; see README.md.")
        return 0
    }

    /// The app's routes: a deep-link route and a host-aware universal-link route in a group that can be switched off.
    static func makeRouter() -> LinkRouter {
        let router = LinkRouter()
        router.addRoute("/products/:productID", namespace: .scheme("example-app")) { parameters in
            Console.out("  router -> products/:productID, productID = \(parameters["productID"] ?? "")")
            return true
        }
        router.addRoute("/offers/:offerID", namespace: .scheme("example-app")) { parameters in
            Console.out("  router -> offers/:offerID, offerID = \(parameters["offerID"] ?? "")")
            return true
        }
        router.addRoute("https://www.example.com/invites/:invite_code", group: "invites") { parameters in
            Console.out("  router -> invites/:invite_code, invite_code = \(parameters["invite_code"] ?? "")")
            return true
        }
        return router
    }

    static func link(_ query: String, path: String = "/pub/acc") -> URL {
        URL(string: "https://\(domain)\(path)?_ri_=\(query)")!
    }

    static func steps() -> [Step] {
        [
            Step(
                title: "An email's app link whose campaign has a deep link (continueUserActivity)",
                input: link("product").absoluteString,
                act: { $0.handle(UserActivity(browsingWeb: link("product"))) },
                check: { _, outcome in
                    outcome.routedURL?.absoluteString == "example-app://products/1234"
                        ? "the click is counted and the deep link is routed to the product screen" : nil
                }
            ),
            Step(
                title: "The same link tapped again a moment later",
                input: link("product").absoluteString,
                act: { $0.handle(UserActivity(browsingWeb: link("product"))) },
                check: { handle, _ in
                    handle.isDuplicate ? "a duplicate: no second request, no second click, no second notification" : nil
                }
            ),
            Step(
                title: "An app link whose deep link is null (the link table's app column is empty)",
                input: link("web-only").absoluteString,
                act: { $0.handle(UserActivity(browsingWeb: link("web-only"))) },
                check: { _, outcome in
                    let link = outcome.resolvedLink
                    return link?.deepLinkURL == nil && outcome.openedURL?.absoluteString == "https://www.example.com/sale"
                        ? "no deep link and no route for the web link: it goes to the opener" : nil
                }
            ),
            Step(
                title: "A non-app /pub/cc link arriving as a universal link",
                input: link("article", path: "/pub/cc").absoluteString,
                act: { $0.handle(UserActivity(browsingWeb: link("article", path: "/pub/cc"))) },
                check: { handle, _ in
                    handle.isHandled ? nil : "not handled: /pub/cc links open the web, iOS would not open the app"
                }
            ),
            Step(
                title: "A plain web URL",
                input: "https://www.example.com/about",
                act: { $0.handle(UserActivity(browsingWeb: URL(string: "https://www.example.com/about")!)) },
                check: { handle, _ in handle.isHandled ? nil : "not handled: not a pub-web link, nothing is requested" }
            ),
            Step(
                title: "An in-app message hyperlink with executeRsysWebURL on",
                input: link("article", path: "/pub/cc").absoluteString,
                act: { manager in
                    manager.executeRsysWebURL = true
                    return manager.handleInAppHyperlink(link("article", path: "/pub/cc"))
                },
                check: { _, outcome in
                    outcome.resolvedLink?.webLinkURL?.absoluteString == "https://www.example.com/articles/42"
                        ? "resolved and notified; no route takes the article, so its web link goes to the opener" : nil
                }
            ),
            Step(
                title: "An in-app message hyperlink with executeRsysWebURL off",
                input: "https://www.example.com/terms",
                act: { manager in
                    manager.executeRsysWebURL = false
                    return manager.handleInAppHyperlink(URL(string: "https://www.example.com/terms")!)
                },
                check: { _, outcome in
                    outcome.openedURL != nil && outcome.resolvedLink == nil
                        ? "handed to the opener (the browser on iOS), no notification" : nil
                }
            ),
            Step(
                title: "A push notification whose payload carries the link under \"u\"",
                input: #"{"aps": {"alert": "48h sale"}, "u": "\#(link("push-offer").absoluteString)"}"#,
                act: { manager in
                    manager.executeRsysWebURL = true
                    return manager.didReceiveRemoteNotification(["aps": ["alert": "48h sale"], "u": link("push-offer").absoluteString])
                },
                check: { _, outcome in
                    outcome.routedURL?.absoluteString == "example-app://offers/48h"
                        ? "a pub-web URL in a push is handled like an in-app hyperlink: resolved, notified, routed" : nil
                }
            ),
            Step(
                title: "An invitation link while the invitation-only launch is switched off (route group \"invites\" off)",
                input: link("invite").absoluteString,
                act: { manager in
                    manager.router?.setGroup("invites", enabled: false)
                    return manager.handle(UserActivity(browsingWeb: link("invite")))
                },
                check: { _, outcome in
                    outcome.routedURL == nil && outcome.openedURL != nil
                        ? "a disabled route behaves as if absent: the web link goes to the opener" : nil
                }
            ),
            Step(
                title: "The same campaign's invitation once the group is switched on again, no new build needed",
                input: link("invite-again").absoluteString,
                act: { manager in
                    manager.router?.setGroup("invites", enabled: true)
                    return manager.handle(UserActivity(browsingWeb: link("invite-again")))
                },
                check: { _, outcome in
                    outcome.routedURL?.absoluteString == "https://www.example.com/invites/ABC123"
                        ? "no deep link, so the web link is routed by the host-aware invitation route" : nil
                }
            ),
            Step(
                title: "A link the server fails to resolve (HTTP 500)",
                input: link("broken").absoluteString,
                act: { $0.handle(UserActivity(browsingWeb: link("broken"))) },
                check: { _, outcome in
                    outcome.resolvedLink?.error?.code == .httpStatus
                        ? "one notification with error httpStatus: not retried (the click may have counted); open the web" : nil
                }
            ),
            Step(
                title: "A server that never answers (deadline 1.5 s in this demo, 10 s by default)",
                input: link("slow").absoluteString,
                act: { $0.handle(UserActivity(browsingWeb: link("slow"))) },
                check: { _, outcome in
                    outcome.resolvedLink?.error?.code == .timeout
                        ? "one notification with error timeout, on time: the library enforces the deadline itself" : nil
                }
            ),
            Step(
                title: "A tracking link on a domain that is not the account's",
                input: "https://evil.example.org/pub/acc?_ri_=x",
                act: { $0.handle(UserActivity(browsingWeb: URL(string: "https://evil.example.org/pub/acc?_ri_=x")!)) },
                check: { _, outcome in
                    outcome.resolvedLink?.error?.code == .hostNotAllowed
                        ? "hostNotAllowed, and no request was made: the backend is not a proxy for arbitrary URLs" : nil
                }
            ),
        ]
    }
}
