import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles

/// The freedesktop Trash: files go in with a correct record and come back byte for byte with their
/// mtime; a file the trash cannot take stays where it is. The second file system is a tmpfs mounted by
/// the test (these machines run tests as root); where mounting is not allowed those tests are skipped
/// and say why.
final class TrashTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var mounted: [String] = []
    private let deletedAt = Date(timeIntervalSince1970: 1_714_566_896)  // 2024-05-01 12:34:56 UTC

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.path("photos"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        for point in mounted.reversed() { _ = Self.run("/bin/umount", [point]) }
        mounted = []
        chmod(folder.path("photos"), 0o755)
        folder = nil
    }

    private var dataHome: String { folder.path("data") }
    private var homeTrash: String { dataHome + "/Trash" }

    private func makeTrash() -> Trash {
        let date = deletedAt
        return Trash(environment: ["XDG_DATA_HOME": dataHome, "HOME": folder.path("home")], now: { date })
    }

    /// A file with bytes unlike any other and an mtime in the past, to see both come back.
    private func photo(_ name: String, in directory: String? = nil) throws -> (path: String, bytes: Data) {
        let path = (directory ?? folder.path("photos")) + "/" + name
        let bytes = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ name.count) })
        try bytes.write(to: URL(fileURLWithPath: path))
        var times = [timespec(tv_sec: 1_600_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_600_000_000, tv_nsec: 123_456_789)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        return (path, bytes)
    }

    // MARK: - The home trash

    func testTrashThenRestoreOnTheHomeTrash() throws {
        let (path, bytes) = try photo("a b ü.jpg")
        let before = try mtime(path)
        let trash = makeTrash()

        let entry = try XCTUnwrap(trash.trash([path]).first).get()
        XCTAssertEqual(entry.path, path)
        XCTAssertEqual(entry.originalPath, path)
        XCTAssertEqual(entry.trashedPath, homeTrash + "/files/a b ü.jpg")
        XCTAssertEqual(entry.infoPath, homeTrash + "/info/a b ü.jpg.trashinfo")
        XCTAssertFalse(exists(path))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: entry.trashedPath)), bytes)
        XCTAssertEqual(try String(contentsOfFile: entry.infoPath, encoding: .utf8),
                       "[Trash Info]\nPath=\(escapedByHand(path))\nDeletionDate=\(localTime(deletedAt))\n")
        XCTAssertEqual(mode(homeTrash), 0o700)
        XCTAssertEqual(mode(homeTrash + "/files"), 0o700)

        let restored = try XCTUnwrap(trash.restore([entry]).first).get()
        XCTAssertEqual(restored, entry)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try mtime(path), before)
        XCTAssertFalse(exists(entry.trashedPath))
        XCTAssertFalse(exists(entry.infoPath))
    }

    func testCollidingNamesAreNumberedAndRestoringOntoATakenNameIsRefused() throws {
        let trash = makeTrash()
        let (path, first) = try photo("x.jpg")
        let one = try trash.trash([path])[0].get()
        let second = Data("the second x".utf8)
        try second.write(to: URL(fileURLWithPath: path))
        // Another program's trashed file without a record takes x.3.jpg in files/ only.
        try Data("leftover".utf8).write(to: URL(fileURLWithPath: homeTrash + "/files/x.3.jpg"))
        let two = try trash.trash([path])[0].get()
        try Data("the third x".utf8).write(to: URL(fileURLWithPath: path))
        let three = try trash.trash([path])[0].get()

        XCTAssertEqual([one, two, three].map { ($0.trashedPath as NSString).lastPathComponent }, ["x.jpg", "x.2.jpg", "x.4.jpg"])
        XCTAssertEqual([one, two, three].map { ($0.infoPath as NSString).lastPathComponent },
                       ["x.jpg.trashinfo", "x.2.jpg.trashinfo", "x.4.jpg.trashinfo"])
        XCTAssertFalse(exists(homeTrash + "/info/x.3.jpg.trashinfo"))
        for entry in [one, two, three] {
            XCTAssertTrue(try String(contentsOfFile: entry.infoPath, encoding: .utf8).contains("\nPath=\(escapedByHand(path))\n"))
        }

        // The first comes back; the other two find its name taken and stay in the trash, whole.
        let results = trash.restore([one, two, three])
        XCTAssertNoThrow(try results[0].get())
        for (result, entry) in zip(results.dropFirst(), [two, three]) {
            XCTAssertThrowsError(try result.get()) { error in
                XCTAssertEqual(error as? TrashError, TrashError(path: path, reason: .occupied))
            }
            XCTAssertTrue(exists(entry.trashedPath))
            XCTAssertTrue(exists(entry.infoPath))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), first)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: two.trashedPath)), second)
    }

    func testMissingFilesAndFoldersAreRefusedAndTheRestOfTheBatchStillGoes() throws {
        let missing = folder.path("photos/missing.jpg")
        let subfolder = folder.path("photos/album")
        try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: false)
        let (path, _) = try photo("kept.jpg")
        let results = makeTrash().trash([missing, subfolder, path])
        XCTAssertThrowsError(try results[0].get()) { XCTAssertEqual($0 as? TrashError, TrashError(path: missing, reason: .missing)) }
        XCTAssertThrowsError(try results[1].get()) { XCTAssertEqual($0 as? TrashError, TrashError(path: subfolder, reason: .isFolder)) }
        XCTAssertNoThrow(try results[2].get())
        XCTAssertTrue(exists(subfolder))
        XCTAssertEqual("\(TrashError(path: missing, reason: .missing))", "\(missing): no such file")
    }

    func testDevicesFIFOsAndLinksToThemAreRefusedAndStayWhereTheyAre() throws {
        let fifo = folder.path("photos/pipe.jpg")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let linkToNull = folder.path("photos/null.jpg")
        try FileManager.default.createSymbolicLink(atPath: linkToNull, withDestinationPath: "/dev/null")
        let dangling = folder.path("photos/gone.jpg")
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: folder.path("photos/nothing.jpg"))
        var named: [(String, String)] = [(fifo, "a FIFO"), (linkToNull, "a symbolic link to a character device"),
                                         (dangling, "a symbolic link that leads nowhere")]
        // /dev/zero's own numbers (1, 5, as makedev packs small ones), under a photo's name: only root may
        // make a device node.
        let device = folder.path("photos/zero.jpg")
        if mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 5)) == 0 { named.append((device, "a character device")) }
        let (photoPath, _) = try photo("real.jpg")

        let results = makeTrash().trash(named.map(\.0) + [photoPath])
        for ((path, kind), result) in zip(named, results) {
            XCTAssertThrowsError(try result.get()) {
                XCTAssertEqual($0 as? TrashError, TrashError(path: path, reason: .notARegularFile(kind)))
            }
            var st = stat()
            XCTAssertEqual(lstat(path, &st), 0, "\(path) stays where it is")
        }
        XCTAssertEqual("\(TrashError(path: "p", reason: .notARegularFile("a FIFO")))", "p: not a regular file (a FIFO), not moved to the trash")
        XCTAssertNoThrow(try results.last!.get(), "the photo in the same batch still goes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash + "/info"), ["real.jpg.trashinfo"],
                       "no record is left for what was refused")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash + "/files"), ["real.jpg"])
    }

    func testANameOfTheLongestLengthIsTrashedUnderAShorterOneAndComesBackWhole() throws {
        let name = String(repeating: "é", count: 100) + String(repeating: "x", count: 50) + ".jpeg"
        XCTAssertEqual(name.utf8.count, 255, "the most a name holds")
        let (path, bytes) = try photo(name)
        let trash = makeTrash()
        let first = try trash.trash([path])[0].get()
        let trashedName = (first.trashedPath as NSString).lastPathComponent
        XCTAssertEqual(trashedName, String(repeating: "é", count: 100) + String(repeating: "x", count: 34) + ".jpeg",
                       "its start and its extension, 239 bytes")
        XCTAssertEqual(first.infoPath, homeTrash + "/info/" + trashedName + ".trashinfo")
        XCTAssertEqual(try String(contentsOfFile: first.infoPath, encoding: .utf8),
                       "[Trash Info]\nPath=\(escapedByHand(path))\nDeletionDate=\(localTime(deletedAt))\n", "the record has the whole name")

        // A second file of the same long name takes a number, still short enough.
        _ = try photo(name)
        let second = try trash.trash([path])[0].get()
        XCTAssertEqual((second.trashedPath as NSString).lastPathComponent,
                       String(repeating: "é", count: 100) + String(repeating: "x", count: 34) + ".2.jpeg")
        try FileManager.default.removeItem(atPath: second.trashedPath)

        XCTAssertNoThrow(try trash.restore([first])[0].get())
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes, "back under its whole name")
        XCTAssertFalse(exists(first.infoPath))
    }

    func testAFileAlreadyInTheTrashStaysAsItIs() throws {
        let trash = makeTrash()
        let entry = try trash.trash([try photo("twice.jpg").path])[0].get()
        XCTAssertThrowsError(try trash.trash([entry.trashedPath])[0].get()) { error in
            XCTAssertEqual(error as? TrashError, TrashError(path: entry.trashedPath, reason: .moveFailed("it is already in the trash")))
        }
        XCTAssertTrue(exists(entry.trashedPath))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: homeTrash + "/info"), ["twice.jpg.trashinfo"])
    }

    func testASymbolicLinkIsTrashedNotItsTarget() throws {
        let (target, bytes) = try photo("target.jpg")
        let link = folder.path("photos/link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let entry = try makeTrash().trash([link])[0].get()
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: entry.trashedPath), target)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: target)), bytes)
    }

    func testARelativePathIsReturnedAsGivenAndRecordedAbsolute() throws {
        let (path, bytes) = try photo("relative.jpg")
        let workingDirectory = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path("photos")))
        defer { _ = FileManager.default.changeCurrentDirectoryPath(workingDirectory) }
        let trash = makeTrash()
        let entry = try trash.trash(["./relative.jpg"])[0].get()
        XCTAssertEqual(entry.path, "./relative.jpg")
        XCTAssertEqual(entry.originalPath, path)
        XCTAssertTrue(try String(contentsOfFile: entry.infoPath, encoding: .utf8).contains("\nPath=\(escapedByHand(path))\n"))
        _ = try trash.restore([entry])[0].get()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    func testARestoreWhoseFileLeftTheTrashSaysSo() throws {
        let trash = makeTrash()
        let (path, _) = try photo("gone.jpg")
        let entry = try trash.trash([path])[0].get()
        try FileManager.default.removeItem(atPath: entry.trashedPath)  // emptied by a file manager
        XCTAssertThrowsError(try trash.restore([entry])[0].get()) {
            XCTAssertEqual($0 as? TrashError, TrashError(path: path, reason: .notInTrash))
        }
    }

    // MARK: - Read-only

    func testAFileInAReadOnlyFolderStaysAndTheReasonSaysSo() throws {
        let readOnly = folder.path("photos/read-only")
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
        let (path, bytes) = try photo("stays.jpg", in: readOnly)
        if geteuid() == 0 {
            // Root writes into any folder whatever its mode; a read-only mount binds root too.
            try mount(["--bind", readOnly, readOnly])
            try mount(["-o", "remount,bind,ro", readOnly])
        } else {
            XCTAssertEqual(chmod(readOnly, 0o555), 0)
        }
        defer { chmod(readOnly, 0o755) }
        let result = makeTrash().trash([path])[0]
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertTrue("\(error)".lowercased().contains("read-only"), "\(error)")
            XCTAssertTrue("\(error)".hasPrefix(path + ": not moved to the trash"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    // MARK: - Another file system

    func testAFileOnAnotherMountGoesToThatMountsTrashAndComesBack() throws {
        let point = try tmpfs("mnt")
        try FileManager.default.createDirectory(atPath: point + "/sub dir", withIntermediateDirectories: false)
        let (path, bytes) = try photo("far.jpg", in: point + "/sub dir")
        let before = try mtime(path)
        let trash = makeTrash()

        let entry = try trash.trash([path])[0].get()
        let mountTrash = point + "/.Trash-\(getuid())"
        XCTAssertEqual(entry.trashedPath, mountTrash + "/files/far.jpg")
        XCTAssertEqual(mode(mountTrash), 0o700)
        XCTAssertEqual(try String(contentsOfFile: entry.infoPath, encoding: .utf8),
                       "[Trash Info]\nPath=sub%20dir/far.jpg\nDeletionDate=\(localTime(deletedAt))\n",
                       "relative to the mount's top folder")
        XCTAssertFalse(exists(homeTrash + "/files/far.jpg"))

        _ = try trash.restore([entry])[0].get()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try mtime(path), before)
        XCTAssertFalse(exists(entry.infoPath))
    }

    func testAnAdministratorsStickyTrashIsUsedAndAnUnsafeOneIsNot() throws {
        let point = try tmpfs("mnt")
        let shared = point + "/.Trash"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        let trash = makeTrash()

        XCTAssertEqual(chmod(shared, 0o1777), 0)
        let sticky = try trash.trash([try photo("sticky.jpg", in: point).path])[0].get()
        XCTAssertEqual(sticky.trashedPath, "\(shared)/\(getuid())/files/sticky.jpg")

        XCTAssertEqual(chmod(shared, 0o777), 0)
        let plain = try trash.trash([try photo("plain.jpg", in: point).path])[0].get()
        XCTAssertEqual(plain.trashedPath, "\(point)/.Trash-\(getuid())/files/plain.jpg", "no sticky bit: not used")

        try FileManager.default.removeItem(atPath: shared)
        try FileManager.default.createSymbolicLink(atPath: shared, withDestinationPath: folder.path("photos"))
        let linked = try trash.trash([try photo("linked.jpg", in: point).path])[0].get()
        XCTAssertEqual(linked.trashedPath, "\(point)/.Trash-\(getuid())/files/linked.jpg", "a symbolic link: not used")
    }

    // MARK: - Parts

    func testHomeTrashLocation() {
        XCTAssertEqual(Trash.homeTrashPath(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]), "/d/Trash")
        XCTAssertEqual(Trash.homeTrashPath(environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]), "/h/.local/share/Trash")
        XCTAssertEqual(Trash.homeTrashPath(environment: ["XDG_DATA_HOME": "", "HOME": "/h"]), "/h/.local/share/Trash")
        XCTAssertNil(Trash.homeTrashPath(environment: [:]))
    }

    func testNumberedNamesKeepTheExtension() {
        XCTAssertEqual(Trash.numbered("photo.jpg", 1), "photo.jpg")
        XCTAssertEqual(Trash.numbered("photo.jpg", 2), "photo.2.jpg")
        XCTAssertEqual(Trash.numbered("a.tar.gz", 3), "a.tar.3.gz")
        XCTAssertEqual(Trash.numbered(".hidden", 2), ".hidden.2")
        XCTAssertEqual(Trash.numbered("README", 2), "README.2")
    }

    func testRecordPathsAreEscapedAsGLibDoes() {
        XCTAssertEqual(TrashInfo.escape("/a b/ü%&(1)~_-.jpg"), "/a%20b/%C3%BC%25%26%281%29~_-.jpg")
    }

    func testMountPointsAreReadFromMountinfo() {
        let text = """
        27 1 254:0 / / rw,relatime - ext4 /dev/vda rw
        40 27 0:50 / /media/My\\040Disk rw,relatime - vfat /dev/sdb1 rw
        41 27 0:51 / /mnt/tab\\011name rw - tmpfs none rw
        """
        XCTAssertEqual(MountPoints(mountinfo: text).paths, ["/", "/media/My Disk", "/mnt/tab\tname"])
    }

    // MARK: - Helpers

    private func tmpfs(_ name: String) throws -> String {
        let point = folder.path(name)
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        try mount(["-t", "tmpfs", "-o", "size=4m,mode=755", "tessera-trash-test", point])
        return point
    }

    private func mount(_ arguments: [String]) throws {
        let (status, output) = Self.run("/bin/mount", arguments)
        guard status == 0 else {
            let reason = "mount \(arguments.joined(separator: " ")) failed (\(status)): \(output)"
            print("TrashTests: skipped, \(reason)")
            throw XCTSkip(reason)
        }
        if !mounted.contains(arguments.last!) { mounted.append(arguments.last!) }
    }

    private static func run(_ tool: String, _ arguments: [String]) -> (Int32, String) {
        guard let run = try? ChildProcess.run(tool, arguments) else { return (-1, "\(tool) cannot be run") }
        return (run.status, (run.stdout + run.stderr).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        stat(path, &st)
        return st.st_mode & 0o7777
    }

    /// Size and mtime to the nanosecond.
    private func mtime(_ path: String) throws -> FileVersion {
        try XCTUnwrap(FileVersion.ofFile(atPath: path))
    }

    /// Written apart from `TrashInfo`: percent-encoding of everything but RFC 3986's unreserved and "/".
    private func escapedByHand(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    private func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone.current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date)
    }
}
