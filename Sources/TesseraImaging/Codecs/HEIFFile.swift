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

    /// How many images the file holds at its top level (a collection's; thumbnails and auxiliary images
    /// belong to theirs).
    var topLevelImageCount: Int { Int(heif_context_get_number_of_top_level_images(context)) }

    /// Top-level image `index` (counted from 0): the primary image first, as the file is shown, then the
    /// others in the file's order.
    func topLevelImage(_ index: Int) throws(ImageLoadError.Reason) -> HEIFImage {
        let count = topLevelImageCount
        guard index >= 0, index < count else { throw .decodeFailed("the file has no image \(index + 1)") }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_context_get_list_of_top_level_image_IDs(context, &ids, Int32(count)))
        var primary: heif_item_id = 0
        let listedIDs = Array(ids.prefix(listed))
        let ordered = heif_context_get_primary_image_ID(context, &primary).code == heif_error_Ok
            ? [primary] + listedIDs.filter { $0 != primary } : listedIDs
        guard index < ordered.count else { throw .decodeFailed("the file has no image \(index + 1)") }
        var handle: OpaquePointer?
        try Self.check(heif_context_get_image_handle(context, ordered[index], &handle))
        guard let handle else { throw .decodeFailed("the file has no image \(index + 1)") }
        return HEIFImage(handle, file: self)
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

    /// The types of the image's auxiliary images (alpha, depth, gain maps), as their URNs.
    var auxiliaryTypes: [String] {
        let filter = Int32(LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH)
        let count = Int(heif_image_handle_get_number_of_auxiliary_images(handle, filter))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_auxiliary_image_IDs(handle, filter, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id -> String? in
            var auxiliary: OpaquePointer?
            guard heif_image_handle_get_auxiliary_image_handle(handle, id, &auxiliary).code == heif_error_Ok,
                  let auxiliary else { return nil }
            defer { heif_image_handle_release(auxiliary) }
            var type: UnsafePointer<CChar>?
            guard heif_image_handle_get_auxiliary_type(auxiliary, &type).code == heif_error_Ok, let text = type else { return nil }
            defer { heif_image_handle_free_auxiliary_types(auxiliary, &type) }
            return String(cString: text)
        }
    }

    /// Whether the image has a colour box of its own (a thumbnail without one shares its primary's).
    var hasColourBox: Bool {
        heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_not_present
    }

    /// The colour space of an `nclx` colour box that is not sRGB (phones write Display P3 this way, HDR
    /// photos BT.2020 with PQ or HLG); nil for sRGB, unspecified values or no box.
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

    /// Decodes to 8-bit B, G, R, A, with the rotation and mirroring the file asks for applied. Pixels whose
    /// colour `points` declare an HDR transfer are decoded at their full depth and rendered for the screen
    /// (`HDRRendering`): they come out sRGB, without code points, and only as many as `target` needs
    /// (reduced by a power of two, never below it). Other depths above 8 are rounded down to 8 by libheif.
    func decode(colour points: ColourCodePoints?, target: PixelSize? = nil) throws(ImageLoadError.Reason) -> PixelBuffer {
        let fullDepth = HDRRendering.isHDR(points) && heif_image_handle_get_luma_bits_per_pixel(handle) > 8
        let image = try decodedImage(chroma: fullDepth ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA)
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .decodeFailed("libheif returned no pixels")
        }
        // libheif hands premultiplied alpha (an AVIF's `prem` reference) on as it is stored.
        let premultiplied = heif_image_is_premultiplied_alpha(image) != 0
        guard let points, HDRRendering.isHDR(points) else {
            var bytes = PixelConversion.bgra(fromRGBA: plane, stride: Int(stride), width: width, height: height)
            if premultiplied { bytes.withUnsafeMutableBufferPointer { PixelConversion.unpremultiply($0) } }
            return PixelBuffer(width: width, height: height, bytes: bytes)
        }
        var contentPeak: Float?
        if heif_image_has_content_light_level(image) != 0 {
            var level = heif_content_light_level()
            heif_image_get_content_light_level(image, &level)
            if level.max_content_light_level > 0 { contentPeak = Float(level.max_content_light_level) }
        }
        let size = PixelSize(width: width, height: height)
        let factor = HDRRendering.reduction(of: size, covering: target)
        if fullDepth {
            let bits = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
            guard let rendering = HDRRendering(points: points, bits: bits, contentPeak: contentPeak) else {
                throw .decodeFailed("HDR colour that cannot be shown (H.273 primaries \(points.primaries))")
            }
            let samples = UnsafeRawPointer(plane).assumingMemoryBound(to: UInt16.self)
            guard premultiplied else {
                return rendering.render(samples, size: size, stride: Int(stride) / 2, channels: 4, reducedBy: factor)
            }
            var straight = (0..<height).flatMap { y in UnsafeBufferPointer(start: samples + y * Int(stride) / 2, count: width * 4) }
            PixelConversion.unpremultiply(&straight, maximum: rendering.maxSample)
            return rendering.render(straight, size: size, stride: width * 4, channels: 4, reducedBy: factor)
        }
        // An 8-bit HDR picture: its samples widened, rendered the same way.
        guard let rendering = HDRRendering(points: points, bits: 8, contentPeak: contentPeak) else {
            throw .decodeFailed("HDR colour that cannot be shown (H.273 primaries \(points.primaries))")
        }
        var wide = [UInt16](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = plane + y * Int(stride)
            for i in 0..<(width * 4) { wide[y * width * 4 + i] = UInt16(row[i]) }
        }
        if premultiplied { PixelConversion.unpremultiply(&wide, maximum: 255) }
        return rendering.render(wide, size: size, stride: width * 4, channels: 4, reducedBy: factor)
    }

    private func decodedImage(chroma: heif_chroma) throws(ImageLoadError.Reason) -> OpaquePointer {
        guard let options = heif_decoding_options_alloc() else { throw .decodeFailed("out of memory") }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = chroma == heif_chroma_interleaved_RGBA ? 1 : 0
        // A file cut short is an error, not a picture with a grey lower half.
        options.pointee.strict_decoding = 1
        var image: OpaquePointer?
        try HEIFFile.check(heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options))
        guard let image else { throw .decodeFailed("libheif returned no image") }
        return image
    }
}
