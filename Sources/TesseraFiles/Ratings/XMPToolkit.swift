import CExempi
import CTesseraXMPQuiet
import Synchronization

/// Exempi (Adobe's XMP toolkit behind a C interface) for the whole process: initialised once, and used by
/// one thread at a time.
///
/// The toolkit keeps process-wide state, its namespace registry above all, which parsing a packet that
/// declares a new namespace writes to, and its initialisation is not guarded at all; programs that let
/// several threads into it at once (darktable through exiv2) have crashed in it. So every call goes
/// through `withLock`. What is done under it is parsing, setting a property and serialising, a fraction
/// of a millisecond per sidecar; files are read and written outside it.
package enum XMPToolkit {
    /// Whether `xmp_init` succeeded, decided the first time the lock is taken.
    private static let state = Mutex<Bool?>(nil)

    /// Runs `body` with the toolkit to itself; nil when the toolkit cannot be initialised.
    package static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result? {
        try state.withLock { initialised -> Result? in
            if initialised == nil {
                initialised = xmp_init()
                tessera_xmp_quiet_error_stream()
            }
            guard initialised == true else { return nil }
            return try body()
        }
    }
}

/// One XMP packet, parsed or new, owned: freed with it. Use only inside `XMPToolkit.withLock`, and do not
/// let it outlive the closure (it is not `Sendable`).
package final class XMPPacket {
    private let pointer: XmpPtr

    /// The empty packet.
    package init?() {
        guard let pointer = xmp_new_empty() else { return nil }
        self.pointer = pointer
    }

    /// The packet `bytes` hold (serialised XMP, UTF-8), or nil when Exempi cannot parse them (it then
    /// prints the parser's complaint, "XML parsing failure", on standard error itself).
    package init?(parsing bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, let pointer = xmp_new(base.assumingMemoryBound(to: CChar.self), bytes.count) else {
            return nil
        }
        self.pointer = pointer
    }

    /// A copy that changes apart from this one. Not `xmp_copy`, whose copy shares the packet (the
    /// toolkit's copy constructor counts references), so that a property taken out of one goes from both.
    package func copy() -> XMPPacket? {
        guard let bytes = serialized() else { return nil }
        return bytes.withUnsafeBytes { XMPPacket(parsing: $0) }
    }

    deinit { xmp_free(pointer) }

    /// The text of the simple property `name` (a qualified name such as `xmp:Rating`) of `namespace`; nil
    /// when it is absent.
    package func property(_ namespace: String, _ name: String) -> String? {
        guard let value = xmp_string_new() else { return nil }
        defer { xmp_string_free(value) }
        guard xmp_get_property(pointer, namespace, name, value, nil) else { return nil }
        return String(cString: xmp_string_cstr(value))
    }

    /// Sets the simple property `name` of `namespace` to `text`; false when the toolkit refuses.
    @discardableResult
    package func setProperty(_ namespace: String, _ name: String, to text: String) -> Bool {
        xmp_set_property(pointer, namespace, name, text, 0)
    }

    /// Removes the property `name` of `namespace` (nothing when it is absent).
    package func deleteProperty(_ namespace: String, _ name: String) {
        xmp_delete_property(pointer, namespace, name)
    }

    /// Whether the packet holds no property at all.
    package var isEmpty: Bool {
        guard let iterator = xmp_iterator_new(pointer, nil, nil, XmpIterOptions(XMP_ITER_JUSTCHILDREN.rawValue)) else { return true }
        defer { xmp_iterator_free(iterator) }
        return !xmp_iterator_next(iterator, nil, nil, nil, nil)
    }

    /// The packet as a sidecar file holds it: `x:xmpmeta` without the packet wrapper and its padding, as
    /// Adobe's and darktable's sidecars are written. With `compact`, no indentation either: a form two
    /// packets of the same content share, for comparing them. Nil when the toolkit refuses.
    package func serialized(compact: Bool = false) -> [UInt8]? {
        guard let buffer = xmp_string_new() else { return nil }
        defer { xmp_string_free(buffer) }
        var options = UInt32(XMP_SERIAL_OMITPACKETWRAPPER)
        if compact { options |= UInt32(XMP_SERIAL_OMITALLFORMATTING) }
        guard xmp_serialize(pointer, buffer, options, 0) else { return nil }
        let text = xmp_string_cstr(buffer)!
        return Array(UnsafeRawBufferPointer(start: text, count: xmp_string_len(buffer)))
    }
}
