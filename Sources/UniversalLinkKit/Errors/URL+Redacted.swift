import Foundation

/// The redacted forms of a URL that events and messages carry.

extension URL {
    /// The URL without its user name and password, for events and logs.
    var redacted: URL {
        guard user(percentEncoded: true) != nil || password(percentEncoded: true) != nil,
              var components = URLComponents(url: self, resolvingAgainstBaseURL: false)
        else { return self }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? URL(string: "about:blank")!
    }

    /// The URL as error messages, logs and metrics name it: without user name and password, and with its query and
    /// fragment shown as `?…` / `#…`.
    ///
    /// A tracking link's query identifies the recipient (`_ri_`, `_ei_`), and messages end up in logs; the link
    /// itself is in ``ResolvedLink/requestedURL`` and in every ``LinkEvent`` for whoever needs it.
    ///
    /// ```swift
    /// URL(string: "https://news.example.com/pub/acc?_ri_=X")!.redactedString  // "https://news.example.com/pub/acc?…"
    /// ```
    public var redactedString: String {
        let url = redacted
        guard url.query(percentEncoded: true) != nil || url.fragment(percentEncoded: true) != nil,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url.absoluteString }
        let hadQuery = components.percentEncodedQuery != nil
        let hadFragment = components.percentEncodedFragment != nil
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return (components.string ?? "") + (hadQuery ? "?…" : "") + (hadFragment ? "#…" : "")
    }
}
