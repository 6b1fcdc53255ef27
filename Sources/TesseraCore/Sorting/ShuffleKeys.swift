/// The random order's keys: each item's path hashed with a seed chosen once per run (FNV-1a, then
/// SplitMix64's mixing), so the shuffle stays put while the run lasts, a file that appears gets its place
/// in it, and a test that fixes the seed gets the same order every time.
package struct ShuffleKeys: Sendable {
    package let seed: UInt64
    private var keys: [Int64] = []

    package init(seed: UInt64) { self.seed = seed }

    /// Item `id`'s key; nil until `add` gave it one.
    package func key(of id: UInt32) -> Int64? { Int(id) < keys.count ? keys[Int(id)] : nil }

    /// Gives every item of `table` from `keys.count` on its key.
    package mutating func add(_ table: ItemTable) {
        guard keys.count < table.count else { return }
        keys.reserveCapacity(table.count)
        for id in UInt32(keys.count)..<UInt32(table.count) {
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
            func mix(_ byte: UInt8) {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            for byte in table.prefixes[Int(table.prefix(of: id))].utf8 { mix(byte) }
            table.names.withName(Int(id)) { for byte in $0 { mix(byte) } }
            hash = (hash ^ (hash >> 30)) &* 0xBF58_476D_1CE4_E5B9
            hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
            keys.append(Int64(bitPattern: hash ^ (hash >> 31)))
        }
    }
}
