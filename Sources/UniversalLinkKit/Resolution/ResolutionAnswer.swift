import Foundation
internal import _LinkKitText

/// The Response Handler's JSON answer, decoded strictly and screened for unsafe links.
///
/// Accepted: UTF-8 JSON text (RFC 8259, read by the package's one JSON reader) that is an object whose
/// `webLinkUrl` and `mobileDeepLinkUrl` are each a string, `null`, empty or absent; other keys are ignored. Anything
/// else is ``LinkError/Code/invalidResponse``. A deep link must be an absolute URL with a safe scheme, a web link an
/// absolute `http(s)` URL with a host: a link that is not is dropped and reported as ``LinkError/Code/unsafeLink``
/// beside the other one, or as the error when none is left.
struct ResolutionAnswer: Sendable, Hashable {
    var deepLinkURL: URL?
    var webLinkURL: URL?
    /// Set when a link was dropped as unsafe.
    var unsafeLinkError: LinkError?

    /// Decodes and screens a body: the one place an answer is read.
    ///
    /// - Parameters:
    ///   - body: The answer's body.
    ///   - url: The requested link, for messages.
    /// - Throws: ``LinkError`` with `invalidResponse`, `missingDestination` or `unsafeLink` (when every link
    ///   present was unsafe).
    static func decode(_ body: some Collection<UInt8>, for url: URL) throws(LinkError) -> ResolutionAnswer {
        let root: JSONNode
        do {
            // A value takes at least a byte, so the size bounds the values; 512 levels, as JSONSerialization allows.
            root = try JSONReader.read(body, limits: .init(bytes: body.count, depth: 512, values: body.count + 1)).root
        } catch {
            let place = "line \(error.line), column \(error.column)"
            throw invalid(url, "the body is not JSON (\(body.count) bytes); \(place): \(error.message)")
        }
        guard root.kind == .object else {
            throw invalid(url, "expected a JSON object, found \(typeName(root))")
        }
        let web = try stringValue(root, "webLinkUrl", url)
        let deep = try stringValue(root, "mobileDeepLinkUrl", url)
        var answer = ResolutionAnswer()
        var dropped: [String] = []
        if let deep {
            let link = LinkSafety.absoluteURL(deep)
            if let link, !LinkSafety.isUnsafe(link) {
                answer.deepLinkURL = link
            } else {
                let why = link == nil ? "not an absolute URL" : "unsafe scheme"
                dropped.append("mobileDeepLinkUrl \(quoted(deep)) (\(why))")
            }
        }
        if let web {
            if let link = LinkSafety.absoluteURL(web), LinkSafety.isWeb(link),
               link.host(percentEncoded: true)?.isEmpty == false {
                answer.webLinkURL = link
            } else {
                dropped.append("webLinkUrl \(quoted(web)) (not an absolute http(s) URL)")
            }
        }
        let kept = answer.deepLinkURL != nil || answer.webLinkURL != nil
        if !dropped.isEmpty {
            answer.unsafeLinkError = LinkError(
                code: .unsafeLink,
                message: "Dropped \(dropped.joined(separator: " and ")) from the answer for \(url.redactedString)"
                    + (kept ? "; the other link is still delivered." : "; fix the link in the campaign's link table.")
            )
        }
        guard kept else {
            if let error = answer.unsafeLinkError { throw error }
            throw LinkError(
                code: .missingDestination,
                message: "The answer for \(url.redactedString) has neither webLinkUrl nor mobileDeepLinkUrl;"
                    + " check the campaign's link table, or open the home screen."
            )
        }
        return answer
    }

    private static func stringValue(_ object: JSONNode, _ key: String, _ url: URL) throws(LinkError) -> String? {
        guard let value = object.member(key), !value.isNull else { return nil }
        guard let string = value.string else {
            throw invalid(url, "\(key): expected a string or null, found \(typeName(value))")
        }
        return string.isEmpty ? nil : string
    }

    private static func quoted(_ string: String) -> String {
        let shown = string.count > 80 ? String(string.prefix(80)) + "..." : string
        return "\"\(shown)\""
    }

    private static func invalid(_ url: URL, _ what: String) -> LinkError {
        LinkError(
            code: .invalidResponse,
            message: "The answer for \(url.redactedString) is not a Response Handler answer: \(what)."
                + " Check that the URL is a Responsys tracking link; fall back to opening it in a browser."
        )
    }

    private static func typeName(_ value: JSONNode) -> String {
        switch value.kind {
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .null: "null"
        case .number, .boolean: "a number or boolean"
        }
    }
}
