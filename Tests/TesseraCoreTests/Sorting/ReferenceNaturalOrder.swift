/// Natural order as a character-by-character walk over both names: the definition `NaturalOrder` had
/// before it was made into keys, kept to check that sorting by keys gives the same order. It copies both
/// names into arrays at each comparison, which is why the product no longer sorts with it.
enum ReferenceNaturalOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool { compare(a, b) < 0 }

    static func compare(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        let x = Array(a)
        let y = Array(b)
        var i = 0
        var j = 0
        var zerosTieBreak = 0
        var caseTieBreak = 0
        while i < x.count, j < y.count {
            if isDigit(x[i]), isDigit(y[j]) {
                let endX = x[i...].firstIndex { !isDigit($0) } ?? x.count
                let endY = y[j...].firstIndex { !isDigit($0) } ?? y.count
                let runX = x[i..<endX]
                let runY = y[j..<endY]
                let significantX = runX.drop { $0 == "0" }
                let significantY = runY.drop { $0 == "0" }
                if significantX.count != significantY.count {
                    return significantX.count < significantY.count ? -1 : 1
                }
                for (dx, dy) in zip(significantX, significantY) where dx != dy {
                    return dx < dy ? -1 : 1
                }
                if zerosTieBreak == 0, runX.count != runY.count {
                    zerosTieBreak = runX.count < runY.count ? -1 : 1
                }
                i = endX
                j = endY
            } else {
                let cx = x[i]
                let cy = y[j]
                if cx != cy {
                    let foldedX = cx.lowercased()
                    let foldedY = cy.lowercased()
                    if foldedX != foldedY { return foldedX < foldedY ? -1 : 1 }
                    if caseTieBreak == 0 { caseTieBreak = String(cx) < String(cy) ? -1 : 1 }
                }
                i += 1
                j += 1
            }
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        if zerosTieBreak != 0 { return zerosTieBreak }
        if caseTieBreak != 0 { return caseTieBreak }
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
    }

    private static func isDigit(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return ascii >= 48 && ascii <= 57
    }
}
