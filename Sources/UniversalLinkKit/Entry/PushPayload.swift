import Foundation

/// The link a push notification's payload carries: the URL under `"u"`, as Responsys sends it.
///
/// ```swift
/// // snippet: skip
/// let payload = PushPayload(userInfo: ["u": "https://news.example.com/pub/acc?_ri_=X"])
/// payload.url   // the URL
/// PushPayload(userInfo: ["aps": [:]]).problem   // "the payload has no \"u\" key, so it carries no link"
/// ```
package struct PushPayload: Sendable, Hashable {
    /// The payload key of the URL: `"u"`.
    static let urlKey = "u"

    /// The link, when the payload has a usable one.
    package let url: URL?
    /// Why there is no link, when there is none: no `"u"` key, or a value that is not an absolute URL.
    package let problem: String?

    /// Reads a payload.
    ///
    /// - Parameter userInfo: The push notification's payload; `"u"` may hold a `String` or a `URL`.
    package init(userInfo: [String: Any]) {
        switch userInfo[Self.urlKey] {
        case let text as String:
            url = LinkSafety.absoluteURL(text)
            problem = url == nil ? "the \"u\" value is not an absolute URL: \(text)" : nil
        case let value as URL:
            url = value.scheme?.isEmpty == false ? value : nil
            problem = url == nil ? "the \"u\" value is not an absolute URL: \(value.absoluteString)" : nil
        case nil:
            url = nil
            problem = "the payload has no \"u\" key, so it carries no link"
        case let other?:
            url = nil
            problem = "the \"u\" value is \(Self.kind(of: other)), not a URL string"
        }
    }

    /// What a payload value is, in JSON's words (`a number`, not `a NSNumber`).
    private static func kind(of value: Any) -> String {
        switch value {
        case is NSNull:
            return "null"
        case let number as NSNumber:
            // JSON booleans arrive as NSNumber too; their type encoding is `c` (a C char), or `B`.
            let encoding = String(cString: number.objCType)
            return encoding == "c" || encoding == "B" ? "a boolean" : "a number"
        case is [Any]:
            return "an array"
        case is [String: Any], is [AnyHashable: Any]:
            return "an object"
        default:
            return "a value of type \(type(of: value))"
        }
    }
}
