@testable import LinkDoctor

// The email reader (LinkDoctor's HTML tokenizer, Outlook's conditional comments and the character-reference
// decoder): any bytes as an HTML email. Nothing may crash, hang or exhaust memory, and what it returns stays within a
// constant times what it was given: a link is part of the document, U+0000 grows to U+FFFD (three bytes), and no
// reference decodes to more than 6/5 of its own length (`&nGt;`, five bytes, is six).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLLinks(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let html = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let links = HTMLLinkExtractor.links(in: html)
    precondition(links.count <= html.utf8.count / 3, "more links than elements")
    precondition(links.reduce(0) { $0 + $1.url.utf8.count } <= 3 * html.utf8.count, "links longer than the document")
    precondition(HTMLLinkExtractor.hrefs(in: html) == links.filter { !$0.outlookOnly }.map(\.url), "phones see other links")
    let decoded = HTMLEntities.decode(html)
    precondition(decoded.utf8.count <= 3 * html.utf8.count, "decoding made the text too long")
    if !html.utf8.contains(0) {
        precondition(5 * decoded.utf8.count <= 6 * html.utf8.count, "a reference decoded to more than 6/5 of its length")
    }
    _ = HTMLLinkExtractor.cleanURL(decoded)
    return 0
}
