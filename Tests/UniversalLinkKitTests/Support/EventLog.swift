import Foundation
import Synchronization
import _LinkKitLocking
import UniversalLinkKit

/// Records the events a manager or broadcaster reports.
final class EventLog: Sendable {
    private let events = Mutex<[LinkEvent]>([])

    var handler: LinkEventHandler { LinkEventHandler { event in self.events.withTrackedLock { $0.append(event) } } }
    var all: [LinkEvent] { events.withTrackedLock { $0 } }
    var kinds: [LinkEvent.Kind] { all.map(\.kind) }

    func kinds(for url: URL) -> [LinkEvent.Kind] { all.filter { $0.url == url }.map(\.kind) }
}
