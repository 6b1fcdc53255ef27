import CExif
import CTesseraFiles
import CTurboJPEG
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging

/// Rotation by the EXIF tag: the tag changes, the pixels and the scan data do not, and a file that cannot
/// be rewritten is left exactly as it was.
final class LosslessRotatorTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var thumbnailRoot: String!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
        thumbnailRoot = folder.path("thumbnails")
    }

    override func tearDown() {
        // Read-only files and folders made by a test must not stop the folder's removal.
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        folder = nil
    }

    private var rotator: LosslessRotator { LosslessRotator(thumbnails: ThumbnailStore(root: thumbnailRoot)) }

    /// A 48x32 gradient (no symmetry, so a wrong turn shows), as the camera stored it.
    private func photo(orientation: UInt16? = 1, bigEndian: Bool = false) -> Data {
        let plain = TestJPEG.encode(.bgra(TestPixels.gradient(width: 48, height: 32)), quality: 90, subsampling: TJSAMP_420)
        guard let orientation else { return plain }
        return TestExif.jpeg(plain, orientation: orientation, bigEndian: bigEndian)
    }

    // MARK: - The tag

    func testFourRightTurnsGiveTheOriginalFileBackByteForByte() throws {
        let original = photo()
        let path = try folder.write(original, to: "photo.jpg")
        var seen: [ImageOrientation] = []
        for _ in 0..<4 {
            let outcome = try rotator.turn(path, by: .rotateRight)
            guard case .written(_, let current) = outcome else { return XCTFail("\(outcome)") }
            XCTAssertEqual(orientation(of: path), current)
            seen.append(current)
        }
        XCTAssertEqual(seen, [.rotated90, .rotated180, .rotated270, .up])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    func testOnlyTheTagChangesAndThePixelsTurnAsShown() throws {
        for bigEndian in [false, true] {
            let original = photo(orientation: 1, bigEndian: bigEndian)
            let path = try folder.write(original, to: "photo-\(bigEndian).jpg")
            let outcome = try rotator.turn(path, by: .rotateRight)
            XCTAssertEqual(outcome, .written(previous: .up, current: .rotated90))
            let rewritten = try Data(contentsOf: URL(fileURLWithPath: path))

            XCTAssertEqual(rewritten.count, original.count)
            let differing = zip(original, rewritten).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            XCTAssertEqual(differing.count, 1, "one byte of the value changes (1 to 6), big-endian \(bigEndian)")
            XCTAssertEqual(scanData(rewritten), scanData(original))
            try assertPixels(original: original, rewritten: rewritten, shownAs: .rotated90)
        }
    }

    /// A block laid out as libexif would not lay it out (IFD0 after 8 bytes of a vendor's private data
    /// that no tag points at): every byte of it but the value survives.
    func testTheRestOfTheEXIFBlockStaysByteForByte() throws {
        let orientationEntry: [UInt8] = [0x12, 0x01, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0]
        let tiff: [UInt8] = [0x49, 0x49, 42, 0, 16, 0, 0, 0] + Array("PRIVATE!".utf8) + [1, 0] + orientationEntry + [0, 0, 0, 0]
        let segmentPayload = Array("Exif".utf8) + [0, 0] + tiff
        let segment: [UInt8] = [0xFF, 0xE1, 0, UInt8(segmentPayload.count + 2)] + segmentPayload
        let original = TestExif.jpeg(photo(orientation: nil), inserting: segment)
        let path = try folder.write(original, to: "vendor.jpg")
        XCTAssertEqual(try rotator.turn(path, by: .rotateRight), .written(previous: .up, current: .rotated90))
        let rewritten = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var expected = [UInt8](original)
        let value = 2 + 4 + 6 + 16 + 2 + 8  // SOI, segment header, "Exif\0\0", header and padding, count, entry start
        XCTAssertEqual(expected[value], 1)
        expected[value] = 6
        XCTAssertEqual(rewritten, expected)
    }

    /// Several scans with tables between them: the whole file is walked to its end marker and kept.
    func testAProgressiveJPEGIsRotatedToo() throws {
        let original = TilingFixtures.progressiveJPEG(TestPixels.gradient(width: 40, height: 24))
        let bytes = [UInt8](original)
        XCTAssertGreaterThan(zip(bytes, bytes.dropFirst()).filter { $0 == (0xFF, 0xDA) }.count, 1, "several scans")
        let path = try folder.write(original, to: "progressive.jpg")
        XCTAssertEqual(try rotator.turn(path, by: .rotateRight), .written(previous: .up, current: .rotated90))
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(scanData(rewritten), scanData(original))
        try assertPixels(original: original, rewritten: rewritten, shownAs: .rotated90)
    }

    func testAJPEGWithoutEXIFGetsASegmentHoldingTheTag() throws {
        let original = photo(orientation: nil)
        let path = try folder.write(original, to: "plain.jpg")
        XCTAssertEqual(try rotator.turn(path, by: .rotateLeft), .written(previous: .up, current: .rotated270))
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(orientation(of: path), .rotated270)
        XCTAssertEqual(scanData(rewritten), scanData(original))
        XCTAssertEqual(segments(rewritten).filter { $0 == 0xE1 }.count, 1)
        // After the JFIF segment, which must come first.
        XCTAssertEqual(Array(segments(rewritten).prefix(2)), [0xE0, 0xE1])
        try assertPixels(original: original, rewritten: rewritten, shownAs: .rotated270)

        // Undo: the tag says upright again; the added segment stays, holding 1.
        XCTAssertEqual(try rotator.setOrientation(.up, ofFileAt: path), .written(previous: .rotated270, current: .up))
        XCTAssertEqual(orientation(of: path), .up)
    }

    func testAnEXIFBlockWithoutTheTagGetsItAndKeepsItsOtherTags() throws {
        let exif = TestExifTags().ascii(0x010F, "Tessera Camera Co.").ascii(0x9003, "2024:05:01 12:00:00", in: .exif)
        let original = TestExif.jpeg(photo(orientation: nil), inserting: exif.segment)
        let path = try folder.write(original, to: "camera.jpg")
        XCTAssertEqual(try rotator.turn(path, by: .flipHorizontal), .written(previous: .up, current: .mirrored))
        let rewritten = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(orientation(of: path), .mirrored)
        XCTAssertEqual(try make(in: rewritten), "Tessera Camera Co.")
        XCTAssertEqual(scanData(rewritten), scanData(original))
    }

    func testUndoWritesThePreviousOrientationBack() throws {
        let original = photo(orientation: 6)
        let path = try folder.write(original, to: "portrait.jpg")
        guard case .written(let previous, let current) = try rotator.turn(path, by: .flipVertical) else { return XCTFail() }
        XCTAssertEqual(previous, .rotated90)
        XCTAssertEqual(current, .rotated90.turned(.flipVertical))
        _ = try rotator.setOrientation(previous, ofFileAt: path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original)
    }

    // MARK: - The file

    func testPermissionsAndSymbolicLinksAreKept() throws {
        let path = try folder.write(photo(), to: "kept.jpg")
        XCTAssertEqual(chmod(path, 0o640), 0)
        let link = folder.path("link.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        _ = try rotator.turn(link, by: .rotateRight)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), path, "the link is still a link")
        XCTAssertEqual(orientation(of: path), .rotated90)
        XCTAssertEqual(mode(path), 0o640)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no temporary file is left behind")
    }

    /// Sets the extended attribute `name` of the file at `path`; false when its file system refuses them.
    private func setAttribute(_ name: String, _ value: [UInt8], of path: String) throws -> Bool {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        if tessera_fsetxattr(descriptor, name, value, UInt(value.count)) == 0 { return true }
        if errno == ENOTSUP { return false }
        throw XCTSkip("cannot set \(name) on \(path): \(String(cString: strerror(errno)))")
    }

    private func attribute(_ name: String, of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var value = [UInt8](repeating: 0, count: 256)
        let size = tessera_fgetxattr(descriptor, name, &value, UInt(value.count))
        return size < 0 ? nil : Array(value.prefix(size))
    }

    private func inode(_ path: String) -> UInt64 {
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        return UInt64(st.st_ino)
    }

    /// A POSIX ACL as the kernel stores it in `system.posix_acl_access`: its owner, user 4242, its group
    /// and the mask may read and write, others nothing.
    private let access: [UInt8] = {
        var bytes: [UInt8] = [2, 0, 0, 0]
        func entry(_ tag: UInt16, _ permissions: UInt16, _ id: UInt32) {
            bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(permissions), 0]
            bytes += withUnsafeBytes(of: id.littleEndian, Array.init)
        }
        entry(0x01, 6, .max)
        entry(0x02, 6, 4242)
        entry(0x04, 6, .max)
        entry(0x10, 6, .max)
        entry(0x20, 0, .max)
        return bytes
    }()

    func testAnExistingTagIsPatchedInPlaceSoHardLinksAndAttributesStay() throws {
        let path = try folder.write(photo(orientation: 1), to: "linked.jpg")
        let other = folder.path("other name.jpg")
        XCTAssertEqual(link(path, other), 0)
        guard try setAttribute("user.test", Array("kept".utf8), of: path) else {
            throw XCTSkip("the file system of \(folder.url.path) refuses user extended attributes")
        }
        let before = inode(path)
        XCTAssertEqual(try rotator.turn(path, by: .rotateRight), .written(previous: .up, current: .rotated90))
        XCTAssertEqual(orientation(of: path), .rotated90)
        XCTAssertEqual(orientation(of: other), .rotated90, "the other link shows the turn too")
        XCTAssertEqual(inode(path), before, "the same file, patched")
        XCTAssertEqual(attribute("user.test", of: path), Array("kept".utf8))
    }

    func testAReplacedFileKeepsItsModeAttributesAndACL() throws {
        let path = try folder.write(photo(orientation: nil), to: "untagged.jpg")
        XCTAssertEqual(chmod(path, 0o640), 0)
        guard try setAttribute("user.test", Array("kept".utf8), of: path) else {
            throw XCTSkip("the file system of \(folder.url.path) refuses user extended attributes")
        }
        let hasACL = try setAttribute("system.posix_acl_access", access, of: path)
        let before = inode(path)
        XCTAssertEqual(try rotator.turn(path, by: .rotateRight), .written(previous: .up, current: .rotated90))
        XCTAssertEqual(orientation(of: path), .rotated90)
        XCTAssertNotEqual(inode(path), before, "a file without the tag is replaced")
        XCTAssertEqual(attribute("user.test", of: path), Array("kept".utf8))
        if hasACL {
            XCTAssertEqual(attribute("system.posix_acl_access", of: path), access, "user 4242 may still write it")
            XCTAssertEqual(mode(path), 0o660, "the ACL's mask is the group's bits")
        } else {
            XCTAssertEqual(mode(path), 0o640)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [])
    }

    func testTheFilesThumbnailsOfEverySizeAreDeletedAndOthersKept() throws {
        let path = try folder.write(photo(), to: "thumbed.jpg")
        let other = try folder.write(photo(), to: "other.jpg")
        let store = ThumbnailStore(root: thumbnailRoot)
        var made: [String: Bool] = [:]
        for file in [path, other] {
            let original = try XCTUnwrap(store.original(atPath: file))
            for size in ThumbnailSize.allCases {
                let thumbnail = store.path(for: original, size: size)
                try FileManager.default.createDirectory(atPath: (thumbnail as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try Data([1, 2, 3]).write(to: URL(fileURLWithPath: thumbnail))
                made[thumbnail] = file == path
            }
        }
        _ = try rotator.turn(path, by: .rotateLeft)
        for (thumbnail, ofRotatedFile) in made {
            XCTAssertEqual(FileManager.default.fileExists(atPath: thumbnail), !ofRotatedFile, thumbnail)
        }
    }

    func testOtherFormatsAreNotChanged() throws {
        let path = try folder.write(TestHeaders.png(width: 8, height: 4), to: "picture.png")
        let before = try snapshot(path)
        XCTAssertEqual(try rotator.turn(path, by: .rotateRight), .notSaved(.png))
        XCTAssertEqual(try snapshot(path), before)
    }

    // MARK: - Bad input

    func testATruncatedJPEGIsRefusedAndUntouched() throws {
        let whole = photo()
        let path = try folder.write(whole.prefix(whole.count - 40), to: "truncated.jpg")
        let before = try snapshot(path)
        XCTAssertThrowsError(try rotator.turn(path, by: .rotateRight)) { error in
            guard case .damaged(let why) = (error as? RotationError)?.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("truncated"), why)
            XCTAssertTrue("\(error)".hasPrefix(path + ": not a whole JPEG"), "\(error)")
        }
        XCTAssertEqual(try snapshot(path), before)
    }

    func testACorruptJPEGIsRefusedAndUntouched() throws {
        var bytes = [UInt8](photo())
        // The first segment's length made to run past the end of the file.
        bytes[4] = 0xFF; bytes[5] = 0xF0
        let headerless = try folder.write(Data(bytes), to: "corrupt.jpg")
        // Only the start and end markers: no frame, no scan.
        let empty = try folder.write(Data([0xFF, 0xD8, 0xFF, 0xD9]), to: "no-image.jpg")
        for path in [headerless, empty] {
            let before = try snapshot(path)
            XCTAssertThrowsError(try rotator.turn(path, by: .rotateRight)) { error in
                guard case .damaged = (error as? RotationError)?.reason else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(try snapshot(path), before)
        }
    }

    func testAReadOnlyFileIsRefusedAndUntouched() throws {
        let path = try folder.write(photo(), to: "read-only.jpg")
        XCTAssertEqual(chmod(path, 0o444), 0)
        let before = try snapshot(path)
        XCTAssertThrowsError(try rotator.turn(path, by: .rotateRight)) { error in
            XCTAssertEqual((error as? RotationError)?.reason, .readOnly)
            XCTAssertEqual("\(error)", "\(path): the file is read-only")
        }
        XCTAssertEqual(try snapshot(path), before)
    }

    func testMissingEmptyAndFolderPathsAreRefused() throws {
        let missing = folder.path("missing.jpg")
        let empty = try folder.write(Data(), to: "empty.jpg")
        let subfolder = folder.path("folder.jpg")
        try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: false)
        let expected: [(String, RotationError.Reason)] = [(missing, .missing), (empty, .empty), (subfolder, .notARegularFile)]
        for (path, reason) in expected {
            XCTAssertThrowsError(try rotator.turn(path, by: .rotateLeft)) { error in
                XCTAssertEqual(error as? RotationError, RotationError(path: path, reason: reason))
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    // MARK: - Helpers

    private func orientation(of path: String) -> ImageOrientation? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return ExifReader.orientation(in: data, format: .jpeg)
    }

    /// Everything from the first SOS segment on: the compressed pixels.
    private func scanData(_ jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        var i = 2
        while i + 4 <= bytes.count, bytes[i + 1] != 0xDA {
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return Data(bytes[i...])
    }

    /// The markers of the segments before the scan.
    private func segments(_ jpeg: Data) -> [UInt8] {
        let bytes = [UInt8](jpeg)
        var markers: [UInt8] = []
        var i = 2
        while i + 4 <= bytes.count, bytes[i + 1] != 0xDA {
            markers.append(bytes[i + 1])
            i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
        }
        return markers
    }

    /// The stored pixels are the same decoded without orientation, and the loader, which applies it,
    /// shows them turned as `shown` says.
    private func assertPixels(original: Data, rewritten: Data, shownAs shown: ImageOrientation,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let raw = ImageLoader(decoders: [TurboJPEGDecoder()], applyOrientation: false)
        let before = try raw.load(data: original, name: "before", fitting: nil)
        let after = try raw.load(data: rewritten, name: "after", fitting: nil)
        XCTAssertEqual(after.bytes, before.bytes, "stored pixels", file: file, line: line)
        let oriented = try ImageLoader(decoders: [TurboJPEGDecoder()]).load(data: rewritten, name: "after", fitting: nil)
        let expected = shown.apply(to: before)
        XCTAssertEqual(oriented.size, expected.size, file: file, line: line)
        XCTAssertEqual(oriented.bytes, expected.bytes, "pixels as shown", file: file, line: line)
    }

    private struct Snapshot: Equatable {
        let bytes: Data
        let modified: Date?
        let mode: UInt16
    }

    private func snapshot(_ path: String) throws -> Snapshot {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return Snapshot(bytes: try Data(contentsOf: URL(fileURLWithPath: path)),
                        modified: attributes[.modificationDate] as? Date, mode: mode(path))
    }

    private func mode(_ path: String) -> UInt16 {
        var st = stat()
        stat(path, &st)
        return UInt16(st.st_mode & 0o7777)
    }

    private func make(in jpeg: Data) throws -> String? {
        let exif = try XCTUnwrap(jpeg.withUnsafeBytes { exif_data_new_from_data($0.bindMemory(to: UInt8.self).baseAddress, UInt32($0.count)) })
        defer { exif_data_unref(exif) }
        guard let entry = exif_content_get_entry(exif.pointee.ifd.0, EXIF_TAG_MAKE), let data = entry.pointee.data else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(entry.pointee.size)).prefix { $0 != 0 }, as: UTF8.self)
    }
}
