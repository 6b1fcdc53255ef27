#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraFiles

/// The freedesktop thumbnail cache (Thumbnail Managing Standard), shared with GNOME, KDE and every other
/// program that follows it: `thumbnails/{normal,large,x-large,xx-large}/MD5(file URI).png`, each PNG
/// carrying the original's URI and modification time in `tEXt` chunks.
///
/// - A thumbnail is valid when its `Thumb::URI` is the original's URI, its `Thumb::MTime` the original's
///   modification time in whole seconds, and (when present) its `Thumb::Size` the original's size in
///   bytes. Anything else, including a file libpng cannot read, counts as absent and is made again.
/// - Writes are atomic (a temporary file in the same folder, then `rename`), folders are made with mode
///   0700 and files with 0600, as the standard asks.
/// - Failed originals are recorded under `fail/tessera-VERSION/` as a 1x1 PNG with the URI and MTime,
///   so a broken file is not decoded again on every visit.
/// - A cache that cannot be written to means no cache: the first failed write logs one warning and turns
///   writing off for the life of the store; loading is never affected.
///
/// Thread-safe: workers read and write concurrently; two workers writing the same thumbnail each write
/// their own temporary file and the last rename wins, both being complete.
package final class ThumbnailStore: Sendable {
    /// Names this program's folder of failure records ("appname-version", as the standard asks). The
    /// version moves whenever files a version recorded as failures may decode in the next (a JPEG or PNG
    /// cut short in its data is shown as far as it goes), so that a record is believed only by its writer.
    package static let applicationID = "tessera-0.2"

    /// The `thumbnails` folder.
    package let root: String
    /// Where this program records originals it could not thumbnail.
    package let failureFolder: String
    private let logger: Logger
    /// The root with symbolic links resolved (if it exists), to recognise files inside the cache.
    private let resolvedRoot: String?
    /// Why writing was turned off, once it has been.
    private let writeFailure = Mutex<String?>(nil)

    /// The identity of an original file as the cache sees it.
    package struct Original: Sendable, Equatable {
        /// Absolute, as the user reached it (symbolic links are not resolved).
        package let path: String
        package let uri: String
        /// Seconds since the epoch.
        package let modificationTime: Int64
        package let byteCount: Int64
    }

    package init(root: String, applicationID: String = ThumbnailStore.applicationID,
                logger: Logger = Logger(label: "tessera.thumbnails")) {
        self.root = FreedesktopThumbnailPath.absolutePath(root)
        failureFolder = FreedesktopThumbnailPath.join(FreedesktopThumbnailPath.join(self.root, "fail"), applicationID)
        self.logger = logger
        resolvedRoot = POSIXFiles.realpath(self.root)
    }

    /// The user's cache (`$XDG_CACHE_HOME/thumbnails` or `~/.cache/thumbnails`); nil without a home folder.
    package convenience init?(environment: [String: String] = ProcessInfo.processInfo.environment,
                             logger: Logger = Logger(label: "tessera.thumbnails")) {
        guard let root = FreedesktopThumbnailPath.cacheRoot(environment: environment) else { return nil }
        self.init(root: root, logger: logger)
    }

    /// Whether thumbnails are still being written (false after the first failed write).
    package var isWritable: Bool { writeFailure.withLock { $0 == nil } }

    // MARK: - Originals and paths

    /// The original at `path`, or nil when it is not a regular file (or cannot be stat'ed), or lies
    /// inside the thumbnail cache itself: thumbnails of thumbnails are never made.
    package func original(atPath path: String) -> Original? {
        let absolute = FreedesktopThumbnailPath.absolutePath(path)
        if isInsideCache(absolute) { return nil }
        var st = stat()
        guard POSIXFiles.stat(absolute, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return Original(path: absolute, uri: FreedesktopThumbnailPath.fileURI(forAbsolutePath: absolute),
                        modificationTime: Int64(st.st_mtim.tv_sec), byteCount: Int64(st.st_size))
    }

    package func path(for original: Original, size: ThumbnailSize) -> String {
        FreedesktopThumbnailPath.join(folder(size), FreedesktopThumbnailPath.fileName(forURI: original.uri))
    }

    package func failurePath(for original: Original) -> String {
        FreedesktopThumbnailPath.join(failureFolder, FreedesktopThumbnailPath.fileName(forURI: original.uri))
    }

    private func folder(_ size: ThumbnailSize) -> String {
        FreedesktopThumbnailPath.join(root, size.folderName)
    }

    private func isInsideCache(_ absolute: String) -> Bool {
        for folder in [root, resolvedRoot].compactMap({ $0 }) where absolute == folder || absolute.hasPrefix(folder + "/") {
            return true
        }
        return false
    }

    // MARK: - Reading

    /// The valid thumbnail of `size`, or nil (none, stale, unreadable, or too small for its folder).
    package func thumbnail(for original: Original, size: ThumbnailSize) -> PixelBuffer? {
        guard let data = Self.readSmallFile(path(for: original, size: size)),
              let contents = PNGThumbnailIO.read(data, rejects: { isStale($0, for: original) }),
              isValid(contents.fields, for: original) else { return nil }
        let pixels = contents.pixels, fields = contents.fields
        // Smaller than its folder's size is right only for an original that small; when the writer says
        // how big the original is (the optional Thumb::Image fields), a thumbnail that undershoots is
        // refused rather than shown blurred.
        let side = max(pixels.width, pixels.height)
        if side < size.pixels, let width = fields[Key.imageWidth].flatMap({ Int($0) }),
           let height = fields[Key.imageHeight].flatMap({ Int($0) }), max(width, height) > side {
            return nil
        }
        var thumbnail = pixels
        thumbnail.holdsSeveralImages = fields[Key.severalImages] == "1"
        thumbnail.isSequence = fields[Key.sequence] == "1"
        return thumbnail
    }

    /// The valid thumbnail of `size` or, failing that, of the nearest larger size (made by a file manager
    /// at another zoom level), which only has to be shrunk more.
    package func thumbnail(for original: Original, atLeast size: ThumbnailSize) -> PixelBuffer? {
        for candidate in ThumbnailSize.allCases where candidate >= size {
            if let found = thumbnail(for: original, size: candidate) { return found }
        }
        return nil
    }

    /// The text this program recorded when it failed on the original (unchanged since), or nil.
    package func recordedFailure(for original: Original) -> String? {
        guard let data = Self.readSmallFile(failurePath(for: original)),
              let fields = PNGThumbnailIO.read(data, rejects: { isStale($0, for: original) })?.fields,
              isValid(fields, for: original) else { return nil }
        return fields[Key.failure] ?? ""
    }

    /// Fields that already name an original (URI and time) and not this one: the thumbnail is stale
    /// whatever follows.
    private func isStale(_ fields: [String: String], for original: Original) -> Bool {
        fields[Key.uri] != nil && fields[Key.mtime] != nil && !isValid(fields, for: original)
    }

    private func isValid(_ fields: [String: String], for original: Original) -> Bool {
        guard fields[Key.uri] == original.uri, let mtime = fields[Key.mtime].flatMap({ Int64($0) }),
              mtime == original.modificationTime else { return false }
        if let size = fields[Key.size] { return Int64(size) == original.byteCount }
        return true
    }

    // MARK: - Writing

    /// Saves `thumbnail` (already no bigger than `size`) for `original`; returns whether it was written.
    @discardableResult
    package func save(_ thumbnail: PixelBuffer, for original: Original, size: ThumbnailSize) -> Bool {
        // What the strip's cell says of the file beyond its first image, kept with its picture.
        var fields = fields(for: original)
        if thumbnail.holdsSeveralImages { fields.append((Key.severalImages, "1")) }
        if thumbnail.isSequence { fields.append((Key.sequence, "1")) }
        guard isWritable, let png = PNGThumbnailIO.encode(thumbnail, fields: fields) else { return false }
        return writeAtomically(png, to: path(for: original, size: size), folder: folder(size))
    }

    /// Records that the original could not be thumbnailed, with `reason` for this program's own use.
    @discardableResult
    package func recordFailure(for original: Original, reason: String) -> Bool {
        guard isWritable else { return false }
        let empty = PixelBuffer(width: 1, height: 1, bytes: [0, 0, 0, 0])
        let text = fields(for: original) + [(Key.failure, Self.printableASCII(reason))]
        guard let png = PNGThumbnailIO.encode(empty, fields: text) else { return false }
        return writeAtomically(png, to: failurePath(for: original), folder: failureFolder)
    }

    private func fields(for original: Original) -> [(key: String, value: String)] {
        [(Key.uri, original.uri), (Key.mtime, String(original.modificationTime)),
         (Key.size, String(original.byteCount)), (Key.software, "Tessera")]
    }

    /// Writes `data` to a temporary file beside `path` and renames it into place. Creates missing folders.
    private func writeAtomically(_ data: Data, to path: String, folder: String) -> Bool {
        var template = Array((path + ".tessera-XXXXXX").utf8CString)
        var fd = mkstemp(&template)
        if fd < 0 && errno == ENOENT {
            if let failure = makeFolders(folder) { return disableWriting(failure) }
            // A failed mkstemp leaves its last attempt in the template.
            template = Array((path + ".tessera-XXXXXX").utf8CString)
            fd = mkstemp(&template)
        }
        guard fd >= 0 else { return disableWriting("cannot create a file in \(folder): \(Self.errorText(errno))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        if fchmod(fd, 0o600) != 0 { failure = "chmod \(temporary): \(Self.errorText(errno))" }
        if failure == nil { failure = Self.writeAll(fd, data).map { "write \(temporary): \($0)" } }
        if close(fd) != 0 && failure == nil { failure = "close \(temporary): \(Self.errorText(errno))" }
        if failure == nil && POSIXFiles.rename(temporary, path) != 0 { failure = "rename to \(path): \(Self.errorText(errno))" }
        guard let failure else { return true }
        POSIXFiles.unlink(temporary)
        return disableWriting(failure)
    }

    private func makeFolders(_ folder: String) -> String? { POSIXFiles.makeFolders(folder, mode: 0o700) }

    private func disableWriting(_ reason: String) -> Bool {
        let first = writeFailure.withLock { failure -> Bool in
            guard failure == nil else { return false }
            failure = reason
            return true
        }
        if first {
            logger.warning("thumbnail cache not writable, continuing without it",
                           metadata: ["cache": "\(root)", "reason": "\(reason)"])
        }
        return false
    }

    // MARK: - Helpers

    private enum Key {
        static let uri = "Thumb::URI"
        static let mtime = "Thumb::MTime"
        static let size = "Thumb::Size"
        static let software = "Software"
        static let imageWidth = "Thumb::Image::Width"
        static let imageHeight = "Thumb::Image::Height"
        static let failure = "X-Tessera::Failure"
        /// The original holds several images; a HEIF image sequence has `sequence`.
        static let severalImages = "X-Tessera::SeveralImages"
        static let sequence = "X-Tessera::Sequence"
    }

    /// Thumbnails are small; a "thumbnail" bigger than this is not one and is not read.
    private static let maximumThumbnailBytes = 32 << 20

    /// The file's bytes; nil when it is missing, empty, not a regular file or too big to be a thumbnail. A
    /// short read (the file shrank) is what there is: the PNG checks catch the rest.
    private static func readSmallFile(_ path: String) -> Data? {
        guard let file = try? ImageFile(path: path), file.size <= maximumThumbnailBytes else { return nil }
        return try? file.readAll()
    }

    private static func writeAll(_ fd: Int32, _ data: Data) -> String? {
        data.withUnsafeBytes { POSIXFiles.writeAll(fd, $0) }
    }

    private static func printableASCII(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(200).map { $0.isASCII && $0.value >= 32 ? $0 : "?" }))
    }

    private static func errorText(_ code: Int32) -> String { POSIXFiles.errorText(code) }
}
