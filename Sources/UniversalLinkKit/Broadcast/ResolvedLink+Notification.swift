import Foundation

extension ResolvedLink {
    /// The notification's userInfo: URLs as `String` (absent when `nil`), the flag as `Bool`, the error as
    /// ``LinkError`` (absent when `nil`).
    public var userInfo: [String: Any] {
        var info = [String: Any](minimumCapacity: 5)
        for case let (key as String, value) in notificationUserInfo.map({ ($0.key.base, $0.value) }) { info[key] = value }
        return info
    }

    /// ``userInfo`` in the type `NotificationCenter.post` takes, built once with room for every key: handing it
    /// the `[String: Any]` form would rebuild the dictionary with `AnyHashable` keys on every post.
    ///
    /// It is a copy of a prepared dictionary that holds exactly this link's keys, whose values are set by position:
    /// inserting the keys one by one boxed each `String` in an `AnyHashable`, hashed it and, on a collision, compared
    /// it through a dynamic cast (about 7 000 instructions per link, the most expensive step of a delivery).
    var notificationUserInfo: [AnyHashable: Any] {
        let shape = UserInfoShape.all[(deepLink == nil ? 0 : 1) | (webLink == nil ? 0 : 2) | (error == nil ? 0 : 4)]
        var info = shape.template
        info.values[shape.requested] = requestedURL.absoluteString
        info.values[shape.isPubWeb] = isPubWeb
        if let deepLink, let slot = shape.deepLink { info.values[slot] = deepLink.string }
        if let webLink, let slot = shape.webLink { info.values[slot] = webLink.string }
        if let error, let slot = shape.error { info.values[slot] = error }
        return info
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

/// The keys of one combination of present values, and where each sits: a copy of the template keeps its storage's
/// layout, so the positions are valid in the copy and its values are set without hashing a key.
private struct UserInfoShape {
    let template: [AnyHashable: Any]
    let requested: [AnyHashable: Any].Index
    let isPubWeb: [AnyHashable: Any].Index
    let deepLink: [AnyHashable: Any].Index?
    let webLink: [AnyHashable: Any].Index?
    let error: [AnyHashable: Any].Index?

    /// Indexed by presence bits: 1 a deep link, 2 a web link, 4 an error. Immutable once built; `Any` is what
    /// `NotificationCenter` takes, so the type cannot be `Sendable`.
    nonisolated(unsafe) static let all: [UserInfoShape] = (0..<8).map { UserInfoShape(presence: $0) }

    private init(presence: Int) {
        var template = [AnyHashable: Any](minimumCapacity: 5)
        template[PIORequestedWebURL] = ""
        template[PIORequestedWebURLIsPubWebType] = false
        if presence & 1 != 0 { template[PIOResolvedDeeplinkURL] = "" }
        if presence & 2 != 0 { template[PIOResolvedWeblinkURL] = "" }
        if presence & 4 != 0 { template[PIOErrorResolveWebURL] = "" }
        self.template = template
        requested = template.index(forKey: PIORequestedWebURL)!
        isPubWeb = template.index(forKey: PIORequestedWebURLIsPubWebType)!
        deepLink = template.index(forKey: PIOResolvedDeeplinkURL)
        webLink = template.index(forKey: PIOResolvedWeblinkURL)
        error = template.index(forKey: PIOErrorResolveWebURL)
    }
}
