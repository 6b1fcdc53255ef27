#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// What the server said about a cached copy, kept beside it so the next run can ask "changed since?".
struct CachedResponseMetadata: Codable, Equatable, Sendable {
    var url: String
    var etag: String?
    var lastModified: String?
    var contentType: String?
    /// Until when the server's `Cache-Control: max-age` lets the copy serve without asking
    /// (`ResponseFreshness`); nil: ask every time.
    var freshUntil: Date? = nil
}

/// A cached copy found on disk for a URL.
struct CachedCopy: Equatable, Sendable {
    let path: String
    let version: FileVersion
    /// Nil when the sidecar is missing or unreadable: the copy can still serve offline, but the request
    /// cannot be conditional.
    let metadata: CachedResponseMetadata?
}

/// The folder of downloaded images: `MD5(url)` holds the bytes, `MD5(url).json` the response metadata.
/// A download is written to `MD5(url).download-XXXXXX` and renamed into place only when complete and
/// checked, so a reader never sees a partial file and a failed download never replaces a good copy.
/// Folders are made 0700 and files 0600, as the thumbnail cache does: the URLs a user views are private.
///
/// Every method touches the disk: call them from the download queue, never from the UI thread.
struct RemoteCacheFolder: Sendable {
    let path: String

    /// `remote` in Tessera's cache folder (`DiskCacheJanitor.defaultRoot`): one limit covers it and the
    /// pyramids. Nil without a HOME.
    static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        DiskCacheJanitor.defaultRoot(environment: environment).map { $0 + "/remote" }
    }

    /// A folder of its own under the system's temporary folder (not created yet).
    static func privateTemporaryPath() -> String {
        let temporary = NSTemporaryDirectory()
        let base = temporary.hasSuffix("/") ? temporary : temporary + "/"
        return base + "tessera-remote-\(getpid())-\(UUID().uuidString.prefix(8))"
    }

    func dataPath(for url: String) -> String { path + "/" + CacheFileName.md5Hex(url) }
    func metadataPath(for url: String) -> String { dataPath(for: url) + ".json" }

    /// The cached copy of `url`, if a regular file is there.
    func cachedCopy(for url: String) -> CachedCopy? {
        let dataPath = dataPath(for: url)
        guard let version = FileVersion.ofFile(atPath: dataPath) else { return nil }
        var metadata: CachedResponseMetadata?
        if let json = FileManager.default.contents(atPath: metadataPath(for: url)),
           let decoded = try? JSONDecoder().decode(CachedResponseMetadata.self, from: json), decoded.url == url {
            metadata = decoded
        }
        return CachedCopy(path: dataPath, version: version, metadata: metadata)
    }

    /// Creates the folder and its missing parents; returns why it failed, or nil.
    func create() -> String? { POSIXFiles.makeFolders(path, mode: 0o700) }

    /// Opens a new temporary file for the download of `url` (mode 0600); creates the folder if needed.
    func makeTemporaryFile(for url: String) -> Result<(descriptor: Int32, path: String), DownloadFailure> {
        func attempt() -> (Int32, String) {
            var template = Array((dataPath(for: url) + ".download-XXXXXX").utf8CString)
            let descriptor = Self.makeTemporary(&template)
            let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return (descriptor, path)
        }
        var (descriptor, temporaryPath) = attempt()
        if descriptor < 0 && errno == ENOENT {
            if let failure = create() { return .failure(.cacheNotWritable(reason: failure)) }
            (descriptor, temporaryPath) = attempt()
        }
        guard descriptor >= 0 else {
            return .failure(.cacheNotWritable(reason: "cannot create a file in \(path): \(Self.errorText(errno))"))
        }
        return .success((descriptor, temporaryPath))
    }

    /// Moves a complete, checked download into place, then its metadata. Returns the new copy's version.
    ///
    /// Bytes first, metadata second: a crash in between leaves old validators beside new bytes, which
    /// only costs a full download next time; the other order could answer a 304 with stale bytes.
    func install(temporaryPath: String, for url: String,
                 metadata: CachedResponseMetadata) -> Result<FileVersion, DownloadFailure> {
        let dataPath = dataPath(for: url)
        guard rename(temporaryPath, dataPath) == 0 else {
            let reason = "rename to \(dataPath): \(Self.errorText(errno))"
            unlink(temporaryPath)
            return .failure(.cacheNotWritable(reason: reason))
        }
        writeMetadata(metadata, for: url)
        guard let version = FileVersion.ofFile(atPath: dataPath) else {
            return .failure(.cachedCopyMissing(reason: "\(dataPath) vanished right after it was written"))
        }
        return .success(version)
    }

    /// Writes the sidecar atomically (a 304 renews a copy's freshness this way). A failure only loses the
    /// validators, so it is not reported.
    func writeMetadata(_ metadata: CachedResponseMetadata, for url: String) {
        let target = metadataPath(for: url)
        guard let json = try? JSONEncoder().encode(metadata) else { return }
        var template = Array((target + ".tmp-XXXXXX").utf8CString)
        let descriptor = Self.makeTemporary(&template)
        guard descriptor >= 0 else { return }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = json.withUnsafeBytes { POSIXFiles.writeAll(descriptor, $0) == nil }
        if close(descriptor) != 0 || !written || rename(temporary, target) != 0 {
            unlink(temporary)
        }
    }

    /// Deletes the folder and everything in it (the private temporary folder, at shutdown).
    func removeAll() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `mkstemp` with close-on-exec (Glibc's module does not import `mkostemp`).
    private static func makeTemporary(_ template: inout [CChar]) -> Int32 {
        let descriptor = mkstemp(&template)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptor
    }

    static func errorText(_ code: Int32) -> String { POSIXFiles.errorText(code) }
}
