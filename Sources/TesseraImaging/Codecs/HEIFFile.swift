import CHeif
import Foundation
import TesseraCore

/// A HEIF or AVIF file parsed by libheif (its boxes only: nothing is decoded until `HEIFImage.decode`).
/// The per-file state a decoder holds; each image in it is a `HEIFImage`. Not shared between threads:
/// every decode opens its own.
final class HEIFFile {
    fileprivate let context: OpaquePointer

    /// The widest or tallest image libheif parses: far beyond any pixel limit the loader is given.
    static let sideLimit: Int32 = 1 << 18

    /// libheif registers its decoder plugins (libde265 for HEVC, dav1d or libaom for AV1) once per process.
    private static let initialised: Bool = heif_init(nil).code == heif_error_Ok

    /// Parses `bytes` (copied by libheif, so they need not outlive the file).
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageLoadError.Reason) {
        _ = Self.initialised
        guard let context = heif_context_alloc() else { throw .decodeFailed("out of memory") }
        self.context = context
        // libheif refuses images wider or taller than its own limit (32768) while parsing, in words that
        // read as any other failure. Its limit is raised so that such a size is read and the loader refuses
        // it as too large, like any format, before anything is decoded; libheif still guards its own
        // allocations (a grid whose tiles claim more than the image, say) beyond this.
        heif_context_set_maximum_image_size_limit(context, Self.sideLimit)
        try Self.check(heif_context_read_from_memory(context, bytes.baseAddress, bytes.count, nil))
    }

    deinit { heif_context_free(context) }

    /// The primary image's size as shown, from the boxes alone; nil when they cannot be read.
    static func primarySize(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard let file = try? HEIFFile(bytes), let image = try? file.primaryImage() else { return nil }
        return (image.size.width, image.size.height)
    }

    /// The image the file shows (the first of a collection; the first frame of a sequence).
    func primaryImage() throws(ImageLoadError.Reason) -> HEIFImage {
        var handle: OpaquePointer?
        try Self.check(heif_context_get_primary_image_handle(context, &handle))
        guard let handle else { throw .decodeFailed("HEIF file without a primary image") }
        return HEIFImage(handle, file: self)
    }

    /// libheif's errors in the loader's words: data that ends inside a box or an item is truncated.
    static func check(_ error: heif_error) throws(ImageLoadError.Reason) {
        guard error.code != heif_error_Ok else { return }
        if error.subcode == heif_suberror_End_of_data { throw .truncated }
        let message = error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)"
        if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype {
            throw .unsupportedFormat("HEIF: \(message)")
        }
        throw .decodeFailed(message)
    }
}

/// One image of a `HEIFFile`: the primary image or one of its thumbnails. Its size is as shown, after the
/// file's rotation and mirroring, which decoding applies.
final class HEIFImage {
    private let handle: OpaquePointer
    private let file: HEIFFile  // the context outlives its handles

    fileprivate init(_ handle: OpaquePointer, file: HEIFFile) {
        self.handle = handle
        self.file = file
    }

    deinit { heif_image_handle_release(handle) }

    var size: PixelSize {
        PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
    }

    /// The smaller pictures the file stores for this image (an iPhone's HEIC carries one of 320 px or so).
    func thumbnails() -> [HEIFImage] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id -> HEIFImage? in
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumbnail).code == heif_error_Ok, let thumbnail else { return nil }
            return HEIFImage(thumbnail, file: file)
        }
    }

    /// The ICC profile of a `prof` or `rICC` colour box.
    var iccProfile: [UInt8]? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok else { return nil }
        return profile
    }

    /// The colour space of an `nclx` colour box that is not sRGB (phones write Display P3 this way); nil
    /// for sRGB, unspecified values or no box.
    var colourCodePoints: ColourCodePoints? {
        guard heif_image_handle_get_color_profile_type(handle) == heif_color_profile_type_nclx else { return nil }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        guard heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok, let nclx else { return nil }
        defer { heif_nclx_color_profile_free(nclx) }
        let points = ColourCodePoints(primaries: UInt16(nclx.pointee.color_primaries.rawValue),
                                      transfer: UInt16(nclx.pointee.transfer_characteristics.rawValue),
                                      matrix: UInt16(nclx.pointee.matrix_coefficients.rawValue),
                                      fullRange: nclx.pointee.full_range_flag != 0)
        // H.273: primaries 1 (BT.709, sRGB's) or 2 (unspecified), transfer 13 (sRGB) or 2.
        let sRGB = [1, 2].contains(points.primaries) && [13, 2].contains(points.transfer)
        return sRGB ? nil : points
    }

    /// Decodes to 8-bit B, G, R, A (higher bit depths rounded down to 8 by libheif), with the rotation and
    /// mirroring the file asks for applied.
    func decode() throws(ImageLoadError.Reason) -> PixelBuffer {
        guard let options = heif_decoding_options_alloc() else { throw .decodeFailed("out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        // A file cut short is an error, not a picture with a grey lower half.
        options.pointee.strict_decoding = 1
        var image: OpaquePointer?
        try HEIFFile.check(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options))
        guard let image else { throw .decodeFailed("libheif returned no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .decodeFailed("libheif returned no pixels")
        }
        return PixelBuffer(width: width, height: height,
                           bytes: PixelConversion.bgra(fromRGBA: plane, stride: Int(stride), width: width, height: height))
    }
}
