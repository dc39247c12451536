/// The parts of an `AndroidManifest.xml` (the source form, as written in a project) that decide which URLs open the
/// app: the package and every `<intent-filter>` of its activities and activity aliases.
///
/// Attribute values are read as `aapt2` compiles them (its `StringBuilder`, spaces preserved): a backslash escapes
/// the next character (`\\.` in the file is `\.` in the pattern, `\.` is `.`, `\\` is `\`), `\n` and `\t` are a
/// newline and a tab, `\u` takes up to four hexadecimal digits (an escape with another character there ends the
/// value, as `aapt2` stops there), and a backslash at the very end is dropped. Not handled: resource references
/// (`@string/host`) are kept as written, and `tools:node` merging is not applied (read the merged manifest from
/// `build/intermediates/merged_manifests/` for the final answer).
///
/// Read a manifest, look at what Android would find wrong in it, and give it to ``AndroidLinkMatcher``:
///
/// ```swift
/// let xml = #"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app"/>"#
/// let manifest = try AndroidManifest(parsing: xml.utf8)
/// for diagnostic in manifest.diagnostics { print(diagnostic) }
/// ```
public struct AndroidManifest: Sendable, Hashable {
    /// A finding made while reading: something Android rejects or ignores.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The line in the manifest.
        package var line: Int
        /// What is wrong and what Android does about it.
        package var message: String

        /// `12: ...`.
        package var description: String { "\(line): \(message)" }
    }

    /// The `package` attribute of `<manifest>`, if written (Gradle projects may set it in `build.gradle` instead).
    package var package: String?
    /// Every intent filter of every `<activity>` and `<activity-alias>`, in file order.
    package var intentFilters: [AndroidIntentFilter]
    /// Patterns Android rejects (the install fails) and attributes it ignores.
    package var problems: [Problem]

    /// What reading found, key paths `AndroidManifest.xml:LINE`: patterns Android rejects (`invalidPattern`, an
    /// error: the app does not install) and attributes it ignores (`filterNeverMatches`, a warning).
    /// ``AndroidLinkMatcher/lint(aasa:appID:urls:)`` reports these and what it finds comparing the filters.
    public var diagnostics: [AssociationDiagnostic] {
        problems.map { problem in
            let rejected = problem.message.contains("Android rejects it")
            return AssociationDiagnostic(
                severity: rejected ? .error : .warning, code: rejected ? .invalidPattern : .filterNeverMatches,
                keyPath: "AndroidManifest.xml:\(problem.line)", message: problem.message)
        }
    }

    /// Creates a manifest from filters built in code.
    package init(package: String? = nil, intentFilters: [AndroidIntentFilter]) {
        self.package = package
        self.intentFilters = intentFilters
        self.problems = []
    }

    /// Reads a manifest, its patterns as current AOSP reads them.
    ///
    /// - Parameter bytes: The file, UTF-8 (a `String`'s `utf8` view will do).
    /// - Throws: ``AssociationError`` with code `unreadableManifest` when the file is not well-formed XML (an
    ///   attribute written twice on one element included, also under two prefixes bound to one namespace, which
    ///   `aapt2` refuses as well) or its root is not `<manifest>`; the message says `line:column: expected ...,
    ///   found ...`.
    public init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(AssociationError) {
        try self.init(parsing: Array(bytes), configuration: .init())
    }

    /// Reads a manifest with the pattern choices where Android versions differ.
    package init(parsing bytes: [UInt8], configuration: AndroidPattern.Configuration) throws(AssociationError) {
        let root = try XMLReader.parse(bytes)
        guard root.name == "manifest" else {
            throw AssociationError(code: .unreadableManifest, message: "\(root.line):\(root.column): expected the root element <manifest>, found <\(root.name)>")
        }
        // The prefix bound to the Android namespace (almost always `android`).
        let namespace = "http://schemas.android.com/apk/res/android"
        let prefix = root.attributes.first { $0.name.hasPrefix("xmlns:") && $0.value == namespace }
            .map { String($0.name.dropFirst(6)) } ?? "android"
        var reader = Reader(prefix: prefix, configuration: configuration)
        package = root.attribute("package")
        // Walk application > activity|activity-alias > intent-filter without recursion: the depth is fixed.
        for application in root.children where application.name == "application" {
            for activity in application.children where activity.name == "activity" || activity.name == "activity-alias" {
                let component = reader.value(activity, "name") ?? ""
                for element in activity.children where element.name == "intent-filter" {
                    reader.filters.append(reader.filter(element, component: component))
                }
            }
        }
        intentFilters = reader.filters
        problems = reader.problems
    }

    /// Reads a manifest from text.
    package init(parsing text: String, configuration: AndroidPattern.Configuration = .init()) throws(AssociationError) {
        try self.init(parsing: Array(text.utf8), configuration: configuration)
    }

    private struct Reader {
        var prefix: String
        var configuration: AndroidPattern.Configuration
        var filters: [AndroidIntentFilter] = []
        var problems: [Problem] = []

        mutating func value(_ node: XMLNode, _ name: String) -> String? {
            guard let raw = node.attribute("\(prefix):\(name)") else { return nil }
            let (text, complete) = Reader.unescaped(raw)
            if !complete {
                problems.append(Problem(line: node.line, message: "android:\(name): a \\u escape with a character that is not a hexadecimal digit: aapt2 keeps only \"\(text)\", the text before it"))
            }
            return text
        }

        /// `aapt2`'s string escapes, as its `StringBuilder` reads an attribute value with spaces preserved; `complete`
        /// is `false` when a `\u` escape is malformed, where `aapt2` stops reading the value.
        static func unescaped(_ text: String) -> (text: String, complete: Bool) {
            guard text.contains("\\") else { return (text, true) }
            var out = String.UnicodeScalarView()
            var iterator = text.unicodeScalars.makeIterator()
            while let c = iterator.next() {
                guard c == "\\" else { out.append(c); continue }
                // A backslash at the very end escapes nothing and is dropped.
                guard let next = iterator.next() else { break }
                switch next {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "u":
                    // Up to four digits (fewer at the end of the value); a code point that is not a scalar (a
                    // surrogate) adds nothing.
                    var code: UInt32 = 0
                    var digits = 0
                    while digits < 4, let d = iterator.next() {
                        guard d.isASCII, let value = ASCII.hexValue(UInt8(d.value)) else { return (String(out), false) }
                        code = code << 4 | UInt32(value)
                        digits += 1
                    }
                    if let scalar = Unicode.Scalar(code) { out.append(scalar) }
                default: out.append(next)
                }
            }
            return (String(out), true)
        }

        mutating func pattern(_ text: String, _ kind: AndroidPattern.Kind, line: Int, attribute: String) -> AndroidPattern? {
            do {
                return try AndroidPattern(text, kind: kind, configuration: configuration)
            } catch {
                problems.append(Problem(line: line, message: "android:\(attribute): \(error.message) (the app does not install)"))
                return nil
            }
        }

        mutating func filter(_ element: XMLNode, component: String) -> AndroidIntentFilter {
            var filter = AndroidIntentFilter(component: component, line: element.line)
            filter.autoVerify = value(element, "autoVerify") == "true"
            // Each scheme once, found by lookup: a filter of many `<data>` elements costs them, not their square.
            var schemes: Set<String> = []
            for child in element.children {
                switch child.name {
                case "action": if let name = value(child, "name") { filter.actions.append(name) }
                case "category": if let name = value(child, "name") { filter.categories.append(name) }
                case "data":
                    if let scheme = value(child, "scheme"), schemes.insert(scheme).inserted { filter.schemes.append(scheme) }
                    if let host = value(child, "host") {
                        var port: Int?
                        if let text = value(child, "port") {
                            port = Int(text)
                            if port == nil { problems.append(Problem(line: child.line, message: "android:port \"\(text)\" is not a number")) }
                        }
                        filter.authorities.append(.init(host: host, port: port))
                    } else if value(child, "port") != nil {
                        problems.append(Problem(line: child.line, message: "android:port without android:host in the same <data> is ignored"))
                    }
                    for kind in AndroidPattern.Kind.allCases {
                        let attribute = "path" + kind.attributeSuffix
                        if let text = value(child, attribute), let p = pattern(text, kind, line: child.line, attribute: attribute) {
                            filter.paths.append(p)
                        }
                    }
                case "uri-relative-filter-group":
                    var group = AndroidURIRelativeFilterGroup(allow: value(child, "allow") != "false", matchers: [], line: child.line)
                    for data in child.children where data.name == "data" {
                        for part in AndroidURIRelativeFilterGroup.Part.allCases {
                            for kind in AndroidPattern.Kind.allCases {
                                let attribute = part.rawValue + kind.attributeSuffix
                                if let text = value(data, attribute), let p = pattern(text, kind, line: data.line, attribute: attribute) {
                                    group.matchers.append(.init(part: part, pattern: p))
                                }
                            }
                        }
                    }
                    if group.matchers.isEmpty {
                        problems.append(Problem(line: child.line, message: "<uri-relative-filter-group> with no path, query or fragment matcher never matches"))
                    }
                    filter.groups.append(group)
                default: break
                }
            }
            return filter
        }
    }
}
