import Foundation
import Testing
@testable import LinkRouting

/// JLRoutes 2.1 behaviour, case by case from its documentation and its own test suite.
struct LinkRouterTests {
    private func basicRouter() -> (LinkRouter, Recorder) {
        let router = LinkRouter()
        let recorder = Recorder()
        let handler = recorder.handler()
        for pattern in [
            "/test", "/user/view/:userID", "/:object/:action/:primaryKey", "/", "/:",
            "/interleaving/:param1/foo/:param2", "/xyz/wildcard/*", "/route/:param/*",
            "/required/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
        ] {
            router.addRoute(pattern, handler: handler)
        }
        return (router, recorder)
    }

    @Test(arguments: ["tests:/", "tests://"])
    func anEmptyPathMatchesTheSlashRoute(url: String) throws {
        let (router, recorder) = basicRouter()
        let parameters = try #require(try route(router, recorder, url))
        #expect(parameters[RouteKey.pattern] == "/")
        #expect(parameters.userValues.isEmpty)
    }

    @Test(arguments: ["tests://test?", "tests://test/", "tests://test"])
    func aHostWithoutADotIsTheFirstPathComponent(url: String) throws {
        let (router, recorder) = basicRouter()
        let parameters = try #require(try route(router, recorder, url))
        #expect(parameters[RouteKey.pattern] == "/test")
        #expect(parameters.userValues.isEmpty)
    }

    @Test func queryItemsBecomeParameters() throws {
        let (router, recorder) = basicRouter()
        let parameters = try #require(try route(router, recorder, "tests://?key=value"))
        #expect(parameters.userValues == ["key": s("value")])
    }

    @Test func variablesAreCapturedAndPercentDecoded() throws {
        let (router, recorder) = basicRouter()
        #expect(try route(router, recorder, "tests://user/view/joeldev")?.userValues == ["userID": s("joeldev")])
        #expect(try route(router, recorder, "tests://user/view/joeldev/")?.userValues == ["userID": s("joeldev")])
        #expect(try route(router, recorder, "tests://user/view/joel%20levin")?.userValues == ["userID": s("joel levin")])
        #expect(try route(router, recorder, "tests://post/edit/123")?.userValues
            == ["object": s("post"), "action": s("edit"), "primaryKey": s("123")])
        #expect(try route(router, recorder, "tests://interleaving/paramvalue1/foo/paramvalue2")?.userValues
            == ["param1": s("paramvalue1"), "param2": s("paramvalue2")])
    }

    @Test func queryAndFragmentQueryAreMerged() throws {
        let (router, recorder) = basicRouter()
        let expected = ["userID": s("joeldev"), "foo": s("bar"), "thing": s("stuff")]
        #expect(try route(router, recorder, "tests://user/view/joeldev?foo=bar&thing=stuff")?.userValues == expected)
        #expect(try route(router, recorder, "tests://user/view/joeldev#foo=bar&thing=stuff")?.userValues == expected)
    }

    @Test func routeVariablesBeatQueryItemsAndCallerParametersBeatBoth() throws {
        let (router, recorder) = basicRouter()
        #expect(try route(router, recorder, "tests://user/view/joeldev?userID=evilPerson")?.userValues == ["userID": s("joeldev")])
        let parameters = try #require(try route(
            router, recorder,
            "tests://user/view/joeldev?userID=evilPerson&search=evilSearch&evilThing=evil#userID=otherEvilPerson",
            parameters: ["evilThing": "notEvil"]))
        #expect(parameters.userValues == ["userID": s("joeldev"), "search": s("evilSearch"), "evilThing": s("notEvil")])
    }

    @Test func callerParametersCannotOverrideTheReservedKeys() throws {
        let (router, recorder) = basicRouter()
        let parameters = try #require(try route(
            router, recorder, "tests://test",
            parameters: [RouteKey.pattern: "x", RouteKey.url: "y", RouteKey.scheme: "z", "extra": "1"]))
        #expect(parameters[RouteKey.pattern] == "/test")
        #expect(parameters[RouteKey.url] == "tests://test")
        #expect(parameters[RouteKey.scheme] == RouteKey.globalRoutesScheme)
        #expect(parameters["extra"] == "1")
    }

    @Test func wildcardCapturesTheRemainingRawComponents() throws {
        let (router, recorder) = basicRouter()
        let none = try #require(try route(router, recorder, "tests://xyz/wildcard"))
        #expect(none.strings(RouteKey.wildcardComponents) == [])
        #expect(none.userValues == [RouteKey.wildcardComponents: .strings([])])
        let many = try #require(try route(router, recorder, "tests://xyz/wildcard/matches/with/extra/path/components"))
        #expect(many.strings(RouteKey.wildcardComponents) == ["matches", "with", "extra", "path", "components"])
        let mixed = try #require(try route(router, recorder, "tests://route/matches/with/wildcard"))
        #expect(mixed.userValues == ["param": s("matches"), RouteKey.wildcardComponents: .strings(["with", "wildcard"])])
        let encoded = try #require(try route(router, recorder, "tests://xyz/wildcard/a%20b/c"))
        #expect(encoded.strings(RouteKey.wildcardComponents) == ["a%20b", "c"])
    }

    @Test func anUnknownPathDoesNotRoute() throws {
        let (router, recorder) = basicRouter()
        #expect(try route(router, recorder, "tests://doesnt/exist/and/wont/match") == nil)
    }

    @Test func localhostIsNotAPathComponent() throws {
        let (router, recorder) = basicRouter()
        let url = try #require(URL(string: "/test", relativeTo: URL(string: "http://localhost")))
        #expect(router.route(url))
        #expect(recorder.last?[RouteKey.pattern] == "/test")
    }

    @Test func optionalGroupsMatchEveryCombination() throws {
        let (router, recorder) = basicRouter()
        #expect(try route(router, recorder, "tests://required/mustExist")?.userValues == ["requiredParam": s("mustExist")])
        #expect(try route(router, recorder, "tests://required/mustExist/optional/mightExist")?.userValues
            == ["requiredParam": s("mustExist"), "optionalParam": s("mightExist")])
        let all = try #require(try route(router, recorder, "tests://required/mustExist/optional/mightExist/moreOptional/mightExistToo"))
        #expect(all.userValues == ["requiredParam": s("mustExist"), "optionalParam": s("mightExist"), "moreOptionalParam": s("mightExistToo")])
        #expect(all[RouteKey.pattern] == "/required/:requiredParam/optional/:optionalParam/moreOptional/:moreOptionalParam")
    }

    @Test func multipleOptionalGroupsReportTheExpandedPattern() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/path/:thing(/new)(/anotherpath/:anotherthing)", handler: recorder.handler())
        #expect(router.routes().map(\.pattern) == [
            "/path/:thing/new/anotherpath/:anotherthing", "/path/:thing/anotherpath/:anotherthing",
            "/path/:thing/new", "/path/:thing",
        ])
        let both = try #require(try route(router, recorder, "foo://path/abc/new/anotherpath/def"))
        #expect(both.userValues == ["thing": s("abc"), "anotherthing": s("def")])
        #expect(try route(router, recorder, "foo://path/foo/anotherpath/bar")?.userValues == ["thing": s("foo"), "anotherthing": s("bar")])
        #expect(try route(router, recorder, "foo://path/yyy/new")?[RouteKey.pattern] == "/path/:thing/new")
        #expect(try route(router, recorder, "foo://path/zzz")?.userValues == ["thing": s("zzz")])
        #expect(try route(router, recorder, "foo://path/zzz/anotherpath") == nil)
    }

    // MARK: Fragments

    private func fragmentRouter() -> (LinkRouter, Recorder) {
        let router = LinkRouter()
        let recorder = Recorder()
        for pattern in [
            "/user#/view/:userID", "/:object#/:action/:primaryKey", "/interleaving/:param1#/foo/:param2",
            "/xyz/wildcard#/*", "/route#/:param/*",
            "/required#/:requiredParam(/optional/:optionalParam)(/moreOptional/:moreOptionalParam)",
        ] {
            router.addRoute(pattern, handler: recorder.handler())
        }
        return (router, recorder)
    }

    @Test func aFragmentPathIsAppendedToThePath() throws {
        let (router, recorder) = fragmentRouter()
        #expect(try route(router, recorder, "tests://user#/view/joeldev")?.userValues == ["userID": s("joeldev")])
        #expect(try route(router, recorder, "tests://user#/view/joeldev/")?.userValues == ["userID": s("joeldev")])
        #expect(try route(router, recorder, "tests://user#/view/joel%20levin")?.userValues == ["userID": s("joel levin")])
        #expect(try route(router, recorder, "tests://post#/edit/123")?.userValues
            == ["object": s("post"), "action": s("edit"), "primaryKey": s("123")])
        #expect(try route(router, recorder, "tests://interleaving/paramvalue1#/foo/paramvalue2")?.userValues
            == ["param1": s("paramvalue1"), "param2": s("paramvalue2")])
        #expect(try route(router, recorder, "tests://doesnt/exist#/and/wont/match") == nil)
    }

    @Test func aFragmentWithPathAndQueryContributesBoth() throws {
        let (router, recorder) = fragmentRouter()
        #expect(try route(router, recorder, "tests://user#/view/joeldev?foo=bar&thing=stuff")?.userValues
            == ["userID": s("joeldev"), "foo": s("bar"), "thing": s("stuff")])
        #expect(try route(router, recorder, "tests://user#/view/joeldev?userID=evilPerson")?.userValues == ["userID": s("joeldev")])
        #expect(try route(
            router, recorder, "tests://user#/view/joeldev?userID=evilPerson&search=evilSearch&evilThing=evil",
            parameters: ["evilThing": "notEvil"])?.userValues
            == ["userID": s("joeldev"), "search": s("evilSearch"), "evilThing": s("notEvil")])
        #expect(try route(
            router, recorder, "tests://user?search=niceSearch&go=home#/view/joeldev?userID=evilPerson&&evilThing=evil",
            parameters: ["evilThing": "notEvil"])?.userValues
            == ["userID": s("joeldev"), "search": s("niceSearch"), "go": s("home"), "evilThing": s("notEvil")])
    }

    @Test func anEmptyFragmentStillMarksThePreviousComponent() throws {
        let (router, recorder) = fragmentRouter()
        #expect(try route(router, recorder, "tests://xyz/wildcard#")?.strings(RouteKey.wildcardComponents) == [])
        #expect(try route(router, recorder, "tests://xyz/wildcard#/matches/with/extra/path/components")?.strings(RouteKey.wildcardComponents)
            == ["matches", "with", "extra", "path", "components"])
        #expect(try route(router, recorder, "tests://route#/matches/with/wildcard")?.userValues
            == ["param": s("matches"), RouteKey.wildcardComponents: .strings(["with", "wildcard"])])
    }

    @Test func fragmentRoutesSupportOptionalGroups() throws {
        let (router, recorder) = fragmentRouter()
        #expect(try route(router, recorder, "tests://required#/mustExist")?.userValues == ["requiredParam": s("mustExist")])
        #expect(try route(router, recorder, "tests://required#/mustExist/optional/mightExist/moreOptional/mightExistToo")?.userValues
            == ["requiredParam": s("mustExist"), "optionalParam": s("mightExist"), "moreOptionalParam": s("mightExistToo")])
    }

    // MARK: Order

    @Test func aHigherPriorityRouteIsTriedFirst() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/test/priority/:level", handler: recorder.handler())
        router.addRoute("/test/priority/high", priority: 20, handler: recorder.handler())
        #expect(try route(router, recorder, "tests://test/priority/high")?[RouteKey.pattern] == "/test/priority/high")
        #expect(try route(router, recorder, "tests://test/priority/low")?[RouteKey.pattern] == "/test/priority/:level")
    }

    @Test func routesWithOnlyNonZeroPrioritiesStillRoute() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/:foo/bar/:baz", namespace: .scheme("priorityTest"), priority: 20, handler: recorder.handler())
        router.addRoute("/:foo/things/:baz", namespace: .scheme("priorityTest"), priority: 10, handler: recorder.handler())
        router.addRoute("/:foo/:baz", namespace: .scheme("priorityTest"), priority: 1, handler: recorder.handler())
        #expect(try route(router, recorder, "priorityTest://stuff/things/foo")?[RouteKey.pattern] == "/:foo/things/:baz")
        #expect(try route(router, recorder, "priorityTest://one/two")?[RouteKey.pattern] == "/:foo/:baz")
        #expect(try route(router, recorder, "priorityTest://stuff/bar/baz")?[RouteKey.pattern] == "/:foo/bar/:baz")
    }

    @Test func equalPrioritiesAreTriedInRegistrationOrder() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/:a/:b", handler: recorder.handler())
        router.addRoute("/x/:b", handler: recorder.handler())
        #expect(try route(router, recorder, "app://x/y")?[RouteKey.pattern] == "/:a/:b")
    }

    @Test func aHandlerReturningFalsePassesTheURLOn() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/return/:value") { parameters in
            recorder.handler()(parameters) && parameters["value"] == "yes"
        }
        router.addRoute("/return/maybe", priority: 5, handler: recorder.handler(returning: false))
        router.addRoute("/:any/maybe", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://return/no") == nil)
        #expect(try route(router, recorder, "tests://return/yes") != nil)
        let passed = try #require(try route(router, recorder, "tests://return/maybe"))
        #expect(passed[RouteKey.pattern] == "/:any/maybe")
        #expect(recorder.all.map({ $0[RouteKey.pattern] }) == ["/return/maybe", "/return/:value", "/:any/maybe"])
    }

    @Test func routesAreListedInTheOrderTheyAreTried() {
        let router = LinkRouter()
        router.addRoute("/global1") { _ in true }
        router.addRoute("/global2", priority: 2) { _ in true }
        router.addRoute("/global3") { _ in true }
        router.addRoute("/global4", priority: 2, group: "g") { _ in true }
        router.addRoute("/scheme1", namespace: .scheme("scheme")) { _ in true }
        #expect(router.routes().map(\.pattern) == ["/global2", "/global4", "/global1", "/global3"])
        #expect(router.routes().last?.priority == 0)
        #expect(router.routes()[1].group == "g")
        #expect(router.routes(in: .scheme("scheme")).map(\.namespace) == [.scheme("scheme")])
        #expect(router.routes(in: .scheme("foo")).isEmpty)
    }

    // MARK: Namespaces

    @Test func eachSchemeHasItsOwnNamespace() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/test", handler: recorder.handler())
        router.addRoute("/test", namespace: .scheme("namespaceTest1"), handler: recorder.handler())
        router.addRoute("/test", namespace: .scheme("namespaceTest2"), handler: recorder.handler())
        #expect(try route(router, recorder, "tests://test")?[RouteKey.scheme] == RouteKey.globalRoutesScheme)
        #expect(try route(router, recorder, "namespaceTest1://test")?[RouteKey.scheme] == "namespaceTest1")
        #expect(try route(router, recorder, "namespaceTest2://test")?[RouteKey.scheme] == "namespaceTest2")
    }

    @Test func schemesAreCaseSensitive() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/test", namespace: .scheme("myapp"), handler: recorder.handler())
        #expect(try route(router, recorder, "myapp://test") != nil)
        #expect(try route(router, recorder, "MYAPP://test") == nil)
    }

    @Test func aSchemeNamespaceHidesGlobalRoutesUnlessItFallsBack() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        router.addRoute("/test", namespace: .scheme("namespaceTest1"), handler: recorder.handler())
        router.addRoute("/test", namespace: .scheme("namespaceTest2"), handler: recorder.handler())
        router.addNamespace("namespaceTest2", fallsBackToGlobalRoutes: true)
        #expect(try route(router, recorder, "namespaceTest1://user/view/joeldev") == nil)
        let parameters = try #require(try route(router, recorder, "namespaceTest2://user/view/joeldev"))
        #expect(parameters[RouteKey.scheme] == RouteKey.globalRoutesScheme)
        #expect(parameters.userValues == ["userID": s("joeldev")])
        #expect(router.canRoute(try #require(URL(string: "namespaceTest2://user/view/joeldev"))))
        #expect(!router.canRoute(try #require(URL(string: "namespaceTest1://user/view/joeldev"))))
    }

    @Test func anEmptyNamespaceStillHidesTheGlobalRoutes() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/test", handler: recorder.handler())
        router.addNamespace("empty")
        #expect(try route(router, recorder, "empty://test") == nil)
        router.removeNamespace("empty")
        #expect(try route(router, recorder, "empty://test")?[RouteKey.scheme] == RouteKey.globalRoutesScheme)
    }

    @Test func unmatchedHandlersRunAfterFallbackButNotForCanRoute() throws {
        let router = LinkRouter()
        let unmatched = Recorder()
        router.addNamespace("app", fallsBackToGlobalRoutes: true)
        router.setUnmatchedURLHandler({ url, _ in
            _ = unmatched.handler()(RouteParameters(values: ["who": s("global")], url: url))
        })
        router.setUnmatchedURLHandler({ url, parameters in
            _ = unmatched.handler()(RouteParameters(values: ["who": s("app"), "p": s(parameters["p"] ?? "")], url: url))
        }, namespace: .scheme("app"))
        let url = try #require(URL(string: "app://nowhere"))
        #expect(!router.canRoute(url))
        #expect(unmatched.all.isEmpty)
        #expect(!router.route(url, parameters: ["p": "1"]))
        #expect(unmatched.all.map { $0["who"] } == ["global", "app"])
        #expect(unmatched.last?["p"] == "1")
    }

    @Test func canRouteNeverCallsAHandler() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/test", handler: recorder.handler(returning: false))
        #expect(router.canRoute(try #require(URL(string: "tests:/test"))))
        #expect(!router.canRoute(try #require(URL(string: "tests:/dfjkbsdkjfbskjdfb/sdasd"))))
        #expect(recorder.all.isEmpty)
    }

    @Test func aRelativeURLUsesTheGlobalRoutes() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/subscripting", handler: recorder.handler())
        router.addRoute("/success", handler: recorder.handler())
        #expect(router.canRoute(try #require(URL(string: "subscripting"))))
        #expect(router.route(try #require(URL(string: "/success"))))
    }

    @Test func removingARouteRemovesTheFirstWithThatPattern() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/:", handler: recorder.handler())
        router.addRoute("/test1", namespace: .scheme("namespaceTest3"), handler: recorder.handler())
        router.addRoute("/test2", namespace: .scheme("namespaceTest3"), handler: recorder.handler())
        #expect(try route(router, recorder, "namespaceTest3://test1") != nil)
        #expect(router.removeRoute("test1", namespace: .scheme("namespaceTest3")))
        #expect(try route(router, recorder, "namespaceTest3://test1") == nil)
        #expect(try route(router, recorder, "namespaceTest3://test2")?[RouteKey.scheme] == "namespaceTest3")
        router.removeNamespace("namespaceTest3")
        let global = try #require(try route(router, recorder, "namespaceTest3://test2"))
        #expect(global[RouteKey.scheme] == RouteKey.globalRoutesScheme)
        #expect(global.userValues == [":": s("test2")])
    }

    // MARK: Encoding

    @Test(arguments: [
        ("joel%21levin", "joel!levin"), ("joel%23levin", "joel#levin"), ("joel%24levin", "joel$levin"),
        ("joel%26levin", "joel&levin"), ("joel%27levin", "joel'levin"), ("joel%28levin", "joel(levin"),
        ("joel%29levin", "joel)levin"), ("joel%2Alevin", "joel*levin"), ("joel%2Blevin", "joel+levin"),
        ("joel%2Clevin", "joel,levin"), ("joel%3Alevin", "joel:levin"), ("joel%3Blevin", "joel;levin"),
        ("joel%3Dlevin", "joel=levin"), ("joel%3Flevin", "joel?levin"), ("joel%40levin", "joel@levin"),
        ("joel%5Blevin", "joel[levin"), ("joel%5Dlevin", "joel]levin"), ("joel%2Flevin", "joel/levin"),
    ])
    func percentEscapesAreDecodedInVariables(encoded: String, decoded: String) throws {
        let router = LinkRouter(options: .init(decodePlusSymbols: false))
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://user/view/\(encoded)")?.userValues == ["userID": s(decoded)])
    }

    @Test func plusSymbolsBecomeSpacesWhenDecodingIsOn() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://user/view/joel%2Blevin")?["userID"] == "joel levin")
        #expect(try route(router, recorder, "tests://user/view/joel+levin")?["userID"] == "joel levin")
        #expect(try route(router, recorder, "tests://user/view/test?name=joel+levin")?.userValues
            == ["userID": s("test"), "name": s("joel levin")])
        #expect(try route(router, recorder, "tests://user/view/test?people=joel+levin&people=foo+bar")?.userValues
            == ["userID": s("test"), "people": .strings(["joel levin", "foo bar"])])
    }

    @Test func plusSymbolsStayWhenDecodingIsOff() throws {
        let router = LinkRouter(options: .init(decodePlusSymbols: false))
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://user/view/joel%2Blevin")?["userID"] == "joel+levin")
        #expect(try route(router, recorder, "tests://user/view/joel+levin")?["userID"] == "joel+levin")
        #expect(try route(router, recorder, "tests://user/view/test?name=joel+levin")?["name"] == "joel+levin")
        #expect(try route(router, recorder, "tests://user/view/test?people=joel+levin&people=foo+bar")?.strings("people")
            == ["joel+levin", "foo+bar"])
        router.options.decodePlusSymbols = true
        #expect(try route(router, recorder, "tests://user/view/joel+levin")?["userID"] == "joel levin")
    }

    @Test func urlStringsCanBePassedAsParameters() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/web/:URLString", handler: recorder.handler())
        router.addRoute("/web", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://web/http%3A%2F%2Ffoobar.com%2Fbaz")?["URLString"] == "http://foobar.com/baz")
        #expect(try route(router, recorder, "tests://web?URLString=http%3A%2F%2Ffoobar.com%2Fbaz")?["URLString"] == "http://foobar.com/baz")
    }

    @Test func repeatedQueryKeysBecomeArraysAndItemsWithoutEqualsAreDropped() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/test/foo", handler: recorder.handler())
        let parameters = try #require(try route(router, recorder, "tests://test/foo?key=1&key=2&key=3&text=hi&text=there&flag&empty="))
        #expect(parameters.userValues == [
            "key": .strings(["1", "2", "3"]), "text": .strings(["hi", "there"]), "empty": s(""),
        ])
    }

    @Test func invalidEscapesStayLiteralWhenRoutingAString() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        router.addRoute("/literal/%zz", handler: recorder.handler())
        #expect(router.route("tests://user/view/a%zzb%4?q=%zz&r=%E2%82%AC"))
        #expect(recorder.last?.userValues == ["userID": s("a%zzb%4"), "q": s("%zz"), "r": s("€")])
        #expect(recorder.last?[RouteKey.url] == "tests://user/view/a%zzb%4?q=%zz&r=%E2%82%AC")
        #expect(router.route("tests://user/view/%FF"))
        #expect(recorder.last?["userID"] == "%FF")
        #expect(router.route("tests://literal/%zz"))
        #expect(recorder.last?[RouteKey.pattern] == "/literal/%zz")
        #expect(router.canRoute("tests://literal/%zz"))
    }

    @Test func aURLWithABadEscapeStillRoutesItsValuesLiterally() throws {
        // Foundation re-encodes every `%` of such a URL; the value the handler sees is still the text as written.
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://user/view/a%zzb")?["userID"] == "a%zzb")
    }

    @Test func randomURLishTextNeverCrashesTheRouter() {
        var generator = SegmentIndexTests.Generator(state: 42)
        let alphabet = Array("ab:/?#&=%+*()[]@.-_zZ9 \u{e9}")
        let router = LinkRouter()
        let recorder = Recorder()
        for _ in 0..<200 {
            let pattern = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            router.addRoute(pattern, handler: recorder.handler(returning: Bool.random(using: &generator)))
        }
        var routed = 0
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            if router.route(text) { routed += 1 }
            _ = router.canRoute(text)
            _ = router.explain(text)
        }
        #expect(routed > 0)
    }

    @Test func stringsThatAreNotURLsDoNotRouteOrCrash() {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/:anything", handler: recorder.handler())
        router.addRoute("/", handler: recorder.handler())
        for junk in ["", "http://[::1", "%%%", "::::", "#", "?", "a#b#c", "\u{0}", String(repeating: "/", count: 500)] {
            _ = router.route(junk)
            _ = router.canRoute(junk)
        }
        #expect(!router.route(""))
    }

    @Test func literalsAreComparedEncodedAndCaseSensitively() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/a%20b", handler: recorder.handler())
        router.addRoute("/Case", handler: recorder.handler())
        #expect(try route(router, recorder, "app://a%20b") != nil)
        #expect(try route(router, recorder, "app://case") == nil)
        #expect(try route(router, recorder, "app://Case") != nil)
    }

    @Test func variablesMatchEmptyComponents() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/:id/edit", handler: recorder.handler())
        #expect(try route(router, recorder, "https://www.example.com/user//edit")?["id"] == "")
    }

    @Test func aTrailingHashIsDroppedFromVariableNamesAndValues() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/item/:id#/detail", handler: recorder.handler())
        #expect(try route(router, recorder, "app://item/42#/detail")?.userValues == ["id": s("42")])
    }

    @Test func aVariableBeforeAWildcardNeedsItsComponent() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("list/:variable/detail/:variable2/*", namespace: .scheme("wildcardTests"), handler: recorder.handler())
        #expect(try route(router, recorder, "wildcardTests://list/variable/detail/") == nil)
        #expect(try route(router, recorder, "wildcardTests://list/variable/detail/variable2") != nil)
    }

    // MARK: Hosts

    @Test func hostsWithADotAreNotPathComponentsUnlessAsked() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/sign_in", handler: recorder.handler())
        router.addRoute("/path/:pathid", handler: recorder.handler())
        #expect(try route(router, recorder, "https://www.mydomain.com/sign_in")?[RouteKey.pattern] == "/sign_in")
        #expect(try route(router, recorder, "https://www.mydomain.com/path/3")?["pathid"] == "3")
        router.options.alwaysTreatsHostAsPathComponent = true
        #expect(try route(router, recorder, "https://www.mydomain2.com/sign_in") == nil)
        router.addRoute("/www.mydomain2.com/sign_in", handler: recorder.handler())
        router.addRoute("/www.mydomain2.com/path/:pathid", handler: recorder.handler())
        #expect(try route(router, recorder, "https://www.mydomain2.com/sign_in")?[RouteKey.pattern] == "/www.mydomain2.com/sign_in")
        #expect(try route(router, recorder, "https://www.mydomain2.com/path/3")?["pathid"] == "3")
    }

    @Test func aHostPathCollapsesDoubleSlashes() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:id", handler: recorder.handler())
        #expect(try route(router, recorder, "myapp://user//view/x")?["id"] == "x")
    }

    @Test func hostAwareRoutesMatchSchemeHostAndPath() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("https://www.example.com/invites/:code", handler: recorder.handler())
        router.addRoute("https://*.example.org/products/:id", handler: recorder.handler())
        router.addRoute("/invites/:code", handler: recorder.handler(returning: false))
        let invite = try #require(try route(router, recorder, "https://WWW.example.com/invites/ABC"))
        #expect(invite.userValues == ["code": s("ABC")])
        #expect(invite[RouteKey.pattern] == "https://www.example.com/invites/:code")
        #expect(try route(router, recorder, "https://other.example.com/invites/ABC") == nil)
        #expect(try route(router, recorder, "http://www.example.com/invites/ABC") == nil)
        #expect(try route(router, recorder, "https://shop.eu.example.org/products/7")?["id"] == "7")
        #expect(try route(router, recorder, "https://example.org/products/7") == nil)
    }

    @Test func hostAwareRoutesIgnoreTheDotHeuristic() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("myapp://products/:id", handler: recorder.handler())
        router.addRoute("/products/:id", handler: recorder.handler())
        let hostAware = try #require(try route(router, recorder, "myapp://products/12"))
        #expect(hostAware[RouteKey.pattern] == "myapp://products/:id")
    }

    // MARK: Fixed JLRoutes bugs

    @Test func aPatternWithATrailingSlashMatchesLikeOneWithout() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/user/view/:userID/", handler: recorder.handler())
        router.addRoute("/about/", handler: recorder.handler())
        #expect(try route(router, recorder, "tests://user/view/joeldev")?["userID"] == "joeldev")
        #expect(try route(router, recorder, "tests://user/view/joeldev/")?[RouteKey.pattern] == "/user/view/:userID/")
        #expect(try route(router, recorder, "tests://about") != nil)
    }

    @Test func routesCanBeAddedAndRoutedFromManyThreadsAtOnce() async throws {
        let router = LinkRouter()
        let recorder = Recorder()
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        router.addRoute("/w\(worker)/r\(index)/:id", handler: recorder.handler())
                        if let url = URL(string: "app://w\(worker)/r\(index)/\(index)") { _ = router.route(url) }
                    }
                }
            }
        }
        #expect(router.routes().count == 1_600)
        #expect(recorder.all.count == 1_600)
        #expect(Set(recorder.all.map({ $0[RouteKey.pattern] })).count == 1_600)
    }

    @Test func aHandlerMayAddRoutesAndRouteAgain() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/outer") { _ in
            router.addRoute("/inner", handler: recorder.handler())
            return URL(string: "app://inner").map { router.route($0) } ?? false
        }
        #expect(router.route(try #require(URL(string: "app://outer"))))
        #expect(recorder.last?[RouteKey.pattern] == "/inner")
    }

    // MARK: Groups

    @Test func aDisabledGroupBehavesAsIfAbsent() throws {
        let router = LinkRouter()
        let recorder = Recorder()
        router.addRoute("/invites/:invite_code", group: "invites", handler: recorder.handler())
        router.addRoute("/:section/:id", handler: recorder.handler())
        let url = try #require(URL(string: "app://invites/ABC"))
        #expect(try route(router, recorder, "app://invites/ABC")?[RouteKey.pattern] == "/invites/:invite_code")
        router.setGroup("invites", enabled: false)
        #expect(!router.isGroupEnabled("invites"))
        #expect(try route(router, recorder, "app://invites/ABC")?[RouteKey.pattern] == "/:section/:id")
        router.removeRoute("/:section/:id")
        #expect(!router.canRoute(url))
        router.setGroup("invites", enabled: true)
        #expect(router.canRoute(url))
    }
}
