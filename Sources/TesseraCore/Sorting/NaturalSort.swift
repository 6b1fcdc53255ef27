/// File-name order as people expect it ("Finder order"): runs of digits compare by numeric value, so
/// img2 < img10, and letters compare without regard to case.
///
/// Plain string order puts img10 before img2 and every capitalised name before every lower-case one,
/// which scrambles any numbered photo folder. Ties are broken so the order is total and stable across
/// runs (a viewer must not shuffle equal-looking names between launches):
/// 1. primary: digit runs by value, everything else case-insensitively, character by character;
/// 2. then fewer leading zeros first (img2 < img02 < img002);
/// 3. then case-sensitively, upper case first ("IMG" < "img");
/// Identical strings are the only ties left. Only ASCII 0-9 count as digits.
public enum NaturalOrder {
    /// A strict weak ordering for `sorted(by:)`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Three-way comparison: negative if `a` sorts first, 0 if identical, positive if `b` sorts first.
    public static func compare(_ a: String, _ b: String) -> Int {
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
                // Longer without leading zeros is bigger; equal lengths compare digit by digit. No integer
                // conversion, so arbitrarily long runs (timestamps, hashes) cannot overflow.
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
        // One is a prefix of the other (in the primary sense): the shorter first.
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        if zerosTieBreak != 0 { return zerosTieBreak }
        if caseTieBreak != 0 { return caseTieBreak }
        // Defensive only: strings that are not canonically equal (checked above) differ in a step above.
        return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
    }

    private static func isDigit(_ c: Character) -> Bool {
        guard let ascii = c.asciiValue else { return false }
        return ascii >= 48 && ascii <= 57
    }
}

extension Array where Element == String {
    /// The strings in `NaturalOrder`.
    public func naturallySorted() -> [String] {
        sorted(by: NaturalOrder.areInIncreasingOrder)
    }

    /// Sorts in place in `NaturalOrder`.
    public mutating func sortNaturally() {
        sort(by: NaturalOrder.areInIncreasingOrder)
    }
}
