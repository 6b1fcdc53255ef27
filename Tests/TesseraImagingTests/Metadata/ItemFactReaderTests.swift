#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// The orders other than name from real files: modification times set with `utimensat`, sizes by the
/// bytes written, dates taken written into small JPEGs with libexif; read as the strip's background
/// reads do (`ItemFactReader`) and arranged by `StripOrder`.
final class ItemFactReaderTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws { folder = try TemporaryDirectory() }
    override func tearDown() { folder = nil }

    private let photo = TestJPEG.solid(width: 8, height: 8, color: RGBA(r: 9, g: 9, b: 9))

    /// A JPEG whose EXIF says it was taken at `date` ("YYYY:MM:DD hh:mm:ss"), at `offset` if given.
    private func taken(_ date: String, offset: String? = nil) -> Data {
        var tags = TestExifTags().ascii(0x9003, date, in: .exif)
        if let offset { tags = tags.ascii(0x9011, offset, in: .exif) }
        return TestExif.jpeg(photo, inserting: tags.segment)
    }

    /// Writes `data` as `name`, modified `seconds` after the epoch.
    @discardableResult
    private func write(_ data: Data, _ name: String, modified seconds: Int) throws -> String {
        let path = try folder.write(data, to: name)
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        return path
    }

    func testTheDateTakenIsReadAtItsOffsetAndIsNilWithoutOne() throws {
        let utc = try write(taken("2024:05:01 12:00:00", offset: "+00:00"), "utc.jpg", modified: 0)
        let paris = try write(taken("2024:05:01 12:00:00", offset: "+02:00"), "paris.jpg", modified: 0)
        let bare = try write(photo, "bare.jpg", modified: 0)
        let zero = try write(taken("0000:00:00 00:00:00"), "unset-clock.jpg", modified: 0)
        XCTAssertEqual(ItemFactReader.dateTaken(ofFileAt: utc), 1_714_564_800 * 1_000_000_000)
        XCTAssertEqual(ItemFactReader.dateTaken(ofFileAt: paris), (1_714_564_800 - 7200) * 1_000_000_000)
        XCTAssertNil(ItemFactReader.dateTaken(ofFileAt: bare))
        XCTAssertNil(ItemFactReader.dateTaken(ofFileAt: zero), "a camera whose clock was never set")
        XCTAssertNil(ItemFactReader.dateTaken(ofFileAt: folder.path("missing.jpg")))
    }

    func testEachOrderAndItsReverseFromTheFilesThemselves() throws {
        // Listed (name order): a, b, c, d. b was taken first although modified last; c has no date, so
        // its modification time stands in; d is the largest and shares a's modification time.
        let files: [(String, Data, Int)] = [
            ("a.jpg", taken("2021:01:01 00:00:00", offset: "+00:00"), 1_000),
            ("b.jpg", taken("2001:01:01 00:00:00", offset: "+00:00"), 4_000),
            ("c.jpg", photo, 1_700_000_000),
            ("d.jpg", taken("2022:01:01 00:00:00", offset: "+00:00") + Data(count: 5_000), 1_000),
        ]
        var table = ItemTable()
        for (name, data, modified) in files { _ = table.appendPath(try write(data, name, modified: modified)) }
        var facts = ItemFacts()
        for id in 0..<UInt32(table.count) {
            facts.learn(ItemFactReader.read(id, path: table.path(of: id), kind: .taken))
        }
        var shuffle = ShuffleKeys(seed: 7)
        shuffle.add(table)
        func arranged(_ order: StripOrder, reversed: Bool = false) -> [String] {
            order.arrange(Array(0..<UInt32(table.count)), reversed: reversed) { order.key(of: $0, facts: facts, shuffle: shuffle) }
                .map { String(table.path(of: $0).split(separator: "/").last!) }
        }
        XCTAssertEqual(arranged(.name), ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        XCTAssertEqual(arranged(.mtime), ["a.jpg", "d.jpg", "b.jpg", "c.jpg"], "oldest first, a tie by name")
        XCTAssertEqual(arranged(.taken), ["b.jpg", "a.jpg", "d.jpg", "c.jpg"], "c by its modification time (2023)")
        let sizes = files.map { $0.1.count }
        XCTAssertTrue(sizes[2] < sizes[1] && sizes[3] == sizes.max())
        XCTAssertEqual(arranged(.size).last, "d.jpg")
        XCTAssertEqual(arranged(.size).first, "c.jpg", "the photo without EXIF is the smallest")
        for order in StripOrder.allCases {
            XCTAssertEqual(arranged(order, reversed: true), arranged(order).reversed(), "\(order) reversed")
        }
        XCTAssertEqual(Set(arranged(.random)), Set(arranged(.name)))
        XCTAssertEqual(arranged(.random), arranged(.random), "one shuffle for the run")
    }

    func testAFileThatCannotBeReadIsReadAsAbsent() {
        let reading = ItemFactReader.read(3, path: folder.path("gone.jpg"), kind: .taken)
        XCTAssertEqual(reading, ItemFacts.Reading(id: 3, version: nil, taken: nil, takenRead: true))
        XCTAssertEqual(ItemFactReader.read(3, path: folder.path("gone.jpg"), kind: .stat),
                       ItemFacts.Reading(id: 3, version: nil))
    }
}
