import Foundation
import Hummingbird
import UniversalLinkKitHummingbird
import UniversalLinkKitService
import Logging
import UniversalLinkKitTesting

/// A loopback Response Handler and the `link-service` application configured against it, as `ULK_ALLOW_LOCAL=1`
/// runs it.
struct ServiceFixture {
    static let links: [String: ResponseHandlerStub.Link] = [
        "/pub/acc?_ri_=deep": .init(webLinkUrl: "https://www.example.com/products/1", mobileDeepLinkUrl: "example-app://products/1"),
        "/pub/acc?_ri_=web": .init(webLinkUrl: "https://www.example.com/products/2", mobileDeepLinkUrl: nil),
        "/pub/acc?_ri_=none": .init(webLinkUrl: nil, mobileDeepLinkUrl: nil),
        "/pub/acc": .init(webLinkUrl: "https://www.example.com/", mobileDeepLinkUrl: "example-app://home"),
    ]

    let stub: ResponseHandlerStub
    var configuration: LinkServiceConfiguration

    init(timeout: Duration = .seconds(5), brandedDomains: [String] = []) throws {
        stub = try ResponseHandlerStub(links: Self.links)
        configuration = LinkServiceConfiguration(
            host: "127.0.0.1", port: 0, brandedDomains: brandedDomains, allowsLocalHosts: true, timeout: timeout,
            shutdownGracePeriod: .seconds(5)
        )
    }

    /// The application; its logs go nowhere unless `logger` says otherwise.
    func application(logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) throws -> some ApplicationProtocol {
        try LinkService(configuration: configuration, logger: logger).application
    }

    /// The stub's tracking link for a request target.
    func link(_ target: String) -> String {
        stub.url(target).absoluteString
    }

    /// `/open?url=<the link, percent-encoded>`.
    func openPath(_ target: String) -> String {
        "/open?url=" + Self.encoded(link(target))
    }

    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
