#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraTiling

final class ImageFileTests: XCTestCase {
    private func failure(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> ImageFile.Failure? {
        do {
            let opened = try ImageFile(path: path)
            XCTFail("expected a failure, opened \(opened.size) bytes", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testWhatCannotBeReadIsRefusedWithItsReason() throws {
        let dir = try TemporaryDirectory()
        XCTAssertEqual(failure(dir.path("nope.jpg")), .missing)
        let plain = try dir.write(Data("x".utf8), to: "plain")
        XCTAssertEqual(failure(plain + "/under.jpg"), .missing, "a file as a folder (ENOTDIR)")
        XCTAssertEqual(failure(try dir.write(Data(), to: "empty.jpg")), .empty)
        XCTAssertEqual(failure(dir.url.path), .notARegularFile(.folder))
        XCTAssertEqual(failure("/dev/zero"), .notARegularFile(.device), "a device that never ends")
        XCTAssertEqual(ImageFile.Failure.notARegularFile(.folder).description, "a folder, not a regular file")
    }

    /// Opening a FIFO does not wait for a writer: it is refused at once.
    func testFIFOIsRefusedWithoutBlocking() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pipe.jpg")
        guard mkfifo(path, 0o600) == 0 else { throw XCTSkip("mkfifo failed: \(errno)") }
        XCTAssertEqual(failure(path), .notARegularFile(.fifo))
        XCTAssertNil(ImageFile.head(ofFileAt: path, count: 32))
        // The tiled view's probe and the cutter go through the same door.
        XCTAssertThrowsError(try ImageProbe.probe(path)) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .unreadableImage("Not an image"))
        }
    }

    func testUnreadableFileGivesStrerror() throws {
        guard geteuid() != 0 else { throw XCTSkip("root can read a mode-000 file") }
        let dir = try TemporaryDirectory()
        let path = try dir.write(Data("secret".utf8), to: "locked.jpg")
        chmod(path, 0)
        XCTAssertEqual(failure(path), .unreadable("Permission denied"))
    }

    func testSizeVersionAndDateComeFromOneStat() throws {
        let dir = try TemporaryDirectory()
        let bytes = TestJPEG.solid(width: 8, height: 8, color: RGBA(r: 9, g: 8, b: 7))
        let path = try dir.write(bytes, to: "a.jpg")
        // A modification time with nanoseconds, as most filesystems record.
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 123_456_789), timespec(tv_sec: 1_700_000_000, tv_nsec: 987_654_321)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)

        let file = try ImageFile(path: path)
        XCTAssertEqual(file.size, bytes.count)
        XCTAssertEqual(file.version, FileVersion.ofFile(atPath: path))
        XCTAssertEqual(file.version.modifiedNanoseconds, 1_700_000_000_987_654_321)
        // Bit for bit FileManager's date: the tile pyramid cache names its folders from it.
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual(file.modificationDate, attributes[.modificationDate] as? Date)
        XCTAssertEqual(file.modificationDate.timeIntervalSince1970.bitPattern,
                       (attributes[.modificationDate] as? Date)?.timeIntervalSince1970.bitPattern)
    }

    func testHeadSniffAndWholeReads() throws {
        let dir = try TemporaryDirectory()
        let bytes = TestJPEG.solid(width: 16, height: 16, color: RGBA(r: 1, g: 2, b: 3))
        let file = try ImageFile(path: try dir.write(bytes, to: "named.png"))
        XCTAssertEqual(try file.sniff(), .jpeg, "the bytes decide, not the name")
        XCTAssertEqual(try file.head(4), bytes.prefix(4))
        XCTAssertEqual(try file.head(bytes.count + 100), bytes, "a head longer than the file is the file")
        XCTAssertEqual(try file.readAll(), bytes)
        XCTAssertEqual(ImageFile.head(ofFileAt: dir.path("named.png"), count: 3), bytes.prefix(3))

        var middle = [UInt8](repeating: 0, count: 10)
        let reached = try middle.withUnsafeMutableBytes { try file.read(into: $0.baseAddress!, from: 5, to: 15) }
        XCTAssertEqual(reached, 15)
        XCTAssertEqual(middle, Array(bytes[5..<15]))
    }

    /// A file cut short after it was opened reads as what is left.
    func testFileThatShrankReadsAsWhatIsLeft() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(Data(repeating: 7, count: 1000), to: "shrinks.jpg")
        let file = try ImageFile(path: path)
        XCTAssertEqual(truncate(path, 300), 0)
        XCTAssertEqual(try file.readAll(), Data(repeating: 7, count: 300))
    }

    /// The descriptor handed to a C reader starts at the beginning, blocking, and stays open after the
    /// `ImageFile` is gone.
    func testHandedOverDescriptorOutlivesTheFile() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(Data("0123456789".utf8), to: "digits")
        var fd: Int32 = -1
        do {
            let file = try ImageFile(path: path)
            _ = try file.head(4)
            fd = file.takeDescriptor()
        }
        defer { close(fd) }
        XCTAssertEqual(fcntl(fd, F_GETFL) & O_NONBLOCK, 0)
        var buffer = [UInt8](repeating: 0, count: 10)
        XCTAssertEqual(read(fd, &buffer, 10), 10)
        XCTAssertEqual(String(decoding: buffer, as: UTF8.self), "0123456789")
    }
}
