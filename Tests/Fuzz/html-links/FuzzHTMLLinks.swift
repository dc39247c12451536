@testable import LinkDoctor

// The email reader (LinkDoctor's HTML link extractor and character-reference decoder): any bytes as an HTML email.
// Nothing may crash, hang or exhaust memory, and what it returns is no larger than what it was given: a link is
// part of the document, and decoding a reference never makes it longer in UTF-8.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLLinks(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let html = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let links = HTMLLinkExtractor.hrefs(in: html)
    precondition(links.count <= html.utf8.count / 3, "more links than elements")
    precondition(links.reduce(0) { $0 + $1.utf8.count } <= html.utf8.count, "links longer than the document")
    let decoded = HTMLEntities.decode(html)
    precondition(decoded.utf8.count <= html.utf8.count, "decoding made the text longer")
    _ = HTMLLinkExtractor.cleanURL(decoded)
    return 0
}
