import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// The tiled view's regions read in helpers (the helper's side is `DecodeHelperRegionServer`): one request
/// and one reply per tile, the file's descriptor attached each time, on whichever helper is idle. The
/// pixels come back as a decode's do, in a memfd, and must be the size asked for.
extension DecodeHelperPool {
    /// `region` of the TIFF directory at `place`, reduced to `size` (CMYK turned into sRGB; the colour
    /// stage is the caller's).
    func tiffRegion(_ region: PixelRegion, of place: TIFFReader.Directory.Place, reducedTo size: PixelSize,
                    in file: SharedDescriptor) throws(ImageLoadError.Reason) -> PixelBuffer {
        var request = Self.request(TESSERA_REQUEST_TIFF_REGION, region: region)
        request.box_width = Int32(clamping: size.width)
        request.box_height = Int32(clamping: size.height)
        switch place {
        case .top(let index):
            request.directory = UInt64(index)
        case .sub(let offset):
            request.directory = offset
            request.directory_is_sub = 1
        }
        return try pixels(request, file: file, expecting: size)
    }

    /// `region` of the SVG drawn `drawing` pixels wide and high, as `SVGDocument.render` draws it.
    func svgTile(_ region: PixelRegion, ofDrawing drawing: (width: Double, height: Double),
                 in file: SharedDescriptor) throws(ImageLoadError.Reason) -> PixelBuffer {
        var request = Self.request(TESSERA_REQUEST_SVG_TILE, region: region)
        request.drawing_width = drawing.width
        request.drawing_height = drawing.height
        return try pixels(request, file: file, expecting: PixelSize(width: region.width, height: region.height))
    }

    /// `region` of the JPEG decoded at 1/`denominator` of its size (CMYK turned into sRGB; the colour stage
    /// is the caller's, the profile comes with the pixels).
    func jpegRegion(_ region: PixelRegion, denominator: Int, in file: SharedDescriptor) throws(ImageLoadError.Reason) -> PixelBuffer {
        var request = Self.request(TESSERA_REQUEST_JPEG_REGION, region: region)
        request.directory = UInt64(denominator)
        return try pixels(request, file: file, expecting: PixelSize(width: region.width, height: region.height))
    }

    private static func request(_ kind: Int32, region: PixelRegion) -> tessera_decode_request {
        var request = tessera_decode_request()
        request.magic = DecodeHelperWire.requestMagic
        request.kind = UInt8(kind)
        request.region_x = Int32(clamping: region.x)
        request.region_y = Int32(clamping: region.y)
        request.region_width = Int32(clamping: region.width)
        request.region_height = Int32(clamping: region.height)
        return request
    }

    /// Sends `request` with `file` attached on a borrowed helper; a helper that fails, or answers with
    /// pixels of another size than `expected`, is replaced and the failure is this region's.
    private func pixels(_ request: tessera_decode_request, file: SharedDescriptor,
                        expecting expected: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        var request = request
        let name = Array(file.path.utf8)
        request.name_length = UInt32(name.count)
        let (helper, outcome) = try single { helper in
            helper.decode(request, tail: name, descriptor: file.descriptor, timeLimit: configuration.timeLimit)
        }
        switch outcome {
        case .answer(let pixels) where pixels.size == expected:
            giveBack(helper)
            return pixels
        case .answer(let pixels):
            let failure = DecodeHelperFailure.unavailable("the helper's tile is \(pixels.size), not \(expected)")
            replace(helper, failedOn: file.path, failure)
            throw .helperFailed(failure)
        case .refused(let reason):
            giveBack(helper)
            throw reason
        case .failed(let failure):
            replace(helper, failedOn: file.path, failure)
            throw .helperFailed(failure)
        }
    }
}
