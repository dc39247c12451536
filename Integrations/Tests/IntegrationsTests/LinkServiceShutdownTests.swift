import Foundation
import Testing
import UniversalLinkKitTesting

/// `link-service`'s shutdown as an orchestrator drives it, and its refusal of an address already in use: the built
/// binary, signals, real connections.
@Suite(.serialized)
struct LinkServiceShutdownTests {
    /// SIGTERM with a drain: `/readyz` fails at once while links are still resolved, then new links are refused and
    /// the one in flight gets the grace period; the process exits 0 within drain + grace + 1 s.
    @Test(.timeLimit(.minutes(1)))
    func afterSIGTERMReadyzFailsAtOnceWhileLinksAreStillResolvedForTheDrainPeriod() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        let (drain, grace) = (2.0, 1.0)
        let service = try ServiceProcess(environment: LinkServiceProcessTests.local.merging([
            "ULK_DRAIN_SECONDS": "\(drain)", "ULK_SHUTDOWN_GRACE_SECONDS": "\(grace)", "ULK_DUPLICATE_WINDOW_SECONDS": "0",
        ]) { $1 })
        defer { service.stop() }
        let port = try await service.port()
        let base = "http://127.0.0.1:\(port)"
        let body = { (key: String) in #"{"url": "\#(stub.url("/pub/acc?_ri_=\(key)").absoluteString)"}"# }

        let signalled = ContinuousClock.now
        service.signal(SIGTERM)
        #expect(await service.waitForLine(containing: "shutdown started"))
        let readyz = try await LinkServiceProcessTests.request(base + "/readyz")
        #expect(readyz.status == 503)
        #expect(ContinuousClock.now - signalled < .milliseconds(500), "readyz failed \(ContinuousClock.now - signalled) after SIGTERM")
        #expect(try await LinkServiceProcessTests.request(base + "/healthz").status == 200)
        // Still resolved while the load balancer catches up.
        let during = try await LinkServiceProcessTests.request(base + "/resolve", body: body("deep"))
        #expect(String(decoding: during.body, as: UTF8.self).contains(#""deepLinkURL":"example-app://products/1""#))
        #expect(!service.log.contains("drain finished"), "the drain ended before the link was resolved: \(service.log)")

        // A link still in flight when the drain ends keeps the server up for the grace period; without one it
        // would stop at once, and a new link would find no listener rather than the 503.
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=hang")
        let hangingBody = body("hang")
        let hanging = Task { try await LinkServiceProcessTests.request(base + "/resolve", body: hangingBody, timeout: 30) }
        #expect(await stub.waitForRequests(2))

        #expect(await service.waitForLine(containing: "drain finished"))
        let after = try await LinkServiceProcessTests.request(base + "/resolve", body: body("web"))
        let json = try #require(try JSONSerialization.jsonObject(with: after.body) as? [String: Any])
        #expect((json["error"] as? [String: Any])?["code"] as? String == "shuttingDown")
        _ = try? await hanging.value
        #expect(await service.exitStatus() == 0)
        let elapsed = ContinuousClock.now - signalled
        #expect(elapsed < .seconds(drain + grace + 1), "SIGTERM to exit: \(elapsed)")
        #expect(elapsed >= .seconds(drain))
        #expect(service.log.contains("shutdown.drain=2 s"))
    }

    /// A link in flight when the grace period ends was already sent: its answer says so, not "retry as if nothing
    /// happened".
    @Test(.timeLimit(.minutes(1)))
    func aLinkCutAtTheEndOfTheGracePeriodIsToldTheClickMayAlreadyBeCounted() async throws {
        let stub = try ResponseHandlerStub(links: ServiceFixture.links)
        defer { stub.shutdown() }
        stub.enqueue([.noResponse], for: "/pub/acc?_ri_=deep")
        let service = try ServiceProcess(environment: LinkServiceProcessTests.local.merging([
            "ULK_TIMEOUT_SECONDS": "60", "ULK_SHUTDOWN_GRACE_SECONDS": "0.5",
        ]) { $1 })
        defer { service.stop() }
        let port = try await service.port()
        let body = #"{"url": "\#(stub.url("/pub/acc?_ri_=deep").absoluteString)"}"#
        let request = Task { try await LinkServiceProcessTests.request("http://127.0.0.1:\(port)/resolve", body: body, timeout: 90) }
        #expect(await stub.waitForRequests(1))
        service.signal(SIGTERM)
        let (status, data) = try await request.value
        #expect(status == 200)
        let error = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "shuttingDown")
        let message = try #require(error["message"] as? String)
        #expect(message.contains("may already be counted"), "\(message)")
        #expect(message.contains("Retry once"), "\(message)")
        #expect(await service.exitStatus() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aPortInUseIsOneLineNamingHostAndPortAndExitTwo() async throws {
        let taken = try SilentListener()
        defer { taken.close() }
        let service = try ServiceProcess(environment: LinkServiceProcessTests.local.merging(["PORT": "\(taken.port)"]) { $1 })
        defer { service.stop() }
        #expect(await service.exitStatus() == 2)
        let log = await service.finalLog()
        let lines = log.split(separator: "\n")
        #expect(lines.count == 1, "\(log)")
        #expect(log.hasPrefix("link-service: PORT: 127.0.0.1:\(taken.port) is already in use"), "\(log)")
        #expect(!log.contains("shutdown"))
    }
}
