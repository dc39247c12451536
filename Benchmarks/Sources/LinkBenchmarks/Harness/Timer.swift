import Foundation

/// Times a synchronous operation: warm-up, then several batches, each long enough to dwarf the clock's cost.
///
/// The machine is shared and noisy, so the median batch is reported (one preempted batch does not move it) with the
/// interquartile spread; peers are measured in the same process, one after the other, so ratios stay meaningful
/// even when absolute times drift.
enum Timer {
    /// How many timed batches each measurement takes.
    nonisolated(unsafe) static var batches = 11
    /// How long one batch should last.
    nonisolated(unsafe) static var batchDuration: Duration = .milliseconds(10)

    /// Nanoseconds per call of `body` (median over the batches) and the spread.
    static func measure(_ body: () -> Void) -> (ns: Double, spread: Double) {
        let clock = ContinuousClock()
        // Warm-up, and calibration: how many calls fill one batch.
        var iterations = 1
        while true {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            if elapsed >= batchDuration / 4 || iterations >= 1 << 24 {
                let perCall = max(Self.nanoseconds(elapsed) / Double(iterations), 1)
                iterations = max(1, Int(Self.nanoseconds(batchDuration) / perCall))
                break
            }
            iterations *= 2
        }
        var samples: [Double] = []
        samples.reserveCapacity(batches)
        for _ in 0..<batches {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            samples.append(Self.nanoseconds(elapsed) / Double(iterations))
        }
        return summarize(samples)
    }

    /// Times several subjects on the same case in rounds: each round times one batch of every subject, one after
    /// the other, so a burst of load from elsewhere hits all of them alike. Returns per subject the median, the
    /// spread and the median over the rounds of its time divided by the first subject's time in the same round.
    static func measureInterleaved(_ bodies: [() -> Void]) -> [(ns: Double, spread: Double, ratio: Double)] {
        let clock = ContinuousClock()
        let iterations = bodies.map { body -> Int in
            var iterations = 1
            while true {
                let elapsed = clock.measure { for _ in 0..<iterations { body() } }
                if elapsed >= batchDuration / 4 || iterations >= 1 << 24 {
                    let perCall = max(nanoseconds(elapsed) / Double(iterations), 1)
                    return max(1, Int(nanoseconds(batchDuration) / perCall))
                }
                iterations *= 2
            }
        }
        var samples = Array(repeating: [Double](), count: bodies.count)
        for _ in 0..<batches {
            for (index, body) in bodies.enumerated() {
                let count = iterations[index]
                let elapsed = clock.measure { for _ in 0..<count { body() } }
                samples[index].append(nanoseconds(elapsed) / Double(count))
            }
        }
        return samples.map { subject in
            let (ns, spread) = summarize(subject)
            let ratios = zip(subject, samples[0]).map { $0 / $1 }
            return (ns, spread, percentile(ratios.sorted(), 0.5))
        }
    }

    /// Like ``measure(_:)``, but what `body` returns is kept alive until its batch has been timed: a cold
    /// process never tears down the router it just built, so deallocation is not part of the cost.
    static func measureKeeping<T>(_ body: () -> T) -> (ns: Double, spread: Double) {
        var kept: [T] = []
        kept.reserveCapacity(1 << 16)
        return measure {
            if kept.count == kept.capacity { kept.removeAll(keepingCapacity: true) }
            kept.append(body())
        }
    }

    /// Median and relative interquartile range of `samples`.
    static func summarize(_ samples: [Double]) -> (ns: Double, spread: Double) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return (.nan, .nan) }
        let median = percentile(sorted, 0.5)
        let spread = (percentile(sorted, 0.75) - percentile(sorted, 0.25)) / median
        return (median, spread)
    }

    /// The `p` percentile of sorted values, interpolated between neighbours.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        guard sorted.count > 1 else { return sorted.first ?? .nan }
        let position = p * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        let fraction = position - Double(low)
        return sorted[low] + (sorted[high] - sorted[low]) * fraction
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Keeps the optimiser from discarding a result.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
