/// A set of item indices, below a known count, that empties in constant time and never allocates once
/// sized: each member carries the number of the round it was marked in, and emptying starts a new round.
///
/// For bookkeeping that starts over every frame. `AdaptiveStrategy` marks each item it lists so that it
/// is listed once; a `Set<Int>` made afresh each frame spent more on being made (its generic metadata,
/// storage and hashing) than the strategy spent deciding what to load.
struct IndexMarks {
    private var rounds: [UInt32] = []
    private var round: UInt32 = 0

    /// Empties the set and makes room for indices below `count`.
    mutating func removeAll(count: Int) {
        round &+= 1
        if rounds.count != count || round == 0 {
            rounds = Array(repeating: 0, count: count)
            round = 1
        }
    }

    /// Marks `index` (which must be below the count given to `removeAll`); false if it already was.
    mutating func insert(_ index: Int) -> Bool {
        guard rounds[index] != round else { return false }
        rounds[index] = round
        return true
    }
}
