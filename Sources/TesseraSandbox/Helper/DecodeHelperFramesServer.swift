#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// A frames exchange on the decode helper's side (the viewer's side is `HelperAnimationReader`): reads the
/// file and opens it with `AnimatedImage.reader`, the code `--decode-in-process` runs in the viewer, sends
/// the first frame with a sealed memfd of two frame slots, then reads each requested frame into the slot
/// it names, starts again from the first frame when asked, until the viewer ends the exchange. Also
/// answers a probe (whether a file is an animation) with `AnimatedImage.isAnimated`.
enum DecodeHelperFramesServer {
    typealias Hook = DecodeHelperService.RowsHook

    /// Serves one exchange opened by `request` for the file `fd`. False when the socket failed or the
    /// viewer broke the protocol: the helper then exits.
    static func serve(_ request: tessera_decode_request, fd: Int32, name: String, socket: Int32, hook: Hook?) -> Bool {
        let pixelLimit = Int(request.pixel_limit)
        let data: Data
        var tail = Data()
        var reader: any AnimationReading
        let first: (pixels: PixelBuffer, delay: Duration)
        do throws(ImageLoadError.Reason) {
            let file = try open(fd, name: name, byteLimit: Int(request.byte_limit))
            if request.animations_only != 0 {
                // As in process, a PNG's, WebP's or JPEG XL's first bytes tell a still: it is not read whole.
                let head = try bytes(file.head(AnimatedImage.headLength))
                if !AnimatedImage.needsWholeFile(ImageFormat.sniff(head)) && !AnimatedImage.isAnimated(head) {
                    return send(DecodeHelperFramesWire.noFrame, memfd: -1, socket)
                }
            }
            data = try bytes(file.readAll())
            if request.animations_only != 0 && !AnimatedImage.isAnimated(data) {
                return send(DecodeHelperFramesWire.noFrame, memfd: -1, socket)
            }
            if hook != nil { tail = data.suffix(32) }
            reader = try AnimatedImage.reader(for: data, pixelLimit: pixelLimit)
            guard let frame = try reader.nextFrame() else { throw .decodeFailed("animation without frames") }
            first = frame
        } catch {
            return send(DecodeHelperWire.reply(refusing: error), memfd: -1, socket)
        }

        let width = first.pixels.width, height = first.pixels.height
        let profile = first.pixels.colourProfile ?? []
        guard let slotBytes = DecodeHelperFramesWire.slotBytes(width: width, height: height),
              first.pixels.bytes.count == slotBytes else {
            return send(DecodeHelperWire.reply(refusing: .decodeFailed("the first frame has no pixels")), memfd: -1, socket)
        }
        let length = 2 * slotBytes + profile.count
        guard let (memfd, memory) = SealedSlots.make("tessera-frames", length: length) else {
            return send(DecodeHelperWire.reply(refusing: .unreadable(POSIXFiles.errorText(errno))), memfd: -1, socket)
        }
        defer { munmap(memory, length) }
        first.pixels.bytes.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: slotBytes) }
        profile.withUnsafeBytes { if $0.count > 0 { (memory + 2 * slotBytes).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        let opened = send(DecodeHelperFramesWire.opening(first: first.pixels, plays: reader.plays, delay: first.delay,
                                                         profileLength: profile.count), memfd: memfd, socket)
        close(memfd)
        guard opened else { return false }

        // The frame the next request reads; a play that ended (its last frame, or a frame that failed)
        // answers "no frame" until it starts again.
        var index = 1
        var ended = false
        while true {
            guard let next = DecodeHelperWire.receiveExchangeRequest(on: socket) else { return false }
            let reply: tessera_decode_reply
            switch Int32(next.kind) {
            case TESSERA_REQUEST_FRAMES_NEXT:
                let slot = Int(next.buffer_half)
                guard (0...1).contains(slot) else { return false }
                if ended {
                    reply = DecodeHelperFramesWire.noFrame
                    break
                }
                hook?(tail, index)
                do throws(ImageLoadError.Reason) {
                    if let frame = try reader.nextFrame() {
                        guard frame.pixels.width == width, frame.pixels.height == height,
                              frame.pixels.bytes.count == slotBytes else {
                            throw .decodeFailed("animation frames of different sizes")
                        }
                        frame.pixels.bytes.withUnsafeBytes { (memory + slot * slotBytes).copyMemory(from: $0.baseAddress!, byteCount: slotBytes) }
                        index += 1
                        reply = DecodeHelperFramesWire.frame(width: width, height: height, plays: reader.plays, delay: frame.delay)
                    } else {
                        ended = true
                        reply = DecodeHelperFramesWire.noFrame
                    }
                } catch {
                    ended = true
                    reply = DecodeHelperWire.reply(refusing: error)
                }
            case TESSERA_REQUEST_FRAMES_REWIND:
                do throws(ImageLoadError.Reason) {
                    reader = try AnimatedImage.reader(for: data, pixelLimit: pixelLimit)
                    index = 0
                    ended = false
                    reply = DecodeHelperFramesWire.done
                } catch {
                    reply = DecodeHelperWire.reply(refusing: error)
                }
            case TESSERA_REQUEST_FRAMES_END:
                return send(DecodeHelperFramesWire.done, memfd: -1, socket)
            default:
                return false
            }
            guard send(reply, memfd: -1, socket) else { return false }
        }
    }

    /// Answers a probe: whether the file `fd` is an animation. False when the socket failed.
    static func probe(_ request: tessera_decode_request, fd: Int32, name: String, socket: Int32) -> Bool {
        do throws(ImageLoadError.Reason) {
            let file = try open(fd, name: name, byteLimit: Int(request.byte_limit))
            let data = try bytes(file.readAll())
            return send(DecodeHelperFramesWire.probed(isAnimated: AnimatedImage.isAnimated(data)), memfd: -1, socket)
        } catch {
            return send(DecodeHelperWire.reply(refusing: error), memfd: -1, socket)
        }
    }

    /// The file `fd`, refused past `byteLimit` as the viewer refuses it in process.
    private static func open(_ fd: Int32, name: String, byteLimit: Int) throws(ImageLoadError.Reason) -> ImageFile {
        guard fd >= 0 else { throw .unreadable("no descriptor") }
        let file: ImageFile
        do { file = try ImageFile(descriptor: fd, path: name) } catch { throw ImageLoadError.Reason(error) }
        guard file.size <= byteLimit else { throw .fileTooLarge(bytes: file.size, limit: byteLimit) }
        return file
    }

    /// `read`'s bytes, or its failure as the loader's reason.
    private static func bytes(_ read: @autoclosure () throws(ImageFile.Failure) -> Data) throws(ImageLoadError.Reason) -> Data {
        do throws(ImageFile.Failure) { return try read() } catch { throw ImageLoadError.Reason(error) }
    }

    private static func send(_ reply: tessera_decode_reply, memfd: Int32, _ socket: Int32) -> Bool {
        var reply = reply
        return tessera_send_with_fd(socket, &reply, MemoryLayout<tessera_decode_reply>.size, memfd) == 0
    }
}
