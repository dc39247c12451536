import Testing
@testable import AssociatedDomains

/// Builds a matcher over one detail for `ABCDE12345.com.example.app` with the given components JSON.
func matcher(components: String, extra: String = "", configuration: AppLinkMatcher.Configuration = .init())
throws -> AppLinkMatcher {
    let json = """
        {"applinks": {\(extra)"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [\(components)]}]}}
        """
    return try AppLinkMatcher(parsing: Array(json.utf8), configuration: configuration)
}

let app = "ABCDE12345.com.example.app"
let E = "https://example.com"

struct AppLinkMatcherTests {
    func outcome(_ components: String, _ url: String, extra: String = "",
                 configuration: AppLinkMatcher.Configuration = .init()) throws -> AppLinkMatch.Outcome {
        try matcher(components: components, extra: extra, configuration: configuration)
            .match(url, appID: app, domain: "example.com").outcome
    }

    @Test(arguments: [
        ("/buy", AppLinkMatch.Outcome.match), ("/buy/42/x", .match), ("/buy/", .match), ("/buyer", .none),
        ("/buy/42", .match), ("", .none),
    ])
    func starAfterSlashMatchesTheParentAndEverythingBelow(path: String, expected: AppLinkMatch.Outcome) throws {
        #expect(try outcome(#"{"/": "/buy/*"}"#, E + path) == expected)
    }

    @Test func starInTheMiddleNeedsItsSlashes() throws {
        #expect(try outcome(#"{"/": "/a/*/c"}"#, E + "/a/c") == .none)
        #expect(try outcome(#"{"/": "/a/*/c"}"#, E + "/a/b/c") == .match)
        #expect(try outcome(#"{"/": "/a/*/c"}"#, E + "/a/b/x/c") == .match)
    }

    @Test func queryStringIsAGlobOverTheWholeQuery() throws {
        #expect(try outcome(#"{"?": "a=1"}"#, E + "/x?a=1&b=2") == .none)
        #expect(try outcome(#"{"?": "a=1"}"#, E + "/x?a=1") == .match)
        #expect(try outcome(#"{"?": "a=1*"}"#, E + "/x?a=1&b=2") == .match)
        #expect(try outcome(#"{"?": "*"}"#, E + "/x") == .match)
        #expect(try outcome(#"{"?": "?*"}"#, E + "/x") == .none)
    }

    @Test func queryDictionaryNeedsEveryNamedItem() throws {
        #expect(try outcome(#"{"?": {"a": "1"}}"#, E + "/x?a=1&b=2") == .match)
        #expect(try outcome(#"{"?": {"b": "?*"}}"#, E + "/x?a=1") == .none)
        #expect(try outcome(#"{"?": {"b": "*"}}"#, E + "/x?a=1") == .match)
        #expect(try outcome(#"{"?": {"a": "1", "b": "2"}}"#, E + "/x?b=2&a=1") == .match)
        #expect(try outcome(#"{"?": {"a": "1", "b": "2"}}"#, E + "/x?a=1") == .none)
    }

    @Test func everyRepetitionOfAQueryItemMustMatch() throws {
        #expect(try outcome(#"{"?": {"id": "42"}}"#, E + "/x?id=7&id=42") == .none)
        #expect(try outcome(#"{"?": {"id": "$(digit)*"}}"#, E + "/x?id=7&id=42") == .match)
    }

    @Test func queryDictionaryWithANonStringValueIsIgnoredEntirely() throws {
        #expect(try outcome(#"{"/": "/x", "?": {"a": "1", "b": 2}}"#, E + "/x?a=9") == .match)
        #expect(try outcome(#"{"/": "/x", "?": {"a": "1", "b": 2}}"#, E + "/y") == .none)
    }

    @Test func missingFragmentMatchesAsEmpty() throws {
        #expect(try outcome(##"{"#": "?*"}"##, E + "/x") == .none)
        #expect(try outcome(##"{"#": "?*"}"##, E + "/x#top") == .match)
        #expect(try outcome(##"{"#": "*"}"##, E + "/x") == .match)
        #expect(try outcome(##"{"#": "top"}"##, E + "/x#top") == .match)
        #expect(try outcome(##"{"#": "top"}"##, E + "/x#bottom") == .none)
    }

    @Test func percentEncodedTextIsComparedUnlessPercentEncodedIsFalse() throws {
        #expect(try outcome(#"{"/": "/a%20b"}"#, E + "/a%20b") == .match)
        #expect(try outcome(#"{"/": "/a b"}"#, E + "/a%20b") == .none)
        #expect(try outcome(#"{"/": "/a b", "percentEncoded": false}"#, E + "/a%20b") == .match)
        // The pattern is never decoded.
        #expect(try outcome(#"{"/": "/a%20b", "percentEncoded": false}"#, E + "/a%20b") == .none)
        #expect(try outcome(#"{"?": {"q": "a b"}, "percentEncoded": false}"#, E + "/x?q=a%20b") == .match)
        #expect(try outcome(#"{"?": {"q": "a b"}}"#, E + "/x?q=a%20b") == .none)
    }

    @Test func caseSensitiveByDefault() throws {
        #expect(try outcome(#"{"/": "/search/"}"#, E + "/SEARCH/") == .none)
        #expect(try outcome(#"{"/": "/search/", "caseSensitive": false}"#, E + "/SEARCH/") == .match)
        #expect(try outcome(#"{"/": "/Search/", "caseSensitive": false}"#, E + "/sEARCH") == .match)
        #expect(try outcome(#"{"?": {"q": "abc"}, "caseSensitive": false}"#, E + "/x?q=ABC") == .match)
    }

    @Test func caseInsensitiveRulesFoldQueryItemNamesByDefault() throws {
        #expect(try outcome(#"{"?": {"id": "1"}, "caseSensitive": false}"#, E + "/x?ID=1") == .match)
        // Case-sensitive (the default): "ID" is another item, so "id" is missing and "" does not match "1".
        #expect(try outcome(#"{"?": {"id": "1"}}"#, E + "/x?ID=1") == .none)
    }

    @Test func queryItemNamesStayExactWhenFoldingIsTurnedOff() throws {
        let configuration = AppLinkMatcher.Configuration(foldsQueryItemNames: false)
        #expect(try outcome(#"{"?": {"id": "1"}, "caseSensitive": false}"#, E + "/x?ID=1",
                            configuration: configuration) == .none)
        #expect(try outcome(#"{"?": {"id": "1"}, "caseSensitive": false}"#, E + "/x?id=ONE",
                            configuration: configuration) == .none)
    }

    @Test(arguments: [
        ("/pub/acc?ri=1", AppLinkMatch.Outcome.match), ("/pub/acc/", .match), ("/pub/acc#f", .match),
        ("/pub/acc", .match), ("/pub/cc", .none), ("/pub/accx", .none), ("/PUB/ACC", .none),
        ("/pub/acc?_ri_=X0Gzc2X%3DYQpglLjHJlTQGoTMrzaOzbHzeVXMtX&_ei_=EolaGGF4", .match),
    ])
    func responsysLegacyFileOpensOnlyAppLinks(path: String, expected: AppLinkMatch.Outcome) throws {
        let json = #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.app", "paths": ["/pub/acc"]}]}}"#
        let file = try AppSiteAssociation(parsing: json)
        #expect(file.diagnostics.isEmpty)
        for platform in [AppLinkMatcher.Configuration.Platform.iOS13AndLater, .iOS9To12] {
            let m = AppLinkMatcher(file, configuration: .init(platform: platform))
            #expect(m.match("https://news.example.com" + path, appID: app, domain: "news.example.com").outcome
                    == expected)
        }
    }
}
