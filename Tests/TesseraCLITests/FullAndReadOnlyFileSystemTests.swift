import Foundation
import TesseraTestSupport
import XCTest

/// A turn and a Delete where the disk says no: a file system with no room left, and one mounted read-only.
/// Whatever happens, the photo is whole (turned or as it was), no temporary copy is left beside it, and
/// no trash record exists without its file. Mounting needs root, which `make test` has on these machines.
final class FullAndReadOnlyFileSystemTests: XCTestCase {
    private var folder: URL!
    private var mountPoint: URL!
    private var mounted = false
    private var sample: Data!

    override func setUpWithError() throws {
        try XCTSkipUnless(getuid() == 0, "mounting a small tmpfs needs root")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-fs-\(UUID().uuidString)")
        mountPoint = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        sample = try Data(contentsOf: SampleImages.url("img1-baseline.jpg"))
    }

    override func tearDownWithError() throws {
        if mounted { _ = try? ChildProcess.run("umount", [mountPoint.path]) }
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private func mount(_ options: String) throws {
        let result = try ChildProcess.run("mount", ["-t", "tmpfs", "-o", options, "tmpfs", mountPoint.path])
        try XCTSkipUnless(result.status == 0, "cannot mount a tmpfs here: \(result.stderr)")
        mounted = true
    }

    private func run(script: String) throws -> ChildProcess {
        let scriptFile = folder.appendingPathComponent("script.txt")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        return try ChildProcess.tessera(
            [mountPoint.appendingPathComponent("photos").path, "--headless", "--no-watch", "--script", scriptFile.path],
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                          "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                          "XDG_DATA_HOME": folder.appendingPathComponent("data").path])
    }

    private var photo: URL { mountPoint.appendingPathComponent("photos/photo.jpg") }

    private func placePhoto() throws {
        try FileManager.default.createDirectory(at: photo.deletingLastPathComponent(), withIntermediateDirectories: true)
        try sample.write(to: photo)
    }

    /// Writes a file until the file system has no room left.
    private func fillTheDisk() throws {
        let filler = mountPoint.appendingPathComponent("filler")
        XCTAssertTrue(FileManager.default.createFile(atPath: filler.path, contents: nil))
        let handle = try FileHandle(forWritingTo: filler)
        while (try? handle.write(contentsOf: Data(count: 4096))) != nil {}
        try? handle.close()
    }

    private func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Every record in the mount's trash has its file, and every file its record.
    private func assertTrashConsistent(file: StaticString = #filePath, line: UInt = #line) {
        let trash = mountPoint.appendingPathComponent(".Trash-0")
        let files = Set(contents(of: trash.appendingPathComponent("files")))
        let records = Set(contents(of: trash.appendingPathComponent("info")).map { String($0.dropLast(".trashinfo".count)) })
        XCTAssertEqual(files, records, "a trash record without its file, or a file without its record", file: file, line: line)
    }

    func testATurnOnAFullFileSystemLeavesThePhotoWholeAndNoCopy() throws {
        try mount("size=256k")
        try placePhoto()
        try fillTheDisk()  // so the turned copy cannot be written

        let result = try run(script: "wait-idle\nkey >\nwait 1\nwait-idle\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("No space left on device"), "the reason is given: \(result.stderr)")
        XCTAssertEqual(try Data(contentsOf: photo), sample, "the photo is as it was")
        XCTAssertEqual(contents(of: photo.deletingLastPathComponent()), ["photo.jpg"], "no temporary copy left beside it")
    }

    func testDeleteAndATurnOnAReadOnlyFileSystemChangeNothing() throws {
        try mount("size=4m")
        try placePhoto()
        let remount = try ChildProcess.run("mount", ["-o", "remount,ro", mountPoint.path])
        XCTAssertEqual(remount.status, 0, remount.stderr)

        let result = try run(script: "wait-idle\nkey >\nwait 1\nwait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("Read-only file system"), "the reason is given: \(result.stderr)")
        XCTAssertEqual(try Data(contentsOf: photo), sample, "the photo is where it was, as it was")
        XCTAssertEqual(contents(of: photo.deletingLastPathComponent()), ["photo.jpg"])
        XCTAssertEqual(contents(of: folder.appendingPathComponent("data/Trash/files")), [], "nothing reached the home trash")
        XCTAssertEqual(contents(of: folder.appendingPathComponent("data/Trash/info")), [], "and no record")
        assertTrashConsistent()
    }

    func testDeleteOnAFullFileSystemMovesThePhotoWithItsRecordOrNotAtAll() throws {
        try mount("size=128k")
        try placePhoto()
        try fillTheDisk()

        let result = try run(script: "wait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        assertTrashConsistent()
        let trashed = mountPoint.appendingPathComponent(".Trash-0/files/photo.jpg")
        let whole = [photo, trashed].compactMap { try? Data(contentsOf: $0) }
        XCTAssertEqual(whole, [sample], "the photo is in exactly one place, whole")
    }
}
