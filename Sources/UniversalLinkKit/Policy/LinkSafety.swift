import Foundation

/// Which URLs may be opened, routed or passed on: the one place that decides it for every entry point and for the
/// links in a Response Handler's answer.
///
/// - A `javascript`, `data`, `file` or `vbscript` URL is never opened, whatever its source.
/// - A deep link must be an absolute URL (a scheme before `:`); a web link must also be `http` or `https`.
enum LinkSafety {
    /// Schemes that are never opened: they run code or read local files.
    static let unsafeSchemes: Set<String> = ["javascript", "data", "file", "vbscript"]

    /// Whether `url` has a scheme that must never be opened.
    static func isUnsafe(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return unsafeSchemes.contains(scheme)
    }

    /// Whether `url` is an `http` or `https` URL.
    static func isWeb(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "https" || scheme == "http"
    }

    /// The URL `text` spells, when it is absolute (has a non-empty scheme); `nil` otherwise.
    static func absoluteURL(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme?.isEmpty == false else { return nil }
        return url
    }

    /// The error of an unsafe URL handed to the manager.
    static func unsafeInputError(_ url: URL) -> LinkError {
        LinkError(
            code: .unsafeLink,
            message: "Refused \(url.scheme ?? "")-scheme URL: javascript, data, file and vbscript links are never opened."
        )
    }
}
