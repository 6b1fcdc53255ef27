#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// A rows exchange on the decode helper's side (the viewer's side is `HelperScanlineSource`): opens the
/// image with `ScanlineSources.open`, the code the tile cutter runs in process, sends the rows' size and
/// colour with a sealed memfd of two halves, then reads each request's rows into the half it names until
/// the viewer ends the exchange.
enum DecodeHelperRowsServer {
    typealias Hook = DecodeHelperService.RowsHook

    /// Serves one exchange opened by `request` for the image `fd`. False when the socket failed or the
    /// viewer broke the protocol: the helper then exits.
    static func serve(_ request: tessera_decode_request, fd: Int32, name: String, decoders: [any ImageDecoding],
                      socket: Int32, hook: Hook?) -> Bool {
        guard fd >= 0 else { return send(DecodeHelperRowsWire.reply(refusing: .unreadable("no descriptor")), memfd: -1, socket) }
        let source: any ScanlineSource
        var tail = Data()
        do throws(TileCutError.Reason) {
            let file: ImageFile
            do { file = try ImageFile(descriptor: fd, path: name) } catch { throw TileCutError.Reason(error) }
            if hook != nil { tail = fileTail(file) }
            source = try ScanlineSources.open(file, fallbackDecoders: decoders,
                                              pixelLimitForWholeDecode: Int(request.pixel_limit))
        } catch {
            return send(DecodeHelperRowsWire.reply(refusing: error), memfd: -1, socket)
        }

        let profile = DecodeHelperRowsWire.profile(of: source.colourSpace)
        guard let halfBytes = DecodeHelperRowsWire.halfBytes(width: source.width), source.height > 0 else {
            return send(DecodeHelperRowsWire.reply(refusing: .corrupt("the image has no pixels")), memfd: -1, socket)
        }
        let length = 2 * halfBytes + profile.count
        guard let (memfd, memory) = SealedSlots.make("tessera-rows", length: length) else {
            return send(DecodeHelperRowsWire.reply(refusing: .unreadable(POSIXFiles.errorText(errno))), memfd: -1, socket)
        }
        defer { munmap(memory, length) }
        profile.withUnsafeBytes { if $0.count > 0 { (memory + 2 * halfBytes).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
        let opened = send(DecodeHelperRowsWire.reply(opening: source, profileLength: profile.count), memfd: memfd, socket)
        close(memfd)
        guard opened else { return false }

        let rowBytes = source.width * 4
        let rowsPerHalf = DecodeHelperRowsWire.rowsPerHalf(width: source.width)
        var nextRow = 0
        // A refusal ends the reading: every later request of the exchange gets it too.
        var failure: TileCutError.Reason?
        while true {
            guard let next = DecodeHelperWire.receiveExchangeRequest(on: socket) else { return false }
            switch Int32(next.kind) {
            case TESSERA_REQUEST_ROWS_NEXT:
                let count = Int(next.row_count), half = Int(next.buffer_half)
                if failure == nil {
                    guard (0...1).contains(half), (1...rowsPerHalf).contains(count), nextRow + count <= source.height else {
                        return false
                    }
                    hook?(tail, nextRow)
                    do {
                        try source.readRows(into: memory + half * halfBytes, stride: rowBytes, count: count)
                        nextRow += count
                    } catch {
                        failure = error
                    }
                }
                guard send(failure.map(DecodeHelperRowsWire.reply(refusing:)) ?? DecodeHelperRowsWire.done, memfd: -1, socket) else {
                    return false
                }
            case TESSERA_REQUEST_ROWS_END:
                if failure == nil && nextRow == source.height {
                    do { try source.finish() } catch { failure = error }
                }
                return send(failure.map(DecodeHelperRowsWire.reply(refusing:)) ?? DecodeHelperRowsWire.done, memfd: -1, socket)
            default:
                return false
            }
        }
    }

    /// The file's last bytes, for the tests' hook.
    private static func fileTail(_ file: ImageFile) -> Data {
        let count = min(32, file.size)
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { (try? file.read(into: $0.baseAddress!, from: file.size - count, to: file.size)) ?? 0 }
        return Data(bytes.prefix(max(0, got - (file.size - count))))
    }

    private static func send(_ reply: tessera_decode_reply, memfd: Int32, _ socket: Int32) -> Bool {
        var reply = reply
        return tessera_send_with_fd(socket, &reply, MemoryLayout<tessera_decode_reply>.size, memfd) == 0
    }
}
