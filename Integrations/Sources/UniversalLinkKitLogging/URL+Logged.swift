import Foundation

extension URL {
    /// The URL as a log line, a metric or a message shows it: never with user name or password, and with its query
    /// and fragment shown as `?…` / `#…` unless `full`.
    ///
    /// A tracking link's query identifies the recipient (`_ri_`, `_ei_`): logs keep the host and path, enough to
    /// tell links and campaigns apart, and full URLs are for local debugging only. The same form as the library's
    /// own error messages.
    ///
    /// - Parameter full: Keep the query and the fragment.
    /// - Returns: The text to log.
    package func loggedString(full: Bool = false) -> String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else {
            return full ? "(a URL Foundation cannot split)" : "(a URL)"
        }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        if full { return components.string ?? "(a URL)" }
        let hadQuery = components.percentEncodedQuery != nil
        let hadFragment = components.percentEncodedFragment != nil
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return (components.string ?? "(a URL)") + (hadQuery ? "?…" : "") + (hadFragment ? "#…" : "")
    }
}

extension String {
    /// The text a client sent as a link, as logs show it: ``Foundation/URL/loggedString(full:)`` when it is a URL;
    /// otherwise, since it may hold anything, only its length (its whole text when `full`).
    ///
    /// - Parameter full: Keep the query, the fragment and unparsable text.
    /// - Returns: The text to log.
    package func loggedLink(full: Bool = false) -> String {
        if isEmpty { return "" }
        if let url = URL(string: self), url.scheme != nil { return url.loggedString(full: full) }
        return full ? self : "(not a URL, \(utf8.count) bytes)"
    }
}
