import Testing
@testable import AssociatedDomains

struct AndroidManifestTests {
    static let manifest = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <!-- the app -->
    <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
      <application android:label="Example">
        <activity android:name=".MainActivity" android:exported="true">
          <intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" android:host="news.example.com" />
            <data android:pathPrefix="/pub/acc" />
            <data android:pathPattern="/p/.*\\.html" />
          </intent-filter>
          <intent-filter>
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" android:host="*.shop.example.com" android:port="8443" />
          </intent-filter>
          <intent-filter>
            <action android:name="android.intent.action.MAIN" />
            <category android:name="android.intent.category.LAUNCHER" />
          </intent-filter>
        </activity>
        <activity-alias android:name=".Deals" android:targetActivity=".MainActivity">
          <intent-filter android:autoVerify="true">
            <action android:name="android.intent.action.VIEW" />
            <category android:name="android.intent.category.DEFAULT" />
            <category android:name="android.intent.category.BROWSABLE" />
            <data android:scheme="https" android:host="deals.example.com" />
            <uri-relative-filter-group android:allow="false">
              <data android:pathPrefix="/pub/cc" />
            </uri-relative-filter-group>
            <uri-relative-filter-group>
              <data android:pathPrefix="/pub/" />
              <data android:queryPrefix="ri=" />
            </uri-relative-filter-group>
          </intent-filter>
        </activity-alias>
      </application>
    </manifest>
    """#

    @Test func readsEveryFilterOfActivitiesAndAliases() throws {
        let m = try AndroidManifest(parsing: Self.manifest)
        #expect(m.package == "com.example.app")
        #expect(m.intentFilters.count == 4)
        let first = m.intentFilters[0]
        #expect(first.component == ".MainActivity" && first.line == 6 && first.autoVerify && first.isAppLinkFilter)
        #expect(first.schemes == ["https"])
        #expect(first.authorities == [.init(host: "news.example.com")])
        // aapt's escape: `\\.` in the file is `\.` in the pattern.
        #expect(first.paths.map(\.pattern) == ["/pub/acc", "/p/.*\\.html"])
        #expect(first.paths.map(\.kind) == [.prefix, .simpleGlob])
        #expect(m.intentFilters[1].authorities == [.init(host: "*.shop.example.com", port: 8443)])
        #expect(!m.intentFilters[2].takesTappedLinks)
        let alias = m.intentFilters[3]
        #expect(alias.component == ".Deals")
        #expect(alias.groups.map(\.allow) == [false, true])
        #expect(alias.groups[1].matchers.map(\.attribute) == ["android:pathPrefix=\"/pub/\"", "android:queryPrefix=\"ri=\""])
        #expect(m.problems.isEmpty)
    }

    static let answers: [(String, Bool, String)] = [
        ("https://news.example.com/pub/acc?ri=1", true, ".MainActivity (line 6) takes it"),
        ("https://news.example.com/pub/accx", true, ".MainActivity (line 6) takes it"),
        ("https://NEWS.example.com/pub/acc", true, "takes it"),
        ("https://news.example.com/pub/cc", false, "path \"/pub/cc\" matches none of pathPrefix=\"/pub/acc\""),
        ("https://news.example.com/p/a.html", true, "takes it"),
        ("https://news.example.com/p/axhtml", false, "matches none"),
        ("https://news.example.com/pub%2Facc", true, "takes it"),
        ("HTTPS://news.example.com/pub/acc", false, "scheme \"HTTPS\" is not one of \"https\""),
        ("https://other.example.com/pub/acc", false, "host \"other.example.com\" is not one of"),
        ("https://a.shop.example.com:8443/x", false, "no intent filter with android:autoVerify=\"true\""),
        ("https://a.shop.example.com/x", false, "host \"a.shop.example.com\" is not one of \"*.shop.example.com:8443\""),
        ("https://deals.example.com/pub/acc?ri=7", true, ".Deals (line 26) takes it"),
        ("https://deals.example.com/pub/cc?ri=7", false, "uri-relative-filter-group 1 (line 31) blocks it"),
        ("https://deals.example.com/pub/acc", false, "no uri-relative-filter-group allows it"),
        ("mailto:a@example.com", false, "no intent filter takes it"),
        ("not a url", false, "not an absolute URL"),
    ]

    @Test(arguments: answers)
    func answersAsAndroid15Does(_ url: String, _ opensApp: Bool, _ reason: String) throws {
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest))
        let answer = matcher.explain(url)
        #expect(answer.opensApp == opensApp, "\(answer.reason)")
        #expect(answer.reason.contains(reason), "\(answer.reason)")
    }

    @Test func android14IgnoresGroupsSoTheAliasTakesEveryPath() throws {
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: Self.manifest), configuration: .init(platform: .android12To14))
        #expect(matcher.explain("https://deals.example.com/pub/cc?ri=7").opensApp)
    }

    @Test func android11VerifiesEveryWebHostTogether() throws {
        let manifest = try AndroidManifest(parsing: Self.manifest)
        // The second filter has no autoVerify: Android 12+ leaves its host unverified, Android 11 verifies it with the rest.
        let url = "https://a.shop.example.com:8443/x"
        #expect(!AndroidLinkMatcher(manifest: manifest, configuration: .init(platform: .android12To14)).explain(url).opensApp)
        let android11 = AndroidLinkMatcher(manifest: manifest, configuration: .init(platform: .android11AndEarlier)).explain(url)
        #expect(android11.opensApp)
        #expect(android11.reason.contains("one host that fails verification fails them all"))
    }

    @Test func aPathAttributeWinsOverABlockingGroupInTheSameFilter() throws {
        // IntentFilter.matchData: the path matchers OR the groups; a block group cannot take back a path match.
        let xml = #"""
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="p.q"><application><activity android:name="A">
        <intent-filter android:autoVerify="true"><action android:name="android.intent.action.VIEW"/>
        <category android:name="android.intent.category.DEFAULT"/><category android:name="android.intent.category.BROWSABLE"/>
        <data android:scheme="https" android:host="e.com" android:pathPrefix="/"/>
        <uri-relative-filter-group android:allow="false"><data android:path="/x"/></uri-relative-filter-group>
        </intent-filter></activity></application></manifest>
        """#
        let matcher = AndroidLinkMatcher(manifest: try AndroidManifest(parsing: xml))
        #expect(matcher.explain("https://e.com/x").opensApp)
    }

    @Test func aRejectedPatternIsAProblemWithItsLine() throws {
        let xml = """
        <manifest xmlns:android="http://schemas.android.com/apk/res/android">
          <application><activity android:name="A"><intent-filter>
            <data android:scheme="https" android:host="e.com" android:pathAdvancedPattern="/a/**"/>
          </intent-filter></activity></application>
        </manifest>
        """
        let m = try AndroidManifest(parsing: xml)
        #expect(m.problems.map(\.description) == ["3: android:pathAdvancedPattern: advanced pattern \"/a/**\" at offset 4: expected a token before the modifier \"*\", found \"*\"; Android rejects it (the app does not install)"])
        #expect(m.intentFilters[0].paths.isEmpty)
    }

    @Test func anotherNamespacePrefixIsFollowed() throws {
        let xml = #"<manifest xmlns:a="http://schemas.android.com/apk/res/android"><application><activity a:name="X"><intent-filter a:autoVerify="true"><data a:scheme="https" a:host="e.com"/></intent-filter></activity></application></manifest>"#
        let m = try AndroidManifest(parsing: xml)
        #expect(m.intentFilters[0].component == "X" && m.intentFilters[0].autoVerify && m.intentFilters[0].schemes == ["https"])
    }

    @Test func anAndroidAttributeUnderASecondPrefixOfItsNamespaceIsADuplicate() {
        let android = "http://schemas.android.com/apk/res/android"
        let xml = #"<manifest xmlns:android="\#(android)" xmlns:b="\#(android)"><application><activity android:name="X"><intent-filter>"#
            + "\n" + #"<data android:host="x" b:host="y"/></intent-filter></activity></application></manifest>"#
        #expect {
            _ = try AndroidManifest(parsing: xml)
        } throws: { error in
            (error as? AssociationError)?.message.hasPrefix("2:24: expected each attribute once, not host in namespace \(android) twice (android:host and b:host)") == true
        }
    }

    /// Names are compared after their prefixes are resolved, each in the scope of its element.
    @Test(arguments: [
        "<manifest xmlns:a='u' xmlns:b='v' a:k='1' b:k='2'/>",
        "<manifest xmlns:a='u' a:k='1' k='2'/>",
        "<manifest xmlns:a='u' xmlns:b='u'><x xmlns:b='v' a:k='1' b:k='2'/></manifest>",
        "<manifest><x xmlns:a='u'/><y xmlns:b='u' a:k='1' b:k='2'/></manifest>",
        "<manifest xmlns:a='u' a:k='1' c:k='2' d:k='3'/>",
    ])
    func attributesOfOneNameInDifferentNamespacesAreDistinct(_ xml: String) throws {
        #expect(try XMLReader.parse(Array(xml.utf8)).name == "manifest")
    }

    static let malformed: [(String, String)] = [
        ("", "1:1: expected a root element, found the end of the file"),
        ("<manifest>", "1:11: expected </manifest>, found the end of the file"),
        ("<manifest></application>", "1:11: expected </manifest>, found \"</applicatio\""),
        ("<manifest a='1' a='2'/>", "1:17: expected each attribute once, not a twice"),
        // Two prefixes of one namespace name one attribute: expat, which aapt2 reads manifests with, refuses it.
        ("<manifest xmlns:a='u' xmlns:b='u' a:host='x' b:host='y'/>", "1:46: expected each attribute once, not host in namespace u twice (a:host and b:host)"),
        ("<manifest a:host='x' b:host='y' xmlns:a='u' xmlns:b='u'/>", "1:22: expected each attribute once, not host in namespace u twice (a:host and b:host)"),
        ("<manifest xmlns:a='u'><x xmlns:b='u' b:k='1' a:k='2'/></manifest>", "1:46: expected each attribute once, not k in namespace u twice (b:k and a:k)"),
        ("<manifest a=1/>", "1:13: expected a quoted attribute value, found \"1/>\""),
        ("<manifest a='<'/>", "1:14: expected no \"<\" in an attribute value"),
        ("<manifest a='&foo;'/>", "expected one of &lt; &gt; &amp; &quot; &apos; (no DTD entities)"),
        ("<!DOCTYPE manifest [<!ENTITY x 'y'>]><manifest/>", "1:1: expected no document type declaration (DTDs are not supported)"),
        ("<manifest/><manifest/>", "1:12: expected nothing after the root element"),
        ("<manifest><!-- a -- b --></manifest>", "expected \"-->\" (a comment may not contain \"--\")"),
        ("<application/>", "1:1: expected the root element <manifest>, found <application>"),
        ("<manifest>\n  <a b='\u{FF}'/>", "expected"),
    ]

    @Test(arguments: malformed)
    func malformedXMLIsRefusedWithWhere(_ xml: String, _ message: String) {
        #expect {
            _ = try AndroidManifest(parsing: xml)
        } throws: { error in
            guard let error = error as? AssociationError else { return false }
            return error.code == .unreadableManifest && error.message.contains(message)
        }
    }

    @Test func invalidUTF8IsRefusedAtItsOffset() {
        var bytes = Array("<manifest>\n<a b='".utf8)
        bytes += [0xFF]
        bytes += Array("'/></manifest>".utf8)
        #expect {
            _ = try AndroidManifest(parsing: bytes)
        } throws: { error in
            (error as? AssociationError)?.message.hasPrefix("2:7: expected UTF-8 text") == true
        }
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let xml = """
            <manifest xmlns:android="http://schemas.android.com/apk/res/android"><application>
            <!-- é --><activity android:name="Ü"><intent-filter/></activity></application></manifest>
            """
        let filter = try #require(try AndroidManifest(parsing: xml).intentFilters.first)
        #expect(filter.line == 2)
        #expect(filter.component == "Ü")
        let node = try XMLReader.parse(Array(xml.utf8))
        #expect(node.children[0].children[0].column == 11)
    }

    @Test func entitiesCDATAAndDeepNestingAreHandledWithoutRecursion() throws {
        let xml = #"<manifest package="a&amp;b&#x41;&#66;"><![CDATA[<x>]]>text<?pi x?></manifest>"#
        #expect(try AndroidManifest(parsing: xml).package == "a&bAB")
        let deep = String(repeating: "<a>", count: 100_000)
        #expect(throws: AssociationError.self) { _ = try AndroidManifest(parsing: "<manifest>" + deep) }
    }
}
