import Foundation
import Synchronization
internal import _LinkKitLocking
import UniversalLinkKit

/// An opener that records the URLs the manager hands it instead of opening them, for assertions: a
/// ``LinkFixture``'s manager opens through one.
///
/// ```swift
/// let fixture = try LinkFixture()
/// fixture.manager.handleInAppHyperlink(url)
/// await fixture.manager.waitUntilIdle()
/// #expect(fixture.opener.urls == [url])
/// ```
public final class RecordingOpener: Sendable {
    private let recorded = Mutex<[URL]>([])
    private let accepts: Bool

    /// Creates the recorder.
    ///
    /// - Parameter accepts: What the opener answers the manager (whether the URL "opened"). Default `true`.
    package init(accepts: Bool = true) {
        self.accepts = accepts
    }

    /// The opener to hand to `LinkManager`.
    package var opener: URLOpener {
        URLOpener { [self] url in
            recorded.withTrackedLock { $0.append(url) }
            return accepts
        }
    }

    /// The URLs opened so far, in order.
    public var urls: [URL] { recorded.withTrackedLock { $0 } }
}
