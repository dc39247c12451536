import CoreMetrics

/// The store's metrics, created at once so that every series is exported at zero.
struct ClaimMetrics: Sendable {
    let won: Counter
    let takenOver: Counter
    let joined: Counter
    let failed: Counter
    let fenced: Counter
    let reclaimed: Counter
    let latency: CoreMetrics.Timer

    init(factory: any MetricsFactory) {
        func claims(_ result: String) -> Counter {
            Counter(label: PostgresClaimStore.claimsLabel, dimensions: [("result", result)], factory: factory)
        }
        won = claims("won")
        takenOver = claims("takenOver")
        joined = claims("joined")
        failed = claims("failed")
        fenced = Counter(label: PostgresClaimStore.fencedLabel, dimensions: [], factory: factory)
        reclaimed = Counter(label: PostgresClaimStore.reclaimedLabel, dimensions: [], factory: factory)
        latency = CoreMetrics.Timer(label: PostgresClaimStore.latencyLabel, dimensions: [], factory: factory)
    }
}
