import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one option or argument value into a typed value, or refuses it with a message that says what was
/// expected and what was given.
///
/// ```swift
/// static let timeout = OptionKey.value(
///     "timeout", "SECONDS", "deadline", as: .seconds(in: 0.001...3600), default: .seconds(10), shown: "10")
/// ```
struct ValueReader<Value>: Sendable {
    /// Returns the value, or what was expected (`"decimal seconds from 0.001 to 3600"`) when `raw` does not read.
    let convert: @Sendable (String) -> Result<Value, UsageError>

    /// Reads `raw`, given as `label` (`--timeout`, `FILE`).
    ///
    /// - Throws: `UsageError` whose message names `label`.
    func read(_ raw: String, for label: String) throws(UsageError) -> Value {
        switch convert(raw) {
        case .success(let value): return value
        case .failure(let error): throw UsageError("\(label): \(error.message)")
        }
    }

    /// This reader, its value then transformed (`absoluteURL.map { URL(string: $0) }`).
    func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> ValueReader<Other> {
        let convert = convert
        return ValueReader<Other> { raw in convert(raw).map(transform) }
    }
}

extension ValueReader where Value == String {
    /// Any string, as given.
    static var string: ValueReader<String> { ValueReader { .success($0) } }

    /// A host name: not empty, no scheme, path, port, space or userinfo; a trailing dot is kept.
    static var host: ValueReader<String> {
        ValueReader { raw in
            let forbidden = CharacterSet(charactersIn: "/:@?# \t\\").union(.controlCharacters)
            guard !raw.isEmpty, raw != ".", raw.rangeOfCharacter(from: forbidden) == nil, !raw.hasPrefix("-"),
                  !raw.contains("..")
            else {
                return .failure(UsageError("expected a host name such as news.example.com, got '\(raw)'"))
            }
            return .success(raw)
        }
    }

    /// One of `choices`.
    static func choice(_ choices: [String]) -> ValueReader<String> {
        ValueReader { raw in
            choices.contains(raw)
                ? .success(raw)
                : .failure(UsageError("expected \(choices.joined(separator: ", ")), got '\(raw)'"))
        }
    }
}

extension ValueReader where Value == Duration {
    /// Decimal seconds (`10`, `0.5`, `.25`) within `range`; no sign, exponent, hexadecimal or `inf`.
    static func seconds(in range: ClosedRange<Double>) -> ValueReader<Duration> {
        ValueReader { raw in
            let expected = "expected decimal seconds from \(format(range.lowerBound)) to \(format(range.upperBound)), got '\(raw)'"
            let parts = raw.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            let digits = parts.allSatisfy { $0.allSatisfy { $0 >= "0" && $0 <= "9" } }
            guard digits, parts.contains(where: { !$0.isEmpty }), raw.utf8.count <= 20, let seconds = Double(raw),
                  range.contains(seconds)
            else { return .failure(UsageError(expected)) }
            return .success(.milliseconds(Int64((seconds * 1000).rounded())))
        }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension ValueReader where Value == UInt16 {
    /// A TCP port, decimal, 0 to 65535 (0: any free port).
    static var port: ValueReader<UInt16> {
        ValueReader { raw in
            guard !raw.isEmpty, raw.utf8.count <= 5, raw.allSatisfy({ $0 >= "0" && $0 <= "9" }), let port = UInt16(raw) else {
                return .failure(UsageError("expected a port number from 0 to 65535, got '\(raw)'"))
            }
            return .success(port)
        }
    }
}

/// The bytes of a regular file named on the command line.
struct InputFile: Sendable {
    /// The path as given.
    var path: String
    /// Its contents.
    var bytes: [UInt8]
}

extension ValueReader where Value == InputFile {
    /// A regular file of at most `maximumSize` bytes, read at once.
    ///
    /// Anything else is refused before it is opened, saying what it is (`'/dev/zero' is a character device, not
    /// a regular file`), so a FIFO without a writer cannot hang the command and a device cannot fill memory.
    static func regularFile(maximumSize: Int) -> ValueReader<InputFile> {
        ValueReader { path in
            guard !path.isEmpty else { return .failure(UsageError("expected a file, got an empty path")) }
            if let refusal = invalidUTF8(path) { return .failure(refusal) }
            var info = stat()
            guard stat(path, &info) == 0 else {
                return .failure(UsageError("cannot open '\(path)': \(String(cString: strerror(errno)))"))
            }
            let kind = info.st_mode & S_IFMT
            guard kind == S_IFREG else {
                return .failure(UsageError("'\(path)' is \(describe(kind)), not a regular file"))
            }
            guard Int(info.st_size) <= maximumSize else {
                return .failure(UsageError("'\(path)' is larger than \(maximumSize) bytes"))
            }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                return .failure(UsageError("cannot open '\(path)': \(String(cString: strerror(errno)))"))
            }
            defer { try? handle.close() }
            do {
                // Read one byte more than allowed: a file that grew since `stat` is still refused.
                let data = try handle.read(upToCount: maximumSize + 1) ?? Data()
                guard data.count <= maximumSize else {
                    return .failure(UsageError("'\(path)' is larger than \(maximumSize) bytes"))
                }
                return .success(InputFile(path: path, bytes: [UInt8](data)))
            } catch {
                return .failure(UsageError("cannot read '\(path)': \(error.localizedDescription)"))
            }
        }
    }

    /// A refusal for a path whose bytes were not UTF-8: `CommandLine.arguments` replaced them with U+FFFD, so
    /// the name no longer names the file ("No such file" would mislead).
    static func invalidUTF8(_ path: String) -> UsageError? {
        guard path.unicodeScalars.contains("\u{FFFD}") else { return nil }
        return UsageError(
            "'\(path)': the path is not valid UTF-8 (linux-host reads its arguments as UTF-8); rename the file or "
                + "give a link to it with a UTF-8 name")
    }

    /// What kind of file a `stat` mode names, for messages (`a FIFO (named pipe)`).
    static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "an unknown kind of file"
        }
    }
}
