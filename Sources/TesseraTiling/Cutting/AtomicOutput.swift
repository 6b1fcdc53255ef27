#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraImaging

/// Makes a cut's output appear all at once, or not at all.
///
/// Tiles are written into a hidden folder beside the destination, `.NAME.dzi.tmp-PID-N` (`.NAME.tiles.tmp-…`
/// for flat tiles), on the same file system so that renames are atomic. On success `NAME_files` is renamed
/// into place first and `NAME.dzi` last, so a present `.dzi` always means a complete pyramid. On failure
/// or cancellation the hidden folder is removed. A process killed outright (SIGKILL) leaves only the hidden
/// folder, which the next cut of the same name removes once its PID is gone.
///
/// Flat tiles are many files with no descriptor; each is renamed into place at the end (each rename is
/// atomic, the set is not: a crash during those last renames can leave part of a set).
final class AtomicOutput {
    let layout: TileLayout
    let outputFolder: String
    let temporaryFolder: String
    private var finished = false
    /// Folders this cut created for the output folder itself, deepest first: removed again (if still
    /// empty) when the cut fails, so a failed cut leaves no trace at all.
    private var createdFolders: [String] = []

    private static let counter = Atomic<Int>(0)

    /// Checks the destination, removes stale temporary folders of the same name, and creates this cut's
    /// temporary folder with the layout's sub-folders.
    init(layout: TileLayout, outputFolder: String, replaceExisting: Bool) throws(TileCutError) {
        self.layout = layout
        self.outputFolder = outputFolder
        let prefix = Self.temporaryPrefix(layout)
        let sequence = Self.counter.add(1, ordering: .relaxed).newValue
        temporaryFolder = outputFolder + "/" + prefix + "\(getpid())-\(sequence)"

        var missing = outputFolder
        while !missing.isEmpty, missing != "/", !Self.exists(missing) {
            createdFolders.append(missing)
            // The parent: everything before the last "/" ("" for a relative name, "/" at the root).
            guard let slash = missing.lastIndex(of: "/") else { break }
            missing = slash == missing.startIndex ? "/" : String(missing[..<slash])
        }
        do {
            try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        } catch {
            throw TileCutError(path: outputFolder, reason: .outputFailed(Self.describe(error)))
        }
        Self.removeStaleTemporaryFolders(in: outputFolder, prefix: prefix)
        if !replaceExisting, let existing = existingOutput() {
            throw TileCutError(path: existing, reason: .outputExists)
        }
        // Even with --force, only an IIIF tree is replaced at a tree's name, never another folder or file.
        if layout.kind.isIIIF, Self.exists(destinationTilesFolder), !Self.isIIIFTree(destinationTilesFolder) {
            throw TileCutError(path: destinationTilesFolder, reason: .outputFailed(
                "it is there and is not an IIIF tree (a folder holding info.json); it is left as it is"))
        }
        for folder in [""] + layout.folders.map({ "/" + $0 }) {
            guard mkdir(temporaryFolder + folder, 0o755) == 0 else {
                let reason = TileCutError.Reason.outputFailed(String(cString: strerror(errno)))
                discard()
                throw TileCutError(path: temporaryFolder + folder, reason: reason)
            }
        }
    }

    deinit {
        if !finished { discard() }
    }

    /// `.NAME.dzi.tmp-` or `.NAME.tiles.tmp-`: the hidden name, before the PID.
    static func temporaryPrefix(_ layout: TileLayout) -> String {
        ".\(layout.name).\(layout.kind == .dzi ? "dzi" : layout.kind.isIIIF ? "iiif" : "tiles").tmp-"
    }

    var destinationDescriptor: String { outputFolder + "/" + layout.descriptorName }
    var destinationTilesFolder: String { outputFolder + "/" + layout.tilesFolderName }

    /// The first thing at the destination that a commit would replace, if any.
    func existingOutput() -> String? {
        switch layout.kind {
        case .dzi:
            return [destinationDescriptor, destinationTilesFolder].first(where: Self.exists)
        case .iiif3, .iiif2:
            return Self.exists(destinationTilesFolder) ? destinationTilesFolder : nil
        case .flat:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: outputFolder)) ?? []
            return names.sorted().first(where: layout.isFlatTileName).map { outputFolder + "/" + $0 }
        }
    }

    /// Moves the finished output into place, replacing what is there only if `replaceExisting`.
    func commit(replaceExisting: Bool) throws(TileCutError) {
        if let existing = existingOutput() {
            guard replaceExisting else { throw TileCutError(path: existing, reason: .outputExists) }
        }
        switch layout.kind {
        case .dzi:
            // The old descriptor goes first, so there is never a .dzi beside a half-replaced folder.
            if Self.exists(destinationDescriptor) { try remove(destinationDescriptor) }
            if Self.exists(destinationTilesFolder) {
                // Into our temporary folder, which is deleted below.
                try rename(destinationTilesFolder, to: temporaryFolder + "/.replaced")
            }
            try rename(temporaryFolder + "/" + layout.tilesFolderName, to: destinationTilesFolder)
            try rename(temporaryFolder + "/" + layout.descriptorName, to: destinationDescriptor)
        case .iiif3, .iiif2:
            // The tree is one folder with its info.json inside: one rename puts all of it in place. What
            // it replaces must be such a tree: a folder of anything else (or the image itself) stays.
            if Self.exists(destinationTilesFolder) {
                guard Self.isIIIFTree(destinationTilesFolder) else {
                    throw TileCutError(path: destinationTilesFolder, reason: .outputFailed(
                        "it is there and is not an IIIF tree (a folder holding info.json); it is left as it is"))
                }
                try rename(destinationTilesFolder, to: temporaryFolder + "/.replaced")
            }
            try rename(temporaryFolder + "/" + layout.tilesFolderName, to: destinationTilesFolder)
        case .flat:
            let old = ((try? FileManager.default.contentsOfDirectory(atPath: outputFolder)) ?? [])
                .filter(layout.isFlatTileName)
            for name in old { try remove(outputFolder + "/" + name) }
            let fresh = (try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder)) ?? []
            for name in fresh.sorted() where layout.isFlatTileName(name) {
                try rename(temporaryFolder + "/" + name, to: outputFolder + "/" + name)
            }
        }
        finished = true
        try? FileManager.default.removeItem(atPath: temporaryFolder)
    }

    /// Removes the temporary folder and everything in it.
    func discard() {
        finished = true
        try? FileManager.default.removeItem(atPath: temporaryFolder)
        for folder in createdFolders { rmdir(folder) }
    }

    // MARK: - Helpers

    /// A folder holding an `info.json`: what a cut may replace at an IIIF tree's name.
    static func isIIIFTree(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
            && FileManager.default.fileExists(atPath: path + "/info.json")
    }

    private func rename(_ from: String, to: String) throws(TileCutError) {
        guard renameFile(from, to) == 0 else {
            throw TileCutError(path: to, reason: .outputFailed(String(cString: strerror(errno))))
        }
    }

    private func remove(_ path: String) throws(TileCutError) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw TileCutError(path: path, reason: .outputFailed(Self.describe(error)))
        }
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// Removes `prefix`PID-N entries whose process is gone (a cut killed by SIGKILL or a power cut).
    /// Folders of live processes, this one included, are left alone: they may be cuts in progress.
    static func removeStaleTemporaryFolders(in folder: String, prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = Int32(rest.prefix(while: { $0 != "-" })), pid > 0 else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}

/// rename(2), named apart from `AtomicOutput.rename`.
private func renameFile(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
