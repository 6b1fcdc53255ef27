import Foundation

/// Filesystems whose changes inotify may not see, and when folders on them are listed again.
///
/// inotify reports only changes made through this machine's kernel: on an NFS, SMB, 9P or FUSE mount,
/// another machine's writes send no event, so such folders are also listed every poll interval.
package enum NetworkFilesystem {
    /// Whether `path` is on NFS, SMB/CIFS, 9P, Ceph, AFS, Coda, GlusterFS or FUSE (sshfs, rclone, gvfs).
    /// Read from /proc/self/mounts (statfs is not in Swift's Glibc).
    package static func holds(_ path: String) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8),
              let type = type(of: path, mounts: mounts) else { return false }
        return isNetworkType(type)
    }

    static func isNetworkType(_ type: String) -> Bool {
        ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "coda", "glusterfs", "sshfs"].contains(type)
            || type == "fuse" || type.hasPrefix("fuse.")
    }

    /// The type of the mount holding `path` (symlinks resolved): the longest mount point above it.
    static func type(of path: String, mounts: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (length: Int, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // /proc/mounts writes space, tab, newline and backslash in octal (\040 ...).
            let mountPoint = String(fields[1]).replacingOccurrences(of: "\\040", with: " ")
                .replacingOccurrences(of: "\\011", with: "\t").replacingOccurrences(of: "\\134", with: "\\")
            let isAbove = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
            if isAbove, mountPoint.count >= (best?.length ?? -1) { best = (mountPoint.count, String(fields[2])) }
        }
        return best?.type
    }
}

/// When the polled folders are listed next: running only while one is watched.
struct PollSchedule {
    typealias Instant = ContinuousClock.Instant

    /// nil never polls.
    let interval: Duration?
    /// nil while no polled folder is watched.
    private(set) var next: Instant?

    init(interval: Duration?) { self.interval = interval }

    /// A polled folder is watched: the first one starts the schedule.
    mutating func start(at now: Instant) {
        if let interval, next == nil { next = now + interval }
    }

    func isDue(at now: Instant) -> Bool { next.map { now >= $0 } ?? false }

    /// After a poll: the next one, if any polled folder is still watched.
    mutating func polled(at now: Instant, stillNeeded: Bool) {
        next = stillNeeded ? interval.map { now + $0 } : nil
    }
}
