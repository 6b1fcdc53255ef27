import Foundation
import TesseraCore
import XCTest
@testable import TesseraFiles

final class ImagePathCollectorTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-paths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub/deeper"), withIntermediateDirectories: true)
        for name in ["img10.jpg", "img2.png", "img1.webp", "notes.txt", ".hidden.jpg", "sub/a.jpg", "sub/deeper/b.gif"] {
            try Data([1]).write(to: folder.appendingPathComponent(name))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testFoldersListImagesInNaturalOrder() throws {
        let names = try ImagePathCollector().collect([folder.path]).items.map(\.displayName)
        XCTAssertEqual(names, ["img1.webp", "img2.png", "img10.jpg"])
    }

    func testRecursiveIncludesSubfoldersAfterTheFoldersOwnImages() throws {
        let names = try ImagePathCollector(recursive: true).collect([folder.path]).items.map(\.displayName)
        XCTAssertEqual(names, ["img1.webp", "img2.png", "img10.jpg", "a.jpg", "b.gif"])
    }

    func testFilesNamedOnTheCommandLineAreTakenWhateverTheirNameAndOnlyOnce() throws {
        let notes = folder.appendingPathComponent("notes.txt").path
        let items = try ImagePathCollector().collect([notes, folder.path, notes]).items
        XCTAssertEqual(items.map(\.displayName), ["notes.txt", "img1.webp", "img2.png", "img10.jpg"])
    }

    func testMissingPathAndEmptySetAreErrors() {
        XCTAssertThrowsError(try ImagePathCollector().collect(["/no/such/path"])) { error in
            XCTAssertEqual(error as? ImagePathCollector.CollectError, .missing("/no/such/path"))
        }
        let empty = folder.appendingPathComponent("sub/deeper").path
        try? FileManager.default.removeItem(atPath: empty + "/b.gif")
        XCTAssertThrowsError(try ImagePathCollector().collect([empty]))
    }

    func testAListIsOnePathALineOrWithNulSeparationTakenAsItIs() {
        XCTAssertEqual(ImagePathCollector.parseList("a.jpg\n  b c.png \n\n# a note\nhttps://h/x.jpg\n"),
                       ["a.jpg", "b c.png", "https://h/x.jpg"])
        XCTAssertEqual(ImagePathCollector.parseList("line\nbreak.jpg\0 spaced.png\0\0#hash.jpg\0", nulSeparated: true),
                       ["line\nbreak.jpg", " spaced.png", "#hash.jpg"], "find -print0 names are kept whole")
    }

    /// Names as they come on disk, in any order: the listing is a full natural sort of them.
    func testAFolderListsInTheOrderOfAFullNaturalSort() throws {
        let tricky = folder.appendingPathComponent("tricky")
        try FileManager.default.createDirectory(at: tricky, withIntermediateDirectories: true)
        let stems = ["img2", "img10", "img02", "img002", "IMG2", "Img10", "img", "img_1", "img-1", "img 1", "0", "00", "007",
                     "a0b", "a00b", "12345678901234567890123456789", "12345678901234567890123456788", String(repeating: "9", count: 200),
                     "école 3", "École 03", "ecole 3", "e\u{301}cole 3", "straße", "STRASSE", "日本2", "日本10", "😀1", "😀01", "Ω1", "ω1"]
        var names = stems.map { $0 + ".jpg" } + ["IMG2.JPG", "img2.png", "img2.jpeg"]
        names.shuffle()
        for name in names { try Data([1]).write(to: tricky.appendingPathComponent(name)) }
        let listed = try ImagePathCollector().collect([tricky.path]).items.map(\.displayName)
        // What the filesystem kept (it may store a spelling as given): sorted pair by pair, no keys made in bulk.
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: tricky.path)
        XCTAssertEqual(listed, onDisk.sorted(by: NaturalOrder.areInIncreasingOrder))
        XCTAssertEqual(listed.count, names.count)
    }

    func testAListReadAChunkAtATimeGivesWhatParsingItWholeGives() throws {
        var text = "# photos\r\n"
        // Lines read from their bytes and lines taken as text (other line breaks, Unicode spaces at the ends).
        let odd = ["\t  # a note after spaces", "   ", "a\u{85}b.jpg", "c\u{2028}d.jpg", "e\u{2029}f.jpg", "g\rh.jpg", "i\u{0B}j.jpg",
                   "\u{A0}k.jpg\u{A0}", "\u{3000}l.jpg", "m é", "é n", "o.jpg\t", "#"]
        for index in 0..<30_000 {
            text += index % 7 == 0 ? "  /photos/\(index) é.jpg  \r\n\n" : index % 101 == 0 ? odd[index % odd.count] + "\n" : "/photos/\(index).jpg\n"
        }
        text += "last.jpg"
        let file = folder.appendingPathComponent("list.txt")
        try Data(text.utf8).write(to: file)
        for nul in [false, true] {
            let body = nul ? text.replacingOccurrences(of: "\n", with: "\0") : text
            try Data(body.utf8).write(to: file)
            let descriptor = open(file.path, O_RDONLY)
            defer { close(descriptor) }
            XCTAssertEqual(Array(ListReader(descriptor: descriptor, nulSeparated: nul)), ListReader.parse(body, nulSeparated: nul),
                           "entries across the reads' boundaries, nul: \(nul)")
        }
    }
}
