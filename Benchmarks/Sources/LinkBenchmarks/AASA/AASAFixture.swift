/// Generated `apple-app-site-association` files: what a brand sending Responsys mail with a large site serves.
///
/// **Responsys-like** (the realistic file): the two Responsys rules first (`/pub/acc` opens the app, `/pub/cc`
/// stays on the web), then rules cycling through four shapes a retail site writes, each with its own literal
/// section: `/LOCALE/campaign-I/*`, `/offers/I` with `{"_ri_": "?*"}` in the query, `/products/I/*`, and
/// excluded `/help/I/*`. Rules share leading text (`/offers/`, `/products/`...) as real files do, but each has a
/// literal part of its own before its first wildcard.
///
/// **Shared-prefix** (the worst case we know for the matcher): every rule is `/shop/*/item-I/*`, so the only
/// literal text before the first `*` is `/shop/`, shared by all, and the rule ends in `*`: no cheap filter can
/// pass rules over and every one is tried as a glob.
///
/// The URL of each case is matched by the last rule of the file, so every rule before it is considered.
enum AASAFixture {
    static let appID = "ABCDE12345.com.example.app"
    static let domain = "news.example.com"
    static let locales = ["en-us", "en-gb", "fr-fr", "de-de", "es-es", "it-it", "ja-jp", "pt-br"]

    enum Variant: String, CaseIterable {
        case responsysLike = "responsys-like"
        case sharedPrefix = "shared-prefix"
    }

    /// The components of rule `index`, as JSON text.
    static func rule(_ index: Int, variant: Variant) -> String {
        switch variant {
        case .sharedPrefix:
            return #"{"/":"/shop/*/item-\#(index)/*","comment":"catalogue item \#(index)"}"#
        case .responsysLike:
            switch index {
            case 0: return #"{"/":"/pub/acc","comment":"Responsys app links"}"#
            case 1: return #"{"/":"/pub/cc","exclude":true,"comment":"Responsys web links"}"#
            default: break
            }
            switch index % 4 {
            case 0: return #"{"/":"/\#(locales[index % locales.count])/campaign-\#(index)/*","comment":"campaign \#(index)"}"#
            case 1: return #"{"/":"/offers/\#(index)","?":{"_ri_":"?*"},"comment":"tracked offer \#(index)"}"#
            case 2: return #"{"/":"/products/\#(index)/*","comment":"product \#(index)"}"#
            default: return #"{"/":"/help/\#(index)/*","exclude":true,"comment":"help page \#(index)"}"#
            }
        }
    }

    /// A file of `count` rules in one detail.
    static func file(rules count: Int, variant: Variant) -> String {
        let rules = (0..<count).map { rule($0, variant: variant) }.joined(separator: ",\n        ")
        return """
        {
          "applinks": {
            "details": [{
              "appIDs": ["\(appID)", "ABCDE12345.com.example.app.beta"],
              "components": [
                \(rules)
              ]
            }]
          },
          "webcredentials": {"apps": ["\(appID)"]}
        }
        """
    }

    /// A URL that only the last rule of a `count`-rule file matches.
    static func url(matchingLastOf count: Int, variant: Variant) -> String {
        let last = count - 1
        switch variant {
        case .sharedPrefix:
            return "https://\(domain)/shop/shoes/item-\(last)/blue?utm_source=mail"
        case .responsysLike:
            switch last % 4 {
            case 0: return "https://\(domain)/\(locales[last % locales.count])/campaign-\(last)/spring?utm_source=mail"
            case 1: return "https://\(domain)/offers/\(last)?_ri_=X0Gzc2X%3DYQpglLjHJlTQGzdRjzd&utm_source=mail"
            case 2: return "https://\(domain)/products/\(last)/details?utm_source=mail"
            default: return "https://\(domain)/help/\(last)/faq?utm_source=mail"
            }
        }
    }

    /// A Responsys-like file of about 128 KB (Apple's size limit), and its rule count.
    static func file128K() -> (text: String, rules: Int) {
        var low = 1
        var high = 4_000
        while low < high {
            let middle = (low + high + 1) / 2
            if file(rules: middle, variant: .responsysLike).utf8.count <= 128 * 1024 { low = middle } else { high = middle - 1 }
        }
        return (file(rules: low, variant: .responsysLike), low)
    }
}
