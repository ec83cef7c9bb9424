import Foundation

/// SplitMix64: a tiny generator whose whole state is one seed, so a fuzzing run is replayed
/// exactly from the seed it printed (the system generator cannot be seeded).
package struct FuzzRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    /// A stream of its own per target, so adding a target does not change another's inputs.
    package init(seed: UInt64, stream name: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        state = seed ^ hash
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    package mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
    package mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }
    /// True `percent` times in a hundred (the property tests' generators).
    package mutating func percent(_ percent: Int) -> Bool { below(100) < percent }
    package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
