import Foundation

/// Opens a URL outside the app: what `UIApplication.open` does on iOS. Injected into ``LinkManager``.
///
/// On Linux there is no system browser to hand links to, so without one (the default) the manager opens nothing;
/// hosts pass their own (a console host prints, a backend forwards the URL to its client).
///
/// ```swift
/// let opener = URLOpener { url in
///     logger.info("open \(url)")
///     return true
/// }
/// ```
public struct URLOpener: Sendable {
    private let body: @Sendable (URL) -> Bool

    /// Creates an opener.
    ///
    /// - Parameter open: Opens the URL; returns whether it could.
    public init(_ open: @escaping @Sendable (URL) -> Bool) {
        self.body = open
    }

    /// An opener that opens nothing and returns `false`: the manager's when it is given none.
    package static var opensNothing: URLOpener { URLOpener { _ in false } }

    /// Opens a URL.
    ///
    /// - Parameter url: The URL.
    /// - Returns: Whether it was opened.
    @discardableResult
    package func open(_ url: URL) -> Bool {
        body(url)
    }
}
