import Testing
@testable import UniversalLinkKit

/// When the delivery thread polls for the next link before it sleeps, as a value on given instants.
struct DeliveryLingerTests {
    let start = ContinuousClock.now

    @Test func aNewBroadcasterLingersAndAZeroWindowNever() {
        #expect(DeliveryLinger().lingers)
        #expect(DeliveryLinger().window == .microseconds(50))
        #expect(!DeliveryLinger(window: .zero).lingers)
    }

    @Test func aLingerThatCaughtALinkKeepsLingering() {
        var linger = DeliveryLinger()
        linger.lingered(caught: true)
        linger.sleeps(at: start)
        linger.woke(at: start + .seconds(1))
        #expect(linger.lingers)
    }

    /// Sparse links: after one linger that caught nothing, the thread sleeps at once, and links that come later than
    /// a linger would have waited do not bring the lingering back.
    @Test func aMissStopsLingeringForLinksALingerWouldHaveMissed() {
        var linger = DeliveryLinger(window: .microseconds(20))
        linger.lingered(caught: false)
        #expect(!linger.lingers)
        linger.sleeps(at: start)
        linger.woke(at: start + .microseconds(300))
        #expect(!linger.lingers)
        linger.sleeps(at: start + .microseconds(400))
        linger.woke(at: start + .microseconds(420))
        #expect(!linger.lingers)
    }

    /// The pace picks up: a link that comes within one window of the thread going to sleep is one a linger would
    /// have caught.
    @Test func aWakeUpWithinOneWindowOfSleepingBringsTheLingeringBack() {
        var linger = DeliveryLinger(window: .microseconds(20))
        linger.lingered(caught: false)
        linger.sleeps(at: start)
        linger.woke(at: start + .microseconds(300))
        linger.sleeps(at: start + .microseconds(400))
        linger.woke(at: start + .microseconds(419))
        #expect(linger.lingers)
    }

    /// At a pace between one and two windows, every linger misses: the wake-up soon after the sleep that followed a
    /// miss does not count, or the thread would poll in vain for every link.
    @Test func aWakeUpSoonAfterTheSleepThatFollowedAMissDoesNotCount() {
        var linger = DeliveryLinger(window: .microseconds(20))
        linger.lingered(caught: false)
        linger.sleeps(at: start + .microseconds(20))
        linger.woke(at: start + .microseconds(30))
        #expect(!linger.lingers)
        // A second wake-up with no sleep in between (a drain a resume scheduled) measures nothing either.
        linger.woke(at: start + .microseconds(31))
        #expect(!linger.lingers)
    }
}
