import Foundation

/// The Response Handler's JSON answer, decoded strictly and screened for unsafe links.
///
/// Accepted: a JSON object whose `webLinkUrl` and `mobileDeepLinkUrl` are each a string, `null`, empty or
/// absent; other keys are ignored. Anything else is ``LinkError/Code/invalidResponse``.
struct ResolutionResponse: Sendable, Hashable {
    /// The deep link, kept as text when it was screened on its text.
    var deepLink: AnswerLink?
    /// The web link, likewise.
    var webLink: AnswerLink?
    var deepLinkURL: URL? { deepLink?.url }
    var webLinkURL: URL? { webLink?.url }
    /// Set when a link was dropped as unsafe.
    var unsafeLinkError: LinkError?

    /// Decodes and screens a body.
    ///
    /// - Throws: ``LinkError`` with `invalidResponse`, `missingDestination` or `unsafeLink` (when every link
    ///   present was unsafe).
    static func decode(_ body: Data, requestedURL: URL) throws(LinkError) -> ResolutionResponse {
        // The usual answer, a flat object of plain ASCII strings and nulls, is read directly; anything else
        // (numbers, nesting, \u escapes, non-ASCII, a repeated link key, malformed JSON) goes through
        // JSONSerialization as before, so the answers and the error messages are the same.
        if let links = body.withUnsafeBytes(PlainAnswerReader.read) {
            return try screened(web: links.web, deep: links.deep, requestedURL: requestedURL)
        }
        return try decodeWithJSONSerialization(body, requestedURL: requestedURL)
    }

    /// ``decode(_:requestedURL:)`` through JSONSerialization alone: the path for every body the plain reader
    /// declines, and the reference the tests compare the plain reader with.
    static func decodeWithJSONSerialization(_ body: Data, requestedURL: URL) throws(LinkError) -> ResolutionResponse {
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
        return try screened(web: web, deep: deep, requestedURL: requestedURL)
    }

    /// Screens the two links (each `nil` when null, empty or absent) for unsafe ones.
    ///
    /// When every link present is plain and safe on its text (``PlainAnswerLink``), they are kept as text; any other
    /// answer is screened through `URL` (``screenedAsURLs(web:deep:requestedURL:)``), which gives the same verdict for
    /// plain links.
    static func screened(web: String?, deep: String?, requestedURL: URL) throws(LinkError) -> ResolutionResponse {
        if web != nil || deep != nil,
           deep.map({ PlainAnswerLink.screen($0) != nil }) ?? true,
           web.map({ PlainAnswerLink.screen($0) == .web }) ?? true {
            return ResolutionResponse(deepLink: deep.map(AnswerLink.init(plain:)), webLink: web.map(AnswerLink.init(plain:)))
        }
        return try screenedAsURLs(web: web, deep: deep, requestedURL: requestedURL)
    }

    /// ``screened(web:deep:requestedURL:)`` through `URL` alone: the path for every answer with a link that is not
    /// plain, and the reference the tests compare the text screening with.
    static func screenedAsURLs(web: String?, deep: String?, requestedURL: URL) throws(LinkError) -> ResolutionResponse {
        var response = ResolutionResponse()
        var dropped: [String] = []
        if let deep {
            if let url = LinkSafety.absoluteURL(deep), !LinkSafety.isUnsafe(url) {
                response.deepLink = AnswerLink(url)
            } else {
                dropped.append("mobileDeepLinkUrl \(quoted(deep)) (\(LinkSafety.absoluteURL(deep) == nil ? "not an absolute URL" : "unsafe scheme"))")
            }
        }
        if let web {
            if let url = LinkSafety.absoluteURL(web), LinkSafety.isWeb(url),
               url.host(percentEncoded: true)?.isEmpty == false {
                response.webLink = AnswerLink(url)
            } else {
                dropped.append("webLinkUrl \(quoted(web)) (not an absolute http(s) URL)")
            }
        }
        if !dropped.isEmpty {
            let kept = response.deepLink != nil || response.webLink != nil
            response.unsafeLinkError = LinkError(
                code: .unsafeLink,
                message: "Dropped \(dropped.joined(separator: " and ")) from the answer for \(requestedURL.redactedString)"
                    + (kept ? "; the other link is still delivered." : "; fix the link in the campaign's link table.")
            )
        }
        if response.deepLink == nil, response.webLink == nil {
            if let error = response.unsafeLinkError { throw error }
            throw LinkError(
                code: .missingDestination,
                message: "The answer for \(requestedURL.redactedString) has neither webLinkUrl nor mobileDeepLinkUrl;"
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

/// Reads the Response Handler's usual answer without JSONSerialization: a JSON object whose members are all
/// plain strings or `null`, strings of printable ASCII with no escape but `\"`, `\\` and `\/`.
///
/// It declines (returns `nil`) everything else, well-formed or not, rather than judge it: numbers, booleans,
/// arrays, nested objects, other escapes, control or non-ASCII bytes, a link key given twice, a byte-order mark,
/// anything after the object. Declined bodies go through JSONSerialization, so this reader only has to be right
/// about what it accepts; `PlainAnswerReaderTests` checks it against JSONSerialization on generated bodies.
enum PlainAnswerReader {
    /// The keys the reader tells apart.
    private enum Key {
        case web, deep, other

        init(_ name: String) {
            switch name {
            case "webLinkUrl": self = .web
            case "mobileDeepLinkUrl": self = .deep
            default: self = .other
            }
        }

        /// The key whose unescaped bytes are `name`.
        init(_ name: UnsafeRawBufferPointer) {
            func equals(_ key: StaticString) -> Bool {
                name.count == key.utf8CodeUnitCount && memcmp(name.baseAddress!, key.utf8Start, name.count) == 0
            }
            self = equals("webLinkUrl") ? .web : equals("mobileDeepLinkUrl") ? .deep : .other
        }
    }

    /// The links (`nil` when null, empty or absent), or `nil` when the body is not a plain answer.
    static func read(_ bytes: UnsafeRawBufferPointer) -> (web: String?, deep: String?)? {
        var index = 0
        let end = bytes.count
        func skipWhitespace() {
            while index < end {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
        /// Which of the two links the key at `index` (its opening quote) names; `nil` to decline. Read in place: a
        /// `String` of `mobileDeepLinkUrl` is too long to be stored inline, so building one cost an allocation a link.
        func key() -> Key? {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var cursor = index + 1
            while cursor < end, bytes[cursor] != UInt8(ascii: "\""), bytes[cursor] != UInt8(ascii: "\\") {
                cursor += 1
            }
            // An escaped key, or one that does not end, is read as a string: its verdict stays the string's.
            guard cursor < end, bytes[cursor] == UInt8(ascii: "\"") else { return string().map(Key.init) }
            let name = UnsafeRawBufferPointer(rebasing: bytes[(index + 1)..<cursor])
            guard name.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return nil }
            index = cursor + 1
            return Key(name)
        }
        /// A string at `index` (its opening quote), unescaped; `nil` to decline.
        func string() -> String? {
            guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var start = index
            var unescaped: [UInt8]?
            while index < end {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let tail = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    guard var collected = unescaped else { return String(decoding: tail, as: UTF8.self) }
                    collected.append(contentsOf: tail)
                    return String(decoding: collected, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index + 1 < end else { return nil }
                    let escaped = bytes[index + 1]
                    guard escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") || escaped == UInt8(ascii: "/")
                    else { return nil }
                    // Taken out and put back, so that appending never copies what was collected.
                    var collected = unescaped ?? []
                    unescaped = nil
                    collected.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                    collected.append(escaped)
                    unescaped = collected
                    index += 2
                    start = index
                case 0x20..<0x7F:
                    index += 1
                default:
                    return nil
                }
            }
            return nil
        }

        skipWhitespace()
        guard index < end, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipWhitespace()
        var web: String??
        var deep: String??
        if index < end, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                guard let key = key() else { return nil }
                skipWhitespace()
                guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipWhitespace()
                guard index < end else { return nil }
                let value: String?
                if bytes[index] == UInt8(ascii: "n") {
                    guard end - index >= 4, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
                          bytes[index + 3] == UInt8(ascii: "l")
                    else { return nil }
                    index += 4
                    value = nil
                } else {
                    guard let string = string() else { return nil }
                    value = string
                }
                switch key {
                case .web:
                    guard web == nil else { return nil }
                    web = .some(value)
                case .deep:
                    guard deep == nil else { return nil }
                    deep = .some(value)
                case .other:
                    break
                }
                skipWhitespace()
                guard index < end else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { return nil }
                index += 1
                break
            }
        }
        skipWhitespace()
        guard index == end else { return nil }
        func link(_ value: String??) -> String? {
            guard let value = value ?? nil, !value.isEmpty else { return nil }
            return value
        }
        return (link(web), link(deep))
    }
}
