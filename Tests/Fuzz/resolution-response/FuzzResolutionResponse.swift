import Foundation
@testable import UniversalLinkKit

// The resolver's answer decoder (UniversalLinkKit's ResolutionAnswer.decode): any bytes as a Response Handler body.
// It must answer a value or a LinkError, never crash, and never let an unsafe deep link through.
let requested = URL(string: "https://news.example.com/pub/acc?_ri_=fuzz")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResolutionResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = UnsafeBufferPointer(start: data, count: size)
    do {
        let answer = try ResolutionAnswer.decode(body, for: requested)
        precondition(answer.deepLinkURL != nil || answer.webLinkURL != nil, "decoded an answer without a link")
        if let scheme = answer.deepLinkURL?.scheme?.lowercased() {
            precondition(!LinkSafety.unsafeSchemes.contains(scheme), "unsafe deep link let through")
        }
    } catch {
        _ = error.message
    }
    return 0
}
