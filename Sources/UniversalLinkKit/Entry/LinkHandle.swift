import Foundation
import LinkRouting

/// What the manager did with a URL handed to it, returned at once; ``outcome`` follows when it is done.
///
/// ```swift
/// // snippet: skip
/// let handle = manager.inAppHyperlink(url)
/// let outcome = await handle.outcome
/// if outcome.isDuplicate { logger.debug("coalesced with an earlier activation") }
/// let link = outcome.resolvedLink
/// ```
package struct LinkHandle: Sendable {
    /// The URL handed in, if there was one.
    package let url: URL?
    /// Whether the manager took the URL (for activities: it is a pub-web app link).
    package let isHandled: Bool
    /// Whether this activation joined an earlier one of the same URL (in flight or within the duplicate
    /// window): no request was made and no notification will be posted for it.
    package let isDuplicate: Bool

    /// The flight the activation started or joined, for a link being resolved.
    let flight: Flight?
    /// The outcome of an activation that needed no resolution (or was not handled).
    let immediate: LinkOutcome

    /// An activation that started (`isDuplicate == false`) or joined a flight.
    init(url: URL, flight: Flight, isDuplicate: Bool) {
        self.url = url
        self.isHandled = true
        self.isDuplicate = isDuplicate
        self.flight = flight
        self.immediate = LinkOutcome()
    }

    /// An activation whose outcome is known now.
    init(url: URL?, isHandled: Bool, outcome: LinkOutcome = LinkOutcome()) {
        self.url = url
        self.isHandled = isHandled
        self.isDuplicate = false
        self.flight = nil
        self.immediate = outcome
    }

    /// What finally happened: the broadcast content, and where the link was routed or opened.
    ///
    /// Ready as soon as the link is resolved and routed; its notification is delivered in order on the broadcaster's
    /// queue and may reach slow observers later (``LinkManager/waitUntilIdle()`` waits for both). For a duplicate,
    /// the outcome of the activation it joined, with ``LinkOutcome/isDuplicate`` set.
    package var outcome: LinkOutcome {
        get async {
            guard let flight else { return immediate }
            var outcome = await flight.value
            outcome.isDuplicate = outcome.isDuplicate || isDuplicate
            return outcome
        }
    }
}
