import Foundation
import Testing
@testable import UniversalLinkKit

/// The gate: nothing passes once closing began, and closing waits for what passed before.
struct AdmissionGateTests {
    @Test func aBodyPassesWhileOpenAndNothingAfterClosing() async {
        let gate = AdmissionGate()
        #expect(gate.pass { 1 } == 1)
        await gate.close()
        #expect(!gate.isOpen)
        #expect(gate.pass { 2 } == nil)
    }

    @Test func closingWaitsForABodyThatPassedBefore() async {
        let gate = AdmissionGate()
        let entered = Waiter<Void>()
        let release = DispatchSemaphore(value: 0)
        let left = Waiter<Void>()
        // A thread of its own holds the body inside the gate (not a thread of the concurrency pool).
        Thread {
            _ = gate.pass {
                entered.resume(returning: ())
                release.wait()
            }
            left.resume(returning: ())
        }.start()
        await entered.value
        let drained = gate.beginClosing()
        #expect(gate.pass { 2 } == nil)
        #expect(drained != nil)
        #expect(drained?.hasEnded == false)
        release.signal()
        await drained?.value
        await left.value
    }

    @Test func closingAnIdleGateNeedsNoWait() {
        #expect(AdmissionGate().beginClosing() == nil)
    }
}
