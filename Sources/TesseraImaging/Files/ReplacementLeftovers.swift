#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The temporary files `FileReplacement` writes beside a photo, and their removal after a crash.
///
/// The name is `.tessera-turn-PID-XXXXXX`: hidden (no listing shows it), short whatever the photo's name
/// (a 255-byte name still has room), with the writer's process ID, and six characters `mkstemp` picks.
/// Only a name of exactly that pattern is ever removed, and only when its writer is gone (`kill(pid, 0)`
/// finds no process) or it has not been written for a minute: a file another viewer is writing right now
/// is neither, and a file a crashed run left is one or the other (a PID taken again by some other
/// process still leaves the file to age).
public enum ReplacementLeftovers {
    static let prefix = ".tessera-turn-"
    /// How long a temporary file whose writer seems alive is left alone.
    public static let maximumAge: TimeInterval = 60

    /// The `mkstemp` template for a temporary file in `folder`.
    static func template(in folder: String, processID: pid_t = getpid()) -> String {
        (folder == "/" ? "" : folder) + "/" + prefix + "\(processID)-XXXXXX"
    }

    /// The writer's process ID when `name` is exactly a temporary file's name; nil for any other name.
    public static func writer(ofName name: UnsafeBufferPointer<UInt8>) -> pid_t? {
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

    /// `writer(ofName:)` of a name as text.
    public static func writer(ofName name: String) -> pid_t? {
        var name = name
        return name.withUTF8 { writer(ofName: $0) }
    }

    /// Removes those of `names` (names in `folder`, as the folder's listing found them) that are
    /// temporary files left by a run that ended: regular files of the exact pattern whose writer is gone
    /// or which are older than `maximumAge`. Returns the names removed. Blocking file I/O: call it from a
    /// worker.
    @discardableResult
    public static func remove(_ names: [String], in folder: String, now: Date = Date(),
                              isRunning: (pid_t) -> Bool = isRunning) -> [String] {
        names.filter { name in
            guard let writer = writer(ofName: name) else { return false }
            let path = FolderLister.path(of: name, in: folder)
            var st = stat()
            guard POSIXFiles.lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
            let modified = Date(timeIntervalSince1970: TimeInterval(st.st_mtim.tv_sec) + TimeInterval(st.st_mtim.tv_nsec) / 1e9)
            guard !isRunning(writer) || now.timeIntervalSince(modified) > maximumAge else { return false }
            return POSIXFiles.unlink(path) == 0
        }
    }

    /// Whether a process with this ID exists (one of another user's answers EPERM, and exists).
    public static func isRunning(_ processID: pid_t) -> Bool {
        kill(processID, 0) == 0 || errno == EPERM
    }
}
