#if canImport(Glibc)
import Glibc
#endif
import CTesseraFiles
import TesseraCore

/// The system calls Tessera makes on a path, each given the path's bytes (`PathText`), never the UTF-8 of
/// its text: a name that is not UTF-8 reaches the file it names, and no other.
extension POSIXFiles {
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        PathText.withCString(path) { Glibc.open($0, flags, mode) }
    }

    /// stat(2), following a final symbolic link.
    package static func stat(_ path: String, _ status: inout Glibc.stat) -> Int32 {
        PathText.withCString(path) { systemStat($0, &status) }
    }

    /// lstat(2): a final symbolic link is described, not followed.
    package static func lstat(_ path: String, _ status: inout Glibc.stat) -> Int32 {
        PathText.withCString(path) { systemLstat($0, &status) }
    }

    @discardableResult
    package static func unlink(_ path: String) -> Int32 {
        PathText.withCString(path) { Glibc.unlink($0) }
    }

    @discardableResult
    package static func rmdir(_ path: String) -> Int32 {
        PathText.withCString(path) { Glibc.rmdir($0) }
    }

    @discardableResult
    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        PathText.withCString(path) { Glibc.mkdir($0, mode) }
    }

    package static func access(_ path: String, _ mode: Int32) -> Int32 {
        PathText.withCString(path) { Glibc.access($0, mode) }
    }

    @discardableResult
    package static func rename(_ from: String, _ to: String) -> Int32 {
        PathText.withCString(from) { source in PathText.withCString(to) { Glibc.rename(source, $0) } }
    }

    /// renameat2(2) with RENAME_NOREPLACE: fails with EEXIST rather than replace what is at `to`.
    @discardableResult
    package static func renameWithoutReplacing(_ from: String, _ to: String) -> Int32 {
        PathText.withCString(from) { source in PathText.withCString(to) { tessera_rename_noreplace(source, $0) } }
    }

    package static func opendir(_ path: String) -> OpaquePointer? {
        PathText.withCString(path) { Glibc.opendir($0) }
    }

    /// The canonical absolute path (realpath(3)), as text; nil with errno set when it cannot be resolved.
    package static func realpath(_ path: String) -> String? {
        PathText.withCString(path) { pointer -> String? in
            guard let resolved = Glibc.realpath(pointer, nil) else { return nil }
            defer { free(resolved) }
            return PathText.text(ofCString: resolved)
        }
    }

    /// mkstemp(3) on `template` (a path ending in XXXXXX): the open descriptor and the file's path, or nil
    /// with errno set.
    package static func makeTemporaryFile(_ template: String) -> (descriptor: Int32, path: String)? {
        var bytes = PathText.bytes(of: template).map { CChar(bitPattern: $0) }
        bytes.append(0)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        return (descriptor, bytes.withUnsafeBufferPointer { PathText.text(ofCString: $0.baseAddress!) })
    }
}

// At file scope, where `stat` names the C function as well as the structure.
private func systemStat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 { stat(path, &status) }
private func systemLstat(_ path: UnsafePointer<CChar>, _ status: inout stat) -> Int32 { lstat(path, &status) }
