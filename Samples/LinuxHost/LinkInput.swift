import Foundation

/// The sample's one reading of a URL typed by a user or written in the demo: absolute (with a scheme), else nil.
///
/// `URL(string:)` alone accepts relative text such as `not-a-url` or `%`, which no command can hand over.
enum LinkInput {
    /// The URL `text` names, or nil when it is not an absolute URL.
    static func url(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return nil }
        return url
    }
}
