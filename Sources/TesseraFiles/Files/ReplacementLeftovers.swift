#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore

/// The temporary files `FileReplacement` writes beside a photo, and their removal after a crash.
///
/// The name is `.tessera-turn-PID-XXXXXX`: hidden (no listing shows it), short whatever the photo's name
/// (a 255-byte name still has room), with the writer's process ID, and six characters `mkstemp` picks.
/// Only a name of exactly that pattern is ever removed, and only when its writer is gone (`kill(pid, 0)`
/// finds no process) or it has not been written for a minute: a file another viewer is writing right now
/// is neither, and a file a crashed run left is one or the other (a PID taken again by some other
/// process still leaves the file to age).
///
/// Tessera builds older than this pattern name the copy `.NAME.tessera-XXXXXX` beside the photo NAME.
/// Such a name is removed too, when the photo NAME is a regular file beside it and the copy has not been
/// written for a minute: it carries no writer to ask.
package enum ReplacementLeftovers {
    static let prefix = ".tessera-turn-"
    /// How long a temporary file whose writer seems alive is left alone.
    package static let maximumAge: TimeInterval = 60

    /// The `mkstemp` template for a temporary file in `folder`.
    static func template(in folder: String, processID: pid_t = getpid()) -> String {
        (folder == "/" ? "" : folder) + "/" + prefix + "\(processID)-XXXXXX"
    }

    /// The writer's process ID when `name` is exactly a temporary file's name; nil for any other name.
    package static func writer(ofName name: UnsafeBufferPointer<UInt8>) -> pid_t? {
        let prefix = Self.prefix.utf8
        guard name.count > prefix.count + 8, name.starts(with: prefix) else { return nil }
        var index = prefix.count
        var processID = 0
        let digitsStart = index
        while index < name.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(name[index]) {
            processID = processID * 10 + Int(name[index] - UInt8(ascii: "0"))
            index += 1
            if index - digitsStart > 10 { return nil }
        }
        guard index > digitsStart, name[digitsStart] != UInt8(ascii: "0"), processID <= Int(Int32.max),
              index < name.count, name[index] == UInt8(ascii: "-"), name.count - index - 1 == 6 else { return nil }
        for byte in name[(index + 1)...] {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            default: return nil
            }
        }
        return pid_t(processID)
    }

    /// Whether `name` is a temporary file's, of either pattern: what a folder's listing collects.
    package static func isLeftoverName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        writer(ofName: name) != nil || photoName(ofOlderName: name) != nil
    }

    /// NAME, when `name` is exactly `.NAME.tessera-XXXXXX` (six letters or digits); nil otherwise.
    static func photoName(ofOlderName name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let suffix = Array(".tessera-".utf8)
        guard name.count > 1 + 1 + suffix.count + 6, name[0] == UInt8(ascii: ".") else { return nil }
        let suffixStart = name.count - 6 - suffix.count
        guard name[suffixStart..<(suffixStart + suffix.count)].elementsEqual(suffix) else { return nil }
        for byte in name[(name.count - 6)...] {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            default: return nil
            }
        }
        return UnsafeBufferPointer(rebasing: name[1..<suffixStart])
    }

    /// `writer(ofName:)` of a name as text.
    package static func writer(ofName name: String) -> pid_t? {
        var name = name
        return name.withUTF8 { writer(ofName: $0) }
    }

    /// Removes those of `names` (names in `folder`, as the folder's listing found them) that are
    /// temporary files left by a run that ended: regular files of the exact pattern whose writer is gone
    /// or which are older than `maximumAge`. Returns the names removed. Blocking file I/O: call it from a
    /// worker.
    @discardableResult
    package static func remove(_ names: [String], in folder: String, now: Date = Date(),
                              isRunning: (pid_t) -> Bool = isRunning) -> [String] {
        names.filter { name in
            let bytes = PathText.bytes(of: name)
            let writerID = bytes.withUnsafeBufferPointer { Self.writer(ofName: $0) }
            let photo = bytes.withUnsafeBufferPointer { photoName(ofOlderName: $0).map(PathText.text(of:)) }
            guard writerID != nil || photo != nil else { return false }
            let path = FolderLister.path(of: name, in: folder)
            var st = stat()
            guard POSIXFiles.lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
            let modified = Date(timeIntervalSince1970: TimeInterval(st.st_mtim.tv_sec) + TimeInterval(st.st_mtim.tv_nsec) / 1e9)
            let old = now.timeIntervalSince(modified) > maximumAge
            if let writerID {
                guard !isRunning(writerID) || old else { return false }
            } else if let photo {
                var photoStatus = stat()
                guard old, POSIXFiles.lstat(FolderLister.path(of: photo, in: folder), &photoStatus) == 0,
                      photoStatus.st_mode & S_IFMT == S_IFREG else { return false }
            }
            return POSIXFiles.unlink(path) == 0
        }
    }

    /// Whether a process with this ID exists (one of another user's answers EPERM, and exists).
    package static func isRunning(_ processID: pid_t) -> Bool {
        kill(processID, 0) == 0 || errno == EPERM
    }
}
