internal import _LinkKitText

extension AppLinkComponent {
    /// The rule as a JSON object with keys in Apple's documented order.
    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let path { members.append(("/", .string(path))) }
        switch query {
        case .string(let text)?: members.append(("?", .string(text)))
        case .items(let items)?: members.append(("?", .object(items.map { ($0.name, .string($0.value)) })))
        case .ignoredDictionary?: members.append(("?", .object([("…", .null)])))
        case nil: break
        }
        if let fragment { members.append(("#", .string(fragment))) }
        if let exclude { members.append(("exclude", .bool(exclude))) }
        if let caseSensitive { members.append(("caseSensitive", .bool(caseSensitive))) }
        if let percentEncoded { members.append(("percentEncoded", .bool(percentEncoded))) }
        if let comment { members.append(("comment", .string(comment))) }
        return .object(members)
    }
}
