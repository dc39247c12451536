/// When the broadcaster's delivery thread, having emptied its queue, polls for the next link for a moment before it
/// goes to sleep.
///
/// Waking a sleeping thread costs the waker a system call and, on a virtual machine, an interrupt to an idle
/// processor: about 2-3 µs on the development machine, most of what a post costs the resolution that makes it. When
/// links come close together (a campaign's clicks, a server resolving a burst), the next one arrives within
/// microseconds: a thread that polls for ``window`` is there to take it, and nobody pays for a wake-up. When links are
/// sparse, polling only burns a processor, so after a linger that caught nothing the thread sleeps at once from then
/// on, until it is woken within one window of going to sleep (a linger would have caught that link): the pace
/// picked up. A wake-up soon after the sleep that followed a miss does not count: at a pace between one and two
/// windows, lingering would miss every time.
///
/// So a steady pace costs at most one window of one thread's time, and an uneven one at most a window each time a
/// short gap follows a long one. Nothing else depends on it: delivery order, holding while paused and `flush()` are
/// the same whether the thread lingers or sleeps.
struct DeliveryLinger: Sendable {
    /// How long the thread polls before it sleeps; zero never lingers.
    let window: Duration
    /// Whether the last linger caught something, or the pace picked up since.
    private var isWorthIt = true
    /// Whether the last linger caught nothing, until the thread sleeps.
    private var missed = false
    /// When the thread last went to sleep without a missed linger before, until it is woken.
    private var sleptAt: ContinuousClock.Instant?

    /// The default window: about three times the manager's own work on a link answered at once (13-15 µs on the
    /// development machine), so a stream of links resolved one after another keeps the thread awake through an
    /// occasional slower link (a table growing, a preemption). 20 µs missed often enough to cost a point of the
    /// manager's share of a request.
    static let defaultWindow: Duration = .microseconds(50)

    /// - Parameter window: How long the thread polls; zero never lingers.
    init(window: Duration = DeliveryLinger.defaultWindow) {
        self.window = window
    }

    /// Whether a thread that has just emptied the queue lingers.
    var lingers: Bool { isWorthIt && window > .zero }

    /// A linger ended, with a post or a resume (`caught`) or with its window.
    mutating func lingered(caught: Bool) {
        guard !caught else { return }
        isWorthIt = false
        missed = true
    }

    /// The thread goes to sleep at `now`.
    mutating func sleeps(at now: ContinuousClock.Instant) {
        sleptAt = missed ? nil : now
        missed = false
    }

    /// A link (or a resume) at `now` woke the thread: lingering is worth it again when a linger would have caught
    /// it.
    mutating func woke(at now: ContinuousClock.Instant) {
        if let sleptAt, now - sleptAt < window { isWorthIt = true }
        sleptAt = nil
    }
}
