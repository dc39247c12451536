import Foundation

/// The header fields of an answer as ``CurlTransport`` receives them: `Name: value` lines separated by CRLF.
///
/// Names are lower-cased, values trimmed of whitespace, and of a repeated name the first field is kept. A line
/// without a colon is skipped. ASCII lines, most of any answer, are read as bytes; a line with other bytes (raw UTF-8
/// in a `Location`, say) is read as text (invalid UTF-8 replaced), the same rules applied to its characters.
///
/// Reading the lines as `String`s cost about 95 000 instructions an answer, most of it in Foundation's
/// `trimmingCharacters(in:)`: more than the resolver's own work and libcurl's together, on the thread that drives
/// every request.
enum AnswerHead {
    /// The fields of `block`.
    static func fields(_ block: UnsafeRawBufferPointer) -> [String: String] {
        var fields: [String: String] = [:]
        var start = 0
        var index = 0
        while index < block.count {
            if block[index] == 0x0D, index + 1 < block.count, block[index + 1] == 0x0A {
                add(UnsafeRawBufferPointer(rebasing: block[start..<index]), to: &fields)
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        add(UnsafeRawBufferPointer(rebasing: block[start..<block.count]), to: &fields)
        return fields
    }

    private static func add(_ line: UnsafeRawBufferPointer, to fields: inout [String: String]) {
        guard line.allSatisfy({ $0 < 0x80 }) else { return addText(String(decoding: line, as: UTF8.self), to: &fields) }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(unsafeUninitializedCapacity: colon) { buffer in
            for offset in 0..<colon {
                let byte = line[offset]
                buffer[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
            }
            return colon
        }
        guard fields[name] == nil else { return }
        // In ASCII, `CharacterSet.whitespaces` is the space and the tab.
        var first = colon + 1
        var end = line.count
        while first < end, line[first] == 0x20 || line[first] == 0x09 { first += 1 }
        while end > first, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        fields[name] = String(decoding: UnsafeRawBufferPointer(rebasing: line[first..<end]), as: UTF8.self)
    }

    /// A line with bytes outside ASCII: as text, with Foundation's rules (kept as they were).
    private static func addText(_ line: String, to fields: inout [String: String]) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        guard fields[name] == nil else { return }
        fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}
