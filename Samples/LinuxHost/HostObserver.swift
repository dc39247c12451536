import Foundation
import UniversalLinkKit
import UniversalLinkKitTesting

/// The console host's side of the contract: observers of `PIORsysWebURLResolvedNotification`, registered
/// before anything is handed to the manager. A `NotificationRecorder` keeps every link for the summary; with
/// `printing`, a second observer prints each notification as it arrives.
final class HostObserver: Sendable {
    private let recorder: NotificationRecorder
    private let center: NotificationCenter
    // Written once in `init`, only read in `stop()`; the token is not `Sendable`.
    nonisolated(unsafe) private let printer: (any NSObjectProtocol)?

    /// Starts observing; with `printing`, each notification is printed as it arrives.
    init(center: NotificationCenter, printing: Bool) {
        self.center = center
        recorder = NotificationRecorder(center: center)
        printer = printing
            ? center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
                Console.out(HostObserver.describe(note))
            }
            : nil
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
