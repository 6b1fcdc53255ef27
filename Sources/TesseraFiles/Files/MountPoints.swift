#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore

/// Where file systems are mounted, and the top folder of the one holding a path: the `$topdir` of the
/// freedesktop Trash specification, beyond which `rename` cannot move a file.
package struct MountPoints: Sendable {
    /// Every mount point, absolute, as the kernel lists them.
    package let paths: Set<String>

    package init(paths: Set<String>) {
        self.paths = paths
    }

    /// This process's mounts, from /proc/self/mountinfo; only "/" when it cannot be read.
    package static func current() -> MountPoints {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
            return MountPoints(paths: ["/"])
        }
        return MountPoints(mountinfo: text)
    }

    /// Mount points from mountinfo text: the fifth field of each line, with the kernel's octal escapes
    /// (`\040` for a space, `\011`, `\012`, `\134`) undone.
    package init(mountinfo: String) {
        var paths: Set<String> = ["/"]
        for line in mountinfo.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 4 else { continue }
            paths.insert(Self.unescape(fields[4]))
        }
        self.paths = paths
    }

    /// The top folder of the file system holding `folder` (absolute, symbolic links resolved): walking up
    /// from `folder`, the last folder before a mount point is crossed or the device changes. Both are
    /// checked: a bind mount keeps the device, a btrfs subvolume changes it without a mount.
    package func topFolder(of folder: String) -> String {
        var current = folder
        var st = stat()
        guard POSIXFiles.stat(current, &st) == 0 else { return current }
        let device = st.st_dev
        while current != "/", !paths.contains(current) {
            let parent = Self.parent(of: current)
            guard POSIXFiles.stat(parent, &st) == 0, st.st_dev == device else { break }
            current = parent
        }
        return current
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func unescape(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        let utf8 = Array(field.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "\\"), i + 3 < utf8.count,
               let code = UInt8(String(decoding: utf8[(i + 1)...(i + 3)], as: UTF8.self), radix: 8) {
                bytes.append(code)
                i += 4
            } else {
                bytes.append(utf8[i])
                i += 1
            }
        }
        return PathText.text(of: bytes)
    }
}
