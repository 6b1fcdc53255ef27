#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraFiles

/// Turns and flips pictures for good without touching their pixels, as Loupe, Eye of GNOME and
/// `feh --edit` do: a JPEG's EXIF orientation tag takes the turn (`JPEGOrientationRewrite`), and its
/// freedesktop thumbnails are deleted so that file managers draw them again. A tag already in the file is
/// patched in place, which keeps the file's inode and so its hard links, extended attributes and ACLs;
/// otherwise the file is replaced atomically, its mode, owner and extended attributes copied
/// (`FileReplacement`). Other formats are left as they are and the outcome says so; the viewer
/// keeps their turn for the session.
///
/// Blocking file I/O: call it from a worker, never from the main thread.
package struct LosslessRotator: Sendable {
    /// The thumbnail cache whose entries for a rewritten file are deleted; nil leaves thumbnails alone.
    package let thumbnails: ThumbnailStore?

    package init(thumbnails: ThumbnailStore?) {
        self.thumbnails = thumbnails
    }

    /// What a turn did.
    package enum Outcome: Sendable, Equatable {
        /// The file's orientation tag went from `previous` to `current`. Undo with
        /// `setOrientation(previous, ofFileAt:)`.
        case written(previous: ImageOrientation, current: ImageOrientation)
        /// The format has no orientation Tessera writes (anything but JPEG): the file is unchanged.
        case notSaved(ImageFormat)
    }

    /// Turns the picture at `path` by `turn`, composed with the orientation it has.
    package func turn(_ path: String, by turn: OrientationTurn) throws(RotationError) -> Outcome {
        try rewrite(path) { $0.turned(turn) }
    }

    /// Writes `orientation` into the picture at `path`: the undo of a turn. A file already at
    /// `orientation` is not rewritten.
    package func setOrientation(_ orientation: ImageOrientation, ofFileAt path: String) throws(RotationError) -> Outcome {
        try rewrite(path) { _ in orientation }
    }

    private func rewrite(_ path: String, _ newOrientation: (ImageOrientation) -> ImageOrientation) throws(RotationError) -> Outcome {
        func fail(_ reason: RotationError.Reason) -> RotationError { RotationError(path: path, reason: reason) }
        let file: ImageFile
        let bytes: Data
        do throws(ImageFile.Failure) {
            file = try ImageFile(path: path)
            bytes = try file.readAll()
        } catch {
            switch error {
            case .missing: throw fail(.missing)
            case .notARegularFile: throw fail(.notARegularFile)
            case .empty: throw fail(.empty)
            case .unreadable(let why): throw fail(.unreadable(why))
            }
        }
        let format = ImageFormat.sniff(bytes)
        guard format == .jpeg else { return .notSaved(format) }
        // Root may write any file, but a file nobody may write is one its owner means to keep as it is.
        guard POSIXFiles.access(path, W_OK) == 0, file.mode & 0o222 != 0 else { throw fail(.readOnly) }

        let current = ExifReader.orientation(in: bytes, format: .jpeg)
        let target = newOrientation(current)
        guard target != current else { return .written(previous: current, current: current) }
        let rewrite: JPEGOrientationRewrite
        do {
            rewrite = try JPEGOrientationRewrite(bytes, setting: target)
        } catch {
            throw fail(error)
        }
        let replaced: Result<Void, FileReplacement.Failure>
        if let patch = rewrite.patch, FileReplacement.canPatch(at: patch.offset, count: patch.new.count) {
            replaced = Result { () throws(FileReplacement.Failure) in
                try FileReplacement.patch(path, at: patch.offset, replacing: patch.old, with: patch.new, expected: file.version)
            }
        } else {
            replaced = rewrite.bytes.withUnsafeBytes { bytes in
                Result { () throws(FileReplacement.Failure) in try FileReplacement.replace(path, with: bytes, expected: file.version) }
            }
        }
        if case .failure(let error) = replaced {
            throw fail(error.code == EROFS ? .readOnly : .writeFailed(error.description))
        }
        deleteThumbnails(path)
        return .written(previous: rewrite.previous, current: target)
    }

    /// Deletes the file's thumbnails of every size, under the name the user reached it by and, when that
    /// goes through a symbolic link, under the link's target too.
    private func deleteThumbnails(_ path: String) {
        guard let thumbnails else { return }
        var paths = [path]
        if let resolved = FileReplacement.resolvedPath(path), resolved != FreedesktopThumbnailPath.absolutePath(path) {
            paths.append(resolved)
        }
        for path in paths {
            guard let original = thumbnails.original(atPath: path) else { continue }
            for size in ThumbnailSize.allCases {
                POSIXFiles.unlink(thumbnails.path(for: original, size: size))
            }
        }
    }
}
