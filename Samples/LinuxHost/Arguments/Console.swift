import Foundation
internal import _LinkKitText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Output shared by every `linux-host` command: whole lines written straight to file descriptors 1 and 2.
///
/// It never traps (unlike `FileHandle.write`, which raises SIGILL on a failed write): when a line cannot be
/// written to stdout (`>/dev/full`, `>&-`, a reader that went away), the process says so on stderr and ends with
/// exit status 1. SIGPIPE keeps its default action, so `linux-host ... | head -1` ends as any Unix tool does.
/// A failed write to stderr also ends the process with exit 1, silently.
enum Console {
    /// The standard descriptors (0, 1, 2) that were closed when the process started.
    ///
    /// Each is reopened on `/dev/null` so no socket or file opened later takes its number (output meant for the
    /// terminal would go to the socket), and a write to it counts as failed.
    private static let closedAtStart: Set<Int32> = {
        var closed: Set<Int32> = []
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closed.insert(descriptor)
            _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)  // takes the lowest free number
        }
        return closed
    }()

    /// Checks the standard descriptors; call it first thing in `main`, before anything opens a file or socket.
    static func prepare() {
        _ = closedAtStart
    }

    /// Writes one line to standard output.
    static func out(_ line: String) {
        write(line + "\n", to: 1)
    }

    /// Writes one line to standard error.
    static func err(_ line: String) {
        write(line + "\n", to: 2)
    }

    /// Reports a usage error on stderr (`linux-host: COMMAND: message`, then the usage line and where to find
    /// help) and returns exit status 2.
    static func usageError(_ message: String, usage: String? = nil, help: String = "linux-host --help") -> Int32 {
        err("linux-host: \(message)")
        if let usage { err(usage) }
        err("Run '\(help)' for more.")
        return 2
    }

    /// `text` safe to print inside a line of text output: every control character (C0, DEL, C1), the Unicode line
    /// and paragraph separators and the bidirectional overrides are shown as Swift escapes (`\u{1B}`, `\u{A}`).
    ///
    /// Untrusted text (a `Location` header, an app ID or a key from a file, a request target) printed raw could
    /// move the cursor, recolour the terminal or start a new line that forges a verdict such as `0 errors`.
    /// JSON output needs none of this: JSON escapes control characters itself.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// An object as one line of JSON, keys sorted (see ``sortedObject(_:)``), slashes unescaped.
    static func jsonLine(_ members: [String: JSONValue]) -> String {
        JSONWriter.text(sortedObject(members), style: .compact)
    }

    /// An object whose keys are in the order `JSONSerialization`'s `.sortedKeys` gives them (numeric,
    /// case-insensitive, ties broken by case), so that scripts reading the lines see the same text as before.
    static func sortedObject(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.sorted { a, b in
            a.key.compare(
                b.key, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.key.startIndex..<a.key.endIndex,
                locale: NSLocale.system) == .orderedAscending
        }.map { ($0.key, $0.value) })
    }

    /// Writes all of `text` with as few `write(2)` calls as the descriptor allows; ends the process on failure.
    /// `text` with the user name and password of every URL in it replaced by `***`: the console never echoes
    /// credentials, whether they came from the input, a notification or a JSON line (where `/` may be `\/`).
    ///
    /// One pass over the text: after each `://` (or `:\/\/`), the run up to the first `/`, `\`, `?`, `#`,
    /// white space or quote is the authority, and the part of it before its last `@` is the user information.
    static func withoutCredentials(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "@")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            var authorityStart: Int?
            if bytes[index] == UInt8(ascii: ":") {
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                    authorityStart = index + 3
                } else if index + 4 < bytes.count, bytes[index + 1...index + 4].elementsEqual("\\/\\/".utf8) {
                    authorityStart = index + 5
                }
            }
            guard let start = authorityStart else {
                out.append(bytes[index])
                index += 1
                continue
            }
            var end = start
            var lastAt: Int?
            while end < bytes.count, !Self.endsAuthority(bytes[end]) {
                if bytes[end] == UInt8(ascii: "@") { lastAt = end }
                end += 1
            }
            out.append(contentsOf: bytes[index..<start])
            if let lastAt {
                out.append(contentsOf: "***".utf8)
                out.append(contentsOf: bytes[lastAt..<end])
            } else {
                out.append(contentsOf: bytes[start..<end])
            }
            index = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "),
             UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
             UInt8(ascii: ">"):
            true
        default:
            false
        }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let text = withoutCredentials(text)
        var failure: Int32 = closedAtStart.contains(descriptor) ? EBADF : 0
        if failure == 0 {
            failure = text.utf8.withContiguousStorageIfAvailable { writeAll($0, to: descriptor) }
                ?? Array(text.utf8).withUnsafeBufferPointer { writeAll($0, to: descriptor) }
        }
        guard failure != 0 else { return }
        if descriptor == 1 {
            let reason = String(cString: strerror(failure))
            let message = "linux-host: cannot write to standard output: \(reason)\n"
            _ = message.utf8.withContiguousStorageIfAvailable { writeAll($0, to: 2) }
        }
        // `_exit`: no atexit handlers or buffered streams to run, and other threads may still be writing.
        _exit(1)
    }

    /// Returns 0, or the `errno` of the write that failed.
    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32 {
        guard var pointer = bytes.baseAddress else { return 0 }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Glibc)
            let written = Glibc.write(descriptor, pointer, remaining)
            #else
            let written = Darwin.write(descriptor, pointer, remaining)
            #endif
            if written >= 0 {
                pointer += written
                remaining -= written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN:
                var waiter = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiter, 1, -1)
            case let error:
                return error
            }
        }
        return 0
    }
}
