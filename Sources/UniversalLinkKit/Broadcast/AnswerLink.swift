import Foundation

/// One link of a Response Handler's answer (`mobileDeepLinkUrl` or `webLinkUrl`), kept as the answer's text until
/// someone asks for a `URL`.
///
/// A resolved link's destinations are usually only passed on: broadcast as strings under the `PIO...` keys, stored,
/// or compared. Building and screening a `URL` for each cost about as much as the rest of the manager's work for a
/// link. An ordinary link is therefore screened on its text (``PlainAnswerLink``) and its `URL` is built when
/// ``url`` is read. Anything else is parsed into a `URL` at once, as before.
///
/// Equality and hashing are those of ``url`` in every form, so a link kept as text equals the same link kept as a
/// `URL`.
struct AnswerLink: Sendable, Hashable, CustomStringConvertible {
    private enum Form: Sendable {
        /// Text ``PlainAnswerLink`` accepted: `URL(string:)` parses it and keeps it exactly as written.
        case text(String)
        case url(URL)
    }

    private let form: Form

    /// A link already parsed.
    init(_ url: URL) { form = .url(url) }

    /// A link ``PlainAnswerLink/screen(_:)`` accepted.
    init(plain text: String) { form = .text(text) }

    /// The link as a `URL`, built now when it was kept as text.
    var url: URL {
        switch form {
        case .url(let url):
            return url
        case .text(let text):
            // `PlainAnswerLink` accepts only text `URL(string:)` parses verbatim (`PlainAnswerLinkTests` checks
            // every generated link both ways), so this cannot fail.
            guard let url = URL(string: text) else { preconditionFailure("a plain answer link must parse: \(text)") }
            return url
        }
    }

    /// The link's absolute string, as the notification's userInfo carries it.
    var string: String {
        switch form {
        case .url(let url): url.absoluteString
        case .text(let text): text
        }
    }

    /// ``string``: the same for both forms.
    var description: String { string }

    static func == (lhs: AnswerLink, rhs: AnswerLink) -> Bool {
        if case .text(let left) = lhs.form, case .text(let right) = rhs.form { return left == right }
        return lhs.url == rhs.url
    }

    func hash(into hasher: inout Hasher) { hasher.combine(url) }
}
