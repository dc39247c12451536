import Foundation
import LinkRouting
import Testing
import UniversalLinkKitTesting
@testable import UniversalLinkKit

/// Many tasks use one manager and one router at once. Run under `swift test --sanitize=thread` this is the race
/// detector's workload; in any build it checks the counts a user relies on: one request and one notification per
/// distinct link, one route per resolved link, no lost or doubled routes.
struct ConcurrencyStressTests {
    static let distinctLinks = 80
    static let repeats = 4
    static let addedRoutes = 80
    static let directRoutings = 100

    static func trackingURL(_ n: Int) -> URL {
        URL(string: "https://news.example.com/pub/acc?_ri_=\(n)&_ei_=stress")!
    }

    /// Answers every link with its own deep link after a short random pause, so resolutions overlap.
    static func transport(counting requests: Tally) -> ClosureTransport {
        ClosureTransport { request, _ in
            requests.add(request.url.absoluteString)
            try await Task.sleep(for: .microseconds(Int.random(in: 0...3_000)))
            let query = request.url.query(percentEncoded: true) ?? ""
            let id = query.split(separator: "&").first { $0.hasPrefix("_ri_=") }.map { String($0.dropFirst(5)) } ?? "?"
            let body = #"{"webLinkUrl":"https://www.example.com/products/\#(id)","mobileDeepLinkUrl":"example-app://products/\#(id)"}"#
            return TransportResponse(statusCode: 200, headerFields: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func activatingRoutingAddingRoutesAndTogglingDeliveryAtOnceLosesAndDoublesNothing() async throws {
        let requests = Tally()
        let routedProducts = Tally()
        let routedDirect = Tally()
        let routedAdded = Tally()
        let router = LinkRouter()
        router.addRoute("/products/:id", namespace: .scheme("example-app")) { parameters in
            routedProducts.add(parameters["id"] ?? "")
            return true
        }
        router.addRoute("/direct/:n", namespace: .scheme("stress")) { parameters in
            routedDirect.add(parameters["n"] ?? "")
            return true
        }
        let center = NotificationCenter()
        let recorder = NotificationRecorder(center: center)
        let manager = LinkManager(
            configuration: .init(duplicateWindow: .seconds(3_600), startsPaused: true),
            transport: Self.transport(counting: requests), notificationCenter: center, router: router)

        let handles = Collector<(n: Int, isDuplicate: Bool, outcome: LinkOutcome)>()
        let activations = (0..<Self.distinctLinks).flatMap { n in Array(repeating: n, count: Self.repeats) }.shuffled()
        await withTaskGroup(of: Void.self) { group in
            for n in activations {
                group.addTask {
                    let handle = manager.handle(UserActivity(browsingWeb: Self.trackingURL(n)))
                    handles.append((n, handle.isDuplicate, await handle.outcome))
                }
            }
            for k in 0..<Self.addedRoutes {
                group.addTask {
                    router.addRoute("/added/\(k)/:x", namespace: .scheme("stress")) { parameters in
                        routedAdded.add("\(k)/\(parameters["x"] ?? "")")
                        return true
                    }
                }
            }
            for n in 0..<Self.directRoutings {
                group.addTask { _ = router.route(URL(string: "stress://direct/\(n)")!) }
            }
            for k in 0..<60 {
                group.addTask {
                    if k.isMultiple(of: 2) { manager.isDeliveryPaused = true } else { manager.isDeliveryPaused = false }
                    _ = manager.isDeliveryPaused
                    _ = recorder.count
                    _ = router.canRoute(URL(string: "example-app://products/\(k)")!)
                    _ = router.diagnostics.count
                }
            }
        }
        manager.isDeliveryPaused = false
        let links = await recorder.wait(forCount: Self.distinctLinks, timeout: .seconds(600))

        // One notification per distinct link, none for the repeats.
        #expect(links.count == Self.distinctLinks)
        #expect(Set(links.map(\.requestedURL)) == Set((0..<Self.distinctLinks).map(Self.trackingURL)))
        #expect(links.allSatisfy { $0.error == nil })
        // One request per distinct link.
        #expect(requests.total == Self.distinctLinks)
        #expect(requests.all.values.allSatisfy { $0 == 1 })
        // Exactly one activation per link started the work; every repeat joined it and saw the same outcome.
        let all = handles.all
        #expect(all.count == activations.count)
        #expect(all.count { !$0.isDuplicate } == Self.distinctLinks)
        for n in 0..<Self.distinctLinks {
            let outcomes = all.filter { $0.n == n }.map { $0.outcome.with(isDuplicate: false) }
            #expect(outcomes.count == Self.repeats && Set(outcomes).count == 1, "link \(n)")
            #expect(outcomes.first?.routedURL == URL(string: "example-app://products/\(n)"), "link \(n)")
        }
        // One route per resolved link; every direct routing and every added route counted once.
        #expect(routedProducts.all == Dictionary(uniqueKeysWithValues: (0..<Self.distinctLinks).map { ("\($0)", 1) }))
        #expect(routedDirect.total == Self.directRoutings && routedDirect.all.count == Self.directRoutings)
        for k in 0..<Self.addedRoutes {
            #expect(router.route(URL(string: "stress://added/\(k)/v")!), "route \(k)")
        }
        #expect(routedAdded.all == Dictionary(uniqueKeysWithValues: (0..<Self.addedRoutes).map { ("\($0)/v", 1) }))
        // Nothing is left held, and nothing more arrives: every resolution and every delivery it caused is done.
        await manager.waitUntilIdle()
        #expect(recorder.count == Self.distinctLinks)
        #expect(!manager.isDeliveryPaused)
    }

    @Test(.timeLimit(.minutes(5)))
    func observersThatPauseAndResumeFromInsideDeliveryLoseNoNotification() async throws {
        let center = NotificationCenter()
        let manager = LinkManager(
            configuration: .init(duplicateWindow: .seconds(3_600)),
            transport: Self.transport(counting: Tally()), notificationCenter: center)
        let seen = Collector<URL>()
        let observer = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            if let link = ResolvedLink(notification: note) { seen.append(link.requestedURL) }
            // An observer calling back into the manager must neither deadlock nor lose what is queued.
            manager.isDeliveryPaused = true
            manager.isDeliveryPaused = false
        }
        defer { center.removeObserver(observer) }
        await withTaskGroup(of: Void.self) { group in
            for n in 0..<Self.distinctLinks {
                group.addTask { _ = await manager.handle(UserActivity(browsingWeb: Self.trackingURL(n))).outcome }
            }
        }
        await manager.waitUntilIdle()
        #expect(seen.all.count == Self.distinctLinks)
        #expect(Set(seen.all).count == Self.distinctLinks)
    }
}

extension LinkOutcome {
    /// The outcome with `isDuplicate` set, to compare what repeats of one click saw.
    func with(isDuplicate: Bool) -> LinkOutcome {
        var copy = self
        copy.isDuplicate = isDuplicate
        return copy
    }
}
