import Foundation
import Testing
@testable import _LinkKitText

/// Generated documents read the same with ``JSONReader`` as with Foundation's `JSONSerialization`, and ``JSONWriter``
/// writes what `JSONSerialization` reads back equal.
struct JSONSerializationAgreementTests {
    /// A small deterministic generator (SplitMix64), so a failure names a document that can be made again.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// No U+FEFF: `JSONSerialization` drops one at the start of each unescaped run of a string (we keep it).
    static let pieces = ["a", "é", "😀", "\"", "\\", "/", "\n", "\u{1}", "\u{7F}", "\u{2028}", " ", "key", "0"]

    static func string(_ rng: inout Generator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                var value = UInt32.random(in: 0x20...0x10FFFF, using: &rng)
                if (0xD800...0xDFFF).contains(value) || value == 0xFEFF { value = 0xE000 }
                text.unicodeScalars.append(Unicode.Scalar(value)!)
            } else {
                text += pieces.randomElement(using: &rng)!
            }
        }
        return text
    }

    /// The text of a random string literal: some characters escaped as `\uXXXX` (surrogate pairs included) or `\/`.
    static func literal(_ text: String, _ rng: inout Generator) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if Int.random(in: 0..<3, using: &rng) == 0 {
                for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
            } else if scalar == "/" {
                out += "\\/"
            } else {
                out += JSONWriter.escape(String(scalar))
            }
        }
        return out + "\""
    }

    static let numbers = ["0", "-0", "1", "-17", "3.25", "1e3", "-2.5E-3", "123456789", "0.5e+2", "9007199254740993"]

    /// A random document as text with arbitrary white space, and as the value `JSONSerialization` should read.
    static func document(_ rng: inout Generator, depth: Int = 0) -> String {
        let space = [" ", "", "\n", "\t", "\r\n "].randomElement(using: &rng)!
        let choice = depth > 5 ? Int.random(in: 0..<4, using: &rng) : Int.random(in: 0..<6, using: &rng)
        switch choice {
        case 0: return literal(string(&rng), &rng)
        case 1: return numbers.randomElement(using: &rng)!
        case 2: return ["true", "false"].randomElement(using: &rng)!
        case 3: return "null"
        case 4:
            let elements = (0..<Int.random(in: 0...4, using: &rng)).map { _ in document(&rng, depth: depth + 1) }
            return "[" + space + elements.joined(separator: space + "," + space) + space + "]"
        default:
            var keys = Set<String>()
            for _ in 0..<Int.random(in: 0...4, using: &rng) { keys.insert(string(&rng)) }
            let members = keys.sorted().map { literal($0, &rng) + space + ":" + space + document(&rng, depth: depth + 1) }
            return "{" + space + members.joined(separator: "," + space) + space + "}"
        }
    }

    /// Whether our node and Foundation's object are the same value (numbers compared as `Double`, as
    /// `JSONSerialization` holds them).
    static func same(_ node: JSONNode, _ object: Any) -> Bool {
        switch node.kind {
        case .null: return object is NSNull
        case .boolean:
            return (object as? Bool) == node.bool
        case .number:
            guard let number = object as? NSNumber, let double = Double(node.numberText ?? "") else { return false }
            return number.doubleValue == double
        case .string: return (object as? String) == node.string
        case .array:
            guard let array = object as? [Any], array.count == node.count else { return false }
            return zip(node.elements, array).allSatisfy { same($0, $1) }
        case .object:
            guard let dictionary = object as? [String: Any], dictionary.count == node.count else { return false }
            return node.members.allSatisfy { member in dictionary[member.key].map { same(member.value, $0) } ?? false }
        }
    }

    static let limits = JSONReader.Limits(bytes: 1 << 20, depth: 64, values: 1 << 20)

    @Test func generatedDocumentsReadAsJSONSerializationReadsThem() throws {
        var rng = Generator(state: 8259)
        for n in 0..<2_000 {
            let text = Self.document(&rng)
            let ours = try JSONReader.read(Array(text.utf8), limits: Self.limits)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            #expect(Self.same(ours.root, theirs), "document \(n): \(text) ours: \(JSONWriter.text(ours.root, style: .compact))")
        }
    }

    @Test func writtenDocumentsReadBackEqualInJSONSerialization() throws {
        var rng = Generator(state: 8260)
        for n in 0..<2_000 {
            let text = Self.document(&rng)
            let ours = try JSONReader.read(Array(text.utf8), limits: Self.limits)
            for style in [JSONWriter.Style.compact, .indented, .foundationPretty] {
                let written = JSONWriter.text(ours.root, style: style)
                let theirs = try JSONSerialization.jsonObject(with: Data(written.utf8), options: [.fragmentsAllowed])
                #expect(Self.same(ours.root, theirs), "document \(n) written as \(written)")
            }
        }
    }
}
