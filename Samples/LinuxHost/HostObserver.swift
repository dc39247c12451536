import Foundation
import Synchronization
import _LinkKitLocking
import UniversalLinkKit

/// The console host's side of the contract: an observer of `PIORsysWebURLResolvedNotification`, registered
/// before anything is handed to the manager, that prints what it receives and keeps it for the summary.
final class HostObserver: Sendable {
    private final class Storage: Sendable {
        let received = Mutex<[String: ResolvedLink]>([:])
        let total = Mutex(0)
    }

    private let storage = Storage()
    private let center: NotificationCenter
    // Written once in `init`, only read in `stop()`; the token is not `Sendable`.
    nonisolated(unsafe) private let token: any NSObjectProtocol

    /// Starts observing; with `printing`, each notification is printed as it arrives.
    init(center: NotificationCenter, printing: Bool) {
        self.center = center
        let storage = self.storage
        token = center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
            guard let link = ResolvedLink(notification: note) else { return }
            storage.received.withTrackedLock { $0[link.requestedURL.absoluteString] = link }
            storage.total.withTrackedLock { $0 += 1 }
            if printing { Console.out(HostObserver.describe(note)) }
        }
    }

    func stop() {
        center.removeObserver(token)
    }

    /// How many notifications arrived.
    var count: Int { storage.total.withTrackedLock { $0 } }

    /// The notification received for a requested URL.
    func link(for url: URL) -> ResolvedLink? {
        storage.received.withTrackedLock { $0[url.absoluteString] }
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
        let lines = keys.map { "    \($0.padding(toLength: 31, withPad: " ", startingAt: 0)) \(value($0))" }
        return (["  <- \(note.name.rawValue)"] + lines).joined(separator: "\n")
    }

    /// The notification object of the `--json` contract.
    static func json(_ link: ResolvedLink) -> [String: Any] {
        var error: Any = NSNull()
        if let linkError = link.error {
            error = ["code": linkError.code.description, "message": linkError.message]
        }
        return [
            PIORequestedWebURL: link.requestedURL.absoluteString,
            PIOResolvedDeeplinkURL: link.deepLinkURL?.absoluteString ?? NSNull(),
            PIOResolvedWeblinkURL: link.webLinkURL?.absoluteString ?? NSNull(),
            PIORequestedWebURLIsPubWebType: link.isPubWeb,
            PIOErrorResolveWebURL: error,
        ]
    }
}
