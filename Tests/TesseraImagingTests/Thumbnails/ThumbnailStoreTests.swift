import CPNG
import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTestSupport
import XCTest

/// The freedesktop thumbnail cache and the loader in front of it. Every test has its own cache folder;
/// the user's ~/.cache is never touched.
final class ThumbnailStoreTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private var log: CapturedLog!
    private var root: String { dir.path("cache/thumbnails") }

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        log = CapturedLog()
    }

    /// XCTest keeps every test case instance until the run ends, so the folder is let go here, not at
    /// the instance's deinit (which would leave one folder per test in /tmp).
    override func tearDown() {
        dir = nil
        log = nil
    }

    private func makeStore(root: String? = nil) -> ThumbnailStore {
        ThumbnailStore(root: root ?? self.root, logger: log.logger)
    }

    private func photo(_ name: String = "my photo ä.jpg", width: Int = 640, height: Int = 480) throws -> String {
        try FileManager.default.createDirectory(atPath: dir.path("photos"), withIntermediateDirectories: true)
        return try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: width, height: height))), to: "photos/" + name)
    }

    private func thumbnailPath(_ photo: String, _ size: ThumbnailSize) -> String {
        let uri = FreedesktopThumbnailPath.fileURI(forAbsolutePath: photo)
        return root + "/" + size.folderName + "/" + CacheFileName.md5Hex(uri) + ".png"
    }

    // MARK: - Round trip and the standard's fields

    func testFirstLoadWritesAThumbnailTheSecondReadsItWithoutDecoding() throws {
        let path = try photo()
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())
        let box = PixelSize(width: 200, height: 150)

        let first = try loader.load(path: path, fitting: box)
        XCTAssertEqual(first.size, box)
        // One decode, for the thumbnail size (large: the smallest at least 200 px); a 640x480 JPEG has no
        // DCT factor giving twice 256x192, so it is decoded whole and area-averaged.
        XCTAssertEqual(recorder.calls, [RecordingDecoder.Call(format: .jpeg, targetSize: PixelSize(width: 256, height: 192),
                                                               resultSize: PixelSize(width: 640, height: 480))])

        let second = try loader.load(path: path, fitting: box)
        XCTAssertEqual(recorder.calls.count, 1, "the second visit must not decode the photo")
        XCTAssertEqual(second.size, box)
        XCTAssertGreaterThan(TestPixels.psnr(first, second), 45, "the thumbnail is stored losslessly")
        XCTAssertEqual(log.warnings, [])
    }

    func testThumbnailFileFollowsTheStandard() throws {
        let path = try photo()
        _ = try ThumbnailingLoader(loader: ImageLoader(decoders: [TurboJPEGDecoder()]), store: makeStore())
            .load(path: path, fitting: PixelSize(width: 200, height: 200))

        // Named after the MD5 of the GLib-style URI, in the folder of the size.
        let uri = "file://" + dir.url.path + "/photos/my%20photo%20%C3%A4.jpg"
        let file = root + "/large/" + CacheFileName.md5Hex(uri) + ".png"
        let png = try Data(contentsOf: URL(fileURLWithPath: file))
        let fields = TestPNGChunks.textFields(png)
        XCTAssertEqual(fields["Thumb::URI"], uri)
        XCTAssertEqual(fields["Thumb::MTime"], String(FileStat.modificationTime(path)!))
        XCTAssertEqual(fields["Thumb::Size"], String(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int))
        // The text comes before the image data (readers that stop early find it), after IHDR.
        let types = TestPNGChunks.chunks(png).map(\.type)
        XCTAssertEqual(types.first, "IHDR")
        XCTAssertLessThan(types.lastIndex(of: "tEXt")!, types.firstIndex(of: "IDAT")!)
        // 640x480 fitted to 256: 256x192, opaque so 8-bit RGB (colour type 2).
        let ihdr = TestPNGChunks.chunks(png)[0].body
        XCTAssertEqual(Array(ihdr[0..<8]), TestHeaders.be32(256) + TestHeaders.be32(192))
        XCTAssertEqual(ihdr[8], 8)
        XCTAssertEqual(ihdr[9], 2)

        XCTAssertEqual(FileStat.mode(file), 0o600)
        XCTAssertEqual(FileStat.mode(root + "/large"), 0o700)
        XCTAssertEqual(FileStat.mode(root), 0o700)
        XCTAssertEqual(FileStat.mode(dir.path("cache")), 0o700)
        // Nothing but the thumbnail is left behind (no temporary files).
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/large"), [CacheFileName.md5Hex(uri) + ".png"])
    }

    /// Transparent images keep their alpha in the thumbnail (RGBA PNG) and read back the same.
    func testAlphaSurvivesTheRoundTrip() throws {
        let store = makeStore()
        let path = try photo()
        let original = try XCTUnwrap(store.original(atPath: path))
        var pixels = PixelBuffer(width: 20, height: 10, filledWith: RGBA(r: 200, g: 100, b: 50, a: 128))
        pixels.bytes[3] = 0
        XCTAssertTrue(store.save(pixels, for: original, size: .normal))
        let png = try Data(contentsOf: URL(fileURLWithPath: store.path(for: original, size: .normal)))
        XCTAssertEqual(TestPNGChunks.chunks(png)[0].body[9], 6, "colour type RGBA")
        let back = try XCTUnwrap(store.thumbnail(for: original, size: .normal))
        XCTAssertEqual(back.bytes, pixels.bytes)
    }

    /// A file of several images keeps saying so from its thumbnail, so its cell keeps its badge.
    func testHowManyImagesTheFileHoldsSurvivesTheRoundTrip() throws {
        let store = makeStore()
        let original = try XCTUnwrap(store.original(atPath: try photo()))
        var pixels = PixelBuffer(width: 20, height: 10, filledWith: RGBA(r: 200, g: 100, b: 50))
        pixels.holdsSeveralImages = true
        XCTAssertTrue(store.save(pixels, for: original, size: .normal))
        XCTAssertEqual(store.thumbnail(for: original, size: .normal)?.holdsSeveralImages, true)
        pixels.holdsSeveralImages = false
        pixels.isSequence = true
        XCTAssertTrue(store.save(pixels, for: original, size: .normal))
        let sequence = try XCTUnwrap(store.thumbnail(for: original, size: .normal))
        XCTAssertFalse(sequence.holdsSeveralImages)
        XCTAssertTrue(sequence.isSequence)
    }

    // MARK: - Staleness and damage

    func testChangedFileIsThumbnailedAgain() throws {
        let path = try photo()
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())
        let box = PixelSize(width: 120, height: 120)
        _ = try loader.load(path: path, fitting: box)
        let thumbnail = thumbnailPath(path, .normal)
        let written = FileStat.modificationTime(path)!

        FileStat.setModificationTime(path, written + 100)
        _ = try loader.load(path: path, fitting: box)
        XCTAssertEqual(recorder.calls.count, 2, "a thumbnail whose MTime differs from the file's is made again")
        let fields = TestPNGChunks.textFields(try Data(contentsOf: URL(fileURLWithPath: thumbnail)))
        XCTAssertEqual(fields["Thumb::MTime"], String(written + 100))

        _ = try loader.load(path: path, fitting: box)
        XCTAssertEqual(recorder.calls.count, 2, "and then used")

        // Same mtime but a different size (rewritten within the same second): also stale.
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        data.append(contentsOf: [0, 0, 0])
        try data.write(to: URL(fileURLWithPath: path))
        FileStat.setModificationTime(path, written + 100)
        _ = try loader.load(path: path, fitting: box)
        XCTAssertEqual(recorder.calls.count, 3)
    }

    func testCorruptOrTruncatedThumbnailIsIgnoredAndRemade() throws {
        let path = try photo()
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())
        let box = PixelSize(width: 250, height: 250)
        let reference = try loader.load(path: path, fitting: box)
        let file = URL(fileURLWithPath: thumbnailPath(path, .large))
        let valid = try Data(contentsOf: file)

        let damaged: [(String, Data)] = [
            ("garbage", Data("this is not a PNG at all".utf8)),
            ("empty", Data()),
            ("truncated in the image data", valid.prefix(valid.count / 2)),
            ("truncated in the header", valid.prefix(20)),
            ("image data flipped", { var d = valid; d[d.count - 30] ^= 0xFF; d[d.count - 40] ^= 0x55; return d }()),
        ]
        for (index, (what, data)) in damaged.enumerated() {
            try data.write(to: file)
            let image = try loader.load(path: path, fitting: box)
            XCTAssertEqual(recorder.calls.count, index + 2, "\(what): decoded again")
            XCTAssertGreaterThan(TestPixels.psnr(image, reference), 45, what)
            XCTAssertEqual(try Data(contentsOf: file), valid, "\(what): remade")
        }
        XCTAssertEqual(log.warnings, [])
    }

    // MARK: - An unwritable cache

    func testUnwritableCacheMeansNoCacheAndOneWarning() throws {
        // A regular file where a folder should be: mkdir fails whoever runs the test (root included).
        try dir.write(Data("x".utf8), to: "blocked")
        let store = makeStore(root: dir.path("blocked/thumbnails"))
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: store)
        for name in ["a.jpg", "b.jpg", "c.jpg"] {
            for _ in 0..<2 {
                let image = try loader.load(path: try photo(name), fitting: PixelSize(width: 100, height: 100))
                XCTAssertEqual(image.size, PixelSize(width: 100, height: 75))
            }
        }
        XCTAssertEqual(recorder.calls.count, 6, "no cache: every load decodes")
        XCTAssertEqual(log.warnings.count, 1, "\(log.warnings)")
        XCTAssertFalse(store.isWritable)
    }

    /// A read-only folder (permissions) behaves the same. Skipped as root, whom permissions don't stop.
    func testReadOnlyFolderMeansOneWarning() throws {
        guard geteuid() != 0 else { throw XCTSkip("running as root: permissions do not stop writes") }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        chmod(root, 0o500)
        defer { chmod(root, 0o700) }
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [TurboJPEGDecoder()]), store: makeStore())
        for name in ["a.jpg", "b.jpg"] { _ = try loader.load(path: try photo(name), fitting: PixelSize(width: 64, height: 64)) }
        XCTAssertEqual(log.warnings.count, 1)
    }

    // MARK: - What is not cached

    func testFullWindowRequestsBypassTheCache() throws {
        let path = try photo(width: 2400, height: 1600)
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())
        for _ in 0..<2 {
            let image = try loader.load(path: path, fitting: PixelSize(width: 1280, height: 720))
            XCTAssertEqual(image.size, PixelSize(width: 1080, height: 720))
            _ = try loader.load(path: path, fitting: nil)
        }
        XCTAssertEqual(recorder.calls.map(\.targetSize), [PixelSize(width: 1080, height: 720), nil, PixelSize(width: 1080, height: 720), nil])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root))
    }

    func testFilesInsideTheCacheAreNeverThumbnailed() throws {
        try FileManager.default.createDirectory(atPath: root + "/large", withIntermediateDirectories: true)
        let inside = root + "/large/some.jpg"
        try TestJPEG.solid(width: 300, height: 300, color: RGBA(r: 1, g: 2, b: 3)).write(to: URL(fileURLWithPath: inside))
        let store = makeStore()
        XCTAssertNil(store.original(atPath: inside))
        XCTAssertNil(store.original(atPath: root + "/large/../large/some.jpg"))
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: store)
        _ = try loader.load(path: inside, fitting: PixelSize(width: 100, height: 100))
        _ = try loader.load(path: inside, fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(recorder.calls.count, 2)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/large"), ["some.jpg"])
    }

    func testErrorsAreTheLoadersAndMissingFilesAreNotRecorded() throws {
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [TurboJPEGDecoder()]), store: makeStore())
        XCTAssertThrowsError(try loader.load(path: dir.path("nope.jpg"), fitting: PixelSize(width: 100, height: 100))) {
            XCTAssertEqual(($0 as? ImageLoadError)?.reason, .missing)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root))
    }

    // MARK: - Thumbnails made by others, failures

    /// A thumbnail as a file manager writes it (RGBA, text after the image data) is used as it is, and a
    /// bigger size serves a smaller request when the right size is missing.
    func testThumbnailsFromFileManagersAreUsed() throws {
        let path = try photo()
        let uri = FreedesktopThumbnailPath.fileURI(forAbsolutePath: path)
        let mtime = FileStat.modificationTime(path)!
        let foreign = try foreignThumbnail(PixelBuffer(width: 512, height: 384, filledWith: RGBA(r: 10, g: 200, b: 30)),
                                           fields: ["Thumb::URI": uri, "Thumb::MTime": String(mtime), "Software": "GNOME::ThumbnailFactory"])
        try FileManager.default.createDirectory(atPath: root + "/x-large", withIntermediateDirectories: true)
        try foreign.write(to: URL(fileURLWithPath: thumbnailPath(path, .xLarge)))

        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())
        let image = try loader.load(path: path, fitting: PixelSize(width: 200, height: 200))
        XCTAssertEqual(recorder.calls, [])
        XCTAssertEqual(image.size, PixelSize(width: 200, height: 150))
        XCTAssertTrue(image.pixel(x: 100, y: 75).isClose(to: RGBA(r: 10, g: 200, b: 30), tolerance: 1))
        XCTAssertFalse(FileManager.default.fileExists(atPath: thumbnailPath(path, .large)), "nothing to write")

        // The same thumbnail for another URI (a moved file) is not used.
        let moved = try photo("moved.jpg")
        try foreign.write(to: URL(fileURLWithPath: thumbnailPath(moved, .xLarge)))
        _ = try loader.load(path: moved, fitting: PixelSize(width: 200, height: 200))
        XCTAssertEqual(recorder.calls.count, 1)
    }

    /// A thumbnail smaller than its folder's size whose Thumb::Image fields say the original is bigger was
    /// written at the wrong size; it is not used (a blurred cell), the original is decoded instead.
    func testUndersizedThumbnailIsNotUsed() throws {
        let path = try photo()
        let uri = FreedesktopThumbnailPath.fileURI(forAbsolutePath: path)
        let mtime = String(FileStat.modificationTime(path)!)
        try FileManager.default.createDirectory(atPath: root + "/large", withIntermediateDirectories: true)
        let small = PixelBuffer(width: 64, height: 48, filledWith: RGBA(r: 1, g: 2, b: 3))
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())

        try foreignThumbnail(small, fields: ["Thumb::URI": uri, "Thumb::MTime": mtime,
                                             "Thumb::Image::Width": "640", "Thumb::Image::Height": "480"])
            .write(to: URL(fileURLWithPath: thumbnailPath(path, .large)))
        XCTAssertEqual(try loader.load(path: path, fitting: PixelSize(width: 200, height: 200)).size, PixelSize(width: 200, height: 150))
        XCTAssertEqual(recorder.calls.count, 1)

        // Without the fields (or for an original that small) it is taken as it is.
        try foreignThumbnail(small, fields: ["Thumb::URI": uri, "Thumb::MTime": mtime])
            .write(to: URL(fileURLWithPath: thumbnailPath(path, .large)))
        XCTAssertEqual(try loader.load(path: path, fitting: PixelSize(width: 200, height: 200)).size, PixelSize(width: 64, height: 48))
        XCTAssertEqual(recorder.calls.count, 1)
    }

    /// A damaged file's picture is shown, with its damage, and not kept: its next load decodes it again.
    func testADamagedOriginalIsNotThumbnailed() throws {
        let good = TestJPEG.encode(.bgra(TestPixels.gradient(width: 300, height: 200)), quality: 90)
        let path = try dir.write(good.prefix(good.count * 2 / 3), to: "cut.jpg")
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: makeStore())
        for _ in 0..<2 {
            let shown = try loader.load(path: path, fitting: PixelSize(width: 100, height: 100))
            XCTAssertEqual(shown.size, PixelSize(width: 100, height: 66))
            XCTAssertEqual(shown.damage, "Premature end of JPEG file")
        }
        XCTAssertEqual(recorder.calls.count, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: thumbnailPath(path, .normal)))
    }

    func testBrokenOriginalIsRecordedAsAFailureUntilItChanges() throws {
        let good = TestJPEG.encode(.bgra(TestPixels.gradient(width: 300, height: 200)), quality: 90)
        // A scan asking for Huffman tables the file does not define: the header reads, the decode fails.
        var broken = [UInt8](good)
        let scan = try XCTUnwrap(broken.indices.first { broken[$0] == 0xFF && broken[$0 + 1] == 0xDA })
        broken[scan + 6] = 0x33
        let path = try dir.write(Data(broken), to: "broken.jpg")
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let store = makeStore()
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]), store: store)
        let box = PixelSize(width: 100, height: 100)
        for _ in 0..<2 {
            XCTAssertThrowsError(try loader.load(path: path, fitting: box)) {
                guard case .decodeFailed? = ($0 as? ImageLoadError)?.reason else { return XCTFail("\($0)") }
            }
        }
        XCTAssertEqual(recorder.calls.count, 1, "the failure is remembered")
        let original = try XCTUnwrap(store.original(atPath: path))
        let record = try Data(contentsOf: URL(fileURLWithPath: root + "/fail/" + ThumbnailStore.applicationID + "/" + CacheFileName.md5Hex(original.uri) + ".png"))
        let fields = TestPNGChunks.textFields(record)
        XCTAssertEqual(fields["Thumb::URI"], original.uri)
        XCTAssertEqual(fields["Thumb::MTime"], String(original.modificationTime))
        XCTAssertEqual(FileStat.mode(root + "/fail/" + ThumbnailStore.applicationID), 0o700)

        // Repaired: the record no longer applies.
        try good.write(to: URL(fileURLWithPath: path))
        FileStat.setModificationTime(path, original.modificationTime + 5)
        XCTAssertEqual(try loader.load(path: path, fitting: box).size, PixelSize(width: 100, height: 66))  // via the 128x85 thumbnail
        XCTAssertEqual(recorder.calls.count, 2)
    }

    func testThumbnailsAreUpright() throws {
        let tagged = TestExif.jpeg(TestJPEG.encode(.bgra(TestPixels.gradient(width: 400, height: 300))), orientation: 6)
        let path = try dir.write(tagged, to: "portrait.jpg")
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [TurboJPEGDecoder()]), store: makeStore())
        XCTAssertEqual(try loader.load(path: path, fitting: PixelSize(width: 200, height: 200)).size, PixelSize(width: 150, height: 200))
        let ihdr = TestPNGChunks.chunks(try Data(contentsOf: URL(fileURLWithPath: thumbnailPath(path, .large))))[0].body
        XCTAssertEqual(Array(ihdr[0..<8]), TestHeaders.be32(192) + TestHeaders.be32(256))
        XCTAssertEqual(try loader.load(path: path, fitting: PixelSize(width: 200, height: 200)).size, PixelSize(width: 150, height: 200))
    }

    /// Writers racing for the same thumbnail each rename a complete file into place.
    func testConcurrentLoadsOfTheSameFile() throws {
        let path = try photo()
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [TurboJPEGDecoder()]), store: makeStore())
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do throws(ImageLoadError) {
                let image = try loader.load(path: path, fitting: PixelSize(width: 256, height: 256))
                if image.size != PixelSize(width: 256, height: 192) { failures.withLock { $0.append("\(image.size)") } }
            } catch {
                failures.withLock { $0.append(error.description) }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/large").count, 1)
    }

    /// GLib (GNOME's file chooser, Nautilus) finds our thumbnail and calls it valid; and invalid once the
    /// file changes. Skipped where `gio` is not installed.
    func testGLibAcceptsOurThumbnails() throws {
        guard let gio = ["/usr/bin/gio", "/bin/gio"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("gio (GLib) is not installed")
        }
        let path = try photo()
        _ = try ThumbnailingLoader(loader: ImageLoader(decoders: [TurboJPEGDecoder()]), store: makeStore())
            .load(path: path, fitting: PixelSize(width: 200, height: 200))
        func glib() throws -> String {
            try ChildProcess.run(gio, ["info", "-a", "thumbnail::*", path],
                                 environment: ["XDG_CACHE_HOME": dir.path("cache"), "HOME": dir.url.path]).stdout
        }
        let before = try glib()
        XCTAssertTrue(before.contains("thumbnail::path: " + thumbnailPath(path, .large)), before)
        XCTAssertTrue(before.contains("thumbnail::is-valid: TRUE"), before)
        FileStat.setModificationTime(path, FileStat.modificationTime(path)! + 60)
        XCTAssertTrue(try glib().contains("thumbnail::is-valid: FALSE"))
    }

    // MARK: - Helpers

    /// An RGBA PNG written by libpng with the text chunks placed just before IEND.
    private func foreignThumbnail(_ pixels: PixelBuffer, fields: [String: String]) throws -> Data {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixels.width)
        image.height = UInt32(pixels.height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        var size = 0
        XCTAssertNotEqual(png_image_write_to_memory(&image, nil, &size, 0, pixels.bytes, 0, nil), 0)
        var bytes = [UInt8](repeating: 0, count: size)
        XCTAssertNotEqual(png_image_write_to_memory(&image, &bytes, &size, 0, pixels.bytes, 0, nil), 0)
        png_image_free(&image)
        let text = fields.sorted { $0.key < $1.key }.flatMap { TestPNGChunks.chunk("tEXt", Array($0.key.utf8) + [0] + Array($0.value.utf8)) }
        bytes.insert(contentsOf: text, at: size - 12)
        return Data(bytes.prefix(size + text.count))
    }
}
