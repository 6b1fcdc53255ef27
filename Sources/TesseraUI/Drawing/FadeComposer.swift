import CPixman
import TesseraCore
import TesseraSDL

/// Mixes one step of an opaque picture's fade-in with the placeholder under it (the cell's background and
/// its icon) on the CPU, with pixman (cairo's compositor, SIMD), into the picture's own texture, which the
/// renderer then draws as a plain copy.
///
/// Why: SDL's software renderer blends a texture at a constant alpha one pixel at a time in plain C, after
/// filling the cell and drawing the icon under it; pixman makes the same mix in one SIMD pass and the
/// renderer then only copies (tools/sdl-blit-costs.c times both ways). Fading frames are the strip's
/// dearest, so they decide its slowest frames on a slow drag. For the software renderer only: a GPU blends
/// for nothing.
///
/// The arithmetic is the blend SDL does: the icon over the background with its own alpha, the picture
/// over both at `alpha` (stepped to a byte, as SDL steps it), so a composed step and a blended one differ
/// by rounding only.
final class FadeComposer {
    /// A placeholder icon premultiplied (pixman composes premultiplied pixels), made once per size.
    final class Icon {
        let size: PixelSize
        private let pixels: UnsafeMutableBufferPointer<UInt32>
        fileprivate let image: OpaquePointer

        /// Nil if pixman cannot wrap the pixels.
        init?(_ straight: PixelBuffer) {
            let count = straight.width * straight.height
            let pixels = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, count))
            straight.bytes.withUnsafeBufferPointer { bytes in
                for i in 0..<count {
                    let a = UInt32(bytes[4 * i + 3])
                    func premultiplied(_ channel: UInt8) -> UInt32 { (UInt32(channel) * a + 127) / 255 }
                    pixels[i] = a << 24 | premultiplied(bytes[4 * i + 2]) << 16
                        | premultiplied(bytes[4 * i + 1]) << 8 | premultiplied(bytes[4 * i])
                }
            }
            guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(straight.width), Int32(straight.height),
                                                       pixels.baseAddress, Int32(straight.width * 4)) else {
                pixels.deallocate()
                return nil
            }
            size = straight.size
            self.pixels = pixels
            self.image = image
        }

        deinit {
            pixman_image_unref(image)
            pixels.deallocate()
        }
    }

    /// Writes the `area` of the picture (picture coordinates) into the same area of `texture`: `background`,
    /// then `icon` at `iconOrigin` (picture coordinates), then the opaque `picture` at `alpha`. Only the
    /// area: a cell entering at the screen's edge shows a sliver of its picture, and SDL blends only what
    /// shows. False if pixman or SDL failed; the texture's pixels are then undefined (a locked texture's are).
    func compose(_ picture: PixelBuffer, area: PixelRect, alpha: Double, over background: RGBA, icon: Icon,
                 at iconOrigin: (x: Int, y: Int), into texture: Texture) -> Bool {
        let width = Int32(area.width), height = Int32(area.height)
        var strength = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(Texture.alphaModulation(alpha)) * 257)
        guard let mask = pixman_image_create_solid_fill(&strength) else { return false }
        defer { pixman_image_unref(mask) }
        return picture.bytes.withUnsafeBytes { bytes -> Bool in
            // pixman only reads a source image, but its constructor takes a mutable pointer.
            let bits = UnsafeMutablePointer(mutating: bytes.bindMemory(to: UInt32.self).baseAddress)
            guard let source = pixman_image_create_bits(PIXMAN_x8r8g8b8, Int32(picture.width), Int32(picture.height),
                                                        bits, Int32(picture.bytesPerRow)) else { return false }
            defer { pixman_image_unref(source) }
            return texture.withLockedPixels(in: area) { target, bytesPerRow in
                // The locked area as an image of its own: its origin is the area's.
                guard let destination = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height,
                                                                 target.assumingMemoryBound(to: UInt32.self),
                                                                 Int32(bytesPerRow)) else { return false }
                defer { pixman_image_unref(destination) }
                var fill = pixman_color_t(red: UInt16(background.r) * 257, green: UInt16(background.g) * 257,
                                          blue: UInt16(background.b) * 257, alpha: 0xffff)
                var whole = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(width), height: UInt16(height))
                pixman_image_fill_rectangles(PIXMAN_OP_SRC, destination, &fill, 1, &whole)
                // pixman clips to the destination: an icon partly outside the area draws its part inside.
                pixman_image_composite32(PIXMAN_OP_OVER, icon.image, nil, destination, 0, 0, 0, 0,
                                         Int32(iconOrigin.x - area.x), Int32(iconOrigin.y - area.y),
                                         Int32(icon.size.width), Int32(icon.size.height))
                pixman_image_composite32(PIXMAN_OP_OVER, source, mask, destination, Int32(area.x), Int32(area.y),
                                         0, 0, 0, 0, width, height)
                return true
            }
        }
    }
}
