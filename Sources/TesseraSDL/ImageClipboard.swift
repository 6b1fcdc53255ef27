import CTesseraX11
import Foundation
import Synchronization

/// Why the picture cannot go on the clipboard; `description` is a sentence the viewer can show.
package enum ImageClipboardError: Error, Equatable, CustomStringConvertible {
    /// No X display to offer a picture through: a Wayland session without Xwayland, a display that cannot
    /// be opened, SDL's dummy driver. The text clipboard (`Clipboard`) may still work.
    case textOnly(reason: String)
    /// The owner has ended: its connection to the display was lost, or it was stopped. A new one may start.
    case ended
    case outOfMemory

    package var description: String {
        switch self {
        case .textOnly(let reason): "the clipboard takes text only here: \(reason)"
        case .ended: "the image clipboard has stopped: its X display went away"
        case .outOfMemory: "no memory to copy the image for the clipboard"
        }
    }
}

/// The shown picture on the desktop's clipboard: its PNG bytes as `image/png`, its file as `text/uri-list`,
/// and the same URIs as plain text for programs that paste only text (a terminal, a text field).
///
/// SDL 2's clipboard holds text only, so this owns the X11 CLIPBOARD selection itself, on an X connection
/// and a thread of its own (CTesseraX11's tessera_x11_clipboard.h): the main thread never waits for the
/// server or for the programs that paste, and the picture stays pastable, at any size, for as long as this
/// object lives and no other program copies something. On a Wayland desktop it reaches Wayland programs
/// through Xwayland where the compositor passes X11 selections on (GNOME's does; sway's and KDE's only
/// while an X11 window has the focus).
///
/// Make one after SDL has started its video (see the header on Xlib's error handlers) and keep it: each
/// `offer` replaces the last. Every method may be called from any thread.
package final class ImageClipboard: Sendable {
    private let owner: Mutex<OpaquePointer?>

    /// Connects to the X display named by `displayName`, or by `DISPLAY` in `environment`. Throws `textOnly`
    /// when there is none, or it cannot be opened. Waits for one round trip to the server.
    ///
    /// - Parameter transferTimeout: how long a program pasting a large picture (by ICCCM's INCR protocol,
    ///   a chunk at a time) may take for each chunk before it is given up.
    package init(displayName: String? = nil, transferTimeout: Duration = .seconds(10),
                 environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let name = displayName ?? environment["DISPLAY"] ?? ""
        guard !name.isEmpty else {
            let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
            throw ImageClipboardError.textOnly(reason: wayland ? "a Wayland session without Xwayland (DISPLAY is not set)"
                                                               : "no X display (DISPLAY is not set)")
        }
        let milliseconds = transferTimeout.components.seconds * 1000 + transferTimeout.components.attoseconds / 1_000_000_000_000_000
        var error = [CChar](repeating: 0, count: 256)
        guard let pointer = tessera_x11_clipboard_start(name, UInt32(clamping: max(1, milliseconds)), &error, error.count) else {
            throw ImageClipboardError.textOnly(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        owner = Mutex(pointer)
    }

    deinit { stop() }

    /// Puts the picture on the clipboard: `png`, the encoded picture, and `uriList`, its file's URI (or
    /// several, one a line; empty for a picture with no file). The bytes are copied and handed to the
    /// owner's thread, which takes the clipboard for them; this returns without waiting for it, so
    /// `holdsLatestOffer` becomes true a moment later.
    ///
    /// The URIs go out as `text/uri-list` with CRLF line ends (RFC 2483) and, without the comment lines,
    /// as plain text, one a line.
    package func offer(png: [UInt8], uriList: String) throws {
        let uris = uriList.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let list = Array(uris.map { "\($0)\r\n" }.joined().utf8)
        let text = Array(uris.filter { !$0.hasPrefix("#") }.joined(separator: "\n").utf8)
        let status: Int32 = try owner.withLock { pointer in
            guard let pointer else { throw ImageClipboardError.ended }
            return png.withUnsafeBufferPointer { png in
                list.withUnsafeBufferPointer { list in
                    text.withUnsafeBufferPointer { text in
                        tessera_x11_clipboard_offer(pointer, png.baseAddress, png.count,
                                                    list.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, list.count,
                                                    text.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }, text.count)
                    }
                }
            }
        }
        switch Int(status) {
        case TESSERA_X11_CLIPBOARD_OFFERED: return
        case TESSERA_X11_CLIPBOARD_NO_MEMORY: throw ImageClipboardError.outOfMemory
        default: throw ImageClipboardError.ended
        }
    }

    /// Whether the clipboard holds the latest offer: false until the owner's thread has taken it, and again
    /// once another program copies something.
    package var holdsLatestOffer: Bool {
        owner.withLock { pointer in pointer.map { tessera_x11_clipboard_holds($0) != 0 } ?? false }
    }

    /// How many programs are pasting a picture too large for one request (INCR transfers under way).
    package var transfersUnderWay: Int {
        owner.withLock { pointer in pointer.map { Int(tessera_x11_clipboard_transfers($0)) } ?? 0 }
    }

    /// Gives up the clipboard and ends the owner's thread and connection. Later offers throw `ended`.
    package func stop() {
        owner.withLock { pointer in
            tessera_x11_clipboard_stop(pointer)
            pointer = nil
        }
    }
}
