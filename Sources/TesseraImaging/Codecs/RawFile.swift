import CRaw
import Foundation
import TesseraCore

/// A camera raw file opened by libraw (the thread-safe build): its identification (sizes, orientation),
/// its embedded preview and its full development. The per-file state a RAW decoder holds; not shared
/// between threads.
final class RawFile {
    private let raw: UnsafeMutablePointer<libraw_data_t>

    /// An embedded preview as the camera stored it.
    enum Preview {
        case jpeg(Data)
        /// 8-bit R, G, B rows.
        case rgb(width: Int, height: Int, bytes: [UInt8])
    }

    /// `bytes` must outlive the file: libraw reads from them as it goes.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageLoadError.Reason) {
        guard let raw = libraw_init(0) else { throw .decodeFailed("out of memory") }
        self.raw = raw
        try Self.check(libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count))
    }

    deinit { libraw_close(raw) }

    /// The developed image's size as shown (after the camera's rotation).
    var uprightSize: PixelSize {
        let sizes = raw.pointee.sizes
        let size = PixelSize(width: Int(sizes.width), height: Int(sizes.height))
        return orientation.orientedSize(size)
    }

    /// How the sensor's rows must be turned to stand upright (libraw's flip: 3 is 180°, 5 a quarter turn
    /// counter-clockwise, 6 clockwise). libraw turns developed images itself; previews need turning.
    var orientation: ImageOrientation {
        switch raw.pointee.sizes.flip {
        case 3: .rotated180
        case 5: .rotated270
        case 6: .rotated90
        default: .up
        }
    }

    /// The embedded preview (the largest libraw finds), or nil when there is none it can hand out.
    func preview() -> Preview? {
        guard libraw_unpack_thumb(raw) == LIBRAW_SUCCESS.rawValue else { return nil }
        var error: Int32 = 0
        guard let image = libraw_dcraw_make_mem_thumb(raw, &error) else { return nil }
        defer { libraw_dcraw_clear_mem(image) }
        let count = Int(image.pointee.data_size)
        return withUnsafePointer(to: &image.pointee.data) { first -> Preview? in
            let bytes = UnsafeRawPointer(first)
            switch image.pointee.type {
            case LIBRAW_IMAGE_JPEG:
                return .jpeg(Data(bytes: bytes, count: count))
            case LIBRAW_IMAGE_BITMAP where image.pointee.colors == 3 && image.pointee.bits == 8:
                let width = Int(image.pointee.width), height = Int(image.pointee.height)
                guard count >= width * height * 3 else { return nil }
                return .rgb(width: width, height: height, bytes: Array(UnsafeRawBufferPointer(start: bytes, count: width * height * 3)))
            default:
                return nil
            }
        }
    }

    /// Develops the sensor data (demosaicing, the camera's white balance, sRGB, 8 bits), upright. With
    /// `halfSize`, each 2 x 2 block of sensor sites becomes one pixel: no demosaicing, a quarter of the
    /// pixels, for targets that need no more.
    func develop(halfSize: Bool) throws(ImageLoadError.Reason) -> PixelBuffer {
        raw.pointee.params.half_size = halfSize ? 1 : 0
        raw.pointee.params.use_camera_wb = 1
        raw.pointee.params.output_color = 1  // sRGB
        raw.pointee.params.output_bps = 8
        try Self.check(libraw_unpack(raw))
        try Self.check(libraw_dcraw_process(raw))
        var error: Int32 = 0
        guard let image = libraw_dcraw_make_mem_image(raw, &error) else { throw Self.reason(error) }
        defer { libraw_dcraw_clear_mem(image) }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.colors == 3, image.pointee.bits == 8,
              Int(image.pointee.data_size) >= width * height * 3 else {
            throw .decodeFailed("libraw developed an unexpected pixel layout")
        }
        let bytes = withUnsafePointer(to: &image.pointee.data) { first in
            PixelConversion.bgra(fromRGB: first, stride: width * 3, width: width, height: height)
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    private static func check(_ code: Int32) throws(ImageLoadError.Reason) {
        guard code != LIBRAW_SUCCESS.rawValue else { return }
        throw reason(code)
    }

    /// libraw's errors in the loader's words: reading past the end of the data is a truncated file.
    private static func reason(_ code: Int32) -> ImageLoadError.Reason {
        switch code {
        case LIBRAW_IO_ERROR.rawValue: .truncated
        case LIBRAW_FILE_UNSUPPORTED.rawValue: .unsupportedFormat("RAW from this camera")
        default: .decodeFailed(String(cString: libraw_strerror(code)))
        }
    }

    /// The developed image's upright size, from identification alone; nil when libraw cannot identify the
    /// file.
    static func uprightSize(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard let file = try? RawFile(bytes) else { return nil }
        let size = file.uprightSize
        return size.area > 0 ? (size.width, size.height) : nil
    }
}
