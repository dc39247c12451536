import Foundation
internal import _LinkKitText

/// Reads a route table from JSON text with exact types and key-path errors.
///
/// The text is read whole first (any syntax error is `invalidJSON`, before any other error), as `JSONSerialization`
/// read it: UTF-8, UTF-16 or UTF-32, a byte-order mark skipped, one trailing comma allowed in an array or object,
/// 512 levels of nesting.
///
/// The rules: booleans are not numbers (`1` is not `true`,
/// `true` is not a priority); a priority is an integer `Int` holds exactly (an integer literal read as an integer,
/// so `Int.max` loads; `1.0` and `1e2` load as whole numbers, `1.5` does not); a repeated key keeps its last value;
/// unknown keys are errors, the first in sorted order reported; `null` is no scheme, group or name. A repeated key
/// keeps its last value, as `JSONSerialization` read it, and each repetition is a `duplicateKey` warning naming its
/// key path.
enum RouteTableReader {
    /// Reads a table; its optional groups may expand to at most `maximumExpansions` routes in all.
    static func table(
        json: Data, maximumExpansions: Int = OptionalGroupExpander.maximumTableExpansions
    ) throws(RouteError) -> RouteTable {
        // `withUnsafeBytes` rethrows untyped errors: the typed one travels in a `Result`.
        let document = json.withUnsafeBytes { raw in
            Result { () throws(RouteError) -> JSONDocument in
                let all = raw.bindMemory(to: UInt8.self)
                switch UnicodeEncodingDetection.encoding(of: all) {
                case .utf8(let skip):
                    return try read(UnsafeBufferPointer(rebasing: all[skip...]))
                case .utf16(let bigEndian, let skip):
                    guard let text = UnicodeEncodingDetection.transcodeUTF16(all[skip...], bigEndian: bigEndian) else {
                        throw notJSON("the text is UTF-16 (by its first bytes) but does not decode as UTF-16")
                    }
                    return try text.withUnsafeBufferPointer { buffer in Result { () throws(RouteError) in try read(buffer) } }.get()
                case .utf32(let bigEndian, let skip):
                    guard let text = UnicodeEncodingDetection.transcodeUTF32(all[skip...], bigEndian: bigEndian) else {
                        throw notJSON("the text is UTF-32 (by its first bytes) but does not decode as UTF-32")
                    }
                    return try text.withUnsafeBufferPointer { buffer in Result { () throws(RouteError) in try read(buffer) } }.get()
                }
            }
        }
        let parsed = try document.get()
        var table = try Reader(maximumExpansions: maximumExpansions).table(parsed.root)
        table.diagnostics = parsed.duplicateKeys.compactMap { path in
            guard case .key(let key)? = path.components.last else { return nil }
            return RouteDiagnostic(
                code: .duplicateKey, subject: path.description, namespace: nil,
                message: "key \(JSONWriter.quotedForMessage(key)) appears more than once in this object; the last value counts, as JSONSerialization reads it: remove the others")
        }
        return table
    }

    /// The nesting `JSONSerialization` accepted: 512 arrays or objects deep; one more is `invalidJSON`.
    static let maximumDepth = 512

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(RouteError) -> JSONDocument {
        do {
            // A value takes at least a byte, so the text's size bounds the values.
            return try JSONReader.read(
                bytes, limits: .init(bytes: .max, depth: maximumDepth, values: bytes.count + 1), allowsTrailingCommas: true)
        } catch {
            throw RouteError(
                code: .invalidJSON, subject: error.keyPath.description,
                message: "the table is not valid JSON (line \(error.line), column \(error.column): \(error.message))")
        }
    }

    private static func notJSON(_ reason: String) -> RouteError {
        RouteError(code: .invalidJSON, subject: "", message: "the table is not valid JSON (line 1, column 1: \(reason))")
    }

    private struct Reader {
        let maximumExpansions: Int

        func table(_ root: JSONNode) throws(RouteError) -> RouteTable {
            let keys = ["decodePlusSymbols", "alwaysTreatsHostAsPathComponent", "namespaces"]
            let values = try members(root, at: "", keys: keys)
            var table = RouteTable()
            table.decodePlusSymbols = try values[0].map { value throws(RouteError) in try bool(value, at: "decodePlusSymbols") } ?? true
            table.alwaysTreatsHostAsPathComponent = try values[1].map { value throws(RouteError) in
                try bool(value, at: "alwaysTreatsHostAsPathComponent")
            } ?? false
            guard let namespacesValue = values[2] else {
                throw RouteError(code: .missingKey, subject: "namespaces", message: "required key missing: expected an array of namespaces")
            }
            try expect(.array, namespacesValue, "an array", at: "namespaces")
            var seen: Set<String?> = []
            var expansions = 0
            for (index, value) in namespacesValue.elements.enumerated() {
                let path = "namespaces[\(index)]"
                let object = try members(value, at: path, keys: ["scheme", "fallbackToGlobal", "routes"])
                var namespace = RouteTable.Namespace(scheme: nil)
                if let scheme = object[0], !scheme.isNull {
                    namespace.scheme = try string(scheme, at: path + ".scheme")
                    if namespace.scheme?.isEmpty == true {
                        throw RouteError(code: .invalidValue, subject: path + ".scheme", message: "expected a URL scheme or null, found an empty string")
                    }
                }
                if !seen.insert(namespace.scheme).inserted {
                    throw RouteError(
                        code: .invalidValue, subject: path + ".scheme",
                        message: "namespace \(namespace.scheme.map { "'\($0)'" } ?? "null (global)") is listed twice; merge the two entries")
                }
                namespace.fallbackToGlobal = try object[1].map { value throws(RouteError) in
                    try bool(value, at: path + ".fallbackToGlobal")
                } ?? false
                if let routesValue = object[2] {
                    try expect(.array, routesValue, "an array", at: path + ".routes")
                    for (routeIndex, routeValue) in routesValue.elements.enumerated() {
                        let routePath = "\(path).routes[\(routeIndex)]"
                        let route = try route(routeValue, at: routePath)
                        let count = OptionalGroupExpander.expansionCount(HostPattern.split(route.pattern)?.path ?? route.pattern)
                        if count > 1 {
                            expansions += count
                            if expansions > maximumExpansions {
                                throw RouteError(
                                    code: .invalidValue, subject: routePath + ".pattern",
                                    message: "the table's optional groups expand to more than \(maximumExpansions) routes in all by this route (the table-wide limit, which keeps a table's memory proportional to its size); use fewer optional groups or list the routes you need")
                            }
                        }
                        namespace.routes.append(route)
                    }
                }
                table.namespaces.append(namespace)
            }
            return table
        }

        private func route(_ value: JSONNode, at path: String) throws(RouteError) -> RouteTable.Route {
            let object = try members(value, at: path, keys: ["pattern", "priority", "handles", "group", "name"])
            guard let patternValue = object[0] else {
                throw RouteError(code: .missingKey, subject: path + ".pattern", message: "required key missing: expected a pattern string")
            }
            let pattern = try string(patternValue, at: path + ".pattern")
            if pattern.isEmpty {
                throw RouteError(code: .invalidValue, subject: path + ".pattern", message: "expected a pattern such as \"/user/view/:userID\", found an empty string")
            }
            var route = RouteTable.Route(pattern: pattern)
            route.priority = try object[1].map { value throws(RouteError) in try integer(value, at: path + ".priority") } ?? 0
            route.handles = try object[2].map { value throws(RouteError) in try bool(value, at: path + ".handles") } ?? true
            if let group = object[3], !group.isNull {
                route.group = try string(group, at: path + ".group")
            }
            if let name = object[4], !name.isNull {
                route.name = try string(name, at: path + ".name")
                if route.name?.isEmpty == true {
                    throw RouteError(code: .invalidValue, subject: path + ".name", message: "expected a route name or null, found an empty string")
                }
            }
            return route
        }

        // MARK: - Typed access

        /// The values of `keys` in the object `value` (`nil` where absent; a repeated key's last value), after
        /// checking that it is an object with no other key.
        private func members(_ value: JSONNode, at path: String, keys: [String]) throws(RouteError) -> [JSONNode?] {
            try expect(.object, value, "an object", at: path)
            var values = [JSONNode?](repeating: nil, count: keys.count)
            var firstUnknown: String?
            for (key, member) in value.members {
                if let slot = keys.firstIndex(of: key) {
                    values[slot] = member
                } else if firstUnknown.map({ key < $0 }) ?? true {
                    firstUnknown = key
                }
            }
            if let unknown = firstUnknown {
                throw RouteError(
                    code: .unknownKey, subject: JSONKeyPath.appending(unknown, to: path),
                    message: "unknown key; expected one of \(keys.sorted().joined(separator: ", "))")
            }
            return values
        }

        private func expect(_ kind: JSONDocument.Kind, _ value: JSONNode, _ expected: String, at path: String) throws(RouteError) {
            guard value.kind == kind else { throw mismatch(expected, value, path) }
        }

        private func string(_ value: JSONNode, at path: String) throws(RouteError) -> String {
            guard let string = value.string else { throw mismatch("a string", value, path) }
            return string
        }

        private func bool(_ value: JSONNode, at path: String) throws(RouteError) -> Bool {
            guard let bool = value.bool else { throw mismatch("a boolean", value, path) }
            return bool
        }

        private func integer(_ value: JSONNode, at path: String) throws(RouteError) -> Int {
            guard let integer = value.integer else { throw mismatch("an integer", value, path) }
            return integer
        }

        private func mismatch(_ expected: String, _ value: JSONNode, _ path: String) -> RouteError {
            RouteError(code: .typeMismatch, subject: path.isEmpty ? "(document)" : path, message: "expected \(expected), found \(describe(value))")
        }

        private func describe(_ value: JSONNode) -> String {
            switch value.kind {
            case .null: "null"
            case .boolean: "a boolean"
            case .string: "the string \"\(value.string ?? "")\""
            case .number: "the number \(Self.numberDescription(value.numberText ?? ""))"
            case .array: "an array"
            case .object: "an object"
            }
        }

        /// A number as an error message shows it: an integer as its value, any other number as the `Double` it is
        /// (`1.5`, `100.0`, `1e+300`), which is how `JSONSerialization`'s numbers printed, unless it has more
        /// significant digits than a `Double` keeps or is out of its range: then as written.
        static func numberDescription(_ text: String) -> String {
            let isIntegerLiteral = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
            if isIntegerLiteral {
                if let value = Int64(text) { return "\(value)" }
                if let value = UInt64(text) { return "\(value)" }
            }
            let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            let significant = mantissa.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }
                .filter { $0 != UInt8(ascii: ".") }.count
            // A Double that rounded to infinity or to zero would show another number than the table's.
            guard significant <= 17, let value = Double(text), value.isFinite, value != 0 || significant == 0 else { return text }
            return "\(value)"
        }
    }
}
