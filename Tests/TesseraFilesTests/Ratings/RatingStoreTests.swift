#if canImport(Glibc)
import Glibc
#endif
import CExempi
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles

/// Ratings in XMP sidecars: written beside the image, merged into darktable's and digiKam's sidecars
/// without losing what they hold, read in the order other programs read them, undone by merging, and a
/// sidecar that is not XMP or a folder that cannot be written left exactly as they were. What the
/// sidecars hold is checked through Exempi directly, and through exiftool where it is installed.
final class RatingStoreTests: XCTestCase {
    private var folder: TemporaryDirectory!
    private var mounted: [String] = []
    private let store = RatingStore()

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
    }

    override func tearDown() {
        for point in mounted.reversed() { _ = try? ChildProcess.run("/bin/umount", [point]) }
        mounted = []
        folder = nil
    }

    // MARK: - Writing

    func testARatingGoesIntoANewSidecarNamedAfterTheWholeFileName() throws {
        let image = try photo("IMG_1.CR2", mode: 0o640)
        let change = try store.setRating(.stars(4), of: image)

        let sidecar = folder.path("IMG_1.CR2.xmp")
        XCTAssertEqual(change.sidecarPath, sidecar)
        XCTAssertTrue(change.wrote)
        XCTAssertTrue(change.createdSidecar)
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "4")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(4), from: .sidecar))
        XCTAssertEqual(mode(sidecar), 0o640, "readable by whoever reads the image")
        XCTAssertEqual(try names(), ["IMG_1.CR2", "IMG_1.CR2.xmp"], "no temporary file left, no IMG_1.xmp")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: image)), photoBytes, "the image is never written")
    }

    func testMergingKeepsDarktablesHistoryKeywordsAndUnknownNamespaces() throws {
        let image = try photo("IMG_2.CR2")
        let sidecar = try folder.write(Data(Self.darktableSidecar.utf8), to: "IMG_2.CR2.xmp")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(1), from: .sidecar))

        let change = try store.setRating(.rejected, of: image)
        XCTAssertFalse(change.createdSidecar)
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "-1")
        XCTAssertEqual(try property(sidecar, darktable, "darktable:history_end"), "2")
        XCTAssertEqual(try property(sidecar, darktable, "darktable:history[1]/darktable:operation"), "exposure")
        XCTAssertEqual(try property(sidecar, darktable, "darktable:history[2]/darktable:operation"), "colorbalancergb")
        XCTAssertEqual(try property(sidecar, darktable, "darktable:history[2]/darktable:params"), "gz48eJxjYGBgYAHiA0sYGBgYGJgYIAAAGk4BSQ==")
        XCTAssertEqual(try property(sidecar, dc, "dc:subject[1]"), "cat")
        XCTAssertEqual(try property(sidecar, dc, "dc:subject[2]"), "garden")
        XCTAssertEqual(try property(sidecar, "http://example.com/ns/unknown/", "unk:Note"), "kept as it is")
        XCTAssertEqual(try leafCount(sidecar), try leafCount(Self.darktableSidecar), "nothing lost, nothing added")
        XCTAssertEqual(store.rating(of: image), StoredRating(.rejected, from: .sidecar))
    }

    func testMergingKeepsDigiKamsTagsList() throws {
        let image = try photo("DSC_7.JPG")
        let sidecar = try folder.write(Data(Self.digiKamSidecar.utf8), to: "DSC_7.JPG.xmp")

        try store.setRating(.stars(5), of: image)
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "5")
        XCTAssertEqual(try property(sidecar, digiKam, "digiKam:TagsList[1]"), "People/Anna")
        XCTAssertEqual(try property(sidecar, digiKam, "digiKam:TagsList[2]"), "Places/Lyon")
        XCTAssertEqual(try property(sidecar, "http://ns.adobe.com/lightroom/1.0/", "lr:hierarchicalSubject[2]"), "Places|Lyon")
        XCTAssertEqual(try property(sidecar, "http://ns.microsoft.com/photo/1.0/", "MicrosoftPhoto:Rating"), "25")
        XCTAssertEqual(try leafCount(sidecar), try leafCount(Self.digiKamSidecar) + 1, "the rating added, nothing lost")
    }

    func testRejectAndClearAreMinusOneAndZero() throws {
        let image = try photo("a.jpg")
        let sidecar = folder.path("a.jpg.xmp")
        try store.setRating(.stars(2), of: image)
        try store.setRating(.rejected, of: image)
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "-1")
        XCTAssertEqual(store.rating(of: image).rating, .rejected)
        try store.setRating(.unrated, of: image)
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "0", "darktable gives a sidecar without a rating its default stars")
        XCTAssertEqual(store.rating(of: image), StoredRating(.unrated, from: .sidecar))
    }

    func testClearingAPhotoNothingRatesWritesNothingAndTheSameRatingTwiceWritesOnce() throws {
        let image = try photo("b.jpg")
        let cleared = try store.setRating(.unrated, of: image)
        XCTAssertFalse(cleared.wrote)
        XCTAssertEqual(try names(), ["b.jpg"])

        try store.setRating(.stars(3), of: image)
        let version = FileVersion.ofFile(atPath: folder.path("b.jpg.xmp"))
        let again = try store.setRating(.stars(3), of: image)
        XCTAssertFalse(again.wrote)
        XCTAssertEqual(FileVersion.ofFile(atPath: folder.path("b.jpg.xmp")), version)
    }

    func testAPhotoThatIsGoneGetsNoSidecar() throws {
        XCTAssertThrowsError(try store.setRating(.stars(3), of: folder.path("gone.jpg"))) { error in
            XCTAssertEqual("\(error)", "gone.jpg.xmp is not written: its photo is no longer there")
        }
        XCTAssertEqual(try names(), [])
    }

    // MARK: - Reading

    func testReadingPrefersNameExtXmpThenNameXmpThenTheImagesOwnXMP() throws {
        let image = folder.path("IMG_3.jpg")
        try jpeg(withXMPRating: "2").write(to: URL(fileURLWithPath: image))
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(2), from: .embedded))
        XCTAssertEqual(store.rating(of: image, embedded: false), StoredRating(.unrated, from: .nowhere))

        try folder.write(Data(sidecar(rating: "3").utf8), to: "IMG_3.xmp")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(3), from: .adobeSidecar))

        try folder.write(Data(sidecar(rating: "5").utf8), to: "IMG_3.jpg.xmp")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(5), from: .sidecar))
        XCTAssertEqual(store.ratings(ofNames: ["IMG_3.jpg"], in: folder.url.path), [StoredRating(.stars(5), from: .sidecar)])

        // A sidecar without a rating gives way to the next, as darktable and digiKam read them.
        try folder.write(Data(Self.digiKamSidecar.utf8), to: "IMG_3.jpg.xmp")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(3), from: .adobeSidecar))
    }

    func testAFolderListingSparesLookingForSidecarsThatAreNotThere() throws {
        let rated = try photo("rated.jpg")
        try photo("plain.jpg")
        try store.setRating(.stars(1), of: rated)
        let listed = SidecarNames(listing: folder.url.path)
        XCTAssertTrue(listed.contains("rated.jpg.xmp"))
        XCTAssertFalse(listed.contains("plain.jpg.xmp"))
        XCTAssertEqual(store.rating(of: rated, sidecars: listed), StoredRating(.stars(1), from: .sidecar))
        // Told there is none, the store does not look: a listing is trusted.
        XCTAssertEqual(store.rating(of: rated, sidecars: SidecarNames([])), StoredRating(.unrated, from: .nowhere))
        XCTAssertEqual(store.ratings(ofNames: ["plain.jpg", "rated.jpg"], in: folder.url.path).map(\.rating), [.unrated, .stars(1)])
    }

    func testAnImagesBrokenOrHugeXMPIsNoRating() throws {
        let image = folder.path("hostile.jpg")
        var bytes = jpeg(withXMPRating: "4")
        bytes.removeLast(40)  // The packet cut short.
        try bytes.write(to: URL(fileURLWithPath: image))
        XCTAssertEqual(store.rating(of: image), StoredRating(.unrated, from: .nowhere))

        var late = Data(repeating: 0, count: EmbeddedXMP.scanLimit)
        late.append(jpeg(withXMPRating: "4"))
        try late.write(to: URL(fileURLWithPath: image))
        XCTAssertEqual(store.rating(of: image), StoredRating(.unrated, from: .nowhere), "past the scanned head")
    }

    // MARK: - Undo

    func testUndoRemovesASidecarTesseraCreatedWhileItHoldsNothingElse() throws {
        let image = try photo("c.jpg")
        let first = try store.setRating(.stars(3), of: image)
        let second = try store.setRating(.stars(5), of: image)
        XCTAssertEqual(try store.undo(second), StoredRating(.stars(3), from: .sidecar))
        XCTAssertEqual(try store.undo(first), StoredRating(.unrated, from: .nowhere))
        XCTAssertEqual(try names(), ["c.jpg"])
    }

    func testUndoKeepsASidecarAnotherProgramAddedToAndTakesOnlyTheRatingOut() throws {
        let image = try photo("d.jpg")
        let sidecar = folder.path("d.jpg.xmp")
        let change = try store.setRating(.stars(4), of: image)
        try anotherProgramAdds(keyword: "added later", to: sidecar)

        XCTAssertEqual(try store.undo(change), StoredRating(.unrated, from: .nowhere))
        XCTAssertNil(try property(sidecar, basic, "xmp:Rating"))
        XCTAssertEqual(try property(sidecar, dc, "dc:subject[1]"), "added later")
    }

    func testUndoMergesThePreviousRatingBackAndKeepsLaterChanges() throws {
        let image = try photo("IMG_4.CR2")
        let sidecar = try folder.write(Data(Self.darktableSidecar.utf8), to: "IMG_4.CR2.xmp")
        let change = try store.setRating(.stars(4), of: image)
        try anotherProgramAdds(keyword: "added later", to: sidecar)

        XCTAssertEqual(try store.undo(change), StoredRating(.stars(1), from: .sidecar))
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "1")
        XCTAssertEqual(try property(sidecar, dc, "dc:subject[3]"), "added later")
        XCTAssertEqual(try property(sidecar, darktable, "darktable:history[2]/darktable:operation"), "colorbalancergb")
    }

    func testWithOnlyAdobesSidecarANewOneStartsFromItAndAdobesIsNotTouched() throws {
        let image = try photo("IMG_5.CR2")
        let adobeText = sidecar(rating: "2", keyword: "from Lightroom")
        let adobe = try folder.write(Data(adobeText.utf8), to: "IMG_5.xmp")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(2), from: .adobeSidecar))

        let change = try store.setRating(.stars(4), of: image)
        let sidecar = folder.path("IMG_5.CR2.xmp")
        XCTAssertTrue(change.createdSidecar)
        XCTAssertEqual(try property(sidecar, basic, "xmp:Rating"), "4")
        XCTAssertEqual(try property(sidecar, dc, "dc:subject[1]"), "from Lightroom")
        XCTAssertEqual(try String(contentsOfFile: adobe, encoding: .utf8), adobeText)

        XCTAssertEqual(try store.undo(change), StoredRating(.stars(2), from: .adobeSidecar))
        XCTAssertEqual(try names(), ["IMG_5.CR2", "IMG_5.xmp"])
    }

    // MARK: - What is left alone

    func testASidecarThatIsNotXMPIsLeftByteForByteAndTheErrorSaysSo() throws {
        let image = try photo("IMG_1.jpg")
        for damaged in [String(Self.darktableSidecar.dropLast(60)), "<?xml version=\"1.0\"?><notes>keep me</notes>"] {
            let sidecar = try folder.write(Data(damaged.utf8), to: "IMG_1.jpg.xmp")
            let version = FileVersion.ofFile(atPath: sidecar)
            XCTAssertThrowsError(try store.setRating(.stars(2), of: image)) { error in
                XCTAssertEqual((error as? RatingError)?.reason, .notXMP)
                XCTAssertEqual("\(error)", "IMG_1.jpg.xmp cannot be read as XMP; its rating is left as it is")
            }
            XCTAssertEqual(try String(contentsOfFile: sidecar, encoding: .utf8), damaged)
            XCTAssertEqual(FileVersion.ofFile(atPath: sidecar), version)
            XCTAssertEqual(store.rating(of: image), StoredRating(.unrated, from: .unreadableSidecar))
            XCTAssertEqual(try names(), ["IMG_1.jpg", "IMG_1.jpg.xmp"])
        }
    }

    func testAReadOnlyFolderLosesNothingAndTheErrorSaysWhy() throws {
        let photos = folder.path("read-only")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: false)
        let rated = try photo("rated.jpg", in: photos)
        let unrated = try photo("unrated.jpg", in: photos)
        let sidecar = try folder.write(Data(Self.darktableSidecar.utf8), to: "read-only/rated.jpg.xmp")
        if geteuid() == 0 {
            // Root writes into any folder whatever its mode; a read-only mount binds root too.
            try mount(["--bind", photos, photos])
            try mount(["-o", "remount,bind,ro", photos])
        } else {
            XCTAssertEqual(chmod(photos, 0o555), 0)
        }
        defer { chmod(photos, 0o755) }

        let results = store.setRating(.stars(5), of: [rated, unrated])
        for (result, name) in zip(results, ["rated.jpg.xmp", "unrated.jpg.xmp"]) {
            XCTAssertThrowsError(try result.get()) { error in
                XCTAssertTrue("\(error)".hasPrefix("\(name) cannot be written ("), "\(error)")
                XCTAssertTrue("\(error)".hasSuffix("; its rating is left as it is"), "\(error)")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: sidecar, encoding: .utf8), Self.darktableSidecar)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: photos).sorted(), ["rated.jpg", "rated.jpg.xmp", "unrated.jpg"])
    }

    func testAFullDiskLeavesNoHalfFileAndNoTemporaryFile() throws {
        guard geteuid() == 0 else { throw XCTSkip("mounting a small tmpfs needs root") }
        let point = folder.path("small")
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: false)
        try mount(["-t", "tmpfs", "-o", "size=64k,mode=755", "tessera-ratings-test", point])
        let image = try photo("full.jpg", in: point)
        // Filled up to the last block, so that no sidecar fits.
        let filler = open(point + "/filler", O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(filler, 0)
        let block = [UInt8](repeating: 7, count: 4096)
        while write(filler, block, block.count) > 0 {}
        close(filler)

        XCTAssertThrowsError(try store.setRating(.stars(5), of: image)) { error in
            XCTAssertTrue("\(error)".hasPrefix("full.jpg.xmp cannot be written ("), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: point).sorted(), ["filler", "full.jpg"])
    }

    // MARK: - Names and other readers

    func testANameThatIsNotUTF8GetsItsOwnSidecar() throws {
        let nameBytes: [UInt8] = Array("IMG_".utf8) + [0xFF, 0xC3] + Array(".jpg".utf8)
        let image = FolderLister.path(of: PathText.text(of: nameBytes), in: folder.url.path)
        let descriptor = POSIXFiles.open(image, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        close(descriptor)

        let change = try store.setRating(.stars(2), of: image)
        let sidecarBytes = Array(folder.url.path.utf8) + [UInt8(ascii: "/")] + nameBytes + Array(".xmp".utf8)
        XCTAssertEqual(PathText.bytes(of: change.sidecarPath), sidecarBytes)
        var st = stat()
        XCTAssertEqual(lstat(sidecarBytes.map { CChar(bitPattern: $0) } + [0], &st), 0, "the sidecar's name is the image's bytes and .xmp")
        XCTAssertEqual(store.rating(of: image), StoredRating(.stars(2), from: .sidecar))
        XCTAssertEqual(store.ratings(ofNames: [PathText.text(of: nameBytes)], in: folder.url.path).map(\.rating), [.stars(2)])
        XCTAssertEqual(try store.undo(change).source, .nowhere)
    }

    func testExiftoolReadsTheRatingsWritten() throws {
        guard let exiftool = Self.onPath("exiftool") else { throw XCTSkip("exiftool is not installed") }
        let image = try photo("IMG_6.CR2")
        let sidecar = try folder.write(Data(Self.darktableSidecar.utf8), to: "IMG_6.CR2.xmp")
        for (rating, expected) in [(Rating.stars(3), "3"), (.rejected, "-1"), (.unrated, "0")] {
            try store.setRating(rating, of: image)
            let run = try ChildProcess.run(exiftool, ["-s3", "-XMP-xmp:Rating", sidecar])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), expected)
        }
        let keywords = try ChildProcess.run(exiftool, ["-s3", "-XMP-dc:Subject", sidecar])
        XCTAssertEqual(keywords.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "cat, garden")
    }

    func testRatingsWrittenFromSeveralThreadsAtOnceAllLand() throws {
        let images = try (0..<40).map { try photo("p\($0).jpg") }
        let store = store
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let mine = images.enumerated().filter { $0.offset % 4 == worker }.map(\.element)
            for case .failure(let error) in store.setRating(.stars(worker + 1), of: mine) { XCTFail("\(error)") }
        }
        for (index, image) in images.enumerated() {
            XCTAssertEqual(store.rating(of: image).rating, .stars(index % 4 + 1))
        }
    }

    // MARK: - Fixtures

    private let basic = "http://ns.adobe.com/xap/1.0/"
    private let dc = "http://purl.org/dc/elements/1.1/"
    private let darktable = "http://darktable.sf.net/"
    private let digiKam = "http://www.digikam.org/ns/1.0/"
    private let photoBytes = Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 13) })

    @discardableResult
    private func photo(_ name: String, in directory: String? = nil, mode: mode_t = 0o644) throws -> String {
        let path = (directory ?? folder.url.path) + "/" + name
        try photoBytes.write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, mode), 0)
        return path
    }

    private func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    private func mode(_ path: String) -> mode_t {
        var st = stat()
        stat(path, &st)
        return st.st_mode & 0o7777
    }

    private func mount(_ arguments: [String]) throws {
        let run = try ChildProcess.run("/bin/mount", arguments)
        guard run.status == 0 else { throw XCTSkip("mount \(arguments.joined(separator: " ")) failed: \(run.stderr)") }
        if !mounted.contains(arguments.last!) { mounted.append(arguments.last!) }
    }

    private static func onPath(_ tool: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(tool)" }.first { access($0, X_OK) == 0 }
    }

    /// A sidecar as Lightroom writes one: the rating, and a keyword when given.
    private func sidecar(rating: String, keyword: String? = nil) -> String {
        let subject = keyword.map { "\n   <dc:subject><rdf:Bag><rdf:li>\($0)</rdf:li></rdf:Bag></dc:subject>" } ?? ""
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00">
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about=""
                xmlns:xmp="http://ns.adobe.com/xap/1.0/"
                xmlns:dc="http://purl.org/dc/elements/1.1/"
                xmp:Rating="\(rating)">\(subject)
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>

            """
    }

    /// A JPEG of its markers only (SOI, the XMP APP1 segment, EOI): what a camera writes before the pixels.
    private func jpeg(withXMPRating rating: String) -> Data {
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
            + Array("<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>".utf8) + Array(sidecar(rating: rating).utf8)
            + Array("<?xpacket end=\"w\"?>".utf8)
        let length = payload.count + 2
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]
        bytes += payload
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }

    /// What another program does meanwhile: adds a keyword to the sidecar, through Exempi, and saves it.
    private func anotherProgramAdds(keyword: String, to path: String) throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        xmp_init()
        let xmp = try XCTUnwrap(bytes.withUnsafeBytes { xmp_new($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) })
        defer { xmp_free(xmp) }
        XCTAssertTrue(xmp_append_array_item(xmp, dc, "dc:subject", UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue), keyword, 0))
        let out = xmp_string_new()
        defer { xmp_string_free(out) }
        XCTAssertTrue(xmp_serialize(xmp, out, UInt32(XMP_SERIAL_OMITPACKETWRAPPER), 0))
        // Saved a moment later than Tessera's write, as a person's edit would be.
        usleep(10_000)
        try Data(String(cString: xmp_string_cstr(out)!).utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The property `name` of the sidecar at `path` as Exempi reads it, apart from the code under test.
    private func property(_ path: String, _ namespace: String, _ name: String) throws -> String? {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        xmp_init()
        let xmp = try XCTUnwrap(bytes.withUnsafeBytes { xmp_new($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) },
                                "\(path) is XMP")
        defer { xmp_free(xmp) }
        let value = xmp_string_new()
        defer { xmp_string_free(value) }
        guard xmp_get_property(xmp, namespace, name, value, nil) else { return nil }
        return String(cString: xmp_string_cstr(value)!)
    }

    /// How many leaves the packet's property tree has, at `path` or in `text`.
    private func leafCount(_ pathOrText: String) throws -> Int {
        let bytes = pathOrText.hasPrefix("/") ? try Data(contentsOf: URL(fileURLWithPath: pathOrText)) : Data(pathOrText.utf8)
        xmp_init()
        let xmp = try XCTUnwrap(bytes.withUnsafeBytes { xmp_new($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) })
        defer { xmp_free(xmp) }
        let iterator = xmp_iterator_new(xmp, nil, nil, XmpIterOptions(XMP_ITER_JUSTLEAFNODES.rawValue))
        defer { xmp_iterator_free(iterator) }
        var count = 0
        while xmp_iterator_next(iterator, nil, nil, nil, nil) { count += 1 }
        return count
    }

    /// A sidecar as darktable 4 writes one: its history, a keyword bag, and a namespace of another program.
    private static let darktableSidecar = """
        <?xml version="1.0" encoding="UTF-8"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
            xmlns:darktable="http://darktable.sf.net/"
            xmlns:dc="http://purl.org/dc/elements/1.1/"
            xmlns:unk="http://example.com/ns/unknown/"
           xmp:Rating="1"
           xmpMM:DerivedFrom="IMG_2.CR2"
           darktable:import_timestamp="63842025600000000"
           darktable:xmp_version="5"
           darktable:raw_params="0"
           darktable:auto_presets_applied="1"
           darktable:history_end="2"
           unk:Note="kept as it is">
           <darktable:masks_history>
            <rdf:Seq/>
           </darktable:masks_history>
           <darktable:history>
            <rdf:Seq>
             <rdf:li
              darktable:num="0"
              darktable:operation="exposure"
              darktable:enabled="1"
              darktable:modversion="6"
              darktable:params="00000000000080b9"
              darktable:multi_name=""
              darktable:multi_priority="0"
              darktable:blendop_version="13"
              darktable:blendop_params="gz14eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaVMTTXKNAA"/>
             <rdf:li
              darktable:num="1"
              darktable:operation="colorbalancergb"
              darktable:enabled="1"
              darktable:modversion="5"
              darktable:params="gz48eJxjYGBgYAHiA0sYGBgYGJgYIAAAGk4BSQ=="
              darktable:multi_name=""
              darktable:multi_priority="0"
              darktable:blendop_version="13"
              darktable:blendop_params="gz14eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfOygYtaVMTTXKNAA"/>
            </rdf:Seq>
           </darktable:history>
           <dc:subject>
            <rdf:Bag>
             <rdf:li>cat</rdf:li>
             <rdf:li>garden</rdf:li>
            </rdf:Bag>
           </dc:subject>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>

        """

    /// A sidecar as digiKam writes one (through exiv2): its tag paths, Lightroom's, and Windows' rating,
    /// but no `xmp:Rating`.
    private static let digiKamSidecar = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
          <rdf:Description rdf:about=""
            xmlns:digiKam="http://www.digikam.org/ns/1.0/"
            xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
            xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/"
           MicrosoftPhoto:Rating="25">
           <digiKam:TagsList>
            <rdf:Seq>
             <rdf:li>People/Anna</rdf:li>
             <rdf:li>Places/Lyon</rdf:li>
            </rdf:Seq>
           </digiKam:TagsList>
           <lr:hierarchicalSubject>
            <rdf:Bag>
             <rdf:li>People|Anna</rdf:li>
             <rdf:li>Places|Lyon</rdf:li>
            </rdf:Bag>
           </lr:hierarchicalSubject>
          </rdf:Description>
         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>
        """
}
