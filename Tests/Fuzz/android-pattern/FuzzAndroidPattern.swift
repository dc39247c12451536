import Foundation
@testable import AssociatedDomains

// Android's PatternMatcher (AssociatedDomains): the input's first line is a pattern, parsed as every type; the rest,
// split on newlines, are strings matched against each pattern that parses. Also fuzzes the dynamic-rule glob.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAndroidPattern(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let first = lines.first else { return 0 }
    let strings = lines.dropFirst().prefix(8)
    for kind in AndroidPattern.Kind.allCases {
        for escapedDotIsLiteral in [true, false] {
            guard let pattern = try? AndroidPattern(first, kind: kind, configuration: .init(escapedDotIsLiteral: escapedDotIsLiteral)) else { continue }
            for string in strings { _ = pattern.matches(string) }
        }
    }
    let glob = DynamicGlob(first)
    for string in strings { _ = glob.matches(Array(string.utf16)) }
    return 0
}
