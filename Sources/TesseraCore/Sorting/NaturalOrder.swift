/// File-name order as people expect it ("Finder order"): runs of digits compare by numeric value, so
/// img2 < img10, and letters compare without regard to case.
///
/// Plain string order puts img10 before img2 and every capitalised name before every lower-case one,
/// which scrambles any numbered photo folder. Ties are broken so the order is total and stable across
/// runs (a viewer must not shuffle equal-looking names between launches):
/// 1. primary: digit runs by value, everything else case-insensitively, character by character (a
///    number sorts among other characters where "0" does);
/// 2. then fewer leading zeros first (img2 < img02 < img002);
/// 3. then case-sensitively, upper case first ("IMG" < "img");
/// 4. then by Unicode scalars, for names that are canonically equal but spelt differently.
/// Only ASCII 0-9 count as digits. `NaturalSortKey` holds the definition, as bytes; sorting many names
/// goes through `NaturalSorter`, which makes each key once.
package enum NaturalOrder {
    /// A strict weak ordering for `sorted(by:)`.
    package static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        compare(a, b) < 0
    }

    /// Three-way comparison: negative if `a` sorts first, 0 if the strings are equal (canonically, as
    /// Swift compares them), positive if `b` sorts first.
    package static func compare(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        let x = NaturalSortKey.full(a), y = NaturalSortKey.full(b)
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    }
}

extension Array where Element == String {
    /// The strings in `NaturalOrder`.
    package func naturallySorted() -> [String] {
        NaturalSorter.order(of: NameList(self)).map { self[Int($0)] }
    }

    /// Sorts in place in `NaturalOrder`.
    package mutating func sortNaturally() {
        self = naturallySorted()
    }
}
