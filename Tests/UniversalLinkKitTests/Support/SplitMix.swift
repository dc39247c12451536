import Foundation

/// The seeded generator of this target's property tests and soak, so that a failing run can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    /// `ULK_PROPERTY_SEED` when set (to replay a failing property test), else `seed`.
    static func propertySeed(_ seed: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["ULK_PROPERTY_SEED"].flatMap { UInt64($0) } ?? seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
