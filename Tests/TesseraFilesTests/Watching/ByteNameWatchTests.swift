#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TesseraCore
import XCTest
@testable import TesseraFiles

/// A watched folder reports a file by the exact bytes of its name: of two files whose names differ only in
/// bytes that are not UTF-8, each change is the right one's, and a folder with such a name is listed too.
final class ByteNameWatchTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-watch-bytes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private final class Recorder: Sendable {
        private let changes = Mutex<[ItemChange]>([])
        func record(_ new: [ItemChange]) { changes.withLock { $0 += new } }
        var all: [ItemChange] { changes.withLock { $0 } }
    }

    private func bytes(_ name: [UInt8]) -> [UInt8] { Array(folder.path.utf8) + [UInt8(ascii: "/")] + name }

    private func create(_ path: [UInt8], folder isFolder: Bool = false) {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        if isFolder {
            XCTAssertEqual(mkdir(cPath, 0o755), 0)
        } else {
            let fd = open(cPath, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            XCTAssertGreaterThanOrEqual(fd, 0)
            XCTAssertEqual(write(fd, "pixels", 6), 6)
            close(fd)
        }
    }

    func testANewFileIsReportedByTheBytesOfItsName() throws {
        let recorder = Recorder()
        let watcher = try FolderWatcher(folders: [folder.path], recursive: true, settleDelay: .milliseconds(50)) {
            recorder.record($0)
        }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())

        let invalid: [UInt8] = Array("x".utf8) + [0xFF] + Array(".jpg".utf8)
        let subfolder: [UInt8] = Array("trip ".utf8) + [0xE9]  // Latin-1 "é", as an old zip file writes it
        create(bytes(invalid))
        create(bytes(subfolder), folder: true)
        create(bytes(subfolder) + Array("/a.jpg".utf8))

        let deadline = Date().addingTimeInterval(3)
        while recorder.all.count < 2, Date() < deadline { usleep(5_000) }
        usleep(150_000)
        let reported = Set(recorder.all.map { PathText.bytes(of: $0.path) })
        XCTAssertEqual(reported, [bytes(invalid), bytes(subfolder) + Array("/a.jpg".utf8)])
    }
}
