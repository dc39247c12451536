import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Output and input files at the edges: a full disk, a closed stdout, files that are not files. Never a crash.
struct ConsoleOutputTests {
    @Test(arguments: [
        ["--help"], ["resolve", "--json", "https://127.1/pub/acc"], ["aasa", "generate", "--app", "ABCDE12345.com.x", "--responsys"],
        ["demo"],
    ])
    func aFailedWriteEndsTheCommandWithExitOne(arguments: [String]) async throws {
        for redirection in [">/dev/full", ">&-"] {
            let result = try await HostProcess.run(arguments, redirection: redirection)
            #expect(result.status == 1, "\(arguments) \(redirection): \(result.stderr)")
            #expect(result.stderr.contains("linux-host: cannot write to standard output"), "\(result.stderr)")
        }
    }

    @Test func aFIFOWithoutAWriterFailsAtOnceSayingWhatItIs() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["aasa", "check", "--file", path], ["aasa", "match", "--file", path, "--app", "A.b", "https://x.example/"],
                          ["route", "--table", path, "myapp://x"]] {
            let result = try await HostProcess.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains("'\(path)' is a FIFO (named pipe), not a regular file"), "\(result.stderr)")
        }
    }

    @Test func aDeviceOrDirectoryIsNotReadAsATable() async throws {
        let zero = try await HostProcess.run(["route", "--table", "/dev/zero", "myapp://x"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("'/dev/zero' is a character device, not a regular file"))
        let directory = try await HostProcess.run(["aasa", "check", "--file", "/tmp"])
        #expect(directory.status == 2)
        #expect(directory.stderr.contains("'/tmp' is a directory"))
        let missing = try await HostProcess.run(["aasa", "check", "--file", "/nonexistent/aasa.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot open '/nonexistent/aasa.json': No such file or directory"))
    }
}

/// The console never echoes a URL's user name or password: not from the input, a notification, the opener or a JSON
/// line, on standard output or standard error.
struct ConsoleCredentialTests {
    static let link = "https://alice:s3cret-pw@news.example.com/pub/acc?_ri_=X&contact=bob@example.com"

    @Test(arguments: [
        ["resolve", Self.link], ["resolve", "--json", Self.link],
        ["inapp", Self.link], ["inapp", "--json", Self.link],
        ["push", #"{"u":"\#(Self.link)"}"#], ["push", "--json", #"{"u":"\#(Self.link)"}"#],
    ])
    func noCommandPrintsTheCredentialsOfALink(arguments: [String]) async throws {
        let result = try await HostProcess.run(arguments)
        let printed = result.stdout + result.stderr
        #expect(!printed.contains("s3cret-pw"), "\(arguments): \(printed)")
        #expect(!printed.contains("alice"), "\(arguments): \(printed)")
        // The link is still shown, credentials masked, and the query's own `@` is kept.
        #expect(printed.contains("***@news.example.com"), "\(arguments): \(printed)")
    }

    @Test func aUserNameAloneOrSeveralAtSignsAreMaskedToo() async throws {
        let result = try await HostProcess.run(["inapp", "https://alice@x@news.example.com/pub/acc", "ftp://alice:pw@files.example.com/"])
        let printed = result.stdout + result.stderr
        #expect(!printed.contains("alice"), "\(printed)")
        #expect(printed.contains("https://***@news.example.com/pub/acc"), "\(printed)")
        #expect(printed.contains("ftp://***@files.example.com/"), "\(printed)")
    }
}
