#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTurboJPEG
import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging

/// Encodes tiles straight from a band's rows (no copy for opaque JPEG) and writes each to its file.
///
/// JPEG goes through TurboJPEG's `tjCompress2` with 4:2:0 chroma (vips's choice below quality 90), grey
/// sources as single-channel JPEG; a source with alpha is flattened on black first, as vips does. PNG
/// goes through `PNGEncoder` with as many channels as the source has.
///
/// TurboJPEG handles are not thread-safe and cost an allocation each, so they are pooled: a worker
/// takes one (with its preallocated output buffer), encodes, writes and puts it back. The pool never
/// holds more handles than threads that ever encoded at once.
final class TileEncoder: Sendable {
    let format: TileFormat
    let quality: Int
    let isGrayscale: Bool
    let hasAlpha: Bool
    /// The largest tile, overlap included: what a pooled output buffer must hold.
    private let maxTileSide: Int
    private let pool = Mutex<[JPEGCompressor]>([])

    init(format: TileFormat, quality: Int, maxTileSide: Int, isGrayscale: Bool, hasAlpha: Bool) {
        self.format = format
        self.quality = quality
        self.maxTileSide = maxTileSide
        self.isGrayscale = isGrayscale
        self.hasAlpha = hasAlpha
    }

    /// Encodes `width` x `height` pixels at `pixels` (rows `stride` bytes apart) and writes them to `path`.
    func writeTile(_ pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int, to path: String) throws(TileCutError.Reason) {
        switch format {
        case .jpeg:
            let compressor = try takeCompressor()
            defer { pool.withLock { $0.append(compressor) } }
            try compressor.encode(pixels, stride: stride, width: width, height: height, quality: quality,
                                  grey: isGrayscale, flattenAlpha: hasAlpha) { bytes throws(TileCutError.Reason) in
                try Self.writeFile(bytes, to: path)
            }
        case .png:
            let channels: PNGEncoder.Channels = isGrayscale ? (hasAlpha ? .greyAlpha : .grey) : (hasAlpha ? .rgba : .rgb)
            let written = Result { () throws in
                try PNGEncoder.encode(pixels, stride: stride, width: width, height: height, channels: channels) { bytes in
                    try Self.writeFile(bytes, to: path)
                }
            }
            switch written {
            case .success: return
            case .failure(let reason as TileCutError.Reason): throw reason
            case .failure(let error): throw .outputFailed("PNG encoding: \(error)")
            }
        }
    }

    private func takeCompressor() throws(TileCutError.Reason) -> JPEGCompressor {
        if let pooled = pool.withLock({ $0.popLast() }) { return pooled }
        guard let fresh = JPEGCompressor(maxSide: maxTileSide) else {
            throw .outputFailed("cannot start the JPEG encoder: \(String(cString: tjGetErrorStr2(nil)))")
        }
        return fresh
    }

    static func writeFile(_ bytes: [UInt8], to path: String) throws(TileCutError.Reason) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(TileCutError.Reason) in try writeFile(raw, to: path) }
        }
        try result.get()
    }

    /// Writes `bytes` to a new file at `path` (replacing one left by nobody: the folder is ours).
    static func writeFile(_ bytes: UnsafeRawBufferPointer, to path: String) throws(TileCutError.Reason) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .outputFailed(String(cString: strerror(errno))) }
        if let why = POSIXFiles.writeAll(fd, bytes) {
            close(fd)
            throw .outputFailed(why)
        }
        guard close(fd) == 0 else { throw .outputFailed(String(cString: strerror(errno))) }
    }
}

/// One TurboJPEG compressor with an output buffer big enough for any tile (so TurboJPEG never
/// reallocates) and scratch space for flattening alpha. Used by one thread at a time (the pool hands it
/// out), hence `@unchecked Sendable`.
private final class JPEGCompressor: @unchecked Sendable {
    private let handle: tjhandle
    private let output: UnsafeMutablePointer<UInt8>
    private let outputCapacity: Int
    private let scratch: UnsafeMutablePointer<UInt8>
    private let maxSide: Int

    init?(maxSide: Int) {
        guard let handle = tjInitCompress() else { return nil }
        let capacity = Int(tjBufSize(Int32(maxSide), Int32(maxSide), Int32(TJSAMP_444.rawValue)))
        guard capacity > 0, let output = tjAlloc(Int32(clamping: capacity)) else {
            tjDestroy(handle)
            return nil
        }
        self.handle = handle
        self.output = output
        self.outputCapacity = capacity
        self.maxSide = maxSide
        scratch = .allocate(capacity: maxSide * maxSide * 4)
    }

    deinit {
        tjFree(output)
        tjDestroy(handle)
        scratch.deallocate()
    }

    func encode(_ pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int, quality: Int, grey: Bool,
                flattenAlpha: Bool,
                consume: (UnsafeRawBufferPointer) throws(TileCutError.Reason) -> Void) throws(TileCutError.Reason) {
        var source = pixels.assumingMemoryBound(to: UInt8.self)
        var pitch = stride
        if flattenAlpha {
            Self.flattenOnBlack(pixels, stride: stride, width: width, height: height, into: scratch)
            source = UnsafePointer(scratch)
            pitch = width * 4
        }
        var destination: UnsafeMutablePointer<UInt8>? = output
        var size = UInt(outputCapacity)
        let sampling = grey ? TJSAMP_GRAY : TJSAMP_420
        let rc = tjCompress2(handle, source, Int32(width), Int32(pitch), Int32(height), Int32(TJPF_BGRA.rawValue),
                             &destination, &size, Int32(sampling.rawValue), Int32(quality),
                             TJFLAG_NOREALLOC | TJFLAG_ACCURATEDCT)
        guard rc == 0, destination == output else {
            throw .outputFailed("JPEG encoding: \(String(cString: tjGetErrorStr2(handle)))")
        }
        try consume(UnsafeRawBufferPointer(start: output, count: Int(size)))
    }

    /// c * a / 255, truncated: vips's flatten on a black background for 8-bit images.
    private static func flattenOnBlack(_ pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int,
                                       into out: UnsafeMutablePointer<UInt8>) {
        for y in 0..<height {
            let row = pixels.advanced(by: y * stride).assumingMemoryBound(to: UInt8.self)
            let dest = out + y * width * 4
            for x in 0..<width {
                let i = x * 4
                let a = UInt32(row[i + 3])
                dest[i] = UInt8(UInt32(row[i]) * a / 255)
                dest[i + 1] = UInt8(UInt32(row[i + 1]) * a / 255)
                dest[i + 2] = UInt8(UInt32(row[i + 2]) * a / 255)
                dest[i + 3] = 255
            }
        }
    }
}
