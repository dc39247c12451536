internal import _LinkKitText

/// Turns bytes into an ``AppSiteAssociation`` and every diagnostic about it, in one pass plus a
/// compile of each detail's rules (for unreachable rules and undefined variables).
struct AssociationReader {
    let configuration: AppSiteAssociation.Configuration
    private(set) var diagnostics: [AssociationDiagnostic] = []
    /// The file's variables, compiled once for every rule's check, with the file-wide budget.
    private var variables = SubstitutionVariables([:])
    /// The first rule with a variable refused for that budget, and how many rules were.
    private var firstOverBudgetRule: String?
    private var overBudgetRules = 0
    /// The first rule with a pattern refused for the work budget, and how many rules were.
    private var firstOverWorkRule: String?
    private var overWorkRules = 0
    private var fileDefaults: AppLinkComponent?
    /// App IDs whose earlier detail ends in a catch-all rule, with that rule's key path.
    private var caughtApps: [String: String] = [:]

    init(configuration: AppSiteAssociation.Configuration) {
        self.configuration = configuration
    }

    /// Errors first, then warnings, each in file order.
    var sortedDiagnostics: [AssociationDiagnostic] {
        diagnostics.filter { $0.severity == .error } + diagnostics.filter { $0.severity == .warning }
    }

    private mutating func error(_ code: AssociationDiagnostic.Code, _ keyPath: String, _ message: String) {
        diagnostics.append(AssociationDiagnostic(severity: .error, code: code, keyPath: keyPath, message: message))
    }

    private mutating func warning(_ code: AssociationDiagnostic.Code, _ keyPath: String, _ message: String) {
        diagnostics.append(AssociationDiagnostic(severity: .warning, code: code, keyPath: keyPath, message: message))
    }

    static func child(_ path: String, _ key: String) -> String {
        JSONKeyPath.appending(key, to: path)
    }

    static func child(_ path: String, _ index: Int) -> String {
        JSONKeyPath.appending(index, to: path)
    }

    static func quoted(_ text: String) -> String {
        JSONWriter.quotedForMessage(text)
    }

    private mutating func typeError(_ path: String, expected: String, found: JSONNode) {
        error(.invalidType, path, "expected \(expected), found \(found.summary); iOS ignores this value")
    }

    private mutating func unknownKey(_ path: String, _ key: String, known: String) {
        warning(
            .unknownKey, AssociationReader.child(path, key),
            "unknown key \(Self.quoted(key)) (expected one of \(known)); iOS ignores it")
    }

    // MARK: File

    mutating func read<Bytes: Collection<UInt8>>(_ input: Bytes) -> AppSiteAssociation? {
        let count = input.count
        if count > configuration.maximumReadSize {
            error(.tooLarge, "", "the file is \(count) bytes, over the reader's limit of \(configuration.maximumReadSize) bytes; it was not read")
            return nil
        }
        let bytes = Array(input)
        if count > configuration.appleSizeLimit {
            error(.tooLarge, "", "the file is \(count) bytes; Apple's CDN refuses association files over \(configuration.appleSizeLimit) bytes (128 KB), so iOS never sees it")
        }
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            error(.byteOrderMark, "", "expected JSON text, found a UTF-8 byte order mark (EF BB BF) at the start; iOS cannot parse the file: save it without a BOM")
            start = 3
        }
        let document: JSONDocument
        do {
            // Every byte can open at most one value, so the byte limit bounds the values too.
            document = try JSONReader.read(
                bytes[start...],
                limits: .init(bytes: configuration.maximumReadSize, depth: configuration.maximumDepth, values: count + 1))
        } catch {
            // Columns count from the file's start: the byte-order mark the reader did not see is one character.
            let column = error.column + (start > 0 && error.line == 1 ? 1 : 0)
            self.error(.notJSON, error.keyPath.description, "not valid JSON at line \(error.line), column \(column): \(error.message)")
            return nil
        }
        for duplicate in document.duplicateKeys {
            guard case .key(let key)? = duplicate.components.last else { continue }
            warning(.duplicateKey, duplicate.description, "key \(Self.quoted(key)) appears more than once; the last value wins")
        }
        let root = document.root
        guard root.kind == .object else {
            error(.notAnObject, "", "expected a JSON object at the top level, found \(root.summary)")
            return nil
        }
        var file = AppSiteAssociation()
        for (key, value) in root.members {
            switch key {
            case "applinks": file.applinks = readAppLinks(value)
            case "webcredentials": file.webcredentials = readAppIDList(value, path: key)
            case "appclips": file.appclips = readAppIDList(value, path: key)
            case "activitycontinuation": file.activitycontinuation = readAppIDList(value, path: key)
            default:
                unknownKey("", key, known: "\"applinks\", \"webcredentials\", \"appclips\", \"activitycontinuation\"")
            }
        }
        if file.applinks == nil && file.webcredentials == nil && file.appclips == nil
            && file.activitycontinuation == nil {
            warning(.missingKey, "", "expected an \"applinks\" section, found none; no URL opens an app")
        }
        file.diagnostics = sortedDiagnostics
        return file
    }

    private mutating func readAppIDList(_ value: JSONNode, path: String) -> AppIDList? {
        guard value.kind == .object else {
            typeError(path, expected: "an object {\"apps\": [...]}", found: value)
            return nil
        }
        var list = AppIDList(apps: [])
        for (key, member) in value.members {
            let memberPath = AssociationReader.child(path, key)
            if key == "apps" {
                list.apps = readStrings(member, path: memberPath, appIDs: true) ?? []
            } else {
                unknownKey(path, key, known: "\"apps\"")
            }
        }
        return list
    }

    /// The strings of an array (non-strings reported and skipped), or `nil` when the value is not an array.
    private mutating func readStrings(_ value: JSONNode, path: @autoclosure () -> String, appIDs: Bool) -> [String]? {
        guard value.kind == .array else {
            typeError(path(), expected: appIDs ? "an array of app ID strings" : "an array of strings", found: value)
            return nil
        }
        var result: [String] = []
        for (i, element) in value.elements.enumerated() {
            var elementPath: String { AssociationReader.child(path(), i) }
            guard let s = element.string else {
                typeError(elementPath, expected: appIDs ? "an app ID string" : "a string", found: element)
                continue
            }
            if appIDs { checkAppID(s, path: elementPath) }
            result.append(s)
        }
        return result
    }

    private mutating func checkAppID(_ s: String, path: @autoclosure () -> String) {
        if !AppIDFormat.isValid(s) {
            error(.malformedAppID, path(), "expected an app ID \"TEAMID.bundle.identifier\" (10 characters A–Z or 0–9, a dot, then letters, digits, \"-\" and \".\"), found \(Self.quoted(s)); iOS never matches it")
        }
    }

    // MARK: applinks

    private mutating func readAppLinks(_ value: JSONNode) -> AppLinks? {
        let path = "applinks"
        guard value.kind == .object else {
            typeError(path, expected: "an object", found: value)
            return nil
        }
        var applinks = AppLinks()
        // Variables and defaults first: the details' checks depend on them wherever they appear in the file.
        let members = value.members
        for (key, member) in members where key == "substitutionVariables" {
            applinks.substitutionVariables = readVariables(member, path: AssociationReader.child(path, key))
            variables = SubstitutionVariables(applinks.substitutionVariables)
        }
        for (key, member) in members where key == "defaults" {
            applinks.defaults = readComponent(member, path: AssociationReader.child(path, key), isDefaults: true)
            fileDefaults = applinks.defaults
        }
        var sawApps = false
        for (key, member) in members {
            let memberPath = AssociationReader.child(path, key)
            switch key {
            case "substitutionVariables", "defaults":
                break
            case "apps":
                sawApps = true
                if member.kind == .array, member.count == 0 {
                    applinks.apps = []
                } else {
                    error(.appsNotEmpty, memberPath, "expected an empty array [], found \(member.summary); iOS 9–12 reject the file otherwise (app IDs belong in details)")
                    if member.kind == .array {
                        applinks.apps = member.elements.compactMap(\.string)
                    }
                }
            case "details":
                applinks.details = readDetails(member, path: memberPath)
                reportOverBudgetVariables()
                reportOverBudgetWork()
            default:
                unknownKey(path, key, known: "\"apps\", \"details\", \"defaults\", \"substitutionVariables\"")
            }
        }
        let usesPaths = applinks.details.contains { $0.paths != nil }
        if !sawApps && usesPaths {
            warning(.missingKey, path, "expected \"apps\": [], found no \"apps\" key; iOS 9–12 require it in files that use \"paths\"")
        }
        return applinks
    }

    private mutating func readVariables(_ value: JSONNode, path: String) -> [String: [String]] {
        guard value.kind == .object else {
            typeError(path, expected: "an object of name: [values]", found: value)
            return [:]
        }
        var result: [String: [String]] = [:]
        for (name, member) in value.members {
            let memberPath = AssociationReader.child(path, name)
            if name.isEmpty || name.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                error(.invalidPattern, memberPath, "expected a variable name without \"$\", \"(\" or \")\", found \(Self.quoted(name)); it can never be referenced")
            }
            let values = readStrings(member, path: memberPath, appIDs: false) ?? []
            for (i, v) in values.enumerated() where v.contains("$(") {
                error(.invalidPattern, AssociationReader.child(memberPath, i), "expected a value without substitution variables, found \(Self.quoted(v)); \"$(\" is literal text here")
            }
            result[name] = values
        }
        return result
    }

    private mutating func readDetails(_ value: JSONNode, path: String) -> [AppLinkDetail] {
        switch value.kind {
        case .array:
            var details: [AppLinkDetail] = []
            for (i, element) in value.elements.enumerated() {
                if let detail = readDetail(element, path: AssociationReader.child(path, i), index: i, keyedAppID: nil) {
                    details.append(detail)
                }
            }
            return details
        case .object:
            // The oldest form: details keyed by app ID, walked in file order.
            var details: [AppLinkDetail] = []
            for (appID, member) in value.members {
                let memberPath = AssociationReader.child(path, appID)
                checkAppID(appID, path: memberPath)
                if let detail = readDetail(member, path: memberPath, index: details.count, keyedAppID: appID) {
                    details.append(detail)
                }
            }
            return details
        default:
            typeError(path, expected: "an array of detail objects", found: value)
            return []
        }
    }

    private mutating func readDetail(_ value: JSONNode, path: String, index: Int, keyedAppID: String?)
    -> AppLinkDetail? {
        guard value.kind == .object else {
            typeError(path, expected: "a detail object", found: value)
            return nil
        }
        var detail = AppLinkDetail(appID: keyedAppID)
        for (key, member) in value.members {
            var memberPath: String { AssociationReader.child(path, key) }
            switch key {
            case "appID":
                if let s = member.string {
                    checkAppID(s, path: memberPath)
                    detail.appID = s
                } else {
                    typeError(memberPath, expected: "an app ID string", found: member)
                }
            case "appIDs":
                detail.appIDs = readStrings(member, path: memberPath, appIDs: true)
            case "components":
                guard member.kind == .array else {
                    typeError(memberPath, expected: "an array of component objects", found: member)
                    continue
                }
                var components: [AppLinkComponent] = []
                for (i, element) in member.elements.enumerated() {
                    // A component that is not an object is reported and left out, as iOS ignores it.
                    if let c = readComponent(element, path: AssociationReader.child(memberPath, i), isDefaults: false) {
                        components.append(c)
                    }
                }
                detail.components = components
            case "paths":
                guard let paths = readStrings(member, path: memberPath, appIDs: false) else { continue }
                for (i, p) in paths.enumerated() { checkLegacyPath(p, path: AssociationReader.child(memberPath, i)) }
                detail.paths = paths
            case "defaults":
                detail.defaults = readComponent(member, path: memberPath, isDefaults: true)
            default:
                unknownKey(path, key, known: "\"appIDs\", \"appID\", \"components\", \"paths\", \"defaults\"")
            }
        }
        if detail.appID == nil && detail.appIDs == nil {
            error(.missingKey, path, "expected \"appIDs\" (or \"appID\"), found none usable; this detail applies to no app")
        }
        if detail.components == nil, detail.paths != nil, detail.defaults != nil || fileDefaults != nil {
            warning(.defaultsIgnoredForLegacyPaths, path, "expected \"components\" where \"defaults\" apply, found only legacy \"paths\"; defaults are not applied to legacy paths (AppLinkMatcher.Configuration.appliesDefaultsToLegacyPaths), write these rules as components")
        }
        let appIDs = detail.modernAppIDs
        if !appIDs.isEmpty, let first = caughtApps[appIDs[0]], appIDs.allSatisfy({ caughtApps[$0] != nil }) {
            warning(.unreachableRule, path, "expected a reachable detail, found one whose apps all match \(first) first, which matches every URL; this detail is never used")
        }
        if let catchAll = checkRules(detail, path: path, index: index) {
            for appID in appIDs where caughtApps[appID] == nil { caughtApps[appID] = catchAll }
        }
        return detail
    }

    private mutating func checkLegacyPath(_ p: String, path: @autoclosure () -> String) {
        let lower = p.lowercased()
        if lower.hasPrefix("not"), !p.hasPrefix("NOT ") || p.hasPrefix("NOT  ") {
            let rest = p.dropFirst(3)
            if rest.first == "/" || rest.first == " " {
                error(.notPrefixTypo, path(), "expected \"NOT \" (upper case, one space) before an excluded path, found \(Self.quoted(p)); iOS reads it as an ordinary path pattern, not an exclusion")
            }
        }
        let body = p.hasPrefix("NOT ") ? String(p.dropFirst(4)) : p
        if let q = body.firstIndex(of: "?"), body[q...].contains(where: { $0 == "=" || $0 == "&" }) {
            warning(.queryInLegacyPath, path(), "expected a path, found a query in \(Self.quoted(p)); in a path \"?\" matches one character and URLs' queries are not part of the path, so this never matches the query: use components with \"?\"")
        }
    }

    private mutating func readComponent(_ value: JSONNode, path: @autoclosure () -> String, isDefaults: Bool) -> AppLinkComponent? {
        guard value.kind == .object else {
            typeError(path(), expected: isDefaults ? "a defaults object" : "a component object", found: value)
            return nil
        }
        var c = AppLinkComponent()
        func readBool(_ member: JSONNode, _ memberPath: @autoclosure () -> String) -> Bool? {
            if let b = member.bool { return b }
            typeError(memberPath(), expected: "true or false", found: member)
            return nil
        }
        for (key, member) in value.members {
            var memberPath: String { AssociationReader.child(path(), key) }
            switch key {
            case "/", "#":
                guard let s = member.string else {
                    typeError(memberPath, expected: "a pattern string", found: member)
                    continue
                }
                if key == "/" { c.path = s } else { c.fragment = s }
            case "?":
                switch member.kind {
                case .string:
                    c.query = .string(member.string ?? "")
                case .object:
                    var patterns: [AppLinkComponent.QueryItem] = []
                    var ignored = false
                    for (name, itemValue) in member.members {
                        if let s = itemValue.string {
                            patterns.append(AppLinkComponent.QueryItem(name: name, value: s))
                        } else {
                            ignored = true
                            error(.nonStringQueryPredicate, AssociationReader.child(memberPath, name), "expected a pattern string, found \(itemValue.summary); iOS then ignores the whole \"?\" dictionary, so this rule matches any query")
                        }
                    }
                    c.query = ignored ? .ignoredDictionary : .items(patterns)
                default:
                    typeError(memberPath, expected: "a pattern string or an object of item name: pattern", found: member)
                }
            case "exclude": c.exclude = readBool(member, memberPath)
            case "caseSensitive": c.caseSensitive = readBool(member, memberPath)
            case "percentEncoded": c.percentEncoded = readBool(member, memberPath)
            case "comment":
                if let s = member.string { c.comment = s } else {
                    warning(.invalidType, memberPath, "expected a string, found \(member.summary); iOS ignores comments anyway")
                }
            default:
                unknownKey(path(), key, known: "\"/\", \"?\", \"#\", \"exclude\", \"caseSensitive\", \"percentEncoded\", \"comment\"")
            }
        }
        return c
    }

    /// Unreachable and shadowed rules, blocking exclusions and undefined variables, on the rules as iOS 13+ sees them.
    /// - Returns: The key path of the detail's catch-all rule, if it has one.
    private mutating func checkRules(_ detail: AppLinkDetail, path: String, index: Int) -> String? {
        let usesComponents = detail.components != nil
        let key = usesComponents ? "components" : "paths"
        let defaults = detail.defaults?.merged(over: fileDefaults) ?? fileDefaults
        var catchAll: Int?
        var earlierRules = RuleSubsumption.EarlierRules()
        let rulesPath = AssociationReader.child(path, key)
        for (r, rule) in detail.modernRules.enumerated() {
            // Written only for a finding: most rules of a large file have none.
            var rulePath: String { AssociationReader.child(rulesPath, r) }
            let merged = usesComponents ? rule.merged(over: defaults) : rule
            let compiled = CompiledRule(
                merged, detailIndex: index, ruleIndex: r, keyPath: "", source: "", variables: variables,
                foldsQueryItemNames: true, ignoresQueryAndFragment: false)
            if !compiled.overBudgetVariables.isEmpty {
                if firstOverBudgetRule == nil { firstOverBudgetRule = rulePath }
                overBudgetRules += 1
            }
            if compiled.exceedsWorkBudget {
                if firstOverWorkRule == nil { firstOverWorkRule = rulePath }
                overWorkRules += 1
            }
            for name in compiled.undefinedVariables {
                let builtIns = GlobPattern.builtInVariableNames.sorted().joined(separator: ", ")
                error(.undefinedVariable, rulePath, "expected a substitution variable defined in applinks.substitutionVariables or built in (\(builtIns)), found \"$(\(name))\"; this rule never matches")
            }
            if let c = catchAll {
                warning(.unreachableRule, rulePath, "expected a reachable rule, found one after \(AssociationReader.child(AssociationReader.child(path, key), c)), which matches every URL first; this rule is never used")
            } else if compiled.isCatchAll {
                catchAll = r
                if compiled.exclude {
                    warning(.exclusionBlocksEverything, rulePath, "expected an exclusion of some URLs, found one that matches every URL; no later rule of this detail can open the app")
                }
            } else if let earlier = earlierRules.firstCovering(compiled, limit: Self.shadowComparisonLimit) {
                let earlierPath = AssociationReader.child(rulesPath, earlier.ruleIndex)
                warning(.shadowedRule, rulePath, Self.shadowMessage(later: compiled, earlier: earlier, earlierPath: earlierPath))
            }
            earlierRules.append(compiled)
        }
        return catchAll.map { AssociationReader.child(AssociationReader.child(path, key), $0) }
    }

    /// One finding for every rule refused for the variable budget: the first rule and a count, so the report stays
    /// as small as the file.
    private mutating func reportOverBudgetVariables() {
        guard let first = firstOverBudgetRule else { return }
        let others = overBudgetRules - 1
        let more = others == 0 ? "" : " (and \(others) later \(others == 1 ? "rule" : "rules"))"
        error(.tooManyVariableAlternatives, first, "expected substitution variables whose wildcard values, times the number of places they are used, stay within \(variables.maximumAlternativeUses) alternatives per file (the limit that keeps matching time proportional to the file), found more from this rule on; this rule\(more) never matches: use fewer values with * or ?, or the variable in fewer rules")
        firstOverBudgetRule = nil
        overBudgetRules = 0
    }

    /// One finding for every rule refused for the work budget: the first rule and a count, as for variables.
    private mutating func reportOverBudgetWork() {
        guard let first = firstOverWorkRule else { return }
        let others = overWorkRules - 1
        let more = others == 0 ? "" : " (and \(others) later \(others == 1 ? "rule" : "rules"))"
        error(.tooMuchMatchingWork, first, "expected patterns that cost at most \(variables.maximumPatternWork) steps per URL character each and \(variables.maximumMatchingWork) for the file (the limits that keep matching time proportional to the URL), found more from this rule on; this rule\(more) never matches: shorten the runs that mix ? or $(…) with text between two *, or use variables whose values have one length")
        firstOverWorkRule = nil
        overWorkRules = 0
    }

    /// How many rule pairs one detail compares for `shadowedRule` at most (only pairs
    /// whose literal path prefixes allow a covering count), so a file of thousands of rules sharing one prefix is
    /// still checked in a moment; later rules then go unchecked.
    static let shadowComparisonLimit = 100_000

    /// The text of a `shadowedRule` warning: what the earlier rule does to this one's
    /// URLs, and the fix.
    static func shadowMessage(later: CompiledRule, earlier: CompiledRule, earlierPath: String) -> String {
        let what = later.exclude ? "an exclusion" : "a rule"
        let found = "found one after \(earlierPath), which matches every URL this one matches"
        switch (earlier.exclude, later.exclude) {
        case (false, true):
            return "expected \(what) that some URL reaches, \(found) and opens the app for them first; this exclusion never applies: put the exclusion first"
        case (true, false):
            return "expected \(what) that some URL reaches, \(found) and keeps them on the web first; this rule never opens the app: put the narrower rule first"
        default:
            return "expected \(what) that some URL reaches, \(found) and decides them the same way first; this rule changes nothing: remove it, or put the narrower rule first"
        }
    }
}

/// The shape of an app ID: a 10-character team ID (A–Z, 0–9), a dot, a bundle ID.
enum AppIDFormat {
    static func isValid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count >= 12, bytes[10] == UInt8(ascii: ".") else { return false }
        for b in bytes[0..<10] {
            guard (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) else { return false }
        }
        let bundle = bytes[11...]
        guard bundle.first != UInt8(ascii: "."), bundle.last != UInt8(ascii: ".") else { return false }
        var previous: UInt8 = 0
        for b in bundle {
            let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            let digit = b >= 0x30 && b <= 0x39
            guard letter || digit || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") else { return false }
            if b == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = b
        }
        return true
    }
}
