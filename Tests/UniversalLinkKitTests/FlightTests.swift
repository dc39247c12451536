import Foundation
import Testing
@testable import UniversalLinkKit

/// A flight is finished once, and its task is cancelled whenever it is attached.
struct FlightTests {
    func flight() -> Flight {
        let url = URL("https://news.example.com/pub/acc?_ri_=X")
        return Flight(identity: ClickIdentity(url), url: url, startedAt: .now, deadline: .now + .seconds(10))
    }

    @Test func onlyTheFirstFinisherWins() {
        let flight = flight()
        #expect(flight.finish().won)
        #expect(!flight.finish().won)
    }

    @Test func aCancelBeforeTheTaskIsAttachedCancelsItOnAttach() async {
        let flight = flight()
        flight.cancel()
        let task = Task<Void, Never> { try? await Task.sleep(for: .seconds(3600)) }
        flight.attach(task, deadline: ManualClock().linkClock.scheduler.schedule(at: .now + .seconds(3600)) {})
        await task.value  // returns only because the sleep was cancelled
        #expect(task.isCancelled)
    }

    @Test func theDeadlineTicketGoesToTheFinisher() {
        let flight = flight()
        let ticket = ManualClock().linkClock.scheduler.schedule(at: .now + .seconds(1)) {}
        flight.attach(Task {}, deadline: ticket)
        #expect(flight.finish().deadlineTicket == ticket)
    }

    /// A finished flight is remembered for the duplicate window: it must not keep its ended task (and the task's
    /// allocation) alive that long.
    @Test func aFlightLetsGoOfItsTaskOnceTheTaskHasEnded() {
        let flight = flight()
        let scheduler = ManualClock().linkClock.scheduler
        flight.attach(Task {}, deadline: scheduler.schedule(at: .now + .seconds(1)) {})
        #expect(flight.holdsTask)
        flight.taskEnded()
        #expect(!flight.holdsTask)
    }

    @Test func aTaskThatEndedBeforeItWasAttachedIsNotKept() {
        let flight = flight()
        flight.taskEnded()
        flight.attach(Task {}, deadline: ManualClock().linkClock.scheduler.schedule(at: .now + .seconds(1)) {})
        #expect(!flight.holdsTask)
    }
}
