import Foundation
import Synchronization
import UniversalLinkKit
import UniversalLinkKitTesting
internal import _LinkKitText

/// The console host's side of the contract: observers of `PIORsysWebURLResolvedNotification`, registered
/// before anything is handed to the manager. A `NotificationRecorder` keeps every link for the summary; a second
/// observer prints each notification as it arrives (`.asItArrives`, the demo's step by step), or keeps its text
/// for the command to print in input order (`.inInputOrder`, `resolve` / `inapp` / `push`, whose burst delivers
/// in any order), or does nothing (`.never`, JSON output).
final class HostObserver: Sendable {
    /// Shared with the observer's closure, which cannot capture `self` before `init` ends.
    private final class Held: Sendable {
        let list = Mutex<[(requestedURL: String?, text: String)]>([])
    }

    /// When the readable text of a notification is printed.
    enum Printing {
        case asItArrives, inInputOrder, never
    }

    private let recorder: NotificationRecorder
    private let center: NotificationCenter
    /// With `.inInputOrder`: each notification's requested URL and its text, in the order they arrived.
    private let held = Held()
    // Written once in `init`, only read in `stop()`; the token is not `Sendable`.
    nonisolated(unsafe) private let printer: (any NSObjectProtocol)?

    /// Starts observing.
    init(center: NotificationCenter, printing: Printing) {
        self.center = center
        recorder = NotificationRecorder(center: center)
        let held = held
        switch printing {
        case .asItArrives:
            printer = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
                Console.out(HostObserver.describe(note))
            }
        case .inInputOrder:
            printer = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
                let text = HostObserver.describe(note)
                let requested = note.userInfo?[PIORequestedWebURL] as? String
                held.list.withLock { $0.append((requested, text)) }
            }
        case .never:
            printer = nil
        }
    }

    /// The texts of the notifications received for `url` not taken yet (`.inInputOrder`), in arrival order;
    /// taken, so a second input with the same URL (a duplicate: nothing broadcast for it) gets none.
    func takeNotifications(for url: URL) -> [String] {
        held.list.withLock { held in
            let mine = held.filter { $0.requestedURL == url.absoluteString }.map(\.text)
            held.removeAll { $0.requestedURL == url.absoluteString }
            return mine
        }
    }

    /// The texts of the notifications no input took (`.inInputOrder`), so that nothing received goes unprinted.
    func takeRemainingNotifications() -> [String] {
        held.list.withLock { held in
            defer { held.removeAll() }
            return held.map(\.text)
        }
    }

    func stop() {
        recorder.stop()
        if let printer { center.removeObserver(printer) }
    }

    /// How many notifications arrived.
    var count: Int { recorder.count }

    /// The last notification received for a requested URL.
    func link(for url: URL) -> ResolvedLink? {
        recorder.links(for: url).last
    }

    /// The notification as the readable output shows it: its name, then its userInfo keys.
    static func describe(_ note: Notification) -> String {
        let info = note.userInfo ?? [:]
        func value(_ key: String) -> String {
            switch info[key] {
            case let string as String: string
            case let flag as Bool: flag ? "true" : "false"
            case let error as LinkError: "\(error.code): \(error.message)"
            default: "-"
            }
        }
        let keys = [PIORequestedWebURL, PIORequestedWebURLIsPubWebType, PIOResolvedDeeplinkURL, PIOResolvedWeblinkURL, PIOErrorResolveWebURL]
        let lines = keys.map { "    \($0.padding(toLength: 31, withPad: " ", startingAt: 0)) \(Console.escaped(value($0)))" }
        return (["  <- \(note.name.rawValue)"] + lines).joined(separator: "\n")
    }

    /// The notification object of the `--json` contract.
    static func json(_ link: ResolvedLink) -> JSONValue {
        var error = JSONValue.null
        if let linkError = link.error {
            error = Console.sortedObject(["code": .string(linkError.code.description), "message": .string(linkError.message)])
        }
        return Console.sortedObject([
            PIORequestedWebURL: .string(link.requestedURL.absoluteString),
            PIOResolvedDeeplinkURL: .stringOrNull(link.deepLinkURL?.absoluteString),
            PIOResolvedWeblinkURL: .stringOrNull(link.webLinkURL?.absoluteString),
            PIORequestedWebURLIsPubWebType: .bool(link.isPubWeb),
            PIOErrorResolveWebURL: error,
        ])
    }
}
