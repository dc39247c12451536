import Foundation

/// Links' notification userInfo, one after another, each written into the dictionary of the one before.
///
/// A link's userInfo is a copy of a prepared dictionary that holds exactly its keys (``UserInfoShape``), whose values
/// are set by position: inserting the keys one by one boxed each `String` in an `AnyHashable`, hashed it and, on a
/// collision, compared it through a dynamic cast (about 7 000 instructions per link). Copying the prepared dictionary
/// (new storage, each key and value copied through its type's witnesses) and freeing the copy after the post still
/// took the delivery thread about 0.8 µs a link, more than half of what the broadcaster adds to
/// `NotificationCenter`'s own post.
///
/// So the dictionary is kept, and the next link with the same keys is written into it. The write is in place only
/// while nothing else holds the dictionary: by the time the next link comes, the post has returned and its
/// notification is gone, unless an observer kept the notification or its userInfo, and then the write copies first.
/// A userInfo an observer kept never changes (a `Dictionary` is a value). The broadcaster's delivery thread keeps one
/// for the length of a drain.
struct NotificationUserInfo {
    /// Where the keys of the dictionary's current shape sit; `nil` before the first link.
    private var slots: UserInfoShape.Slots?
    private var userInfo: [AnyHashable: Any] = [:]

    /// `link`'s userInfo: URLs as `String` (absent when `nil`), the flag as `Bool`, the error as ``LinkError``
    /// (absent when `nil`).
    mutating func fill(for link: ResolvedLink) -> [AnyHashable: Any] {
        let deepLink = link.deepLink
        let webLink = link.webLink
        let error = link.error
        let presence = UserInfoShape.presence(deepLink: deepLink != nil, webLink: webLink != nil, error: error != nil)
        if slots?.presence != presence {
            let shape = UserInfoShape.all[presence]
            userInfo = shape.template
            slots = shape.slots
        }
        guard let slots else { preconditionFailure("the shape was set above") }
        userInfo.values[slots.requested] = link.requestedURL.absoluteString
        userInfo.values[slots.isPubWeb] = link.isPubWeb
        if let deepLink, let slot = slots.deepLink { userInfo.values[slot] = deepLink.string }
        if let webLink, let slot = slots.webLink { userInfo.values[slot] = webLink.string }
        if let error, let slot = slots.error { userInfo.values[slot] = error }
        return userInfo
    }
}

/// The keys of one combination of present values, and where each sits: a copy of the template keeps its storage's
/// layout, so the positions are valid in the copy and its values are set without hashing a key.
private struct UserInfoShape {
    /// Where each key sits in ``template`` and its copies.
    struct Slots {
        /// The shape's index in ``UserInfoShape/all``.
        let presence: Int
        let requested: [AnyHashable: Any].Index
        let isPubWeb: [AnyHashable: Any].Index
        let deepLink: [AnyHashable: Any].Index?
        let webLink: [AnyHashable: Any].Index?
        let error: [AnyHashable: Any].Index?
    }

    let template: [AnyHashable: Any]
    let slots: Slots

    /// Indexed by ``presence(deepLink:webLink:error:)``. Immutable once built; `Any` is what `NotificationCenter`
    /// takes, so the type cannot be `Sendable`.
    nonisolated(unsafe) static let all: [UserInfoShape] = (0..<8).map { UserInfoShape(presence: $0) }

    /// The index in ``all`` of the shape with these values present: bits 1 a deep link, 2 a web link, 4 an error.
    static func presence(deepLink: Bool, webLink: Bool, error: Bool) -> Int {
        (deepLink ? 1 : 0) | (webLink ? 2 : 0) | (error ? 4 : 0)
    }

    /// The keys go in in the order observers look them up: the deep link, the web link, then the rest. A key
    /// inserted into an empty dictionary sits where its hash points, and nothing later moves it, so an observer's
    /// lookup of the deep link compares one key. A key that found its place taken sits further on, and a lookup of
    /// it first compares the keys in its way, each through a dynamic cast: with the deep link inserted third, that
    /// happened in about a third of processes (a dictionary's hash seed is its storage's address) and cost each
    /// lookup 0.5-1 µs more on the development machine.
    private init(presence: Int) {
        var template = [AnyHashable: Any](minimumCapacity: 5)
        if presence & 1 != 0 { template[PIOResolvedDeeplinkURL] = "" }
        if presence & 2 != 0 { template[PIOResolvedWeblinkURL] = "" }
        template[PIORequestedWebURL] = ""
        template[PIORequestedWebURLIsPubWebType] = false
        if presence & 4 != 0 { template[PIOErrorResolveWebURL] = "" }
        self.template = template
        slots = Slots(
            presence: presence, requested: template.index(forKey: PIORequestedWebURL)!,
            isPubWeb: template.index(forKey: PIORequestedWebURLIsPubWebType)!,
            deepLink: template.index(forKey: PIOResolvedDeeplinkURL),
            webLink: template.index(forKey: PIOResolvedWeblinkURL), error: template.index(forKey: PIOErrorResolveWebURL))
    }
}
