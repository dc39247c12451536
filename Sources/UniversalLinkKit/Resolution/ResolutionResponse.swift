import Foundation

/// The Response Handler's JSON answer, decoded strictly and screened for unsafe links.
///
/// Accepted: a JSON object whose `webLinkUrl` and `mobileDeepLinkUrl` are each a string, `null`, empty or
/// absent; other keys are ignored. Anything else is ``LinkError/Code/invalidResponse``.
struct ResolutionResponse: Sendable, Hashable {
    /// Deep-link schemes that must never be opened.
    static let unsafeDeepLinkSchemes: Set<String> = ["javascript", "data", "file", "vbscript"]

    var deepLinkURL: URL?
    var webLinkURL: URL?
    /// Set when a link was dropped as unsafe.
    var unsafeLinkError: LinkError?

    /// Decodes and screens a body.
    ///
    /// - Throws: ``LinkError`` with `invalidResponse`, `missingDestination` or `unsafeLink` (when every link
    ///   present was unsafe).
    static func decode(_ body: Data, requestedURL: URL) throws(LinkError) -> ResolutionResponse {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            throw invalid(requestedURL, "the body is not JSON (\(body.count) bytes)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw invalid(requestedURL, "expected a JSON object, found \(typeName(object))")
        }
        let web = try stringValue(dictionary, "webLinkUrl", requestedURL)
        let deep = try stringValue(dictionary, "mobileDeepLinkUrl", requestedURL)

        var response = ResolutionResponse()
        var dropped: [String] = []
        if let deep {
            if let url = absoluteURL(deep), let scheme = url.scheme?.lowercased(), !unsafeDeepLinkSchemes.contains(scheme) {
                response.deepLinkURL = url
            } else {
                dropped.append("mobileDeepLinkUrl \(quoted(deep)) (\(absoluteURL(deep) == nil ? "not an absolute URL" : "unsafe scheme"))")
            }
        }
        if let web {
            if let url = absoluteURL(web), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
               url.host(percentEncoded: true)?.isEmpty == false {
                response.webLinkURL = url
            } else {
                dropped.append("webLinkUrl \(quoted(web)) (not an absolute http(s) URL)")
            }
        }
        if !dropped.isEmpty {
            let kept = response.deepLinkURL != nil || response.webLinkURL != nil
            response.unsafeLinkError = LinkError(
                code: .unsafeLink,
                message: "Dropped \(dropped.joined(separator: " and ")) from the answer for \(requestedURL.absoluteString)"
                    + (kept ? "; the other link is still delivered." : "; fix the link in the campaign's link table.")
            )
        }
        if response.deepLinkURL == nil, response.webLinkURL == nil {
            if let error = response.unsafeLinkError { throw error }
            throw LinkError(
                code: .missingDestination,
                message: "The answer for \(requestedURL.absoluteString) has neither webLinkUrl nor mobileDeepLinkUrl;"
                    + " check the campaign's link table, or open the home screen."
            )
        }
        return response
    }

    private static func stringValue(_ dictionary: [String: Any], _ key: String, _ url: URL) throws(LinkError) -> String? {
        guard let value = dictionary[key] else { return nil }
        // The string first: it is the usual answer, and each cast of an `Any` is a runtime type check.
        if let string = value as? String { return string.isEmpty ? nil : string }
        if value is NSNull { return nil }
        throw invalid(url, "\(key): expected a string or null, found \(typeName(value))")
    }

    private static func absoluteURL(_ string: String) -> URL? {
        guard let url = URL(string: string), let scheme = url.scheme, !scheme.isEmpty else { return nil }
        return url
    }

    private static func quoted(_ string: String) -> String {
        let shown = string.count > 80 ? String(string.prefix(80)) + "..." : string
        return "\"\(shown)\""
    }

    private static func invalid(_ url: URL, _ what: String) -> LinkError {
        LinkError(
            code: .invalidResponse,
            message: "The answer for \(url.absoluteString) is not a Response Handler answer: \(what)."
                + " Check that the URL is a Responsys tracking link; fall back to opening it in a browser."
        )
    }

    private static func typeName(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        case is NSNumber: "a number or boolean"
        default: "a \(type(of: value))"
        }
    }
}
