import Foundation
@testable import UniversalLinkKit

// The resolver's response parser (UniversalLinkKit's ResolutionResponse.decode): any bytes as a Response Handler
// body. It must answer a value or a LinkError, never crash.
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
    return 0
}
