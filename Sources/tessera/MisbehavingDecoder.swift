#if DEBUG
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// Test-only, compiled into debug builds alone and switched on by `TESSERA_TEST_MISBEHAVING_DECODERS=1`
/// in a decode helper's environment: a decoder that does what a broken or hostile library might when the
/// image ends with `tessera-test:` and a word (crash, allocate, loop, write, read, socket), and decodes like the
/// decoder it wraps otherwise. The tests of `DecodeHelperPool` make one image of each kind.
///
/// The tile cutter's row readers and the animation readers are no decoders: `beforeRows` does the same to
/// a rows exchange once its first rows have been read, and to a frames exchange at its second frame, so a
/// cut or an animation fails in its middle (crash, allocate and loop). The tiled view's regions are no
/// decodes either: `beforeRegion` crashes, allocates or spins on the region at the file's top left corner
/// when the file ends in `tessera-test:tilecrash`, `tileallocate` or `tileloop` (words the decoder and the
/// facts ignore, so the file opens), so that tile fails and the others load.
struct MisbehavingDecoder: ImageDecoding {
    static let environmentKey = "TESSERA_TEST_MISBEHAVING_DECODERS"
    let wrapped: any ImageDecoding

    init(wrapping decoder: any ImageDecoding) { wrapped = decoder }

    func canDecode(_ format: ImageFormat) -> Bool { wrapped.canDecode(format) }

    func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try Self.misbehave(Self.misbehaviour(in: data))
        return try wrapped.decode(data, format: format, targetSize: targetSize)
    }

    func decode(_ data: Data, format: ImageFormat, page: Int, pixelLimit: Int) throws -> PixelBuffer {
        try Self.misbehave(Self.misbehaviour(in: data))
        return try wrapped.decode(data, format: format, page: page, pixelLimit: pixelLimit)
    }

    /// `ImageFacts.read`, after misbehaving as the decoder does when the file ends in `tessera-test:` and a
    /// word: a question about a file fails in a helper as a decode does.
    static func readFacts(_ kind: ImageFacts.Kind, of file: ImageFile, name: String) throws(ImageLoadError.Reason) -> ImageFacts {
        var tail = [UInt8](repeating: 0, count: min(32, file.size))
        let got = tail.withUnsafeMutableBytes { buffer in
            try? file.read(into: buffer.baseAddress!, from: file.size - buffer.count, to: file.size)
        }
        if got == file.size {
            do {
                try misbehave(misbehaviour(in: Data(tail)))
            } catch let reason as ImageLoadError.Reason {
                throw reason
            } catch {
                throw .decodeFailed(String(describing: error))
            }
        }
        return try ImageFacts.read(kind, of: file, name: name)
    }

    /// Does what `word` says (nothing for nil or an unknown word).
    private static func misbehave(_ word: String?) throws {
        switch word {
        case "crash":
            errno = 0
            raise(SIGSEGV)
        case "allocate":
            var hoard: [[UInt8]] = []
            while true { hoard.append([UInt8](repeating: 1, count: 16 << 20)) }
        case "loop":
            while true { sched_yield() }
        case "write":
            let fd = open("/tmp/tessera-decode-helper-was-here", O_WRONLY | O_CREAT, 0o600)
            if fd >= 0 { close(fd) }
        case "read":
            let fd = open("/etc/hostname", O_RDONLY)
            guard fd < 0 else {
                close(fd)
                throw ImageLoadError.Reason.decodeFailed("read /etc/hostname")
            }
            throw ImageLoadError.Reason.decodeFailed("open refused: \(String(cString: strerror(errno)))")
        case "socket":
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if fd >= 0 { close(fd) }
        default:
            break
        }
    }

    /// Misbehaves as the file's tail says, from the second request of a rows exchange on, or from the
    /// second frame of a frames exchange (`firstRow` is then the frame's index).
    @Sendable static func beforeRows(fileTail: Data, firstRow: Int) {
        guard firstRow > 0, let word = misbehaviour(in: fileTail), ["crash", "allocate", "loop"].contains(word) else { return }
        try? misbehave(word)
    }

    /// Misbehaves as the file's tail says, on the region at the top left corner alone.
    @Sendable static func beforeRegion(fileTail: Data, region: PixelRegion) {
        guard region.x == 0, region.y == 0 else { return }
        switch misbehaviour(in: fileTail) {
        case "tilecrash":
            errno = 0
            raise(SIGSEGV)
        case "tileallocate":
            var hoard: [[UInt8]] = []
            while true { hoard.append([UInt8](repeating: 1, count: 16 << 20)) }
        case "tileloop":
            while true { sched_yield() }
        default:
            break
        }
    }

    /// The word after the last `tessera-test:` in the image's last bytes, if any.
    static func misbehaviour(in data: Data) -> String? {
        let tail = String(decoding: data.suffix(32), as: UTF8.self)
        guard let marker = tail.range(of: "tessera-test:", options: .backwards) else { return nil }
        return String(tail[marker.upperBound...].prefix(while: \.isLetter))
    }
}
#endif
