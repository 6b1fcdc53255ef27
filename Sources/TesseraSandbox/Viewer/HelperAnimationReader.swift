#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// An animation's frames read in a decode helper: a frames exchange (see `tessera_sandbox.h`) on one helper
/// taken from the pool for as long as the frames are decoded. The helper runs `AnimatedImage.reader`, the
/// code `--decode-in-process` runs here, and writes each composited frame into a memfd this side maps; the
/// socket carries only the fixed messages.
///
/// The memfd holds two frame slots: while the feed copies one frame out and scales and converts it, the
/// helper already decodes the next into the other slot. A new play is a rewind of the same exchange, so the
/// feed's memory bound (frames decoded again on each play) costs no new helper.
///
/// Each wait has the pool's time limit. A helper that dies or runs out of time gives `.helperFailed` and
/// is replaced; the exchange is then over and every later request fails at once. Nothing cancels a wait:
/// as in process, a stopped feed's step finishes the frame it is on, and a reader that goes away waits
/// for the frame it asked ahead, ends the exchange and hands its helper back, so moving from one animation
/// to the next costs no helper start. Used by the feed's steps, one at a time.
final class HelperAnimationReader: AnimationReading {
    let canvasSize: PixelSize
    private(set) var plays: Int
    private let pool: DecodeHelperPool
    /// Nil once the exchange is over.
    private var helper: DecodeHelperProcess?
    private let memory: UnsafeRawPointer
    private let mappedBytes: Int
    private let slotBytes: Int
    private let profile: [UInt8]?
    private let codePoints: ColourCodePoints?
    /// The file's path, for the log.
    private let name: String
    /// The slot of the frame asked for and not yet arrived.
    private var asked: Int?
    /// The opening's first frame, in slot 0, not yet taken: its delay.
    private var openingDelay: Duration?

    /// Opens the animation at `path` in a helper of `pool`, with the feed's limits; nil when `onlyAnimations`
    /// is asked and the file is a still. A PNG's or WebP's first bytes tell a still here, with the same
    /// chunk walk in Swift `AnimatedImage.isAnimated` runs; any other file is looked at in the helper.
    static func open(path: String, options: AnimationFeed.Options,
                     pool: DecodeHelperPool) throws(ImageLoadError.Reason) -> HelperAnimationReader? {
        let file: ImageFile
        do { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
        guard file.size <= options.byteLimit else { throw .fileTooLarge(bytes: file.size, limit: options.byteLimit) }
        if options.onlyAnimations, let head = try? file.head(AnimatedImage.headLength),
           [.png, .webp].contains(ImageFormat.sniff(head)), !AnimatedImage.isAnimated(head) {
            return nil
        }
        let helper: DecodeHelperProcess
        do { helper = try pool.borrow() } catch { throw .helperFailed(error) }
        let timeLimit = pool.configuration.timeLimit
        if let failure = helper.awaitReady(timeLimit: timeLimit) {
            pool.replace(helper, failedOn: path, failure)
            throw .helperFailed(failure)
        }
        let (request, tail) = DecodeHelperFramesWire.opening(pixelLimit: options.pixelLimit, byteLimit: options.byteLimit,
                                                             animationsOnly: options.onlyAnimations, name: path)
        guard file.withDescriptor({ helper.send(request, tail: tail, descriptor: $0) }) else {
            let failure = helper.death()
            pool.replace(helper, failedOn: path, failure)
            throw .helperFailed(failure)
        }
        switch helper.receive(timeLimit: timeLimit) {
        case .failed(let failure):
            pool.replace(helper, failedOn: path, failure)
            throw .helperFailed(failure)
        case .cancelled:
            pool.replace(helper)  // never: nothing cancels this wait
            throw .cancelled
        case .reply(let reply, let memfd):
            defer { if memfd >= 0 { close(memfd) } }
            // A refused opening, or a still, is no exchange: the helper waits for the next request.
            guard reply.status == 0 else {
                pool.giveBack(helper)
                throw DecodeHelperWire.reason(from: reply)
            }
            guard DecodeHelperFramesWire.hasFrame(reply) else {
                pool.giveBack(helper)
                return nil
            }
            do {
                return try HelperAnimationReader(pool: pool, helper: helper, reply: reply, memfd: memfd, name: path)
            } catch {
                pool.replace(helper)
                throw error
            }
        }
    }

    /// Maps the frames memfd of an opening's reply, trusting no size the helper sent beyond what the memfd
    /// holds.
    private init(pool: DecodeHelperPool, helper: DecodeHelperProcess, reply: tessera_decode_reply, memfd: Int32,
                 name: String) throws(ImageLoadError.Reason) {
        guard let slotBytes = DecodeHelperFramesWire.slotBytes(width: Int(reply.width), height: Int(reply.height)) else {
            throw .helperFailed(.unavailable("the helper's frames have no size"))
        }
        var st = stat()
        let (slots, overflow) = slotBytes.multipliedReportingOverflow(by: 2)
        let (needed, overflow2) = slots.addingReportingOverflow(Int(reply.profile_length))
        // Sealed against shrinking: the helper cannot pull pages out from under this mapping.
        guard memfd >= 0, tessera_memfd_cannot_shrink(memfd) != 0, fstat(memfd, &st) == 0, !overflow, !overflow2,
              Int(st.st_size) >= needed else {
            throw .helperFailed(.unavailable("the helper's frames memfd does not match its reply"))
        }
        guard let memory = mmap(nil, needed, PROT_READ, MAP_SHARED, memfd, 0), memory != MAP_FAILED else {
            throw .unreadable(POSIXFiles.errorText(errno))
        }
        self.memory = UnsafeRawPointer(memory)
        mappedBytes = needed
        self.slotBytes = slotBytes
        canvasSize = PixelSize(width: Int(reply.width), height: Int(reply.height))
        profile = reply.profile_length > 0
            ? Array(UnsafeRawBufferPointer(start: memory + slots, count: Int(reply.profile_length))) : nil
        codePoints = reply.has_code_points != 0
            ? ColourCodePoints(primaries: reply.primaries, transfer: reply.transfer, matrix: reply.matrix,
                               fullRange: reply.full_range != 0) : nil
        plays = DecodeHelperFramesWire.plays(of: reply)
        openingDelay = DecodeHelperFramesWire.delay(of: reply)
        self.pool = pool
        self.helper = helper
        self.name = name
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: memory), mappedBytes)
        if asked != nil { _ = try? receive() }
        guard let helper else { return }
        guard helper.send(DecodeHelperFramesWire.end) else {
            pool.replace(helper)
            return
        }
        switch helper.receive(timeLimit: pool.configuration.timeLimit) {
        case .reply(let reply, let fd):
            if fd >= 0 { close(fd) }
            if reply.status == 0 { pool.giveBack(helper) } else { pool.replace(helper) }
        case .failed, .cancelled:
            pool.replace(helper)
        }
    }

    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
        if let delay = openingDelay {
            openingDelay = nil
            try ask(slot: 1)
            return (frame(inSlot: 0), delay)
        }
        guard let slot = asked else { return nil }
        let reply = try receive()
        guard DecodeHelperFramesWire.hasFrame(reply) else { return nil }
        guard reply.width == canvasSize.width, reply.height == canvasSize.height else {
            throw fail(.unavailable("the helper's frame does not fit its slots"))
        }
        plays = DecodeHelperFramesWire.plays(of: reply)
        try ask(slot: 1 - slot)
        return (frame(inSlot: slot), DecodeHelperFramesWire.delay(of: reply))
    }

    /// The reader of the next play: this exchange, started again from the first frame (the frame asked
    /// ahead, if any, is dropped).
    func rewound() throws(ImageLoadError.Reason) -> HelperAnimationReader {
        guard let helper else { throw .helperFailed(.unavailable("the exchange is over")) }
        if asked != nil { _ = try receive() }
        openingDelay = nil
        guard helper.send(DecodeHelperFramesWire.rewind) else { throw fail(helper.death()) }
        _ = try receive()
        try ask(slot: 0)
        return self
    }

    private func frame(inSlot slot: Int) -> PixelBuffer {
        var pixels = PixelBuffer(width: canvasSize.width, height: canvasSize.height,
                                 bytes: Array(UnsafeRawBufferPointer(start: memory + slot * slotBytes, count: slotBytes)))
        pixels.colourProfile = profile
        pixels.colourCodePoints = codePoints
        return pixels
    }

    /// Asks for the next frame into `slot`.
    private func ask(slot: Int) throws(ImageLoadError.Reason) {
        guard let helper else { throw .helperFailed(.unavailable("the exchange is over")) }
        guard helper.send(DecodeHelperFramesWire.next(slot: slot)) else { throw fail(helper.death()) }
        asked = slot
    }

    /// Waits for the answer to the last request; a refusal is thrown as the reader in process throws it.
    private func receive() throws(ImageLoadError.Reason) -> tessera_decode_reply {
        guard let helper else { throw .helperFailed(.unavailable("the exchange is over")) }
        switch helper.receive(timeLimit: pool.configuration.timeLimit) {
        case .failed(let failure): throw fail(failure)
        case .cancelled: throw fail(.unavailable("cancelled"))  // never: nothing cancels this wait
        case .reply(let reply, let fd):
            if fd >= 0 { close(fd) }
            asked = nil
            guard reply.status == 0 else { throw DecodeHelperWire.reason(from: reply) }
            return reply
        }
    }

    /// The helper died: the exchange is over and the pool replaces it.
    private func fail(_ failure: DecodeHelperFailure) -> ImageLoadError.Reason {
        if let helper {
            self.helper = nil
            pool.replace(helper, failedOn: name, failure)
        }
        return .helperFailed(failure)
    }

    /// Whether the file at `path` is an animation, as `AnimatedImage.isAnimated(fileAt:)` tells in process:
    /// a GIF's, PNG's or WebP's blocks are walked here in Swift; a JPEG XL or AVIF, whose answer needs
    /// libjxl or libavif, is probed in a helper of `pool`. False when it cannot be told.
    static func isAnimated(fileAt path: String, byteLimit: Int, pool: DecodeHelperPool) -> Bool {
        guard let file = try? ImageFile(path: path), let head = try? file.head(AnimatedImage.headLength) else { return false }
        let format = ImageFormat.sniff(head)
        guard format == .jxl || format == .avif else { return AnimatedImage.isAnimated(fileAt: path, byteLimit: byteLimit) }
        guard file.size <= byteLimit, let helper = try? pool.borrow() else { return false }
        let timeLimit = pool.configuration.timeLimit
        if let failure = helper.awaitReady(timeLimit: timeLimit) {
            pool.replace(helper, failedOn: path, failure)
            return false
        }
        let (request, tail) = DecodeHelperFramesWire.probe(byteLimit: byteLimit, name: path)
        guard file.withDescriptor({ helper.send(request, tail: tail, descriptor: $0) }) else {
            pool.replace(helper, failedOn: path, helper.death())
            return false
        }
        switch helper.receive(timeLimit: timeLimit) {
        case .reply(let reply, let fd):
            if fd >= 0 { close(fd) }
            pool.giveBack(helper)
            return reply.status == 0 && reply.numbers.0 == 1
        case .failed(let failure):
            pool.replace(helper, failedOn: path, failure)
            return false
        case .cancelled:
            pool.replace(helper)
            return false
        }
    }
}
