import CGIF
import Foundation
import TesseraCore

/// A GIF read record by record with giflib, from memory: the per-file state a GIF decoder holds. Frames
/// are read in order (`nextFrame`), so an animation's later frames can follow the first from the same
/// file; only one line of a frame is held at a time. Not shared between threads.
final class GIFFile {
    /// The bytes read so far; giflib's read callback advances it.
    private final class Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private let gif: UnsafeMutablePointer<GifFileType>
    private let cursor: Cursor
    /// The logical screen frames are drawn on (the first frame's size when the screen says 0 x 0).
    let canvasSize: PixelSize

    /// How many times an animation plays (0: forever), from the NETSCAPE2.0 application extension, known
    /// once the first frame is read: its count of repeats plus the first play, as browsers count; once
    /// when the file has no such extension.
    private(set) var plays = 1

    /// One frame drawn alone on the canvas: B, G, R, A, transparent outside the frame and where its
    /// transparent colour is; with what its graphic control extension says about showing it.
    struct Frame {
        var pixels: PixelBuffer
        /// The part of the canvas the frame covers, clipped to it.
        var area: PixelRegion
        /// The delay as the file gives it (centiseconds, here in time).
        var delay: Duration
        /// What happens to the frame's area before the next frame: giflib's `DISPOSE_*` values.
        var disposal: Int32
        /// Why the frame's image data stops part way, when it does: the rows read are drawn, the rest
        /// is left transparent.
        var damage: String?
    }

    /// `bytes` must outlive the file.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageLoadError.Reason) {
        let cursor = Cursor(bytes)
        self.cursor = cursor
        var error: Int32 = 0
        let opened = DGifOpen(Unmanaged.passUnretained(cursor).toOpaque(), { gif, buffer, count in
            guard let gif, let buffer, count > 0 else { return 0 }
            let cursor = Unmanaged<Cursor>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
            let n = min(Int(count), cursor.bytes.count - cursor.offset)
            guard n > 0 else { return 0 }
            UnsafeMutableRawPointer(buffer).copyMemory(from: cursor.bytes.baseAddress! + cursor.offset, byteCount: n)
            cursor.offset += n
            return Int32(n)
        }, &error)
        guard let opened else { throw Self.reason(error) }
        gif = opened
        canvasSize = PixelSize(width: Int(opened.pointee.SWidth), height: Int(opened.pointee.SHeight))
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
    }

    /// The next frame drawn alone on a transparent canvas (how frames combine is an animation's concern),
    /// or nil after the last one. Parts of a frame outside the canvas are dropped, never allocated.
    func nextFrame() throws(ImageLoadError.Reason) -> Frame? {
        var control = GraphicsControlBlock(DisposalMode: DISPOSAL_UNSPECIFIED, UserInputFlag: false, DelayTime: 0,
                                           TransparentColor: NO_TRANSPARENT_COLOR)
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { throw Self.reason(gif.pointee.Error) }
            switch type {
            case EXTENSION_RECORD_TYPE:
                control = try readExtension() ?? control
            case IMAGE_DESC_RECORD_TYPE:
                let (pixels, area, damage) = try readImage(transparent: control.TransparentColor)
                return Frame(pixels: pixels, area: area, delay: .milliseconds(10 * Int(control.DelayTime)),
                             disposal: control.DisposalMode, damage: damage)
            case TERMINATE_RECORD_TYPE:
                return nil
            default:
                throw .decodeFailed("unexpected GIF record")
            }
        }
    }

    /// Reads an extension; returns it when it is a graphic control extension (which applies to the next
    /// frame), and takes the loop count from a NETSCAPE2.0 (or ANIMEXTS1.0) application extension.
    private func readExtension() throws(ImageLoadError.Reason) -> GraphicsControlBlock? {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw Self.reason(gif.pointee.Error) }
        var control: GraphicsControlBlock?
        if code == GRAPHICS_EXT_FUNC_CODE, let block {
            var read = GraphicsControlBlock()
            if DGifExtensionToGCB(Int(block[0]), block + 1, &read) == GIF_OK { control = read }
        }
        let isLoopExtension = code == APPLICATION_EXT_FUNC_CODE && block.map { Self.isLoopApplication($0) } ?? false
        while block != nil {
            guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw Self.reason(gif.pointee.Error) }
            // The loop sub-block: length 3, id 1, then the repeat count, little-endian; 0 repeats forever.
            if isLoopExtension, let block, block[0] >= 3, block[1] == 1 {
                let repeats = Int(block[2]) | Int(block[3]) << 8
                plays = repeats == 0 ? 0 : repeats + 1
            }
        }
        return control
    }

    private static func isLoopApplication(_ block: UnsafeMutablePointer<GifByteType>) -> Bool {
        guard block[0] == 11 else { return false }
        let name = String(decoding: UnsafeBufferPointer(start: block + 1, count: 11), as: UTF8.self)
        return name == "NETSCAPE2.0" || name == "ANIMEXTS1.0"
    }

    /// The frame's rows on the canvas; when its image data stops after some rows, those rows and why
    /// (nothing read at all is an error).
    private func readImage(transparent: Int32) throws(ImageLoadError.Reason) -> (PixelBuffer, PixelRegion, String?) {
        guard DGifGetImageDesc(gif) == GIF_OK else { throw Self.reason(gif.pointee.Error) }
        let desc = gif.pointee.Image
        let frameWidth = Int(desc.Width), frameHeight = Int(desc.Height)
        let canvas = canvasSize.area > 0 ? canvasSize : PixelSize(width: frameWidth, height: frameHeight)
        let left = canvasSize.area > 0 ? Int(desc.Left) : 0, top = canvasSize.area > 0 ? Int(desc.Top) : 0
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else {
            throw .decodeFailed("GIF frame without a colour table")
        }
        let table = Self.colourTable(colours, count: Int(map.pointee.ColorCount), transparent: transparent)
        defer { table.deallocate() }
        let line = UnsafeMutablePointer<GifPixelType>.allocate(capacity: max(frameWidth, 1))
        defer { line.deallocate() }
        var bytes = [UInt8](repeating: 0, count: canvas.area * 4)
        // The columns of the frame that land on the canvas (`left` is never negative: a GIF stores it unsigned).
        let visible = max(0, min(frameWidth, canvas.width - left))
        // Interlaced frames store every 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
        let passes: [(start: Int, step: Int)] = desc.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        var failure: Int32?
        var rowsRead = 0
        bytes.withUnsafeMutableBytes { canvasBytes in
            for pass in passes {
                for row in stride(from: pass.start, to: frameHeight, by: pass.step) {
                    guard DGifGetLine(gif, line, Int32(frameWidth)) == GIF_OK else { failure = gif.pointee.Error; return }
                    rowsRead += 1
                    let y = top + row
                    guard y >= 0, y < canvas.height, visible > 0, let base = canvasBytes.baseAddress else { continue }
                    // The buffer starts transparent, so the table's 0 for the transparent and out-of-range
                    // indices leaves those pixels as they are.
                    let target = base + (y * canvas.width + left) * 4
                    for x in 0..<visible {
                        target.storeBytes(of: table[Int(line[x])], toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        }
        var damage: String?
        if let failure {
            guard rowsRead > 0 else { throw Self.reason(failure) }
            damage = Self.damage(failure)
        }
        let x0 = min(max(left, 0), canvas.width), y0 = min(max(top, 0), canvas.height)
        let x1 = min(max(left + frameWidth, 0), canvas.width), y1 = min(max(top + frameHeight, 0), canvas.height)
        return (PixelBuffer(width: canvas.width, height: canvas.height, bytes: bytes),
                PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0), damage)
    }

    /// The frame's pixel for each of the 256 possible indices, as a B, G, R, A word in memory order: the
    /// colour opaque, or 0 (transparent) for the transparent index and for indices past the colour map,
    /// which a damaged file can hold. The caller deallocates it.
    private static func colourTable(_ colours: UnsafeMutablePointer<GifColorType>, count: Int,
                                    transparent: Int32) -> UnsafeMutablePointer<UInt32> {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for index in 0..<min(max(count, 0), 256) where index != Int(transparent) {
            let colour = colours[index]
            let word = UInt32(colour.Blue) | UInt32(colour.Green) << 8 | UInt32(colour.Red) << 16 | 0xFF00_0000
            table[index] = word.littleEndian
        }
        return table
    }

    /// Why a frame's image data stops part way: the file ends there, or giflib's words for what it met.
    private static func damage(_ code: Int32) -> String {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON { return endsInImageData }
        return GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    static let endsInImageData = "the file ends inside the image data: it is truncated"

    /// giflib's errors in the loader's words: running out of bytes is a truncated file.
    private static func reason(_ code: Int32) -> ImageLoadError.Reason {
        if code == D_GIF_ERR_READ_FAILED || code == D_GIF_ERR_EOF_TOO_SOON { return .truncated }
        return .decodeFailed(GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)")
    }
}
