import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file named on the command line for a report (`--junit FILE`), checked before the command does any work.
///
/// The path must be usable as a regular file: an existing regular file (replaced), or a new name in an existing
/// directory. A directory, a FIFO, a device or a socket is refused when the command line is read, so a report
/// never blocks on a FIFO without a reader and a run of minutes never ends on a path that was wrong from the
/// start. The write itself opens without blocking and reports failures with the system's words (`No space left
/// on device`).
struct OutputFile: Sendable {
    /// The path as given.
    var path: String

    /// Replaces the file's contents with `bytes`.
    ///
    /// - Returns: `nil` on success, otherwise why the write failed (the system's `strerror` text).
    func write(_ bytes: [UInt8]) -> String? {
        // O_NONBLOCK: a FIFO that appeared since the command line was checked fails (ENXIO) instead of blocking.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o644)
        guard descriptor >= 0 else { return Self.reason(errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let failure = errno
            _ = close(descriptor)
            return Self.reason(failure)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            _ = close(descriptor)
            return "not a regular file"
        }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                #else
                let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
                #endif
                if written >= 0 {
                    offset += written
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        // A full disk may only show at close (NFS, delayed allocation).
        if close(descriptor) != 0, failure == 0 { failure = errno }
        return failure == 0 ? nil : Self.reason(failure)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

extension ValueReader where Value == OutputFile {
    /// A path a report can be written to: not empty, valid UTF-8, and either an existing regular file or a new
    /// name in an existing directory. Nothing is created or opened.
    static var outputFile: ValueReader<OutputFile> {
        ValueReader { path in
            guard !path.isEmpty else { return .failure(UsageError("expected a file path, got an empty path")) }
            if let refusal = ValueReader<InputFile>.invalidUTF8(path) { return .failure(refusal) }
            var info = stat()
            if stat(path, &info) == 0 {
                let kind = info.st_mode & S_IFMT
                guard kind == S_IFREG else {
                    return .failure(UsageError("'\(path)' is \(ValueReader<InputFile>.describe(kind)), not a regular file"))
                }
                guard access(path, W_OK) == 0 else {
                    return .failure(UsageError("cannot write '\(path)': \(String(cString: strerror(errno)))"))
                }
                return .success(OutputFile(path: path))
            }
            guard errno == ENOENT, !path.hasSuffix("/") else {
                return .failure(UsageError("cannot write '\(path)': \(String(cString: strerror(errno)))"))
            }
            let parent = (path as NSString).deletingLastPathComponent
            let directory = parent.isEmpty ? "." : parent
            guard stat(directory, &info) == 0 else {
                let reason = errno == ENOENT ? "the directory '\(directory)' does not exist" : String(cString: strerror(errno))
                return .failure(UsageError("cannot write '\(path)': \(reason)"))
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                return .failure(UsageError("cannot write '\(path)': '\(directory)' is not a directory"))
            }
            guard access(directory, W_OK | X_OK) == 0 else {
                return .failure(UsageError("cannot write '\(path)': \(String(cString: strerror(errno)))"))
            }
            return .success(OutputFile(path: path))
        }
    }
}
