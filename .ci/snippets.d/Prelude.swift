// The free names the documentation's snippets use, declared once so each snippet compiles as written.
// Nothing here runs: the snippets are type-checked, not executed. A snippet that needs a new name: add it here
// with the type a reader would assume.
import AssociatedDomains
import Foundation
import LinkRouting
import UniversalLinkKit
import UniversalLinkKitTesting

/// A universal link the platform handed over.
let url = URL(string: "https://news.example.com/pub/acc?_ri_=X")!
/// What a test expects.
let expected = URL(string: "example-app://products/1234")
/// A push notification's payload.
nonisolated(unsafe) let payload: [AnyHashable: Any] = ["u": "https://news.example.com/pub/acc?_ri_=X"]
/// The bytes of an apple-app-site-association file.
let bytes: [UInt8] = []
/// The bytes a domain serves at /.well-known/apple-app-site-association.
let servedBytes: [UInt8] = []
/// The app's objects.
let manager = LinkManager.shared
let router = LinkRouter()
let center = NotificationCenter()
/// A transport that answers every request at once.
struct InstantTransport: LinkTransport {
    func send(_ request: TransportRequest, maxBodyBytes: Int) async throws -> TransportResponse {
        TransportResponse(statusCode: 200)
    }
}
let transport = InstantTransport()
let link = ResolvedLink(requestedURL: url, isPubWeb: true)
nonisolated(unsafe) let stub = try! ResponseHandlerStub()
/// The app's logger.
struct Logger {
    func debug(_ message: String) {}
    func info(_ message: String) {}
}
let logger = Logger()
func log(_ message: String) {}
/// The app's screens and actions.
func show(_ url: URL) {}
func show(product id: Int) {}
func open(_ url: URL) {}
func showProduct(_ id: Int) {}
func acceptInvite(_ code: String) {}
func retryLater() {}
func showHomeScreen() {}
func openInBrowser(_ url: URL) {}
/// An app ID, an email's HTML and an association file's text.
let app = "ABCDE12345.com.example.app"
let html = "<a href=\"https://news.example.com/pub/acc?_ri_=X\">Shop</a>"
let emailHTML = html
let aasa = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/pub/acc"}]}]}}"#
/// A server's answers.
func redirect(to url: URL?) {}
func respond(status: Int) {}
