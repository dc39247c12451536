import Foundation

/// Runs `body` on a thread of its own, with a stack of `stackSize` bytes, and waits for it without holding a thread of
/// the cooperative pool: CPU-heavy tests must not starve the deadline tests running beside them, and a test of
/// recursion depth gets a known, small stack. Assert on what it returns, in the test's own task.
func onOwnThread<Result: Sendable>(stackSize: Int = 512 << 10, _ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = stackSize
        thread.start()
    }
}
