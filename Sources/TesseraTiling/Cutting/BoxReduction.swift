import TesseraCore

/// Halves rows of B, G, R, A pixels with a 2x2 box filter, rounding as `vips dzsave` does:
/// each channel is (a + b + c + d + 2) >> 2, and an odd last column or row is averaged with itself.
///
/// The inner loop works on 64-bit words: two source pixels of each row are loaded at once, their even
/// bytes (B, R) and odd bytes (G, A) spread into 16-bit lanes, summed, rounded and packed back, so one
/// destination pixel costs a dozen integer operations and no per-channel branches.
enum BoxReduction {
    /// Writes `(sourceWidth + 1) / 2` pixels to `destination` from the source rows `upper` and `lower`
    /// (the same row twice for an odd last row).
    static func halveRows(_ upper: UnsafeRawPointer, _ lower: UnsafeRawPointer, sourceWidth: Int,
                          into destination: UnsafeMutableRawPointer) {
        let lanes: UInt64 = 0x00FF_00FF_00FF_00FF
        let rounding: UInt64 = 0x0002_0002
        let pairs = sourceWidth / 2
        var x = 0
        while x < pairs {
            let p = upper.loadUnaligned(fromByteOffset: x &* 8, as: UInt64.self)
            let q = lower.loadUnaligned(fromByteOffset: x &* 8, as: UInt64.self)
            let even = (p & lanes) &+ (q & lanes)
            let odd = ((p >> 8) & lanes) &+ ((q >> 8) & lanes)
            // Left pixel's lanes plus right pixel's lanes: four samples per 16-bit lane, at most 1022.
            let evenSum = (even & 0xFFFF_FFFF) &+ (even >> 32) &+ rounding
            let oddSum = (odd & 0xFFFF_FFFF) &+ (odd >> 32) &+ rounding
            let packed = ((evenSum >> 2) & 0x00FF_00FF) | (((oddSum >> 2) & 0x00FF_00FF) << 8)
            destination.storeBytes(of: UInt32(truncatingIfNeeded: packed), toByteOffset: x &* 4, as: UInt32.self)
            x &+= 1
        }
        if sourceWidth & 1 == 1 {
            // The last column is its own neighbour: 2 * (a + c), rounded.
            let lane32: UInt32 = 0x00FF_00FF
            let p = upper.loadUnaligned(fromByteOffset: pairs &* 8, as: UInt32.self)
            let q = lower.loadUnaligned(fromByteOffset: pairs &* 8, as: UInt32.self)
            let even = (((p & lane32) &+ (q & lane32)) &<< 1) &+ 0x0002_0002
            let odd = ((((p >> 8) & lane32) &+ ((q >> 8) & lane32)) &<< 1) &+ 0x0002_0002
            let packed = ((even >> 2) & lane32) | (((odd >> 2) & lane32) << 8)
            destination.storeBytes(of: packed, toByteOffset: pairs &* 4, as: UInt32.self)
        }
    }
}
