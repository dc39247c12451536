import Foundation

// The notification every handled link posts and its userInfo keys, spelled as Responsys' iOS SDK spells them.

extension Notification.Name {
    /// Posted once for every handled link, on the manager's `NotificationCenter`.
    ///
    /// The raw value is `"PIORsysWebURLResolvedNotification"`, as in Responsys' iOS SDK, so observers ported from
    /// iOS keep working. Read the userInfo with ``ResolvedLink/init(notification:)``, or by the `PIO...` keys.
    public static let PIORsysWebURLResolved = Notification.Name("PIORsysWebURLResolvedNotification")
}

/// userInfo key of the resolved deep link, a `String`; absent when there is none.
public let PIOResolvedDeeplinkURL = "PIOResolvedDeeplinkURL"
/// userInfo key of the resolved web link, a `String`; absent when there is none.
public let PIOResolvedWeblinkURL = "PIOResolvedWeblinkURL"
/// userInfo key of the URL that was handed in, a `String`; always present.
public let PIORequestedWebURL = "PIORequestedWebURL"
/// userInfo key of whether the requested URL is a Responsys pub-web link, a `Bool`; always present.
public let PIORequestedWebURLIsPubWebType = "PIORequestedWebURLIsPubWebType"
/// userInfo key of the error, a ``LinkError``; absent when there is none.
public let PIOErrorResolveWebURL = "PIOErrorResolveWebURL"
