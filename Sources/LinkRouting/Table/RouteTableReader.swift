import Foundation

/// Reads the JSON object tree of a route table with exact types and key-path errors.
///
/// `JSONSerialization` returns `NSNumber` for booleans and numbers alike, and `as? Bool` accepts `1`, so types are
/// told apart by the number's type code: `c` for JSON booleans, on Linux and Darwin.
enum RouteTableReader {
    /// Reads a table; its optional groups may expand to at most `maximumExpansions` routes in all.
    static func table(
        from object: Any, maximumExpansions: Int = OptionalGroupExpander.maximumTableExpansions
    ) throws(RouteTableError) -> RouteTable {
        let root = try dictionary(object, at: "")
        try rejectUnknownKeys(root, allowed: ["decodePlusSymbols", "alwaysTreatsHostAsPathComponent", "namespaces"], at: "")
        var table = RouteTable()
        table.decodePlusSymbols = try root["decodePlusSymbols"].map { value throws(RouteTableError) in try bool(value, at: "decodePlusSymbols") } ?? true
        table.alwaysTreatsHostAsPathComponent = try root["alwaysTreatsHostAsPathComponent"].map { value throws(RouteTableError) in
            try bool(value, at: "alwaysTreatsHostAsPathComponent")
        } ?? false
        guard let namespacesValue = root["namespaces"] else {
            throw RouteTableError(code: .missingKey, keyPath: "namespaces", message: "required key missing: expected an array of namespaces")
        }
        let namespaces = try array(namespacesValue, at: "namespaces")
        var seen: Set<String?> = []
        var expansions = 0
        for (index, value) in namespaces.enumerated() {
            let path = "namespaces[\(index)]"
            let object = try dictionary(value, at: path)
            try rejectUnknownKeys(object, allowed: ["scheme", "fallbackToGlobal", "routes"], at: path)
            var namespace = RouteTable.Namespace(scheme: nil)
            if let scheme = object["scheme"], !(scheme is NSNull) {
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
            namespace.fallbackToGlobal = try object["fallbackToGlobal"].map { value throws(RouteTableError) in
                try bool(value, at: path + ".fallbackToGlobal")
            } ?? false
            let routes = try object["routes"].map { value throws(RouteTableError) in try array(value, at: path + ".routes") } ?? []
            for (routeIndex, routeValue) in routes.enumerated() {
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
            table.namespaces.append(namespace)
        }
        return table
    }

    private static func route(_ value: Any, at path: String) throws(RouteTableError) -> RouteTable.Route {
        let object = try dictionary(value, at: path)
        try rejectUnknownKeys(object, allowed: ["pattern", "priority", "handles", "group", "name"], at: path)
        guard let patternValue = object["pattern"] else {
            throw RouteTableError(code: .missingKey, keyPath: path + ".pattern", message: "required key missing: expected a pattern string")
        }
        let pattern = try string(patternValue, at: path + ".pattern")
        if pattern.isEmpty {
            throw RouteTableError(code: .invalidValue, keyPath: path + ".pattern", message: "expected a pattern such as \"/user/view/:userID\", found an empty string")
        }
        var route = RouteTable.Route(pattern: pattern)
        route.priority = try object["priority"].map { value throws(RouteTableError) in try integer(value, at: path + ".priority") } ?? 0
        route.handles = try object["handles"].map { value throws(RouteTableError) in try bool(value, at: path + ".handles") } ?? true
        if let group = object["group"], !(group is NSNull) {
            route.group = try string(group, at: path + ".group")
        }
        if let name = object["name"], !(name is NSNull) {
            route.name = try string(name, at: path + ".name")
            if route.name?.isEmpty == true {
                throw RouteTableError(code: .invalidValue, keyPath: path + ".name", message: "expected a route name or null, found an empty string")
            }
        }
        return route
    }

    // MARK: - Typed access

    private static func rejectUnknownKeys(_ object: [String: Any], allowed: Set<String>, at path: String) throws(RouteTableError) {
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw RouteTableError(
                code: .unknownKey, keyPath: path.isEmpty ? unknown : "\(path).\(unknown)",
                message: "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
        }
    }

    private static func dictionary(_ value: Any, at path: String) throws(RouteTableError) -> [String: Any] {
        guard let object = value as? [String: Any] else { throw mismatch("an object", value, path) }
        return object
    }

    private static func array(_ value: Any, at path: String) throws(RouteTableError) -> [Any] {
        guard let array = value as? [Any] else { throw mismatch("an array", value, path) }
        return array
    }

    private static func string(_ value: Any, at path: String) throws(RouteTableError) -> String {
        guard let string = value as? String else { throw mismatch("a string", value, path) }
        return string
    }

    private static func bool(_ value: Any, at path: String) throws(RouteTableError) -> Bool {
        guard isBoolean(value), let bool = value as? Bool else { throw mismatch("a boolean", value, path) }
        return bool
    }

    private static func integer(_ value: Any, at path: String) throws(RouteTableError) -> Int {
        guard !isBoolean(value), let number = value as? NSNumber, !(value is String) else {
            throw mismatch("an integer", value, path)
        }
        // Integers are read as integers: through a Double, Int.max does not load and 2^53 + 1 loads as 2^53.
        let integer: Int?
        switch String(cString: number.objCType) {
        case "d", "f": integer = Int(exactly: number.doubleValue)
        case "Q", "L", "I", "S", "C": integer = number.uint64Value <= UInt64(Int.max) ? Int(number.uint64Value) : nil
        default: integer = Int(exactly: number.int64Value)
        }
        guard let integer else { throw mismatch("an integer", value, path) }
        return integer
    }

    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func mismatch(_ expected: String, _ value: Any, _ path: String) -> RouteTableError {
        RouteTableError(code: .typeMismatch, keyPath: path.isEmpty ? "(document)" : path, message: "expected \(expected), found \(describe(value))")
    }

    private static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBoolean(value) { return "a boolean" }
        if let string = value as? String { return "the string \"\(string)\"" }
        if value is NSNumber { return "the number \(value)" }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return "\(type(of: value))"
    }
}
