extension Finding.Code {
    /// `assetlinks.declaredTooLarge`: The Android file declares a `Content-Length` over 1 MiB: Android's verifier
    /// refuses it without reading it.
    package static var assetlinksDeclaredTooLarge: Self { Self("assetlinks.declaredTooLarge") }
    /// `assetlinks.dynamicRulesDropped`: A malformed or empty `dynamic_app_link_components` field: Android 15+
    /// drops every dynamic rule and applies the manifest alone.
    package static var assetlinksDynamicRulesDropped: Self { Self("assetlinks.dynamicRulesDropped") }
    /// `assetlinks.include`: An `include` statement Android cannot follow (not https, a nested include, or a file
    /// that does not answer 200 with statements).
    package static var assetlinksInclude: Self { Self("assetlinks.include") }
    /// `link.platformsDisagree`: The link opens the app on one platform and the browser on the other.
    package static var linkPlatformsDisagree: Self { Self("link.platformsDisagree") }
}
