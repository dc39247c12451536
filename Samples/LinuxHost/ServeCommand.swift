import Foundation
import Synchronization
import UniversalLinkKitTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `linux-host serve [--port N]`: runs the loopback Response Handler stub with the demo's whole story (every link
/// of `ResponseHandlerStub.demoLinks`, and the failing and slow links of `demoBehaviors`) until SIGINT or SIGTERM,
/// printing the table it serves at start and one line per request.
enum ServeCommand {
    /// The options of `serve`, each declared once with its default.
    enum Options {
        static let port = OptionKey.value(
            "port", "N", "the port to listen on, on 127.0.0.1 (0: any free port)", as: .port, default: 0, shown: "0")
        static let all: [any DeclaredOption] = [port]
    }

    static let command = Command(
        name: "serve",
        summary: "Serves the demo's links from a loopback Response Handler stub until Ctrl-C, logging each request.",
        details: """
            Try every case of the demo with curl (the Accept header chooses JSON or a redirect) or with
            'linux-host resolve --allow-loopback --allow-http URL'. Each request is logged as
            'METHOD TARGET Accept: VALUE -> STATUS'. Exit status 0 after SIGINT or SIGTERM, 1 when the port is taken.
            """,
        options: Options.all.map(\.declaration),
        run: { parsed throws(UsageError) in try await run(parsed) })

    static func run(_ parsed: ParsedCommand) async throws(UsageError) -> Int32 {
        let port = try parsed.value(Options.port)
        let stub: ResponseHandlerStub
        do {
            stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks, port: port)
        } catch {
            Console.err("linux-host: serve: \(error)")
            return 1
        }
        defer { stub.shutdown() }
        // The story's failing and slow links; every other request gets the stub's own Response Handler rule.
        stub.setResponder { request in ResponseHandlerStub.demoBehaviors[request.target] }
        // Logged once the answer is out, with the status the stub actually sent.
        stub.setResponseObserver { request, status in
            // What a client sent is untrusted: escaped, so a request cannot forge log lines.
            Console.out(Console.escaped("\(request.method) \(request.target) Accept: \(request.header("accept") ?? "-") -> "
                + logged(status, for: request, links: ResponseHandlerStub.demoLinks)))
        }

        Console.out("Response Handler stub listening on \(stub.baseURL.absoluteString)")
        Console.out("Links it serves (the demo's story):")
        let rows = ResponseHandlerStub.demoLinks.map { key, link in
            (key, "web \(link.webLinkUrl ?? "null"), deep \(link.mobileDeepLinkUrl ?? "null")")
        } + [
            ("/pub/acc?_ri_=broken", "answers 500: the server fails to resolve the link"),
            ("/pub/acc?_ri_=slow", "never answers: the client's deadline ends the wait"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        for (key, text) in rows.sorted(by: { $0.0 < $1.0 }) {
            Console.out("  \(key.padding(toLength: width, withPad: " ", startingAt: 0))  \(text)")
        }
        let product = stub.url("/pub/acc?_ri_=product").absoluteString
        Console.out("Try:")
        Console.out("  curl -i -H 'Accept: application/json' '\(product)'")
        Console.out("  curl -i '\(product)'")
        Console.out("  linux-host resolve --allow-loopback --allow-http '\(product)'")
        Console.out("Press Ctrl-C to stop.")

        let signal = await waitForTerminationSignal()
        Console.out("Received \(signal), \(stub.requests.count) request(s) served; stopping.")
        return 0
    }

    /// The log's account of an answer: its status (with the table's destination for a redirect), or
    /// `no answer` when the stub sent no status line (the slow link, when the client gave up).
    static func logged(_ status: Int?, for request: RecordedRequest, links: [String: ResponseHandlerStub.Link]) -> String {
        guard let status else { return "no answer" }
        guard (300..<400).contains(status), let link = links[request.target] ?? links[request.path],
              let location = link.webLinkUrl ?? link.mobileDeepLinkUrl
        else { return "\(status)" }
        return "\(status) -> \(location)"
    }

    /// The last termination signal received, 0 before any; written from the signal handler (lock-free).
    private static let receivedSignal = Atomic<Int32>(0)

    /// Suspends until SIGINT or SIGTERM arrives, and returns its name.
    private static func waitForTerminationSignal() async -> String {
        // The default actions would kill the process without running `defer` (and exit 0 is the contract), so a
        // handler records the signal and this loop notices it.
        for number in [SIGINT, SIGTERM] {
            signal(number) { ServeCommand.receivedSignal.store($0, ordering: .relaxed) }
        }
        while true {
            switch receivedSignal.load(ordering: .relaxed) {
            case SIGINT: return "SIGINT"
            case SIGTERM: return "SIGTERM"
            default: try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
