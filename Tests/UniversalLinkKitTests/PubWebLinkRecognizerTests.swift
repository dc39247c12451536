import Foundation
import Testing
@testable import UniversalLinkKit

struct PubWebLinkRecognizerTests {
    let recognizer = PubWebLinkRecognizer()

    @Test(arguments: [
        ("https://news.example.com/pub/acc?_ri_=X&_ei_=Y", PubWebLinkRecognizer.Kind.appLink),
        ("https://news.example.com/pub/acc/", .appLink),
        ("https://news.example.com//pub/acc//", .appLink),
        ("https://news.example.com/pub/acc#f", .appLink),
        ("http://news.example.com/pub/acc", .appLink),
        ("HTTPS://news.example.com/pub/acc", .appLink),
        ("https://news.example.com/pub/cc?_ri_=X", .nonAppLink),
        ("https://news.example.com/pub/accx", .notPubWeb),
        ("https://news.example.com/PUB/ACC", .notPubWeb),
        ("https://news.example.com/", .notPubWeb),
        ("https://news.example.com", .notPubWeb),
        ("https://news.example.com//", .notPubWeb),
        ("https://news.example.com/pub/acc/extra", .notPubWeb),
        ("example-app://pub/acc", .notPubWeb),
        ("ftp://news.example.com/pub/acc", .notPubWeb),
        ("/pub/acc", .notPubWeb),
    ])
    func classifiesLinksAsTheAssociationFileWould(url: String, kind: PubWebLinkRecognizer.Kind) throws {
        #expect(recognizer.kind(of: try #require(URL(string: url))) == kind)
    }

    @Test func globalRoutingPathsAreConfigurable() {
        let custom = PubWebLinkRecognizer(configuration: .init(appLinkPaths: ["/t/app"], nonAppLinkPaths: ["/t/web/"]))
        #expect(custom.kind(of: URL("https://links.example.com/t/app?x=1")) == .appLink)
        #expect(custom.kind(of: URL("https://links.example.com/t/web")) == .nonAppLink)
        #expect(custom.kind(of: URL("https://links.example.com/pub/acc")) == .notPubWeb)
    }
}
