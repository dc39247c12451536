import Foundation
import Synchronization
internal import _LinkKitLocking
import UniversalLinkKit

/// An opener that records the URLs the manager hands it instead of opening them, for assertions.
///
/// ```swift
/// let opened = RecordingOpener()
/// let manager = LinkManager(transport: transport, opener: opened.opener)
/// manager.executeRsysWebURL = false
/// manager.handleInAppHyperlink(url)
/// #expect(opened.urls == [url])
/// ```
public final class RecordingOpener: Sendable {
    private let recorded = Mutex<[URL]>([])
    private let accepts: Bool

    /// Creates the recorder.
    ///
    /// - Parameter accepts: What the opener answers the manager (whether the URL "opened"). Default `true`.
    public init(accepts: Bool = true) {
        self.accepts = accepts
    }

    /// The opener to hand to `LinkManager`.
    public var opener: URLOpener {
        URLOpener { [self] url in
            recorded.withTrackedLock { $0.append(url) }
            return accepts
        }
    }

    /// The URLs opened so far, in order.
    public var urls: [URL] { recorded.withTrackedLock { $0 } }
}
