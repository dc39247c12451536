extension Finding.Code {
    /// `aasa.unreachable`: Neither association file location answered 200.
    package static var aasaUnreachable: Self { Self("aasa.unreachable") }
    /// `aasa.redirect`: A location answered with a redirect, which iOS does not follow.
    package static var aasaRedirect: Self { Self("aasa.redirect") }
    /// `aasa.status`: A location answered a status other than 200.
    package static var aasaStatus: Self { Self("aasa.status") }
    /// `aasa.wellKnownMissing`: Only the root location serves the file, not `/.well-known/`.
    package static var aasaWellKnownMissing: Self { Self("aasa.wellKnownMissing") }
    /// `aasa.contentType`: The file is not served as `application/json`.
    package static var aasaContentType: Self { Self("aasa.contentType") }
    /// `aasa.tooLarge`: The file is over Apple's 128 KB limit.
    package static var aasaTooLarge: Self { Self("aasa.tooLarge") }
    /// `aasa.headersTooLarge`: A location answers with a header block over the transport's cap, so its body is never
    /// read (whatever its size).
    package static var aasaHeadersTooLarge: Self { Self("aasa.headersTooLarge") }
    /// `aasa.invalid`: The file has errors as `linux-host aasa check` reports them, with their key paths.
    package static var aasaInvalid: Self { Self("aasa.invalid") }
    /// `aasa.lint`: The file has warnings as `linux-host aasa check` reports them (a warning, never an error).
    package static var aasaLint: Self { Self("aasa.lint") }
    /// `aasa.appMissing`: No `applinks` detail names the app ID.
    package static var aasaAppMissing: Self { Self("aasa.appMissing") }
    /// `aasa.expectationFailed`: An expected-to-open URL does not open the app, or an expected-web URL does.
    package static var aasaExpectationFailed: Self { Self("aasa.expectationFailed") }
    /// `aasa.botBlocked`: The origin answers Apple's fetcher (`AASA-Bot/1.0.0`) differently from an ordinary client.
    package static var aasaBotBlocked: Self { Self("aasa.botBlocked") }
    /// `aasa.cdnMismatch`: Apple's CDN copy has other rules than the origin's file.
    package static var aasaCdnMismatch: Self { Self("aasa.cdnMismatch") }
    /// `aasa.cdnUnavailable`: Apple's CDN has no copy of the file, or could not be reached.
    package static var aasaCdnUnavailable: Self { Self("aasa.cdnUnavailable") }
    /// `assetlinks.unreachable`: The Android file could not be fetched at all.
    package static var assetlinksUnreachable: Self { Self("assetlinks.unreachable") }
    /// `assetlinks.redirect`: The Android file answered with a redirect, which Android does not follow.
    package static var assetlinksRedirect: Self { Self("assetlinks.redirect") }
    /// `assetlinks.status`: The Android file answered a status other than 200.
    package static var assetlinksStatus: Self { Self("assetlinks.status") }
    /// `assetlinks.contentType`: The Android file is not served as `application/json`.
    package static var assetlinksContentType: Self { Self("assetlinks.contentType") }
    /// `assetlinks.tooLarge`: The Android file is over the 1 MiB read cap.
    package static var assetlinksTooLarge: Self { Self("assetlinks.tooLarge") }
    /// `assetlinks.headersTooLarge`: The Android file's location answers with a header block over the transport's
    /// cap, so its body is never read.
    package static var assetlinksHeadersTooLarge: Self { Self("assetlinks.headersTooLarge") }
    /// `assetlinks.invalid`: The Android file is not a JSON array of statements.
    package static var assetlinksInvalid: Self { Self("assetlinks.invalid") }
    /// `assetlinks.packageMissing`: No `android_app` statement with `delegate_permission/common.handle_all_urls` names the package.
    package static var assetlinksPackageMissing: Self { Self("assetlinks.packageMissing") }
    /// `assetlinks.fingerprintMissing`: A given signing-certificate fingerprint is not in the package's statement.
    package static var assetlinksFingerprintMissing: Self { Self("assetlinks.fingerprintMissing") }
    /// `link.relative`: A relative link in an email: mail clients have no base URL to resolve it against.
    package static var linkRelative: Self { Self("link.relative") }
    /// `link.customScheme`: A link with a custom scheme, which Gmail and other clients strip.
    package static var linkCustomScheme: Self { Self("link.customScheme") }
    /// `link.insecure`: An `http` link on the branded domain: universal links need `https`.
    package static var linkInsecure: Self { Self("link.insecure") }
    /// `link.appLinkNotOpening`: An app link the domain's association file does not open in the app.
    package static var linkAppLinkNotOpening: Self { Self("link.appLinkNotOpening") }
    /// `link.webLinkOpensApp`: A link meant for the web that the association file opens in the app.
    package static var linkWebLinkOpensApp: Self { Self("link.webLinkOpensApp") }
    /// `link.notBranded`: A link on another domain than the branded ones.
    package static var linkNotBranded: Self { Self("link.notBranded") }
    /// `link.nullDeepLink`: The resolution's `mobileDeepLinkUrl` is null or empty.
    package static var linkNullDeepLink: Self { Self("link.nullDeepLink") }
    /// `link.resolveFailed`: The resolution failed; the message carries the `LinkError` code.
    package static var linkResolveFailed: Self { Self("link.resolveFailed") }
    /// `link.unroutable`: Neither the deep link nor the web link matches a route of the table.
    package static var linkUnroutable: Self { Self("link.unroutable") }
    /// `campaign.brandedDomainUnused`: A branded domain given for a campaign matches none of its links (usually a
    /// misspelling).
    package static var campaignBrandedDomainUnused: Self { Self("campaign.brandedDomainUnused") }
    /// `link.malformed`: An http(s) link that is not a URL a mail client can open.
    package static var linkMalformed: Self { Self("link.malformed") }
    /// `link.outlookOnlyDiffers`: A tracking link only Outlook on Windows renders (inside `<!--[if mso]>`, such as a
    /// VML button) whose host, path and `_ri_` match no link a phone sees: Outlook readers go elsewhere.
    package static var linkOutlookOnlyDiffers: Self { Self("link.outlookOnlyDiffers") }
}
