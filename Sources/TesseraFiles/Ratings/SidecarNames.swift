#if canImport(Glibc)
import Glibc
#endif
import TesseraCore

/// The names of the sidecars (`*.xmp`) in one folder, from one listing: a folder's ratings are then read
/// by opening only the sidecars that are there, where most photos may have none. The folder's images
/// are listed apart (`FolderLister` leaves sidecars out).
package struct SidecarNames: Sendable {
    private var names: Set<PathText.Key>

    /// The sidecars `folder` holds now; none when it cannot be read.
    package init(listing folder: String) {
        names = []
        guard let directory = POSIXFiles.opendir(folder) else { return }
        defer { closedir(directory) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let suffix = Array(".xmp".utf8)
        while let entry = readdir(directory) {
            let raw = UnsafeRawPointer(entry) + nameOffset
            let name = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt8.self), count: strlen(raw.assumingMemoryBound(to: CChar.self)))
            guard name.count > suffix.count, name.suffix(suffix.count).elementsEqual(suffix) else { continue }
            names.insert(PathText.Key(PathText.text(of: name)))
        }
    }

    /// Sidecar names a caller has already listed (names only, not paths).
    package init(_ names: some Sequence<String>) {
        self.names = Set(names.map(PathText.Key.init))
    }

    package func contains(_ name: String) -> Bool {
        names.contains(PathText.Key(name))
    }

    /// Whether the folder holds `NAME.EXT.xmp` for the image at `imagePath` (a path in that folder).
    func containsSidecar(ofImageAt imagePath: String) -> Bool {
        contains(FileReplacement.split(XMPSidecar.path(for: imagePath)).name)
    }

    /// Whether the folder holds Adobe's `NAME.xmp` for the image at `imagePath`.
    func containsAdobeSidecar(ofImageAt imagePath: String) -> Bool {
        XMPSidecar.adobePath(for: imagePath).map { contains(FileReplacement.split($0).name) } ?? false
    }
}
