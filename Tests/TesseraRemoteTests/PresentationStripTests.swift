import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTestBasics
import TesseraTestSupport
import TesseraTiling
import XCTest
@testable import TesseraRemote

/// IIIF Presentation manifests and collections read into a strip: documents and static image trees served
/// from a loopback server, read through `HTTPFetcher` as the command line reads them.
final class PresentationStripTests: LoopbackFetchingTestCase {
    private typealias Canvas = PresentationFixtures.Canvas
    /// The cells' size in pixels the thumbnails are asked for.
    private let box = PixelSize(width: 400, height: 300)
    private let samples = ["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg"]

    private func serve(_ body: Data, at path: String, on server: LoopbackHTTPServer) {
        server.setRoute(path) { _ in .init(headers: [("Content-Type", "application/ld+json")], body: body) }
    }

    /// The path, inside a static tree of `service`, of its one-tile level: the picture a level 0 service
    /// surely holds.
    private func oneTilePath(of service: PresentationFixtures.Service, version: Int) -> String {
        let tree = IIIFTree(geometry: DeepZoomGeometry(width: service.width, height: service.height, tileSize: 256), version: version)
        return tree.path(of: TileID(level: tree.coarsestLevel, column: 0, row: 0), extension: "jpg")
    }

    /// The picture at `url`, decoded.
    private func picture(at url: String, fetcher: HTTPFetcher) throws -> PixelBuffer {
        let data = try fetcher.get(url, byteLimit: 32 << 20)
        return try ImageLoader(decoders: ImageDecoders.standard()).load(data: data, name: url, fitting: nil)
    }

    /// Asserts `picture` shows the whole of `service`'s image: its proportions, within a pixel.
    private func assertWhole(_ picture: PixelBuffer, of service: PresentationFixtures.Service,
                             file: StaticString = #filePath, line: UInt = #line) {
        let expectedHeight = Double(picture.width) * Double(service.height) / Double(service.width)
        XCTAssertEqual(Double(picture.height), expectedHeight, accuracy: 1, "\(picture.width)x\(picture.height)", file: file, line: line)
    }

    /// Why loading `location` fails; fails the test when it loads.
    private func failure(_ location: String, fetcher: any TileFetching) -> String {
        do {
            let strip = try PresentationStrip.load(location, fetcher: fetcher, box: box)
            XCTFail("\(location) loaded: \(strip.items.map(\.displayName))")
            return ""
        } catch {
            XCTAssertEqual(error.location, location)
            XCTAssertFalse(error.description.contains("\n"), "one line: \(error.description)")
            return error.reason
        }
    }

    // MARK: - Manifests

    func testAVersionThreeManifestOpensAsAStripOfItsCanvases() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees(samples, version: 3, on: server, in: dir.path("trees"))
        let manifest = PresentationFixtures.manifest3(id: server.url("/book/manifest.json"), label: ["en": ["Book"]], canvases: [
            Canvas(label: ["fr": ["Feuillet 1r"], "en": ["Folio 1r"]], service: services[0]),
            Canvas(label: ["none": ["Folio 1v"]], service: services[1], profile: "level0"),
            Canvas(label: ["fr": ["Feuillet 2r"], "de": ["Blatt 2r"]], service: services[2]),
        ])
        serve(manifest, at: "/book/manifest.json", on: server)
        let fetcher = makeFetcher()

        let strip = try PresentationStrip.load(server.url("/book/manifest.json"), fetcher: fetcher, box: box)

        XCTAssertEqual(strip.items.map(\.displayName), ["Folio 1r", "Folio 1v", "Blatt 2r"],
                       "English, else no language, else the first language by name")
        XCTAssertEqual(strip.notes, [])
        XCTAssertEqual(strip.items.count, 3)
        for (item, service) in zip(strip.items, services) {
            XCTAssertTrue(item.isRemote)
            XCTAssertEqual(strip.pyramids[item.path], service.id + "/info.json", "Enter opens the canvas's service")
            // Level 0 trees without listed sizes: their one-tile level is the cell's picture.
            XCTAssertEqual(item.path, service.id + "/" + oneTilePath(of: service, version: 3))
            let thumbnail = try picture(at: item.path, fetcher: fetcher)
            XCTAssertLessThanOrEqual(max(thumbnail.width, thumbnail.height), 256)
            assertWhole(thumbnail, of: service)
        }
    }

    func testAVersionTwoManifestOpensAsAStripOfItsCanvases() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees(samples, version: 2, on: server, in: dir.path("trees"))
        let photo = try Data(contentsOf: SampleImages.url("img25-small.jpg"))
        server.setRoute("/thumbs/2.jpg") { _ in .init(body: photo) }
        // A level 2 server draws the cell's picture at the width that fits the cell.
        let drawn = "/svc3/img/full/400,/0/default.jpg"
        server.setRoute(drawn) { _ in .init(body: photo) }
        let manifest = PresentationFixtures.manifest2(id: server.url("/v2/manifest.json"), label: "Book", canvases: [
            Canvas(label: "p. 1", service: services[0], profile: "http://iiif.io/api/image/2/level0.json"),
            Canvas(label: [["@value": "Seite 2", "@language": "de"], ["@value": "Page 2", "@language": "en"]],
                   service: services[1], thumbnail: server.url("/thumbs/2.jpg")),
            Canvas(label: ["p. 3"], service: services[2], profile: "http://iiif.io/api/image/2/level2.json"),
        ])
        serve(manifest, at: "/v2/manifest.json", on: server)
        let fetcher = makeFetcher()

        let strip = try PresentationStrip.load(server.url("/v2/manifest.json"), fetcher: fetcher, box: box)

        XCTAssertEqual(strip.items.map(\.displayName), ["p. 1", "Page 2", "p. 3"])
        XCTAssertEqual(strip.items.map(\.path), [
            services[0].id + "/" + oneTilePath(of: services[0], version: 2),
            server.url("/thumbs/2.jpg"),
            server.url(drawn),
        ])
        XCTAssertEqual(strip.items.compactMap { strip.pyramids[$0.path] }, services.map { $0.id + "/info.json" })
        assertWhole(try picture(at: strip.items[0].path, fetcher: fetcher), of: services[0])
        for item in strip.items.dropFirst() { XCTAssertEqual(try picture(at: item.path, fetcher: fetcher).width, 320) }
        XCTAssertEqual(server.requestCount("/svc3/img/info.json"), 0, "a level 2 service is asked for its picture directly")
        XCTAssertEqual(server.requestCount("/svc2/img/info.json"), 0, "a canvas's own thumbnail needs no service description")
    }

    func testAStaticTreeThatListsSizesGivesTheSmallestThatFillsTheCell() throws {
        let server = try makeServer()
        let info = """
        {"@context": "http://iiif.io/api/image/3/context.json", "id": "\(server.url("/sized"))", "type": "ImageService3",
         "profile": "level0", "width": 4000, "height": 3000, "tiles": [{"width": 512, "scaleFactors": [1, 2, 4, 8]}],
         "sizes": [{"width": 250, "height": 188}, {"width": 500, "height": 375}, {"width": 1000, "height": 750}]}
        """
        server.setRoute("/sized/info.json") { _ in .init(body: Data(info.utf8)) }
        let canvas = PresentationDocument.Canvas(label: "a", service: .init(id: server.url("/sized"), level: nil), thumbnail: nil)
        XCTAssertEqual(PresentationStrip.thumbnailURL(of: canvas, fetcher: makeFetcher(), box: box),
                       server.url("/sized/full/500,375/0/default.jpg"))
    }

    func testALevelOneOrTwoServiceIsAskedForThePictureThatFitsTheCell() throws {
        let server = try makeServer()
        let info = #"{"id": "\#(server.url("/tall"))", "type": "ImageService3", "profile": "level2", "width": 3000, "height": 4000}"#
        server.setRoute("/tall/info.json") { _ in .init(body: Data(info.utf8)) }
        let fetcher = makeFetcher()
        func url(level: Int?, size: PixelSize?, id: String = "https://h/s") -> String? {
            let service = PresentationDocument.ImageServiceReference(id: id, level: level, size: size)
            return PresentationStrip.thumbnailURL(of: .init(label: "a", service: service, thumbnail: nil), fetcher: fetcher, box: box)
        }
        XCTAssertEqual(url(level: 1, size: PixelSize(width: 4000, height: 3000)), "https://h/s/full/400,/0/default.jpg")
        XCTAssertEqual(url(level: 2, size: PixelSize(width: 1000, height: 4000)), "https://h/s/full/75,/0/default.jpg")
        XCTAssertEqual(url(level: 1, size: PixelSize(width: 100, height: 50)), "https://h/s/full/100,/0/default.jpg",
                       "never enlarged")
        XCTAssertEqual(url(level: 2, size: nil), "https://h/s/full/!400,300/0/default.jpg")
        // Neither level nor size in the manifest: the service's info.json says both.
        XCTAssertEqual(url(level: nil, size: nil, id: server.url("/tall")), server.url("/tall/full/225,/0/default.jpg"))
    }

    func testAServiceURLWithASpaceAndAnAccentIsAskedForEncoded() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        // The tree is served where a browser asks for "/my café": at its percent-encoded path.
        var options = TileCutterOptions()
        options.layout = .iiif3
        options.tileSize = 256
        options.iiifID = server.url("/my%20caf%C3%A9")
        let result = try TileCutter(options: options).cut(imageAt: SampleImages.url(samples[1]).path, into: dir.path("tree"), name: "img")
        server.serveFiles(in: dir.path("tree"), at: "/my%20caf%C3%A9")
        let width = result.geometry.width, height = result.geometry.height
        serve(PresentationFixtures.manifest3(id: "https://example.org/m", label: "Café", canvases: [
            Canvas(label: "a", serviceID: server.url("/my café/img"), width: width, height: height),
        ]), at: "/cafe.json", on: server)
        let fetcher = makeFetcher()

        let strip = try PresentationStrip.load(server.url("/cafe.json"), fetcher: fetcher, box: box)

        XCTAssertEqual(server.requestCount("/my%20caf%C3%A9/img/info.json"), 1, "\(server.requestLog)")
        let thumbnail = try picture(at: strip.items[0].path, fetcher: fetcher)
        XCTAssertEqual(Double(thumbnail.height), Double(thumbnail.width) * Double(height) / Double(width), accuracy: 1)
        let source = try RemoteIIIFTileSource(infoURL: try XCTUnwrap(strip.pyramids[strip.items[0].path]), fetcher: fetcher, decoders: [])
        XCTAssertEqual(source.geometry.width, width, "Enter opens it too")
    }

    func testCanvasesSharingAThumbnailKeepTheirOwnServices() throws {
        let server = try makeServer()
        let placeholder = "https://example.org/placeholder.jpg"
        serve(PresentationFixtures.manifest3(id: "https://example.org/m", label: "Shared", canvases: [
            Canvas(label: "a", serviceID: "https://example.org/iiif/a", thumbnail: placeholder),
            Canvas(label: "b", serviceID: "https://example.org/iiif/b", thumbnail: placeholder),
            Canvas(label: "a again", serviceID: "https://example.org/iiif/a", thumbnail: placeholder),
        ]), at: "/shared.json", on: server)
        let strip = try PresentationStrip.load(server.url("/shared.json"), fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.map(\.path), [placeholder, placeholder + "#canvas2", placeholder])
        XCTAssertEqual(strip.items.map { strip.pyramids[$0.path] }, ["https://example.org/iiif/a/info.json",
                                                                    "https://example.org/iiif/b/info.json",
                                                                    "https://example.org/iiif/a/info.json"])
    }

    func testAManifestFileOnDiskOpensToo() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees([samples[0]], version: 3, on: server, in: dir.path("trees"))
        let path = try dir.write(PresentationFixtures.manifest3(id: "https://example.org/m.json", label: "One",
                                                            canvases: [Canvas(label: ["en": ["Only"]], service: services[0])]),
                             to: "book.json")
        let strip = try PresentationStrip.load(path, fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.map(\.displayName), ["Only"])
        XCTAssertEqual(strip.pyramids[strip.items[0].path], services[0].id + "/info.json")
    }

    /// A file is opened by its name's bytes: one whose name is not UTF-8 opens, and an empty one is no JSON.
    func testAManifestFileWhoseNameIsNotUTF8OpensAndAnEmptyOneSaysWhy() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees([samples[0]], version: 3, on: server, in: dir.path("trees"))
        let manifest = PresentationFixtures.manifest3(id: "https://example.org/m.json", label: "One",
                                                      canvases: [Canvas(label: ["en": ["Only"]], service: services[0])])
        let path = dir.url.path + "/" + PathText.text(of: Array("book".utf8) + [0xFF] + Array(".json".utf8))
        let fd = POSIXFiles.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = manifest.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let strip = try PresentationStrip.load(path, fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.map(\.displayName), ["Only"])
        let empty = try dir.write(Data(), to: "empty.json")
        XCTAssertEqual(failure(empty, fetcher: makeFetcher()), "not JSON, so not an IIIF manifest")
    }

    func testWhatManifestsWriteInMoreThanOneWayIsRead() throws {
        let three = #"""
        {"type": "Manifest", "items": [
          {"type": "Canvas", "thumbnail": [{"id": "file:///etc/thumb.jpg"}], "items": [{"type": "AnnotationPage", "items": [
            {"type": "Annotation", "motivation": "commenting", "body": {"type": "TextualBody", "value": "x"}},
            {"type": "Annotation", "motivation": "painting", "body": {"type": "Choice", "items": [
              {"type": "Image", "service": {"@id": "https://h/iiif/a/", "@type": "ImageService2",
                                            "profile": "http://iiif.io/api/image/2/level1.json"}}]}}]}]},
          {"type": "Canvas", "label": {"de": ["zwei"], "en-GB": ["two"]}, "thumbnail": [{"id": "https://h/t/2.jpg"}],
           "items": [{"items": [{"body": [{"type": "Image", "service": [
              {"id": "https://h/auth", "type": "AuthProbeService2"},
              {"id": "https://h/iiif/b/info.json", "type": "ImageService3", "profile": "level0"}]}]}]}]}]}
        """#
        guard case .manifest(let manifest) = try PresentationDocument(json: Data(three.utf8)) else { return XCTFail("not a manifest") }
        XCTAssertEqual(manifest.canvases, [
            .init(label: "canvas 1", service: .init(id: "https://h/iiif/a", level: 1), thumbnail: nil),
            .init(label: "two", service: .init(id: "https://h/iiif/b", level: 0), thumbnail: "https://h/t/2.jpg"),
        ])
        XCTAssertEqual(manifest.skipped, 0)

        let two = #"""
        {"@type": "sc:Manifest", "label": [{"@value": "Livre", "@language": "fr"}], "sequences": [{"canvases": [
          {"label": {"@value": "f. 1"}, "thumbnail": "https://h/t/1.jpg", "images": [{"resource": {"@type": "oa:Choice",
            "default": {"service": {"@id": "https://h/iiif/c", "profile": ["http://iiif.io/api/image/2/level2.json", {"formats": ["jpg"]}]}}}}]},
          {"label": "f. 2", "images": [{"resource": {"service": {"@id": "https://h/iiif/d"}}}]},
          {"label": "f. 3", "images": []}]}]}
        """#
        guard case .manifest(let second) = try PresentationDocument(json: Data(two.utf8)) else { return XCTFail("not a manifest") }
        XCTAssertEqual(second.label, "Livre")
        XCTAssertEqual(second.canvases, [
            .init(label: "f. 1", service: .init(id: "https://h/iiif/c", level: 2), thumbnail: "https://h/t/1.jpg"),
            .init(label: "f. 2", service: .init(id: "https://h/iiif/d", level: nil), thumbnail: nil),
        ])
        XCTAssertEqual(second.skipped, 1)
    }

    func testAServiceIDEndingInInfoJSONOrSlashesNamesItsBase() throws {
        let manifest = PresentationFixtures.manifest3(id: "https://example.org/m", label: "Ends", canvases: [
            Canvas(label: "a", serviceID: "https://h/iiif/a/info.json/"),
            Canvas(label: "b", serviceID: "https://h/iiif/b//"),
            Canvas(label: "c", serviceID: "https://h/iiif/c/info.json"),
            Canvas(label: "d", serviceID: "https://h/iiif/d"),
        ])
        guard case .manifest(let read) = try PresentationDocument(json: manifest) else { return XCTFail("not a manifest") }
        XCTAssertEqual(read.canvases.map(\.service.infoURL), ["https://h/iiif/a/info.json", "https://h/iiif/b/info.json",
                                                              "https://h/iiif/c/info.json", "https://h/iiif/d/info.json"])
    }

    func testAnUntypedLoginServiceBesideTheImageServiceIsPassedOver() throws {
        let two = #"""
        {"@type": "sc:Manifest", "sequences": [{"canvases": [
          {"label": "locked", "images": [{"resource": {"service": [
            {"@context": "http://iiif.io/api/auth/1/context.json", "@id": "https://h/auth/login", "profile": "http://iiif.io/api/auth/1/login"},
            {"@context": "http://iiif.io/api/image/2/context.json", "@id": "https://h/iiif/a", "profile": "http://iiif.io/api/image/2/level1.json"}]}}]},
          {"label": "login only", "images": [{"resource": {"service":
            {"@context": "http://iiif.io/api/auth/1/context.json", "@id": "https://h/auth/login", "profile": "http://iiif.io/api/auth/1/login"}}}]}]}]}
        """#
        guard case .manifest(let manifest) = try PresentationDocument(json: Data(two.utf8)) else { return XCTFail("not a manifest") }
        XCTAssertEqual(manifest.canvases.map(\.service), [.init(id: "https://h/iiif/a", level: 1)])
        XCTAssertEqual(manifest.skipped, 1)
    }

    func testLabelsAreOneLineNoLongerThanTheLimit() throws {
        let long = String(repeating: "word ", count: 2_000)
        let manifest = PresentationFixtures.manifest3(id: "https://example.org/m", label: ["en": ["Book\nof\u{7}hours"]], canvases: [
            Canvas(label: ["en": ["  Folio\n\t1r  "]], serviceID: "https://h/iiif/a"),
            Canvas(label: ["en": [long]], serviceID: "https://h/iiif/b"),
            Canvas(label: 42, serviceID: "https://h/iiif/c"),
            Canvas(label: ["en": [["nested": true]]], serviceID: "https://h/iiif/d"),
            Canvas(label: ["en": ["\n\u{0}\r"]], serviceID: "https://h/iiif/e"),
        ])
        guard case .manifest(let read) = try PresentationDocument(json: manifest) else { return XCTFail("not a manifest") }
        XCTAssertEqual(read.label, "Book of hours")
        let labels = read.canvases.map(\.label)
        XCTAssertEqual(labels[0], "Folio 1r")
        XCTAssertEqual(labels[1].count, PresentationDocument.labelLimit)
        XCTAssertTrue(labels[1].hasPrefix("word word ") && labels[1].hasSuffix("…"), labels[1])
        XCTAssertEqual(Array(labels.dropFirst(2)), ["canvas 3", "canvas 4", "canvas 5"], "no text: the canvas's place names it")
    }

    func testAManifestOfMoreCanvasesThanTheLimitShowsTheFirstAndSaysSo() throws {
        let server = try makeServer()
        let count = PresentationStrip.canvasLimit + 3
        // Level 2 services of known size: their thumbnails need no request.
        serve(PresentationFixtures.manifest3(id: "https://example.org/m", label: "Many", canvases: (0..<count).map {
            Canvas(label: "p\($0)", serviceID: "https://h/iiif/\($0)", width: 400, height: 300, profile: "level2")
        }), at: "/many.json", on: server)
        let strip = try PresentationStrip.load(server.url("/many.json"), fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.count, PresentationStrip.canvasLimit)
        XCTAssertEqual(strip.items.last?.displayName, "p\(PresentationStrip.canvasLimit - 1)")
        XCTAssertEqual(strip.notes, ["3 canvases not shown: at most \(PresentationStrip.canvasLimit) are"])
    }

    func testACanvasListedTwiceHasItsServiceReadOnce() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees([samples[0]], version: 3, on: server, in: dir.path("trees"))
        let canvas = Canvas(label: "same", service: services[0])
        serve(PresentationFixtures.manifest3(id: "https://example.org/m", label: "Twice", canvases: [canvas, canvas, canvas]),
              at: "/twice.json", on: server)
        let strip = try PresentationStrip.load(server.url("/twice.json"), fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.count, 3)
        XCTAssertEqual(Set(strip.items.map(\.path)), [services[0].id + "/" + oneTilePath(of: services[0], version: 3)])
        XCTAssertEqual(server.requestCount("/svc1/img/info.json"), 1)
    }

    func testASharedThumbnailWithAFragmentOfItsOwnIsToldApartByOneFragment() throws {
        let server = try makeServer()
        let placeholder = "https://example.org/placeholder.jpg#xywh=0,0,10,10"
        serve(PresentationFixtures.manifest3(id: "https://example.org/m", label: "Shared", canvases: [
            Canvas(label: "a", serviceID: "https://example.org/iiif/a", thumbnail: placeholder),
            Canvas(label: "b", serviceID: "https://example.org/iiif/b", thumbnail: placeholder),
        ]), at: "/shared.json", on: server)
        let strip = try PresentationStrip.load(server.url("/shared.json"), fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.map(\.path), [placeholder, "https://example.org/placeholder.jpg#canvas2"])
        XCTAssertNotNil(URL(string: strip.items[1].path)?.host, "a URL that can be requested")
    }

    func testOddSizesInAServiceDescriptionArePassedOver() throws {
        let server = try makeServer()
        func info(_ sizes: String) -> String {
            """
            {"@context": "http://iiif.io/api/image/3/context.json", "id": "\(server.url("/odd"))", "type": "ImageService3",
             "profile": "level0", "width": 4000, "height": 3000, "tiles": [{"width": 512, "scaleFactors": [1, 2, 4, 8]}],
             "sizes": \(sizes)}
            """
        }
        let fetcher = makeFetcher()
        let canvas = PresentationDocument.Canvas(label: "a", service: .init(id: server.url("/odd"), level: nil), thumbnail: nil)
        let oddEntries = Data(info(#"[{"width": 250.5, "height": 188}, {"width": "500", "height": 375}, {"width": 1000, "height": 750}]"#).utf8)
        server.setRoute("/odd/info.json") { _ in .init(body: oddEntries) }
        XCTAssertEqual(PresentationStrip.thumbnailURL(of: canvas, fetcher: fetcher, box: box), server.url("/odd/full/1000,750/0/default.jpg"))
        let noList = Data(info(#"{"width": 250}"#).utf8)
        server.setRoute("/odd/info.json") { _ in .init(body: noList) }
        // The tiled view opens such a service as any other.
        let source = try RemoteIIIFTileSource(infoURL: server.url("/odd/info.json"), fetcher: fetcher, decoders: [])
        XCTAssertEqual(source.geometry.width, 4000)
        XCTAssertEqual(PresentationStrip.thumbnailURL(of: canvas, fetcher: fetcher, box: box), source.url(of: TileID(level: IIIFTree.coarsestLevel(of: source.geometry), column: 0, row: 0)))
    }

    func testEveryKindOfJSONValueIsReadAsItself() throws {
        let value = try JSONValue.object(parsing: Data(#"{"a": [1, true, "s", null, {"b": 2.5}, [false], 0, "x\u00e9"]}"#.utf8))
        let list = value["a"]?.list ?? []
        XCTAssertEqual(list.count, 8)
        XCTAssertEqual(list[0].int, 1)
        guard case .bool(true) = list[1] else { return XCTFail("\(list[1])") }
        XCTAssertEqual(list[2].string, "s")
        guard case .null = list[3] else { return XCTFail("\(list[3])") }
        guard case .number(2.5)? = list[4]["b"] else { return XCTFail("\(list[4])") }
        guard case .array(let inner) = list[5], case .bool(false) = inner[0] else { return XCTFail("\(list[5])") }
        guard case .number(0) = list[6] else { return XCTFail("0 is a number, not false: \(list[6])") }
        XCTAssertEqual(list[7].string, "xé")
        XCTAssertThrowsError(try JSONValue.object(parsing: Data("{\"a\": [1, 2".utf8)))
        guard case .null = try JSONValue.object(parsing: Data("[1, 2]".utf8)) else { return XCTFail("a list is not read") }
    }

    // MARK: - Collections

    func testACollectionListsTheCanvasesOfItsManifests() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let three = try PresentationFixtures.serveTrees(samples, version: 3, on: server, in: dir.path("trees"))
        serve(PresentationFixtures.manifest3(id: server.url("/m3.json"), label: ["en": ["Book 3"]], canvases: [
            Canvas(label: ["en": ["a"]], service: three[0]), Canvas(label: ["en": ["b"]], service: three[1]),
        ]), at: "/m3.json", on: server)
        serve(PresentationFixtures.manifest2(id: server.url("/m2.json"), label: "Book 2", canvases: [
            Canvas(label: "c", service: three[2], profile: "level0"),
        ]), at: "/m2.json", on: server)
        serve(PresentationFixtures.collection2(id: server.url("/inner.json"), label: "Inner", manifests: [server.url("/m2.json")]),
              at: "/inner.json", on: server)
        serve(PresentationFixtures.collection3(id: server.url("/outer.json"), label: "Outer", members: [
            (server.url("/m3.json"), false), (server.url("/inner.json"), true), (server.url("/gone.json"), false),
            ("ftp://example.org/m.json", false),
        ]), at: "/outer.json", on: server)

        let strip = try PresentationStrip.load(server.url("/outer.json"), fetcher: makeFetcher(), box: box)

        XCTAssertEqual(strip.items.map(\.displayName), ["Book 3: a", "Book 3: b", "Book 2: c"])
        XCTAssertEqual(strip.items.compactMap { strip.pyramids[$0.path] }, three.map { $0.id + "/info.json" })
        XCTAssertEqual(strip.notes, [
            "1 member of the collection skipped: not an http(s) URL",
            "1 manifest of the collection not read (\(server.url("/gone.json")): the server answered 404 Not Found)",
        ])
    }

    func testCollectionsNestedDeeperThanTheLimitAreCountedNotRead() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees([samples[0]], version: 3, on: server, in: dir.path("trees"))
        serve(PresentationFixtures.manifest3(id: server.url("/m.json"), label: "Deep book", canvases: [
            Canvas(label: "a", service: services[0], profile: "level2"),
        ]), at: "/m.json", on: server)
        // /c0.json lists /c1.json, which lists /c2.json, …; the manifest sits in the last one.
        func chain(_ depth: Int) {
            for level in 0..<depth {
                let members = level == depth - 1 ? [(server.url("/m.json"), false)] : [(server.url("/c\(level + 1).json"), true)]
                serve(PresentationFixtures.collection3(id: server.url("/c\(level).json"), label: "C\(level)", members: members),
                      at: "/c\(level).json", on: server)
            }
        }
        chain(PresentationStrip.collectionDepthLimit)
        XCTAssertEqual(try PresentationStrip.load(server.url("/c0.json"), fetcher: makeFetcher(), box: box).items.map(\.displayName),
                       ["Deep book: a"])
        chain(PresentationStrip.collectionDepthLimit + 1)
        XCTAssertEqual(failure(server.url("/c0.json"), fetcher: makeFetcher()),
                       "no manifest within \(PresentationStrip.collectionDepthLimit) collections of it")
        // Beside a manifest that is read, what lies too deep is a note.
        serve(PresentationFixtures.collection3(id: server.url("/both.json"), label: "Both", members: [
            (server.url("/m.json"), false), (server.url("/c0.json"), true),
        ]), at: "/both.json", on: server)
        let strip = try PresentationStrip.load(server.url("/both.json"), fetcher: makeFetcher(), box: box)
        XCTAssertEqual(strip.items.map(\.displayName), ["Deep book: a"])
        XCTAssertEqual(strip.notes, ["1 member of the collection not read: collections are followed \(PresentationStrip.collectionDepthLimit) deep"])
    }

    // MARK: - Bad input

    func testBadDocumentsSayWhyInOneLine() throws {
        let server = try makeServer()
        let fetcher = makeFetcher()
        server.setRoute("/bad.json") { _ in .init(body: Data("{\"type\": \"Manifest\", \"items\": [".utf8)) }
        server.setRoute("/page/manifest.json") { _ in
            .init(headers: [("Content-Type", "text/html")], body: Data("<!doctype html><p>Sign in".utf8))
        }
        server.setRoute("/loop1/manifest.json") { _ in .redirect(to: "/loop2/manifest.json") }
        server.setRoute("/loop2/manifest.json") { _ in .redirect(to: "/loop1/manifest.json") }
        server.setRoute("/service.json") { _ in
            .init(body: Data(#"{"protocol": "http://iiif.io/api/image", "width": 10, "height": 10}"#.utf8))
        }
        server.setRoute("/other.json") { _ in .init(body: Data(#"{"name": "not iiif"}"#.utf8)) }
        server.setRoute("/huge.json") { _ in .init(body: Data(repeating: 0x20, count: (8 << 20) + 1)) }
        server.setRoute("/deep.json") { _ in .init(body: Data(String(repeating: "[", count: 100_000).utf8)) }
        serve(PresentationFixtures.manifest3(id: "https://example.org/empty", label: "Empty", canvases: []),
              at: "/empty.json", on: server)

        XCTAssertEqual(failure(server.url("/bad.json"), fetcher: fetcher), "not JSON, so not an IIIF manifest")
        XCTAssertTrue(failure(server.url("/page/manifest.json"), fetcher: fetcher).contains("web page"))
        XCTAssertEqual(failure(server.url("/missing/manifest.json"), fetcher: fetcher), "the server answered 404 Not Found")
        XCTAssertEqual(failure(server.url("/loop1/manifest.json"), fetcher: fetcher), "more than 5 redirects")
        XCTAssertTrue(failure(server.url("/service.json"), fetcher: fetcher).contains("image service's description"))
        XCTAssertTrue(failure(server.url("/other.json"), fetcher: fetcher).contains("not an IIIF Presentation manifest"))
        XCTAssertTrue(failure(server.url("/huge.json"), fetcher: fetcher).contains("over the limit"))
        XCTAssertEqual(failure(server.url("/deep.json"), fetcher: fetcher), "not JSON, so not an IIIF manifest")
        // A collection's members are read on threads of their own: as deep a document there says why too.
        server.setRoute("/nested.json") { _ in
            .init(body: Data((String(repeating: "[", count: 500) + String(repeating: "]", count: 500)).utf8))
        }
        serve(PresentationFixtures.collection3(id: "https://example.org/c", label: "Deep",
                                               members: [(server.url("/deep.json"), false), (server.url("/nested.json"), false)]),
              at: "/deep-collection.json", on: server)
        XCTAssertTrue(failure(server.url("/deep-collection.json"), fetcher: fetcher)
            .hasPrefix("no manifest of the collection could be read (\(server.url("/deep.json")): not JSON"))
        XCTAssertEqual(failure(server.url("/empty.json"), fetcher: fetcher), "the manifest has no canvases")
        XCTAssertEqual(failure("ftp://example.org/manifest.json", fetcher: fetcher), "not an http(s) URL")
        XCTAssertEqual(failure("/no/such/manifest.json", fetcher: fetcher), "no such file")
    }

    func testAStalledServerSaysSo() throws {
        let server = try makeServer()
        server.setRoute("/slow/manifest.json") { _ in .init(stalls: true) }
        XCTAssertEqual(failure(server.url("/slow/manifest.json"), fetcher: makeFetcher(idleTimeout: .milliseconds(300))),
                       "the server did not answer in time (nothing arrived for 0.3 s)")
    }

    func testACollectionOfStallingServersIsReadForNoLongerThanTheTimeLimit() throws {
        let server = try makeServer()
        // Its one canvas's thumbnail needs the service's info.json, which is not read once time is up.
        serve(PresentationFixtures.manifest3(id: server.url("/m.json"), label: "Book", canvases: [
            Canvas(label: "a", serviceID: server.url("/slow/svc")),
        ]), at: "/m.json", on: server)
        let stalled = (0..<30).map { "/slow/\($0).json" }
        for path in stalled + ["/slow/svc/info.json"] { server.setRoute(path) { _ in .init(stalls: true) } }
        serve(PresentationFixtures.collection3(id: server.url("/shelf.json"), label: "Shelf",
                                               members: [(server.url("/m.json"), false)] + stalled.map { (server.url($0), false) }),
              at: "/shelf.json", on: server)

        let strip = try PresentationStrip.load(server.url("/shelf.json"), fetcher: makeFetcher(idleTimeout: .milliseconds(500)),
                                               box: box, timeLimit: .milliseconds(200))

        // Six requests begin at once and stall past the limit: of the 30 stalling members, those not begun
        // by then (some 24) are never asked.
        XCTAssertEqual(strip.items.map(\.displayName), ["Book: a"])
        XCTAssertEqual(strip.items.map(\.path), [server.url("/slow/svc/full/!400,300/0/default.jpg")])
        XCTAssertEqual(strip.notes.count, 3, "\(strip.notes)")
        let counts = strip.notes.prefix(2).map { Int($0.prefix { $0 != " " }) ?? 0 }
        XCTAssertEqual(strip.notes.first?.hasSuffix(" members of the collection not read: reading took over 0.2 s"), true, "\(strip.notes)")
        XCTAssertEqual(strip.notes.dropFirst().first?.contains(" manifests of the collection not read ("), true, "\(strip.notes)")
        XCTAssertEqual(counts.reduce(0, +), stalled.count, "\(strip.notes)")
        XCTAssertGreaterThanOrEqual(counts[0], stalled.count - 12, "\(strip.notes)")
        XCTAssertEqual(server.requestLog.filter { $0.hasPrefix("/slow/") }.count, counts[1], "\(server.requestLog)")
        XCTAssertEqual(strip.notes.last, "1 thumbnail asked of the image service unread: reading took over 0.2 s")
        XCTAssertEqual(server.requestCount("/slow/svc/info.json"), 0)
    }

    func testCanvasesWithoutAnHTTPImageServiceAreSkippedAndCounted() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let services = try PresentationFixtures.serveTrees([samples[0]], version: 3, on: server, in: dir.path("trees"))
        let elsewhere = [Canvas(label: "ftp", serviceID: "ftp://example.org/iiif/a"),
                         Canvas(label: "file", serviceID: "file:///etc/passwd"),
                         Canvas(label: "script", serviceID: "javascript:alert(1)"),
                         Canvas(label: "data", serviceID: "data:application/json,{}"),
                         Canvas(label: "relative", serviceID: "iiif/a")]
        serve(PresentationFixtures.manifest3(id: "https://example.org/m", label: "Mixed",
                                             canvases: [elsewhere[0], Canvas(label: ["en": ["kept"]], service: services[0]), elsewhere[1]]),
              at: "/mixed.json", on: server)
        serve(PresentationFixtures.manifest2(id: "https://example.org/m", label: "None", canvases: elsewhere),
              at: "/none.json", on: server)
        let fetcher = RecordingFetcher(makeFetcher())

        let strip = try PresentationStrip.load(server.url("/mixed.json"), fetcher: fetcher, box: box)
        XCTAssertEqual(strip.items.map(\.displayName), ["kept"])
        XCTAssertEqual(strip.notes, ["2 canvases skipped: no http(s) image service"])
        XCTAssertEqual(failure(server.url("/none.json"), fetcher: fetcher), "no canvas has an http(s) image service (5 skipped)")
        let asked = fetcher.asked.withLock { $0 }
        XCTAssertFalse(asked.isEmpty)
        XCTAssertTrue(asked.allSatisfy { $0.hasPrefix(server.url("/")) }, "only the loopback server's http URLs: \(asked)")
    }

    /// Passes requests on to an `HTTPFetcher`, keeping each URL asked for.
    private final class RecordingFetcher: TileFetching {
        let inner: HTTPFetcher
        let asked = Mutex<[String]>([])
        init(_ inner: HTTPFetcher) { self.inner = inner }
        func get(_ url: String, byteLimit: Int, cancellation: DecodeCancellation?) throws(TileFetchError) -> Data {
            asked.withLock { $0.append(url) }
            return try inner.get(url, byteLimit: byteLimit, cancellation: cancellation)
        }
    }

    func testWhatIsReadAsAPresentationDocument() {
        for path in ["https://example.org/iiif/book/manifest.json", "http://h/b/manifest", "https://h/c/Collection",
                     "https://h/x/book.JSON?x=1", "/home/me/book.json", "book.json", "https://h/manifests/object/299843",
                     "https://h/presentation/v2/b18035723"] {
            XCTAssertTrue(PresentationStrip.mayBeDocument(path), path)
        }
        for path in ["https://h/iiif/img/info.json", "https://h/photo.jpg", "/home/me/info.json", "/home/me/photos",
                     "https://h/json/photo.png", "https://h/manifests/img/full/max/0/default.jpg", "/home/me/manifest",
                     "https://h/iiif/3/abc"] {
            XCTAssertFalse(PresentationStrip.mayBeDocument(path), path)
        }
        // Only a name ending in .json is surely a document; a folder's name alone may hold images too.
        for path in ["https://example.org/iiif/book/manifest.json", "https://h/x/book.JSON?x=1", "/home/me/book.json"] {
            XCTAssertTrue(PresentationStrip.isNamedAsDocument(path), path)
        }
        for path in ["http://h/b/manifest", "https://h/manifests/object/299843", "https://h/iiif/img/info.json",
                     "https://h/json/photo.png", "https://h/x.json/photo"] {
            XCTAssertFalse(PresentationStrip.isNamedAsDocument(path), path)
        }
    }
}
