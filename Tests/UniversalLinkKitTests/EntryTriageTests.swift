import Foundation
import Testing
@testable import UniversalLinkKit

/// What each entry point does with what it is handed, decided before anything is requested.
struct EntryTriageTests {
    let triage = EntryTriage(recognizer: PubWebLinkRecognizer())
    static let appLink = URL("https://news.example.com/pub/acc?_ri_=X")
    static let nonAppLink = URL("https://news.example.com/pub/cc?_ri_=X")

    enum Kind: Equatable { case ignore, refuse, resolve, notify, open, dispatch, route }

    func kind(_ decision: EntryTriage.Decision) -> Kind {
        switch decision {
        case .ignore: .ignore
        case .refuse: .refuse
        case .resolve: .resolve
        case .notify: .notify
        case .open: .open
        case .dispatch: .dispatch
        case .route: .route
        }
    }

    @Test func onlyABrowsingWebActivityOnAnAppLinkIsResolved() {
        #expect(kind(triage.activity(UserActivity(browsingWeb: Self.appLink))) == .resolve)
        #expect(kind(triage.activity(UserActivity(browsingWeb: Self.nonAppLink))) == .ignore)
        #expect(kind(triage.activity(UserActivity(activityType: "other", webpageURL: Self.appLink))) == .ignore)
        #expect(kind(triage.activity(UserActivity(activityType: UserActivity.browsingWeb, webpageURL: nil))) == .ignore)
    }

    @Test func aServerLinkThatIsNotAnAppLinkIsRefusedWithoutTheQuery() throws {
        guard case let .refuse(error) = triage.serverLink(URL("https://news.example.com/pub/cc?_ri_=secret")) else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error.code == .notPubWebLink)
        #expect(!error.message.contains("secret"))
        #expect(kind(triage.serverLink(Self.appLink)) == .resolve)
    }

    @Test(arguments: [
        ("javascript:alert(1)", true, Kind.notify), ("javascript:alert(1)", false, .notify),
        ("https://news.example.com/pub/acc?x=1", true, .resolve), ("https://news.example.com/pub/cc?x=1", true, .resolve),
        ("https://news.example.com/pub/acc?x=1", false, .open), ("https://www.example.com/p", true, .notify),
        ("example-app://p", true, .notify), ("https://www.example.com/p", false, .open),
    ])
    func anInAppHyperlinkFollowsTheFlag(_ text: String, executes: Bool, expected: Kind) throws {
        let url = try #require(URL(string: text))
        #expect(kind(triage.inAppHyperlink(url, executes: executes)) == expected)
    }

    @Test func anUnsafeHyperlinkIsNotifiedWithItsErrorAndAPassThroughKeepsItsKind() throws {
        guard case let .notify(unsafe) = triage.inAppHyperlink(URL("data:text/html,x"), executes: true) else {
            Issue.record("expected a notification")
            return
        }
        #expect(unsafe.error?.code == .unsafeLink)
        #expect(!unsafe.isPubWeb)
        guard case let .notify(web) = triage.inAppHyperlink(URL("https://www.example.com/p"), executes: true),
              case let .notify(deep) = triage.inAppHyperlink(URL("example-app://p"), executes: true)
        else {
            Issue.record("expected notifications")
            return
        }
        #expect(web.webLinkURL == URL("https://www.example.com/p") && web.deepLinkURL == nil)
        #expect(deep.deepLinkURL == URL("example-app://p") && deep.webLinkURL == nil)
    }

    @Test func aPushURLIsAHyperlinkWhenPubWebOrUnsafeElseDispatched() {
        #expect(kind(triage.push(["u": Self.appLink.absoluteString], executes: true)) == .resolve)
        #expect(kind(triage.push(["u": Self.appLink.absoluteString], executes: false)) == .open)
        #expect(kind(triage.push(["u": "javascript:x"], executes: false)) == .notify)
        #expect(kind(triage.push(["u": "example-app://p"], executes: true)) == .dispatch)
        #expect(kind(triage.push(["aps": [:]], executes: true)) == .ignore)
        #expect(kind(triage.push(["u": 42], executes: true)) == .ignore)
    }

    @Test func anOpenedURLIsResolvedWhenAnAppLinkElseRoutedAndNeverWhenUnsafe() {
        #expect(kind(triage.openURL(Self.appLink)) == .resolve)
        #expect(kind(triage.openURL(URL("example-app://p"))) == .route)
        #expect(kind(triage.openURL(URL("vbscript:x"))) == .ignore)
    }
}
