import AssociatedDomains

extension LinkDoctor {
    /// Android's answer for one branded http(s) link (see ``AndroidLinkMatcher``), and an error when it differs
    /// from iOS's: half the readers would land somewhere else than the other half.
    func judgeAndroid(_ link: inout CampaignLink, _ android: AndroidLinkMatcher) {
        let answer = android.explain(link.url)
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
}
