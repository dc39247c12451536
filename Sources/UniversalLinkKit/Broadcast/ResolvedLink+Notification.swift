import Foundation

extension ResolvedLink {
    /// The notification's userInfo: URLs as `String` (absent when `nil`), the flag as `Bool`, the error as
    /// ``LinkError`` (absent when `nil`).
    public var userInfo: [String: Any] {
        var info = [String: Any](minimumCapacity: 5)
        for case let (key as String, value) in notificationUserInfo.map({ ($0.key.base, $0.value) }) { info[key] = value }
        return info
    }

    /// ``userInfo`` in the type `NotificationCenter.post` takes: handing it the `[String: Any]` form would rebuild
    /// the dictionary with `AnyHashable` keys on every post.
    var notificationUserInfo: [AnyHashable: Any] {
        var userInfo = NotificationUserInfo()
        return userInfo.fill(for: self)
    }

    /// Reads a resolved link back from a ``Foundation/NSNotification/Name/PIORsysWebURLResolved`` notification.
    ///
    /// ```swift
    /// center.addObserver(forName: .PIORsysWebURLResolved, object: nil, queue: nil) { note in
    ///     guard let link = ResolvedLink(notification: note), let destination = link.destinationURL else { return }
    ///     router.route(destination)
    /// }
    /// ```
    ///
    /// - Parameter notification: A notification.
    /// - Returns: `nil` when it is not a resolution notification or its userInfo lacks the requested URL.
    public init?(notification: Notification) {
        guard notification.name == .PIORsysWebURLResolved, let info = notification.userInfo,
              let requested = (info[PIORequestedWebURL] as? String).flatMap(URL.init(string:))
        else { return nil }
        self.init(
            requestedURL: requested,
            deepLinkURL: (info[PIOResolvedDeeplinkURL] as? String).flatMap(URL.init(string:)),
            webLinkURL: (info[PIOResolvedWeblinkURL] as? String).flatMap(URL.init(string:)),
            isPubWeb: info[PIORequestedWebURLIsPubWebType] as? Bool ?? false,
            error: info[PIOErrorResolveWebURL] as? LinkError
        )
    }
}
