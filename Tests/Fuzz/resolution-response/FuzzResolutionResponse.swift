import Foundation
@testable import UniversalLinkKit

// The resolver's response parser (UniversalLinkKit's ResolutionResponse.decode): any bytes as a Response Handler
// body. It must answer a value or a LinkError, never crash. The same bytes as one answer link: a link the text
// screening (PlainAnswerLink) accepts must be one `URL(string:)` keeps verbatim and screens the same way.
let requested = URL(string: "https://news.example.com/pub/acc?_ri_=fuzz")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResolutionResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    do {
        let response = try ResolutionResponse.decode(body, requestedURL: requested)
        precondition(response.deepLinkURL != nil || response.webLinkURL != nil, "decoded an answer without a link")
        if let scheme = response.deepLinkURL?.scheme?.lowercased() {
            precondition(!LinkSafety.unsafeSchemes.contains(scheme), "unsafe deep link let through")
        }
    } catch {
        _ = error.message
    }
    let text = String(decoding: body, as: UTF8.self)
    if let kind = PlainAnswerLink.screen(text) {
        guard let url = URL(string: text) else { preconditionFailure("a plain link does not parse: \(text)") }
        precondition(url.relativeString == text, "a plain link is rewritten: \(text) -> \(url.relativeString)")
        precondition(!LinkSafety.isUnsafe(url), "an unsafe link screened as plain: \(text)")
        let isWeb = LinkSafety.isWeb(url) && url.host(percentEncoded: true)?.isEmpty == false
        precondition(isWeb == (kind == .web), "a plain link's kind differs from its URL's: \(text)")
    }
    return 0
}
