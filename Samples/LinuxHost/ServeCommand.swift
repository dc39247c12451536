import Foundation
import Synchronization
import UniversalLinkKitTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `linux-host serve [--port N]`: runs the loopback Response Handler stub with the demo link table until
/// SIGINT or SIGTERM, for manual `curl` sessions.
enum ServeCommand {
    static func run(_ arguments: [String]) async -> Int32 {
        var port: UInt16 = 0
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--port":
                guard let value = rest.popFirst() else {
                    return Console.usageError("serve: --port needs a value")
                }
                guard let number = UInt16(value) else {
                    return Console.usageError("serve: --port expects a number from 0 to 65535, got '\(value)'")
                }
                port = number
            default:
                return Console.usageError("serve: unexpected argument '\(argument)'")
            }
        }

        let stub: ResponseHandlerStub
        do {
            stub = try ResponseHandlerStub(links: ResponseHandlerStub.demoLinks, port: port)
        } catch {
            Console.err("linux-host: serve: \(error)")
            return 1
        }
        defer { stub.shutdown() }

        Console.out("Response Handler stub listening on \(stub.baseURL.absoluteString)")
        for key in ResponseHandlerStub.demoLinks.keys.sorted() {
            let link = ResponseHandlerStub.demoLinks[key]
            Console.out("  \(key) -> web \(link?.webLinkUrl ?? "null"), deep \(link?.mobileDeepLinkUrl ?? "null")")
        }
        Console.out("Try:")
        Console.out("  curl -i -H 'Accept: application/json' '\(stub.url("/pub/acc?_ri_=product").absoluteString)'")
        Console.out("  curl -i '\(stub.url("/pub/acc?_ri_=product").absoluteString)'")
        Console.out("Press Ctrl-C to stop.")

        let signal = await waitForTerminationSignal()
        Console.out("Received \(signal), \(stub.requestCount) request(s) served; stopping.")
        return 0
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
