import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `linux-host serve`: the demo's story on loopback, a start table, one log line per request.
struct ServeCommandTests {
    @Test func serveShowsItsTableLogsEachRequestAndStopsOnCtrlC() async throws {
        let session = try HostSession(["serve"])
        let banner = try #require(await session.line { $0.hasPrefix("Response Handler stub listening on ") })
        let base = String(banner.dropFirst("Response Handler stub listening on ".count))
        var table: [String] = []
        while let line = await session.nextLine(), line != "Try:" { table.append(line) }
        for key in ["product", "web-only", "invite", "invite-again", "push-offer", "broken", "slow"] {
            #expect(table.contains { $0.contains("/pub/acc?_ri_=\(key) ") }, "no \(key) in \(table)")
        }
        #expect(table.contains { $0.contains("/pub/cc?_ri_=article") })

        let product = "\(base)/pub/acc?_ri_=product"
        let broken = "\(base)/pub/acc?_ri_=broken"
        let resolved = try await HostProcess.run(["resolve", "--json", "--allow-loopback", "--allow-http", product, broken])
        let lines = try resolved.jsonLines()
        #expect((lines.first?["notification"] as? [String: Any])?["PIOResolvedDeeplinkURL"] as? String == "example-app://products/1234")
        let error = ((lines.last?["notification"] as? [String: Any])?["PIOErrorResolveWebURL"] as? [String: Any])?["code"]
        #expect(error as? String == "httpStatus")

        // The two requests went out together: their lines come in either order.
        var logged: Set<String> = []
        while logged.count < 2, let line = await session.line(where: { $0.hasPrefix("GET ") }) { logged.insert(line) }
        #expect(logged == [
            "GET /pub/acc?_ri_=product Accept: application/json -> 200",
            "GET /pub/acc?_ri_=broken Accept: application/json -> 500",
        ])

        // What the stub really sent: it answers any method by its table (a POST too), and HEAD without a body.
        for method in ["POST", "HEAD"] {
            var request = URLRequest(url: try #require(URL(string: product)))
            request.httpMethod = method
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let client = URLSession(configuration: .ephemeral)
            defer { client.finishTasksAndInvalidate() }
            let (_, response) = try await client.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200, "\(method)")
        }
        let post = await session.line { $0.hasPrefix("POST ") }
        #expect(post == "POST /pub/acc?_ri_=product Accept: application/json -> 200")
        let head = await session.line { $0.hasPrefix("HEAD ") }
        #expect(head == "HEAD /pub/acc?_ri_=product Accept: application/json -> 200")

        #expect(await session.interrupt() == 0)
        let stopped = await session.line { $0.hasPrefix("Received SIGINT") }
        #expect(stopped == "Received SIGINT, 4 request(s) served; stopping.")
    }
}
