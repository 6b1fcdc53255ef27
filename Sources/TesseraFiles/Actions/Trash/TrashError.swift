/// Why a file was not moved to the trash, or not brought back, with its path. The file is where it was.
package struct TrashError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    package enum Reason: Error, Sendable, Equatable {
        /// Nothing at the path.
        case missing
        /// A folder: the viewer trashes images only.
        case isFolder
        /// A device, FIFO, socket, or a symbolic link to one (what it is): the viewer trashes photos only.
        case notARegularFile(String)
        /// The path or its folder cannot be looked at (why).
        case unreadable(String)
        /// No trash on the file's file system can be used or made (why).
        case noTrash(String)
        /// The `.trashinfo` file could not be written (why).
        case infoFailed(String)
        /// The rename into the trash failed (why).
        case moveFailed(String)
        /// Restoring: the trashed file is no longer in the trash.
        case notInTrash
        /// Restoring: something else now occupies the original path.
        case occupied
        /// Restoring: the rename back failed (why).
        case restoreFailed(String)

        /// One line for the overlay and the log.
        package var text: String {
            switch self {
            case .missing: "no such file"
            case .isFolder: "a folder, not moved to the trash"
            case .notARegularFile(let kind): "not a regular file (\(kind)), not moved to the trash"
            case .unreadable(let why): "cannot be looked at: \(why)"
            case .noTrash(let why): "not moved to the trash, no trash can take it: \(why)"
            case .infoFailed(let why): "not moved to the trash, its trash record cannot be written: \(why)"
            case .moveFailed(let why): "not moved to the trash: \(why)"
            case .notInTrash: "not restored: it is no longer in the trash"
            case .occupied: "not restored: another file now has its name"
            case .restoreFailed(let why): "not restored: \(why)"
            }
        }
    }

    package var description: String { "\(path): \(reason.text)" }
}
