#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// The tiled view's regions on the decode helper's side (the viewer's side is `DecodeHelperPool`'s
/// `tiffRegion`, `svgTile` and `jpegRegion`): a tiled TIFF's region read by `TIFFRegionReader`, an SVG's tile
/// drawn by `SVGDocument`, a JPEG's part decoded by `JPEGRegionReader`: the code the view runs with
/// --decode-in-process.
///
/// A view asks for many tiles of one file, and any helper of the pool may get any of them, so the last
/// few files' readers and parsed documents are kept, keyed by the file's identity (device, inode, size and
/// modification time, from fstat of the descriptor each request attaches): a tile does not parse the file
/// again, and a file changed in place is parsed anew. A reader that failed is dropped, as in process.
struct DecodeHelperRegionServer {
    typealias Hook = DecodeHelperService.RegionHook

    /// Files kept parsed: the one on screen and the one before it (a view reopened, a file flipped back to).
    static let filesKept = 2

    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        var version: FileVersion
    }

    private var readers: [(Identity, TIFFRegionReader)] = []
    private var documents: [(Identity, SVGDocument)] = []
    private let hook: Hook?

    init(hook: Hook?) { self.hook = hook }

    /// The region a `TESSERA_REQUEST_TIFF_REGION` asks of the TIFF on `fd` (taken over).
    mutating func tiffRegion(_ request: tessera_decode_request, fd: Int32, name: String) throws(ImageLoadError.Reason) -> PixelBuffer {
        let (file, identity) = try open(fd, name: name)
        let tail = hook != nil ? Self.tail(of: file) : Data()
        let region = try Self.region(of: request)
        guard let size = DecodeHelperWire.box(of: request) else { throw .decodeFailed("no size asked") }
        let place: TIFFReader.Directory.Place = request.directory_is_sub != 0
            ? .sub(request.directory) : .top(Int(clamping: request.directory))
        let reader: TIFFRegionReader
        if let index = readers.firstIndex(where: { $0.0 == identity }) {
            reader = readers.remove(at: index).1
        } else {
            reader = try TIFFRegionReader(file: TIFFReader.TIFFFile(file))
        }
        hook?(tail, region)
        let pixels = try reader.read(region, of: place, reducedTo: size)
        keep(reader, identity, in: &readers)
        return pixels
    }

    /// The tile a `TESSERA_REQUEST_SVG_TILE` asks of the SVG on `fd` (taken over).
    mutating func svgTile(_ request: tessera_decode_request, fd: Int32, name: String) throws(ImageLoadError.Reason) -> PixelBuffer {
        let (file, identity) = try open(fd, name: name)
        let region = try Self.region(of: request)
        let drawing = (width: request.drawing_width, height: request.drawing_height)
        guard drawing.width.isFinite, drawing.height.isFinite, drawing.width > 0, drawing.height > 0 else {
            throw .decodeFailed("no drawing size asked")
        }
        let document: SVGDocument
        if let index = documents.firstIndex(where: { $0.0 == identity }) {
            document = documents.remove(at: index).1
        } else {
            let bytes: Data
            do { bytes = try file.readAll() } catch { throw ImageLoadError.Reason(error) }
            do {
                document = try bytes.withUnsafeBytes { try SVGDocument($0) }
            } catch let reason as ImageLoadError.Reason {
                throw reason
            } catch {
                throw .decodeFailed(String(describing: error))
            }
        }
        if let hook { hook(Self.tail(of: file), region) }
        let pixels = try document.render(region, ofDrawing: drawing)
        keep(document, identity, in: &documents)
        return pixels
    }

    /// The part a `TESSERA_REQUEST_JPEG_REGION` asks of the JPEG on `fd` (taken over). Nothing is kept
    /// between parts: libjpeg reads the header again for each, which costs little beside the part.
    func jpegRegion(_ request: tessera_decode_request, fd: Int32, name: String) throws(ImageLoadError.Reason) -> PixelBuffer {
        let (file, _) = try open(fd, name: name)
        let region = try Self.region(of: request)
        if let hook { hook(Self.tail(of: file), region) }
        let shared = SharedDescriptor(file)
        return try JPEGRegionReader.read(fd: shared.descriptor, name: name, denominator: Int(clamping: request.directory),
                                         region: region)
    }

    private func keep<T>(_ value: T, _ identity: Identity, in list: inout [(Identity, T)]) {
        list.append((identity, value))
        if list.count > Self.filesKept { list.removeFirst(list.count - Self.filesKept) }
    }

    /// The file on `fd` and its identity; refuses what the loader refuses (not a regular file, empty).
    private func open(_ fd: Int32, name: String) throws(ImageLoadError.Reason) -> (ImageFile, Identity) {
        guard fd >= 0 else { throw .unreadable("no descriptor") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = POSIXFiles.errorText(errno)
            close(fd)
            throw .unreadable(why)
        }
        let file: ImageFile
        do { file = try ImageFile(descriptor: fd, path: name) } catch { throw ImageLoadError.Reason(error) }
        return (file, Identity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino), version: FileVersion(st)))
    }

    private static func region(of request: tessera_decode_request) throws(ImageLoadError.Reason) -> PixelRegion {
        guard request.region_x >= 0, request.region_y >= 0, request.region_width > 0, request.region_height > 0 else {
            throw .decodeFailed("no region asked")
        }
        return PixelRegion(x: Int(request.region_x), y: Int(request.region_y),
                           width: Int(request.region_width), height: Int(request.region_height))
    }

    /// The file's last bytes, for the tests' hook.
    private static func tail(of file: ImageFile) -> Data {
        let count = min(32, file.size)
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { (try? file.read(into: $0.baseAddress!, from: file.size - count, to: file.size)) ?? 0 }
        return Data(bytes.prefix(max(0, got - (file.size - count))))
    }
}
