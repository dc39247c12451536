import Foundation

/// Output helpers shared by every `linux-host` command.
enum Console {
    /// Writes one line to standard output and flushes it, so piped readers see lines as they happen.
    static func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes one line to standard error.
    static func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Reports a usage error on stderr and returns exit status 2.
    static func usageError(_ message: String) -> Int32 {
        err("linux-host: \(message)")
        err(LinuxHost.usage)
        return 2
    }

    /// Serialises a JSON-compatible value as one line (keys sorted, slashes unescaped).
    ///
    /// Use `NSNull()` for JSON `null`.
    static func jsonLine(_ object: Any) -> String {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else {
            return "null"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
