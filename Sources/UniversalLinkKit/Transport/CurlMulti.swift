import Dispatch
import Foundation
import Synchronization
internal import _CLibcurl
internal import _LinkKitText
internal import _LinkKitLocking

/// One libcurl multi handle and the one thread that drives it, shared by every request of a ``CurlTransport``.
///
/// Invariant: an easy handle belongs to the caller until ``submit(_:continuation:)``, then to the driving thread
/// alone, which adds it, removes it and frees it. The lock guards only the hand-over lists and the map of
/// callers waiting; libcurl is never called under it. A caller is resumed exactly once: by its answer, by its
/// cancellation (at once, without waiting for libcurl) or by the transport's shutdown.
///
/// Each host has at most `streamsPerHost` requests in libcurl at once (connections for HTTP/1.1, streams for
/// HTTP/2); the others wait in the host's queue, in order, on the driving thread. A queued request starts only
/// while its deadline leaves at least what the host's answers currently take (``HostLatency``), on the
/// transport's clock; otherwise it ends unsent as ``TransportError/Kind/timedOut``.
///
/// A transfer is known by its address, which the allocator may hand to the next transfer once the driving thread
/// has freed it; so each wait also carries a serial number, and a cancellation ends only the wait it was registered
/// for (a task cancelled just after its answer came, as at a resolution's deadline, must not end another link's
/// request).
final class CurlMulti: Sendable {
    /// What the driving thread needs of a transfer handed over.
    struct Submission: Sendable {
        /// The address of its `ulk_transfer`.
        let address: UInt
        /// `host:port`, the key of the stream limit and of the latency figures.
        let host: String
        /// Its deadline on the transport's clock.
        let deadline: ContinuousClock.Instant?
    }

    private struct State {
        /// Transfers handed over, not yet added to the multi handle or queued.
        var toAdd: [Submission] = []
        /// Transfers whose caller gave up; the driving thread removes and frees them.
        var toRemove: [UInt] = []
        /// Callers waiting, by transfer address, each with its wait's serial number.
        var waiting: [UInt: (serial: UInt64, continuation: CheckedContinuation<TransportResponse, any Error>)] = [:]
        var nextSerial: UInt64 = 0
        var stopped = false
    }

    private let state = Mutex(State())
    /// The multi handle's address; touched by the driving thread only, except for the thread-safe wakeup.
    private let multi: UInt
    /// Whether the handle is still there: the driving thread frees it as it ends, and a wakeup after that must not
    /// reach it. Its own lock, held only for a wakeup (which libcurl makes thread-safe and non-blocking) or the free.
    private let handleAlive = Mutex(true)
    /// Signalled once the driving thread has released everything (transfers, connections, the handle).
    private let ended = DispatchSemaphore(value: 0)
    /// The driving thread, so that a shutdown it runs itself (a deinit) does not wait for itself.
    private let driver = Mutex<pthread_t?>(nil)
    private let streamsPerHost: Int
    /// The clock of the deadlines and latency figures (the system's, or a test's).
    let clock: LinkClock
    /// What answers from each host currently take.
    let latency = HostLatency()

    /// Creates the multi handle and starts its thread, or returns `nil` when libcurl cannot be loaded.
    init?(streamsPerHost: Int, clock: LinkClock) {
        let streams = max(1, streamsPerHost)
        guard ulk_curl_load() == 0, let handle = ulk_multi_create(streams, 0, max(16, streams * 2), streams) else { return nil }
        multi = UInt(bitPattern: handle)
        self.streamsPerHost = streams
        self.clock = clock
        let thread = Thread { [self] in drive() }
        thread.name = "UniversalLinkKit.CurlTransport"
        thread.start()
    }

    private var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: multi)! }

    /// Hands a transfer over and waits for its answer.
    ///
    /// - Parameters:
    ///   - transfer: The transfer; the driving thread's from here.
    ///   - host: `host:port`.
    ///   - deadline: Its deadline on ``clock``.
    func perform(
        _ transfer: UnsafeMutablePointer<ulk_transfer>, host: String, deadline: ContinuousClock.Instant?
    ) async throws -> TransportResponse {
        let address = UInt(bitPattern: transfer)
        let submission = Submission(address: address, host: host, deadline: deadline)
        // Taken before the wait is registered, so that a cancellation that comes first finds a number to match.
        let serial = state.withTrackedLock { state -> UInt64 in
            state.nextSerial += 1
            return state.nextSerial
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let accepted = state.withTrackedLock { state -> Bool in
                    guard !state.stopped else { return false }
                    state.waiting[address] = (serial, continuation)
                    state.toAdd.append(submission)
                    return true
                }
                guard accepted else {
                    ulk_transfer_free(transfer)
                    continuation.resume(throwing: CancellationError())
                    return
                }
                wake()
                // Cancelled before the handler below could find the transfer waiting.
                if Task.isCancelled { abandon(address, serial: serial) }
            }
        } onCancel: {
            abandon(address, serial: serial)
        }
    }

    /// Resumes the caller of wait `serial` with `CancellationError` now, if nothing has, and has the thread drop its
    /// transfer. A wait that has ended is left alone, and so is a later transfer the allocator put at its address.
    private func abandon(_ address: UInt, serial: UInt64) {
        let continuation = state.withTrackedLock { state -> CheckedContinuation<TransportResponse, any Error>? in
            guard let waiting = state.waiting[address], waiting.serial == serial else { return nil }
            state.waiting[address] = nil
            state.toRemove.append(address)
            return waiting.continuation
        }
        guard let continuation else { return }
        wake()
        continuation.resume(throwing: CancellationError())
    }

    /// Callers waiting for an answer.
    var waitingCount: Int { state.withTrackedLock { $0.waiting.count } }

    /// Stops the thread and waits until it has closed its connections and freed libcurl's handles (so a process
    /// that exits right after is not tearing libcurl and OpenSSL down under it); callers still waiting get
    /// `CancellationError`.
    func shutdown() {
        state.withTrackedLock { $0.stopped = true }
        wake()
        let onDriver = driver.withTrackedLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        guard !onDriver else { return }
        ended.wait()
        // For the next caller of shutdown(), if any.
        ended.signal()
    }

    /// Wakes the driving thread, if its handle is still there.
    private func wake() {
        handleAlive.withTrackedLock { alive in
            if alive { ulk_multi_wakeup(handle) }
        }
    }

    /// The driving thread's own bookkeeping of the stream limit.
    private struct Streams {
        /// Transfers in libcurl, with their host and when they started (on the clock).
        var running: [UInt: (host: String, startedAt: ContinuousClock.Instant)] = [:]
        /// Requests in libcurl per host.
        var perHost: [String: Int] = [:]
        /// Transfers waiting for a stream slot, per host, in order.
        var queued: [String: [Submission]] = [:]
    }

    private func drive() {
        driver.withTrackedLock { $0 = pthread_self() }
        defer { ended.signal() }
        var streams = Streams()
        while true {
            let (adds, removes, stopped) = state.withTrackedLock { state in
                defer { state.toAdd.removeAll(keepingCapacity: true); state.toRemove.removeAll(keepingCapacity: true) }
                return (state.toAdd, state.toRemove, state.stopped)
            }
            for submission in adds {
                if streams.perHost[submission.host, default: 0] < streamsPerHost {
                    start(submission, &streams)
                } else {
                    streams.queued[submission.host, default: []].append(submission)
                }
            }
            for address in removes {
                if let running = streams.running.removeValue(forKey: address) {
                    ulk_multi_remove(handle, Self.transfer(address))
                    release(running.host, &streams)
                } else {
                    for host in Array(streams.queued.keys) { streams.queued[host]?.removeAll { $0.address == address } }
                }
                ulk_transfer_free(Self.transfer(address))
            }
            if stopped { break }
            ulk_multi_perform(handle)
            var code: Int32 = 0
            while let transfer = ulk_multi_next_done(handle, &code) {
                let address = UInt(bitPattern: transfer)
                ulk_multi_remove(handle, transfer)
                ulk_transfer_settle(transfer, code)
                let outcome = Self.outcome(transfer, code: code)
                if let running = streams.running.removeValue(forKey: address) {
                    // An answer read to its last byte: one cut at its deadline or its cap says only that it was long.
                    if code == 0, transfer.pointee.got_status != 0, transfer.pointee.sends > 0 {
                        let now = clock.now
                        latency.record(now - running.startedAt, host: running.host, at: now)
                    }
                    finish(address, with: outcome)
                    release(running.host, &streams)
                } else {
                    finish(address, with: outcome)
                }
            }
            ulk_multi_poll(handle, 1000)
        }
        let waiting = state.withTrackedLock { state in
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        let left = Array(streams.running.keys) + streams.queued.values.flatMap { $0.map(\.address) }
        for address in left {
            if streams.running[address] != nil { ulk_multi_remove(handle, Self.transfer(address)) }
            ulk_transfer_free(Self.transfer(address))
        }
        handleAlive.withTrackedLock { alive in
            alive = false
            ulk_multi_free(handle)
        }
        for (_, waiting) in waiting { waiting.continuation.resume(throwing: CancellationError()) }
    }

    /// Adds a transfer to libcurl, unless its deadline no longer leaves what its host's answers take: it then
    /// ends unsent.
    private func start(_ submission: Submission, _ streams: inout Streams) {
        let address = submission.address
        let transfer = Self.transfer(address)
        let now = clock.now
        if let deadline = submission.deadline {
            let left = deadline - now
            if left <= .zero || ulk_transfer_arm(transfer) != 0 {
                let waited = Self.connectionWait(transfer.pointee, untilNow: true).map { " (waited \($0.text))" } ?? ""
                finish(address, with: .failure(TransportError(
                    .timedOut, detail: "not sent: its deadline passed while it waited for a connection\(waited)")))
                return
            }
            if let refusal = latency.refusal(host: submission.host, left: left, at: now) {
                finish(address, with: .failure(TransportError(.timedOut, detail: refusal)))
                return
            }
        }
        guard ulk_multi_add(handle, transfer) == 0 else {
            finish(address, with: .failure(TransportError(.noAnswer, detail: "libcurl refused the transfer")))
            return
        }
        streams.running[address] = (submission.host, now)
        streams.perHost[submission.host, default: 0] += 1
    }

    /// Frees `host`'s slot and starts the next requests waiting for it.
    private func release(_ host: String, _ streams: inout Streams) {
        streams.perHost[host, default: 1] -= 1
        if streams.perHost[host] == 0 { streams.perHost[host] = nil }
        while streams.perHost[host, default: 0] < streamsPerHost, var queue = streams.queued[host], !queue.isEmpty {
            let next = queue.removeFirst()
            streams.queued[host] = queue.isEmpty ? nil : queue
            start(next, &streams)
        }
    }

    /// Resumes the caller, unless it gave up already (the transfer is then in `toRemove`, which frees it).
    private func finish(_ address: UInt, with outcome: Result<TransportResponse, TransportError>) {
        guard let waiting = state.withTrackedLock({ $0.waiting.removeValue(forKey: address) }) else { return }
        ulk_transfer_free(Self.transfer(address))
        waiting.continuation.resume(with: outcome)
    }

    private static func transfer(_ address: UInt) -> UnsafeMutablePointer<ulk_transfer> {
        UnsafeMutablePointer(bitPattern: address)!
    }

    /// What a finished transfer amounts to. Nothing is retried here: a request that got a status line was answered.
    static func outcome(_ transfer: UnsafeMutablePointer<ulk_transfer>, code: Int32) -> Result<TransportResponse, TransportError> {
        let t = transfer.pointee
        if t.head_over_cap != 0 {
            return .failure(TransportError(.headersTooLarge, detail: "header block over \(t.header_cap) bytes, transfer stopped"))
        }
        if t.over_cap != 0 {
            return .failure(TransportError(.bodyTooLarge, detail: "answer over \(t.cap) bytes, transfer stopped"))
        }
        if t.address_mismatch != 0 {
            return .failure(TransportError(.addressNotAllowed, detail: "the connection did not go to the checked address"))
        }
        if t.got_status != 0, t.status >= 200, t.status < 300, t.bad_framing != 0 {
            // An answer arrived: never retried, and its body is not read.
            return .failure(TransportError(.failedAfterAnswer, detail: "status \(t.status) whose body length cannot be trusted"
                + " (differing Content-Length fields, Content-Length beside Transfer-Encoding, or a transfer coding other than chunked)"))
        }
        if t.got_status != 0, t.status >= 200, t.status < 300, t.encoded != 0 {
            return .failure(TransportError(.encodedBody, detail: "status \(t.status) with a Content-Encoding"))
        }
        if code == 0 || (t.finished_early != 0 && t.got_status != 0) {
            return .success(response(t))
        }
        let detail = String(cString: ulk_strerror(code)) + Self.errorText(t)
        // At the deadline libcurl fails a transfer still waiting for a connection slot with CURLE_OPERATION_TIMEDOUT
        // (its timeout is the deadline): nothing was sent, as when the pre-request callback refuses it.
        if t.deadline_passed != 0 || (code == 28 && t.sends == 0 && ulk_curl_counts_requests() != 0) {
            let waited = connectionWait(t).map { " (waited \($0.text))" } ?? ""
            return .failure(TransportError(.timedOut, detail: "not sent: its deadline passed while it waited for a connection\(waited)"))
        }
        if let tls = tlsFailure(transfer, code: code, detail: detail) { return .failure(tls) }
        if t.resend_refused != 0 {
            return .failure(TransportError(.noAnswer, detail: "the connection closed before an answer; not re-sent"))
        }
        // CURLE_OPERATION_TIMEDOUT: the request may have reached the server.
        if code == 28 { return .failure(TransportError(.timedOut, detail: detail)) }
        return .failure(TransportError(t.got_status != 0 ? .failedAfterAnswer : .noAnswer, detail: detail))
    }

    /// A certificate or protocol failure of the handshake, or `nil` for anything else. A connection refused, reset
    /// or closed during the handshake is not one: libcurl's API cannot tell whether the server sent TLS data first,
    /// and nothing was sent, so it stays a failure without an answer, which the resolver retries once.
    private static func tlsFailure(
        _ transfer: UnsafeMutablePointer<ulk_transfer>, code: Int32, detail: String
    ) -> TransportError? {
        // CURLE_SSL_CERTPROBLEM, SSL_CIPHER, PEER_FAILED_VERIFICATION, SSL_CACERT_BADFILE, SSL_ISSUER_ERROR,
        // SSL_PINNEDPUBKEYNOTMATCH, SSL_INVALIDCERTSTATUS: the server's certificate or the roots.
        let certificate: Set<Int32> = [58, 59, 60, 77, 83, 90, 91]
        var failure: TransportError
        if certificate.contains(code) {
            failure = TransportError(.tls, detail: detail)
            let result = ulk_transfer_verify_result(transfer)
            failure.verifyResult = result > 0 ? Int(result) : nil
            return failure
        }
        // CURLE_SSL_CONNECT_ERROR: OpenSSL refused the handshake (a protocol version, an alert), or the connection
        // went away under it.
        guard code == 35 else { return nil }
        let closed = ["SSL_ERROR_SYSCALL", "Connection reset", "unexpected eof", "Connection refused", "Broken pipe"]
        if closed.contains(where: { detail.localizedCaseInsensitiveContains($0) }) { return nil }
        return TransportError(.tls, detail: detail)
    }

    /// From the transfer's creation to its first connection attempt or its send on a reused connection (or to
    /// `now`, for one that never started).
    private static func connectionWait(_ t: ulk_transfer, untilNow: Bool = false) -> Duration? {
        if t.started_ns == 0, untilNow {
            var spec = timespec()
            clock_gettime(CLOCK_MONOTONIC, &spec)
            let nanoseconds = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
            return nanoseconds >= t.created_ns ? .nanoseconds(nanoseconds - t.created_ns) : nil
        }
        guard t.started_ns > 0, t.started_ns >= t.created_ns else { return nil }
        return .nanoseconds(t.started_ns - t.created_ns)
    }

    private static func errorText(_ t: ulk_transfer) -> String {
        var buffer = t.error
        let text = withUnsafeBytes(of: &buffer) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text.isEmpty ? "" : " (\(text))"
    }

    private static func response(_ t: ulk_transfer) -> TransportResponse {
        let head = t.head.map { headerFields(UnsafeRawBufferPointer(start: $0, count: t.head_len)) } ?? [:]
        let body = t.body.map { Data(bytes: $0, count: t.body_len) } ?? Data()
        var response = TransportResponse(statusCode: t.status, headerFields: head, body: body)
        response.connectionWait = connectionWait(t)
        return response
    }

    /// The fields of a header block (`Name: value` lines separated by CRLF): names lower-cased, values without the
    /// spaces and tabs around them, the first of a repeated name kept, lines without a colon skipped. Read as bytes:
    /// this runs on the transfer thread for every answer.
    static func headerFields(_ block: UnsafeRawBufferPointer) -> [String: String] {
        let (colon, space, tab, cr) = (UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"))
        var fields: [String: String] = [:]
        for line in block.split(separator: UInt8(ascii: "\n")) {
            guard let split = line.firstIndex(of: colon) else { continue }
            let name = String(decoding: line[..<split], as: UTF8.self).lowercased()
            guard fields[name] == nil else { continue }
            var value = line[(split + 1)...]
            while let first = value.first, first == space || first == tab { value.removeFirst() }
            while let last = value.last, last == space || last == tab || last == cr { value.removeLast() }
            fields[name] = String(decoding: value, as: UTF8.self)
        }
        return fields
    }
}
