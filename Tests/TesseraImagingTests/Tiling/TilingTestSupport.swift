#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTurboJPEG
import Foundation
import TesseraCore
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// Images, decoding and file listings for the tile cutter's tests. Everything is generated in memory.
enum TilingFixtures {
    /// A PNG of `buffer` with `channels` channels (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA).
    static func png(_ buffer: PixelBuffer, channels: PNGEncoder.Channels = .rgb) -> Data {
        buffer.bytes.withUnsafeBytes { bgra in
            try! PNGEncoder.encode(bgra.baseAddress!, stride: buffer.width * 4, width: buffer.width, height: buffer.height,
                                   channels: channels, effort: .fast) { Data($0) }
        }
    }

    /// A progressive JPEG (needs the whole image in libjpeg).
    static func progressiveJPEG(_ buffer: PixelBuffer) -> Data {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = buffer.bytes.withUnsafeBufferPointer { src in
            tjCompress2(handle, src.baseAddress, Int32(buffer.width), Int32(buffer.width * 4), Int32(buffer.height),
                        Int32(TJPF_BGRA.rawValue), &jpeg, &size, Int32(TJSAMP_420.rawValue), 90, TJFLAG_PROGRESSIVE)
        }
        precondition(rc == 0)
        defer { tjFree(jpeg) }
        return Data(bytes: jpeg!, count: Int(size))
    }

    /// Every pixel different in a way that survives halving: a gradient with a checker of ±24.
    static func pattern(width: Int, height: Int) -> PixelBuffer {
        var buffer = TestPixels.gradient(width: width, height: height)
        buffer.bytes.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width where (x / 3 + y / 3) % 2 == 0 {
                    let i = (y * width + x) * 4
                    for c in 0..<3 { p[i + c] = UInt8(clamping: Int(p[i + c]) + (c == 1 ? -24 : 24)) }
                }
            }
        }
        return buffer
    }

    /// Decodes a tile file (JPEG through TurboJPEG, PNG through the cutter's own PNG reader).
    static func decode(_ path: String) throws -> PixelBuffer {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        switch ImageFormat.sniff(data) {
        case .jpeg:
            return try TurboJPEGDecoder().decode(data, format: .jpeg, targetSize: nil)
        case .png:
            let fd = open(path, O_RDONLY)
            let reader = try PNGRowReader(fd: fd)
            var bytes = [UInt8](repeating: 0, count: reader.width * reader.height * 4)
            try bytes.withUnsafeMutableBytes { raw in
                try reader.readRows(into: raw.baseAddress!, stride: reader.width * 4, count: reader.height)
            }
            return PixelBuffer(width: reader.width, height: reader.height, bytes: bytes)
        default:
            throw TileCutError(path: path, reason: .notAnImage)
        }
    }

    /// The pixel size in a tile file's header.
    static func size(of path: String) throws -> PixelSize? {
        ImageHeader.read(try Data(contentsOf: URL(fileURLWithPath: path))).map(\.size)
    }

    /// `buffer` halved the way vips dzsave does (what the cutter must produce).
    static func halved(_ buffer: PixelBuffer) -> PixelBuffer {
        let w = (buffer.width + 1) / 2, h = (buffer.height + 1) / 2
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        func at(_ x: Int, _ y: Int, _ c: Int) -> Int {
            Int(buffer.bytes[(min(y, buffer.height - 1) * buffer.width + min(x, buffer.width - 1)) * 4 + c])
        }
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    let sum = at(2 * x, 2 * y, c) + at(2 * x + 1, 2 * y, c) + at(2 * x, 2 * y + 1, c)
                        + at(2 * x + 1, 2 * y + 1, c)
                    bytes[(y * w + x) * 4 + c] = UInt8((sum + 2) >> 2)
                }
            }
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    static func crop(_ buffer: PixelBuffer, _ region: PixelRegion) -> PixelBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(region.width * region.height * 4)
        for y in region.y..<region.maxY {
            let start = (y * buffer.width + region.x) * 4
            bytes += buffer.bytes[start..<(start + region.width * 4)]
        }
        return PixelBuffer(width: region.width, height: region.height, bytes: bytes)
    }

    /// Every file under `folder` (recursively), as paths relative to it.
    static func files(in folder: String) -> Set<String> {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var result = Set<String>()
        while let path = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                result.insert(path)
            }
        }
        return result
    }

    /// Entries directly in `folder` (hidden ones included); empty if it does not exist.
    static func entries(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// The file names a Deep Zoom cut of `geometry` must write under NAME_files.
    static func expectedDeepZoomFiles(_ geometry: DeepZoomGeometry, ext: String = "jpeg") -> Set<String> {
        var names = Set<String>()
        for level in 0...geometry.maxLevel {
            for row in 0..<geometry.rows(level) {
                for column in 0..<geometry.columns(level) { names.insert("\(level)/\(column)_\(row).\(ext)") }
            }
        }
        return names
    }
}

/// Counts calls and says "cancel" from the `after`-th on.
final class CancelAfter: Sendable {
    private let calls = AtomicCounter()
    let after: Int

    init(_ after: Int) { self.after = after }

    var isCancelled: @Sendable () -> Bool {
        { [self] in calls.increment() >= after }
    }
}

final class AtomicCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
