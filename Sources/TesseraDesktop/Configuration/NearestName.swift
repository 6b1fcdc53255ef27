/// The known name a mistyped one was most likely meant to be, for "did you mean" in messages.
enum NearestName {
    /// The closest of `names` to `typed` by edit distance, if it is close enough to be a slip: at most two
    /// edits, or a third of the name's length for long names. Ties go to the first in `names`.
    static func suggestion(for typed: String, among names: [String]) -> String? {
        let typed = typed.lowercased()
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(typed, name.lowercased())
            if distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        guard let best, best.distance <= max(2, typed.count / 3) else { return nil }
        return best.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &row)
        }
        return previous[b.count]
    }
}
