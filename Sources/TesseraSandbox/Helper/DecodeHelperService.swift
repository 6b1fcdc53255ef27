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

/// The decode helper's side (`tessera decode-helper`): loads its libraries, decodes one tiny image of each
/// format so that whatever they load lazily is loaded, locks itself down (no_new_privs, an address-space
/// limit, the seccomp filter of `tessera_lock_down`), then answers requests on its socket until the
/// viewer closes it: each request's descriptor is read by `ImageLoader.load(opened:...)`, the code the
/// viewer runs in process, and the pixels go back in a memfd the viewer maps. A tile cutter's rows
/// exchange is served by `DecodeHelperRowsServer`, an animation's frames exchange by
/// `DecodeHelperFramesServer`, the tiled view's regions by `DecodeHelperRegionServer`; a question about a
/// file (a request of an `ImageFacts.Kind`) is answered by `ImageFacts.read`, serialized in a memfd.
package enum DecodeHelperService {
    private static let logger = Logger(label: "tessera.decode-helper")

    /// Called in a tile cutter's rows exchange before each request's rows are read, with the file's last
    /// bytes and the first row, and in an animation's frames exchange before each requested frame, with
    /// the frame's index: how the tests make a helper misbehave in the middle of a cut or an animation.
    package typealias RowsHook = @Sendable (_ fileTail: Data, _ firstRow: Int) -> Void

    /// Called before each region of the tiled view is read (`DecodeHelperRegionServer`), with the file's
    /// last bytes and the region: how the tests make a helper misbehave on one tile.
    package typealias RegionHook = @Sendable (_ fileTail: Data, _ region: PixelRegion) -> Void

    /// What answers a question about a file: `ImageFacts.read` (debug builds may wrap it to misbehave
    /// for the tests, as they wrap the decoders).
    package typealias FactsReader = (ImageFacts.Kind, ImageFile, String) throws(ImageLoadError.Reason) -> ImageFacts

    /// Serves requests on `socket` with `decoders` and `readFacts`; `memoryLimit` bytes of address space on
    /// top of what the warmed-up helper maps (0: no limit); `rowsHook` and `regionHook` only in tests. With
    /// `warmingUp`, only those formats are warmed up, and a request about a file of another format that
    /// needs a warm-up is answered "not loaded" without reading it (see `WarmUpImages.firstHelperFormats`).
    /// Returns the process's exit status.
    package static func run(socket: Int32, decoders: [any ImageDecoding], memoryLimit: Int, lockDown: Bool = true,
                           turn: WarmUpTurn = .now, warmingUp formats: Set<ImageFormat>? = nil,
                           rowsHook: RowsHook? = nil, regionHook: RegionHook? = nil,
                           readFacts: FactsReader = ImageFacts.read) -> Int32 {
        tessera_classify_crashes()
        // One malloc arena: each thread's own would reserve address space the limit is meant for.
        tessera_one_malloc_arena()
        turn.waitForTheWord()
        warmUp(decoders, formats: formats)
        // Read before the lock-down: what is not loaded by then cannot be.
        let loaded = CodecLibraries.loaded()
        // The log's timestamps read the time zone once, here, not from a file after the lock-down.
        tzset()
        if lockDown {
            let baseline = tessera_address_space_in_use()
            let limit = memoryLimit > 0 ? baseline + UInt64(memoryLimit) : 0
            let readable = FontFolders.readable(environment: ProcessInfo.processInfo.environment)
            let locked = withCStringArray(readable) { tessera_lock_down(limit, $0, readable.count) }
            guard locked == 0 else {
                let why = "cannot lock itself down: \(POSIXFiles.errorText(errno))"
                logger.error("decode helper \(why)")
                _ = send(DecodeHelperWire.reply(status: 3, text: why), memfd: -1, socket)
                return 1
            }
        }
        guard send(DecodeHelperWire.reply(status: 2, text: ""), memfd: -1, socket) else { return 3 }
        var conversions = ConversionMemo()
        var regions = DecodeHelperRegionServer(hook: regionHook)
        while true {
            var request = tessera_decode_request()
            var fd: Int32 = -1
            let received = tessera_receive_with_fd(socket, &request, MemoryLayout<tessera_decode_request>.size, &fd)
            if received == 0 { return 0 }
            guard received > 0, request.magic == DecodeHelperWire.requestMagic,
                  let tail = readTail(socket, count: Int(request.display_profile_length) + Int(request.name_length)) else {
                if fd >= 0 { close(fd) }
                return 2
            }
            if fd >= 0, let refusal = refusal(fileAt: fd, kind: request.kind, warmedUp: formats, loaded: loaded) {
                close(fd)
                guard send(refusal, memfd: -1, socket) else { return 3 }
                continue
            }
            let profile = Array(tail.prefix(Int(request.display_profile_length)))
            let name = String(decoding: tail.dropFirst(Int(request.display_profile_length)), as: UTF8.self)
            let replied: Bool
            switch Int32(request.kind) {
            case TESSERA_REQUEST_DECODE:
                replied = answer(request, fd: fd, name: name, profile: profile, decoders: decoders,
                                 conversions: &conversions, socket: socket)
            case TESSERA_REQUEST_ROWS_OPEN:
                replied = DecodeHelperRowsServer.serve(request, fd: fd, name: name, decoders: decoders, socket: socket,
                                                       hook: rowsHook)
            case TESSERA_REQUEST_FRAMES_OPEN:
                replied = DecodeHelperFramesServer.serve(request, fd: fd, name: name, socket: socket, hook: rowsHook)
            case TESSERA_REQUEST_FRAMES_PROBE:
                replied = DecodeHelperFramesServer.probe(request, fd: fd, name: name, socket: socket)
            case TESSERA_REQUEST_TIFF_REGION:
                replied = answer(socket) { () throws(ImageLoadError.Reason) in try regions.tiffRegion(request, fd: fd, name: name) }
            case TESSERA_REQUEST_SVG_TILE:
                replied = answer(socket) { () throws(ImageLoadError.Reason) in try regions.svgTile(request, fd: fd, name: name) }
            case TESSERA_REQUEST_JPEG_REGION:
                replied = answer(socket) { () throws(ImageLoadError.Reason) in try regions.jpegRegion(request, fd: fd, name: name) }
            default:
                if let kind = ImageFacts.Kind(rawValue: request.kind) {
                    replied = answer(kind, fd: fd, name: name, readFacts: readFacts, socket: socket)
                } else {
                    if fd >= 0 { close(fd) }
                    return 2
                }
            }
            guard replied else { return 3 }
        }
    }

    /// Decodes one request and sends the reply; false when the socket failed.
    private static func answer(_ request: tessera_decode_request, fd: Int32, name: String, profile: [UInt8],
                               decoders: [any ImageDecoding], conversions: inout ConversionMemo,
                               socket: Int32) -> Bool {
        guard fd >= 0 else { return send(DecodeHelperWire.reply(refusing: .unreadable("no descriptor")), memfd: -1, socket) }
        let loader = conversions.loader(for: request, profile: profile, decoders: decoders)
        return answer(socket) { () throws(ImageLoadError.Reason) in
            let file: ImageFile
            do throws(ImageFile.Failure) { file = try ImageFile(descriptor: fd, path: name) } catch { throw ImageLoadError.Reason(error) }
            return try loader.load(opened: file, fitting: DecodeHelperWire.box(of: request), cancellation: nil,
                                   convertingColour: request.convert_colour != 0)
        }
    }

    /// Sends the pixels `read` gives, or its refusal; false when the socket failed.
    static func answer(_ socket: Int32, _ read: () throws(ImageLoadError.Reason) -> PixelBuffer) -> Bool {
        let pixels: PixelBuffer
        do throws(ImageLoadError.Reason) {
            pixels = try read()
        } catch {
            return send(DecodeHelperWire.reply(refusing: error), memfd: -1, socket)
        }
        let profileBytes = pixels.colourProfile ?? []
        let length = pixels.bytes.count + profileBytes.count
        let memfd = tessera_memfd("tessera-pixels")
        guard memfd >= 0, ftruncate(memfd, off_t(length)) == 0,
              let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0), memory != MAP_FAILED else {
            if memfd >= 0 { close(memfd) }
            return send(DecodeHelperWire.reply(refusing: .unreadable(POSIXFiles.errorText(errno))), memfd: -1, socket)
        }
        pixels.bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        profileBytes.withUnsafeBytes { if $0.count > 0 { (memory + pixels.bytes.count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        munmap(memory, length)
        defer { close(memfd) }
        return send(DecodeHelperWire.reply(describing: pixels), memfd: memfd, socket)
    }

    /// Answers one question about the file on `fd` and sends the answer; false when the socket failed.
    private static func answer(_ kind: ImageFacts.Kind, fd: Int32, name: String, readFacts: FactsReader,
                               socket: Int32) -> Bool {
        guard fd >= 0 else { return send(DecodeHelperWire.reply(refusing: .unreadable("no descriptor")), memfd: -1, socket) }
        return answer(socket) { () throws(ImageLoadError.Reason) in
            let file: ImageFile
            do throws(ImageFile.Failure) { file = try ImageFile(descriptor: fd, path: name) } catch { throw ImageLoadError.Reason(error) }
            return try readFacts(kind, file, name)
        }
    }

    /// Sends the facts `read` gives, serialized in a memfd, or its refusal; false when the socket failed.
    static func answer(_ socket: Int32, _ read: () throws(ImageLoadError.Reason) -> ImageFacts) -> Bool {
        let bytes: [UInt8]
        do throws(ImageLoadError.Reason) {
            guard let encoded = DecodeHelperWire.encode(try read()),
                  encoded.count <= DecodeHelperWire.factsByteLimit else { throw .decodeFailed("the answer cannot be sent") }
            bytes = encoded
        } catch {
            return send(DecodeHelperWire.reply(refusing: error), memfd: -1, socket)
        }
        let memfd = tessera_memfd("tessera-facts")
        guard memfd >= 0 else {
            return send(DecodeHelperWire.reply(refusing: .unreadable(POSIXFiles.errorText(errno))), memfd: -1, socket)
        }
        defer { close(memfd) }
        // write, not pwrite, which the filter does not list; a new memfd is written from its start anyway.
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let n = write(memfd, buffer.baseAddress! + done, buffer.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        guard written else {
            return send(DecodeHelperWire.reply(refusing: .unreadable(POSIXFiles.errorText(errno))), memfd: -1, socket)
        }
        return send(DecodeHelperWire.reply(status: DecodeHelperWire.factsStatus, text: ""), memfd: memfd, socket)
    }

    static func send(_ reply: tessera_decode_reply, memfd: Int32, _ socket: Int32) -> Bool {
        var reply = reply
        return tessera_send_with_fd(socket, &reply, MemoryLayout<tessera_decode_reply>.size, memfd) == 0
    }

    static func readTail(_ socket: Int32, count: Int) -> [UInt8]? {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var fd: Int32 = -1
        let got = bytes.withUnsafeMutableBytes { tessera_receive_with_fd(socket, $0.baseAddress!, count, &fd) }
        if fd >= 0 { close(fd) }
        return got == count ? bytes : nil
    }

    static func withCStringArray<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = strings.map { UnsafePointer(strdup($0)) }
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// The codec libraries of every format the helper may be asked to read loaded (`CodecLibraries`), and
    /// each format decoded once, so its library has loaded what it loads on first use (see `WarmUpImages`),
    /// and its facts read and serialized, for the same reason. A helper warmed up for some formats reads
    /// those and the ones that need no warm-up (`serves`).
    static func warmUp(_ decoders: [any ImageDecoding], formats: Set<ImageFormat>? = nil) {
        // OpenSlide is no format's: only a slide's own helper, which loads it first, reads slides.
        let served = formats.map { $0.union(Set(ImageFormat.allCases).subtracting(WarmUpImages.formats)) }
        let failed = CodecLibraries.load(for: served ?? Set(ImageFormat.allCases))
        for library in failed {
            logger.error("decode helper cannot load a codec library", metadata: ["library": "\(library)"])
        }
        let loader = ImageLoader(decoders: decoders)
        for image in WarmUpImages.all where formats?.contains(image.format) ?? true {
            // Its decode would call a library that is not there, which ends the process.
            guard CodecLibraries.libraries(of: image.format).allSatisfy({ !failed.contains($0) }) else { continue }
            let information = ImageInformation(path: image.name, bytes: image.bytes)
            _ = DecodeHelperWire.encode(.information(information)).flatMap(DecodeHelperWire.facts(from:))
            _ = ExifDates(image.bytes)
            do {
                _ = try loader.load(data: image.bytes, name: "warm-up " + image.name, fitting: PixelSize(width: 4, height: 4))
            } catch {
                logger.debug("warm-up image not decoded", metadata: ["format": "\(image.name)", "reason": "\(error.reason.shortText)"])
            }
        }
    }

    /// The reply to a request of `kind` about the file at `fd` when this helper must not read it; nil when
    /// it may. The file's format is sniffed from the same first bytes the loader sniffs. A helper that
    /// warmed up some `formats` answers "not loaded" for the others that need a warm-up, and for a file or
    /// a request whose codec library it has not loaded, so that a helper that warmed up everything reads
    /// it. Such a helper refuses, with the library's name, what needs a library that could not be loaded:
    /// after the lock-down no library can be, and the call would end the helper. A file that cannot be
    /// read is left to the request, which says why.
    private static func refusal(fileAt fd: Int32, kind: UInt8, warmedUp formats: Set<ImageFormat>?,
                                loaded: Set<String>) -> tessera_decode_reply? {
        var head = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        guard count > 0 else { return nil }
        let format = ImageFormat.sniff(head.prefix(count))
        // These read the file with one library whatever its format.
        var needed = CodecLibraries.libraries(of: format)
        switch Int32(kind) {
        case TESSERA_REQUEST_SVG_TILE: needed += CodecLibraries.libraries(of: .svg)
        case TESSERA_REQUEST_TIFF_REGION: needed += CodecLibraries.libraries(of: .tiff)
        default:
            switch ImageFacts.Kind(rawValue: kind) {
            case .drawingSize?: needed += CodecLibraries.libraries(of: .svg)
            case .tiledTIFF?: needed += CodecLibraries.libraries(of: .tiff)
            case .slide?: needed += CodecLibraries.openSlide
            default: break
            }
        }
        let missing = needed.filter { !loaded.contains($0) }
        if let formats {
            let warmedUp = formats.contains(format) || !WarmUpImages.formats.contains(format)
            guard warmedUp && missing.isEmpty else {
                return DecodeHelperWire.reply(status: DecodeHelperWire.formatNotLoadedStatus, text: "")
            }
            return nil
        }
        return missing.first.map { DecodeHelperWire.reply(refusing: .decodeFailed("\($0) cannot be loaded")) }
    }

    /// The loader of the last request's settings: the display's conversion is checked once, not per image.
    private struct ConversionMemo {
        var key: (mode: UInt8, profile: [UInt8])?
        var colour: ColourConversion?

        mutating func loader(for request: tessera_decode_request, profile: [UInt8],
                             decoders: [any ImageDecoding]) -> ImageLoader {
            if key?.mode != request.colour_mode || key?.profile != profile {
                colour = DecodeHelperWire.colour(mode: request.colour_mode, displayProfile: profile)
                key = (request.colour_mode, profile)
            }
            return ImageLoader(decoders: decoders, pixelLimit: Int(request.pixel_limit), byteLimit: Int(request.byte_limit),
                               applyOrientation: request.apply_orientation != 0, colour: colour, page: Int(request.page))
        }
    }
}
