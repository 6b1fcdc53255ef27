import TesseraCore

/// What the watcher knows of the images it reports, held as compactly for a million as for ten: each path
/// once, in an `ItemTable` (a folder's path stored once, names as UTF-8) found through a `PathIndex`, and
/// beside it what was last seen of the file: gone, there with its version, or there with its version not
/// read. A listed image in a folder inotify watches needs no version until it changes: its change comes
/// as an event, which stats it.
struct KnownFiles {
    enum State: Equatable {
        /// Never seen, or seen to go.
        case absent
        /// There; its version when it was read.
        case present(FileVersion?)
    }

    private var table = ItemTable()
    private var index = PathIndex(ItemTable())
    /// Per id: the size, or `gone`, or `unread`; and the modification time.
    private var sizes: [Int64] = []
    private var modified: [Int64] = []
    private static let gone: Int64 = -1
    private static let unread: Int64 = -2

    init() {}

    /// Knows each path of `versions` there at its version.
    init(_ versions: [String: FileVersion]) {
        for (path, version) in versions { self[path] = .present(version) }
    }

    /// Knows each file of `table` (URLs aside) there, its version not read.
    init(listed table: ItemTable) {
        self.table = table
        index = PathIndex(table)
        sizes = (0..<UInt32(table.count)).map { table.isRemote($0) ? Self.gone : Self.unread }
        modified = Array(repeating: 0, count: table.count)
    }

    subscript(path: String) -> State {
        get { index.id(of: path, in: table).map(state) ?? .absent }
        set {
            if let id = index.id(of: path, in: table) {
                set(newValue, of: id)
            } else if newValue != .absent {
                let id = table.appendPath(path)
                index.insert(id, in: table)
                sizes.append(Self.gone)
                modified.append(0)
                set(newValue, of: id)
            }
        }
    }

    /// Whether `path` is known to be there.
    func isPresent(_ path: String) -> Bool { self[path] != .absent }

    /// The paths known to be there whose folder's prefix (its path and a slash) `folder` accepts; each
    /// prefix is asked once.
    func presentPaths(inFolders folder: (String) -> Bool) -> [String] {
        let accepted = table.prefixes.map(folder)
        return (0..<UInt32(table.count)).compactMap { id in
            sizes[Int(id)] != Self.gone && accepted[Int(table.prefix(of: id))] ? table.path(of: id) : nil
        }
    }

    /// Sorts the names listed in `folder` into those known to be there (`known`, by id) and the others
    /// (`unknown`, by path), a name at a time without a path string for the known ones; stops early when
    /// `stop` says so (checked every few thousand names).
    func sort(_ names: NameList, in folder: String, stop: () -> Bool, known: (UInt32) -> Void, unknown: (String) -> Void) {
        let prefix = table.existingPrefix(forFolder: folder)
        names.bytes.withUnsafeBufferPointer { bytes in
            for index in 0..<names.count {
                if index % 4096 == 4095, stop() { return }
                let name = UnsafeBufferPointer(rebasing: bytes[names.range(index)])
                if let prefix, let id = self.index.id(prefix: prefix, name: name, in: table), sizes[Int(id)] != Self.gone {
                    known(id)
                } else {
                    unknown(FolderLister.path(of: PathText.text(of: name), in: folder))
                }
            }
        }
    }

    /// The ids of the paths known to be there, for a pass over all of them (`path(of:)`).
    var presentIDs: [UInt32] { (0..<UInt32(table.count)).filter { sizes[Int($0)] != Self.gone } }

    func path(of id: UInt32) -> String { table.path(of: id) }

    /// The id of `path`, if it was ever known.
    func id(of path: String) -> UInt32? { index.id(of: path, in: table) }

    private func state(_ id: UInt32) -> State {
        switch sizes[Int(id)] {
        case Self.gone: .absent
        case Self.unread: .present(nil)
        case let size: .present(FileVersion(size: size, modifiedNanoseconds: modified[Int(id)]))
        }
    }

    private mutating func set(_ state: State, of id: UInt32) {
        switch state {
        case .absent: sizes[Int(id)] = Self.gone
        case .present(nil): sizes[Int(id)] = Self.unread
        case .present(let version?):
            sizes[Int(id)] = version.size
            modified[Int(id)] = version.modifiedNanoseconds
        }
    }
}

/// What listing watched folders found: the images of each folder as its names (no `String` per image),
/// and the single files the user named, as named.
struct FoundImages {
    var singleFiles: [String] = []
    var folders: [(path: String, names: NameList)] = []

    static func += (lhs: inout FoundImages, rhs: FoundImages) {
        lhs.singleFiles += rhs.singleFiles
        lhs.folders += rhs.folders
    }

    /// Each path found, made one at a time.
    func forEach(_ body: (String) -> Void) {
        for file in singleFiles { body(file) }
        for (folder, names) in folders {
            for index in 0..<names.count { body(FolderLister.path(of: names[index], in: folder)) }
        }
    }
}
