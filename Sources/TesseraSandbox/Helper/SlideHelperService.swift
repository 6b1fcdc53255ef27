#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import Logging
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// A whole-slide image's own decode helper (`tessera decode-helper --slide PATH`; the viewer's side is
/// `SlideHelper`). OpenSlide opens a slide by its path, and a MIRAX or VMS slide's companion files beside
/// it, so a pool helper, which may open nothing but fonts, cannot read one. This helper locks itself down
/// as a pool helper does, with Landlock letting it read below the slide's folder too, then opens the slide
/// there with `SlideReader`, the code the view runs with --decode-in-process, and answers the slide's facts
/// (kind 24) and its regions (`TESSERA_REQUEST_SLIDE_REGION`) until the viewer closes the socket.
package enum SlideHelperService {
    private static let logger = Logger(label: "tessera.decode-helper")

    /// Serves the slide at `path` on `socket`; `decoders` are warmed up first, as in a pool helper, so
    /// what the libraries OpenSlide shares with them (libjpeg, libpng, libtiff, gdk-pixbuf, libxml2) load
    /// lazily is loaded before the lock-down; `memoryLimit` as for `DecodeHelperService.run`; `regionHook`
    /// only in tests. Returns the process's exit status.
    package static func run(socket: Int32, path: String, acceptGenericTIFF: Bool, decoders: [any ImageDecoding],
                           memoryLimit: Int, regionHook: DecodeHelperService.RegionHook? = nil) -> Int32 {
        tessera_classify_crashes()
        tessera_one_malloc_arena()
        // OpenSlide, which no pool helper loads, and with it every other codec library.
        for library in CodecLibraries.load(for: nil) {
            logger.error("slide helper cannot load a codec library", metadata: ["library": "\(library)"])
        }
        DecodeHelperService.warmUp(decoders)
        tzset()
        let baseline = tessera_address_space_in_use()
        let limit = memoryLimit > 0 ? baseline + UInt64(memoryLimit) : 0
        let readable = FontFolders.readable(environment: ProcessInfo.processInfo.environment) + slideFolders(path)
        let locked = DecodeHelperService.withCStringArray(readable) { tessera_lock_down(limit, $0, readable.count) }
        guard locked == 0 else {
            let why = "cannot lock itself down: \(POSIXFiles.errorText(errno))"
            logger.error("slide helper \(why)")
            _ = DecodeHelperService.send(DecodeHelperWire.reply(status: 3, text: why), memfd: -1, socket)
            return 1
        }
        guard DecodeHelperService.send(DecodeHelperWire.reply(status: 2, text: ""), memfd: -1, socket) else { return 3 }
        // Opened at the first request, under the lock-down.
        var opened: Result<SlideReader?, SlideReader.Failure>?
        func reader() -> Result<SlideReader?, SlideReader.Failure> {
            if let opened { return opened }
            let result = Result { () throws(SlideReader.Failure) in try SlideReader.open(path: path, acceptGenericTIFF: acceptGenericTIFF) }
            opened = result
            return result
        }
        let tail = regionHook != nil ? fileTail(path) : Data()
        while true {
            var request = tessera_decode_request()
            var fd: Int32 = -1
            let received = tessera_receive_with_fd(socket, &request, MemoryLayout<tessera_decode_request>.size, &fd)
            if fd >= 0 { close(fd) }
            if received == 0 { return 0 }
            guard received > 0, request.magic == DecodeHelperWire.requestMagic,
                  DecodeHelperService.readTail(socket, count: Int(request.display_profile_length) + Int(request.name_length)) != nil else {
                return 2
            }
            let replied: Bool
            switch Int32(request.kind) {
            case Int32(ImageFacts.Kind.slide.rawValue):
                replied = DecodeHelperService.answer(socket) { () throws(ImageLoadError.Reason) in
                    switch reader() {
                    case .success(let reader): return .slide(reader?.facts)
                    case .failure(let failure): throw .decodeFailed(failure.text)
                    }
                }
            case TESSERA_REQUEST_SLIDE_REGION:
                replied = DecodeHelperService.answer(socket) { () throws(ImageLoadError.Reason) in
                    guard case .success(let opened) = reader(), let slide = opened else { throw .unsupportedFormat("not a slide") }
                    guard let size = DecodeHelperWire.box(of: request), request.region_width > 0, request.region_height > 0 else {
                        throw .decodeFailed("no region asked")
                    }
                    regionHook?(tail, PixelRegion(x: Int(request.region_x), y: Int(request.region_y),
                                                  width: Int(request.region_width), height: Int(request.region_height)))
                    do throws(SlideReader.Failure) {
                        return try slide.read(x: Int(request.region_x), y: Int(request.region_y),
                                              level: Int(clamping: request.directory), width: Int(request.region_width),
                                              height: Int(request.region_height), reducedTo: size)
                    } catch {
                        throw .decodeFailed(error.text)
                    }
                }
            default:
                return 2
            }
            guard replied else { return 3 }
        }
    }

    /// The slide file's last bytes, for the tests' hook.
    private static func fileTail(_ path: String) -> Data {
        guard let file = try? ImageFile(path: path) else { return Data() }
        let count = min(32, file.size)
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { (try? file.read(into: $0.baseAddress!, from: file.size - count, to: file.size)) ?? 0 }
        return Data(bytes.prefix(max(0, got - (file.size - count))))
    }

    /// The folders OpenSlide reads a slide from: the one its path names, and the one it resolves to.
    static func slideFolders(_ path: String) -> [String] {
        let given = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
        return given == resolved ? [given] : [given, resolved]
    }
}
