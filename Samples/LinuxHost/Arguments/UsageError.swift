/// A command line that cannot run: exit status 2, with the message on stderr.
struct UsageError: Error, Sendable {
    /// What is wrong, naming the option or value (`--timeout: expected decimal seconds ..., got '0x10'`).
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
