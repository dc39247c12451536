/// The links a ``LinkManager`` (or a ``LinkBroadcaster``) delivers, as an `AsyncSequence`: the same links, in the
/// same order, as its ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` notifications.
///
/// A subscription sees every link delivered after it was made. It buffers at most the limit given when it was made
/// (1 024 by default) for a consumer that falls behind, dropping the oldest past that; it ends when the manager shuts
/// down.
///
/// ```swift
/// for await link in manager.results() {
///     print(link.requestedURL, link.destinationURL?.absoluteString ?? "-")
/// }
/// ```
public struct LinkResults: AsyncSequence, Sendable {
    /// The element: a link as broadcast.
    public typealias Element = ResolvedLink

    private let stream: AsyncStream<ResolvedLink>

    init(stream: AsyncStream<ResolvedLink>) {
        self.stream = stream
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator())
    }

    /// Iterates the links.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<ResolvedLink>.Iterator

        /// The next link, or `nil` once the subscription ended.
        public mutating func next() async -> ResolvedLink? {
            await base.next()
        }
    }
}
