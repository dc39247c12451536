import AssociatedDomains
import Foundation
import UniversalLinkKit

/// The `assetlinks.json` statements fetched per branded authority during one campaign check.
struct AndroidStatementCache {
    /// `nil` inside: the file could not be fetched, so verification is assumed (and reported once).
    var byAuthority: [String: [AndroidAssetStatement]?] = [:]
}

extension LinkDoctor {
    /// Android's answer for one link (see ``AndroidLinkMatcher``), and an error when it differs from iOS's: half
    /// the readers would land somewhere else than the other half.
    ///
    /// `judged` is the URL as iOS judged it: the link itself, or its `https` form in a local rehearsal (http
    /// allowed), so both platforms answer for the same URL.
    ///
    /// Without statements in `android`, each branded authority's `/.well-known/assetlinks.json` is fetched once, as
    /// Android's verifier fetches it (no redirect; a status other than 200 gives no statements, so nothing verifies).
    func judgeAndroid(
        _ link: inout CampaignLink, _ judged: String, _ android: AndroidLinkMatcher,
        statements cache: inout AndroidStatementCache, findings: inout [Finding]
    ) async {
        guard let scheme = Self.scheme(of: judged), scheme == "http" || scheme == "https" else { return }
        var matcher = android
        if matcher.statements == nil, let url = URL(string: judged), let host = url.host(percentEncoded: false).map(Self.normalizedHost) {
            let authority = url.port.map { "\(host):\($0)" } ?? host
            if let cached = cache.byAuthority[authority] {
                matcher.statements = cached
            } else {
                let fetched = await fetchStatements(authority, into: &findings)
                cache.byAuthority[authority] = .some(fetched)
                matcher.statements = fetched
            }
        }
        let answer = matcher.explain(judged)
        link.opensAppOnAndroid = answer.opensApp
        link.androidReason = answer.reason
        guard let iOS = link.opensApp, iOS != answer.opensApp else { return }
        let ios = iOS ? "opens the app on iOS" : "opens the browser on iOS"
        let droid = answer.opensApp ? "the app on Android" : "the browser on Android"
        link.findings.append(Finding(
            code: .linkPlatformsDisagree, severity: .error, subject: link.url,
            message: "This link \(ios) but \(droid): \(answer.reason). Make the AASA and the Android side agree "
                + "(`linux-host android check --aasa FILE --app APP --manifest FILE` lists every such URL)."))
    }

    /// The statements of an authority's `assetlinks.json`: `[]` when it answers anything but 200 with statements
    /// (Android then verifies nothing), `nil` when it could not be reached (reported, and verification assumed).
    private func fetchStatements(_ authority: String, into findings: inout [Finding]) async -> [AndroidAssetStatement]? {
        guard let url = URL(string: "\(originScheme)://\(authority)/.well-known/assetlinks.json") else { return nil }
        let answer = Answer(await fetcher.fetch(url, userAgent: configuration.userAgent, maxBodyBytes: Self.assetLinksSizeLimit))
        switch answer {
        case .file(let response):
            return (try? AndroidAssetStatement.statements(in: Array(response.body))) ?? []
        case .tooLarge, .redirect, .status:
            return []
        case .failed, .refused:
            findings.append(Finding(
                code: .assetlinksUnreachable, severity: .warning, subject: url.absoluteString,
                message: "\(url.absoluteString) \(answer.summary): Android's answers for \(authority) assume the "
                    + "domain verifies; pass --assetlinks FILE, or run `linux-host doctor domain \(authority) --android-package P`."))
            return nil
        }
    }
}
