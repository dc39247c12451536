import Foundation

/// Reads a route table from JSON text with exact types and key-path errors.
///
/// The text is checked once (``JSONDocument/init(validating:)``: any syntax error is `invalidJSON`, before any
/// other error), then read in place by byte offsets: loading costs the text and the table it makes, a few hundred
/// bytes a route at most, where `JSONSerialization`'s object graph cost about 3 KB a route (issue 19).
///
/// The rules are those the reader had over `JSONSerialization`, kept: booleans are not numbers (`1` is not `true`,
/// `true` is not a priority); a priority is an integer `Int` holds exactly (an integer literal read as an integer,
/// so `Int.max` loads; `1.0` and `1e2` load as whole numbers, `1.5` does not); a repeated key keeps its last value;
/// unknown keys are errors, the first in sorted order reported; `null` is no scheme, group or name.
enum RouteTableReader {
    /// Reads a table; its optional groups may expand to at most `maximumExpansions` routes in all.
    static func table(
        json: Data, maximumExpansions: Int = OptionalGroupExpander.maximumTableExpansions
    ) throws(RouteTableError) -> RouteTable {
        let result = JSONDocument.withUTF8(of: json) { bytes -> Result<Result<RouteTable, RouteTableError>, JSONDocument.Failure> in
            do throws(JSONDocument.Failure) {
                let document = try JSONDocument(validating: bytes)
                return .success(Result { () throws(RouteTableError) in
                    try Reader(document: document, maximumExpansions: maximumExpansions).table()
                })
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let table): return try table.get()
        case .failure(let failure):
            throw RouteTableError(
                code: .invalidJSON, keyPath: "",
                message: "the table is not valid JSON (line \(failure.line), column \(failure.column): \(failure.message))")
        }
    }

    private struct Reader {
        let document: JSONDocument
        let maximumExpansions: Int

        func table() throws(RouteTableError) -> RouteTable {
            let root = document.root
            let keys = ["decodePlusSymbols", "alwaysTreatsHostAsPathComponent", "namespaces"]
            let values = try members(root, at: "", keys: keys)
            var table = RouteTable()
            table.decodePlusSymbols = try values[0].map { value throws(RouteTableError) in try bool(value, at: "decodePlusSymbols") } ?? true
            table.alwaysTreatsHostAsPathComponent = try values[1].map { value throws(RouteTableError) in
                try bool(value, at: "alwaysTreatsHostAsPathComponent")
            } ?? false
            guard let namespacesValue = values[2] else {
                throw RouteTableError(code: .missingKey, keyPath: "namespaces", message: "required key missing: expected an array of namespaces")
            }
            try expect(.array, namespacesValue, "an array", at: "namespaces")
            var seen: Set<String?> = []
            var expansions = 0
            var namespaces = document.elements(ofArrayAt: namespacesValue)
            var index = 0
            while let value = namespaces.next() {
                defer { index += 1 }
                let path = "namespaces[\(index)]"
                let object = try members(value, at: path, keys: ["scheme", "fallbackToGlobal", "routes"])
                var namespace = RouteTable.Namespace(scheme: nil)
                if let scheme = object[0], document.kind(at: scheme) != .null {
                    namespace.scheme = try string(scheme, at: path + ".scheme")
                    if namespace.scheme?.isEmpty == true {
                        throw RouteTableError(code: .invalidValue, keyPath: path + ".scheme", message: "expected a URL scheme or null, found an empty string")
                    }
                }
                if !seen.insert(namespace.scheme).inserted {
                    throw RouteTableError(
                        code: .invalidValue, keyPath: path + ".scheme",
                        message: "namespace \(namespace.scheme.map { "'\($0)'" } ?? "null (global)") is listed twice; merge the two entries")
                }
                namespace.fallbackToGlobal = try object[1].map { value throws(RouteTableError) in
                    try bool(value, at: path + ".fallbackToGlobal")
                } ?? false
                if let routesValue = object[2] {
                    try expect(.array, routesValue, "an array", at: path + ".routes")
                    var routes = document.elements(ofArrayAt: routesValue)
                    var routeIndex = 0
                    while let routeValue = routes.next() {
                        defer { routeIndex += 1 }
                        let routePath = "\(path).routes[\(routeIndex)]"
                        let route = try route(routeValue, at: routePath)
                        let count = OptionalGroupExpander.expansionCount(HostPattern.split(route.pattern)?.path ?? route.pattern)
                        if count > 1 {
                            expansions += count
                            if expansions > maximumExpansions {
                                throw RouteTableError(
                                    code: .invalidValue, keyPath: routePath + ".pattern",
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

        private func route(_ value: Int, at path: String) throws(RouteTableError) -> RouteTable.Route {
            let object = try members(value, at: path, keys: ["pattern", "priority", "handles", "group", "name"])
            guard let patternValue = object[0] else {
                throw RouteTableError(code: .missingKey, keyPath: path + ".pattern", message: "required key missing: expected a pattern string")
            }
            let pattern = try string(patternValue, at: path + ".pattern")
            if pattern.isEmpty {
                throw RouteTableError(code: .invalidValue, keyPath: path + ".pattern", message: "expected a pattern such as \"/user/view/:userID\", found an empty string")
            }
            var route = RouteTable.Route(pattern: pattern)
            route.priority = try object[1].map { value throws(RouteTableError) in try integer(value, at: path + ".priority") } ?? 0
            route.handles = try object[2].map { value throws(RouteTableError) in try bool(value, at: path + ".handles") } ?? true
            if let group = object[3], document.kind(at: group) != .null {
                route.group = try string(group, at: path + ".group")
            }
            if let name = object[4], document.kind(at: name) != .null {
                route.name = try string(name, at: path + ".name")
                if route.name?.isEmpty == true {
                    throw RouteTableError(code: .invalidValue, keyPath: path + ".name", message: "expected a route name or null, found an empty string")
                }
            }
            return route
        }

        // MARK: - Typed access

        /// The offsets of the values of `keys` in the object at `offset` (`nil` where absent; a repeated key's last
        /// value), after checking that it is an object with no other key.
        private func members(_ offset: Int, at path: String, keys: [String]) throws(RouteTableError) -> [Int?] {
            try expect(.object, offset, "an object", at: path)
            var values = [Int?](repeating: nil, count: keys.count)
            var firstUnknown: String?
            var members = document.members(ofObjectAt: offset)
            while let (key, value) = members.next() {
                if let slot = keys.firstIndex(of: key) {
                    values[slot] = value
                } else if firstUnknown.map({ key < $0 }) ?? true {
                    firstUnknown = key
                }
            }
            if let unknown = firstUnknown {
                throw RouteTableError(
                    code: .unknownKey, keyPath: path.isEmpty ? unknown : "\(path).\(unknown)",
                    message: "unknown key; expected one of \(keys.sorted().joined(separator: ", "))")
            }
            return values
        }

        private func expect(_ kind: JSONDocument.Kind, _ offset: Int, _ expected: String, at path: String) throws(RouteTableError) {
            guard document.kind(at: offset) == kind else { throw mismatch(expected, offset, path) }
        }

        private func string(_ offset: Int, at path: String) throws(RouteTableError) -> String {
            try expect(.string, offset, "a string", at: path)
            return document.string(at: offset)
        }

        private func bool(_ offset: Int, at path: String) throws(RouteTableError) -> Bool {
            try expect(.boolean, offset, "a boolean", at: path)
            return document.boolean(at: offset)
        }

        private func integer(_ offset: Int, at path: String) throws(RouteTableError) -> Int {
            try expect(.number, offset, "an integer", at: path)
            guard let integer = document.integer(at: offset) else { throw mismatch("an integer", offset, path) }
            return integer
        }

        private func mismatch(_ expected: String, _ offset: Int, _ path: String) -> RouteTableError {
            RouteTableError(code: .typeMismatch, keyPath: path.isEmpty ? "(document)" : path, message: "expected \(expected), found \(describe(offset))")
        }

        private func describe(_ offset: Int) -> String {
            switch document.kind(at: offset) {
            case .null: "null"
            case .boolean: "a boolean"
            case .string: "the string \"\(document.string(at: offset))\""
            case .number: "the number \(document.numberDescription(at: offset))"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }
}
