import Foundation
import TesseraCore
import TesseraFiles
import XCTest

final class FreedesktopThumbnailPathTests: XCTestCase {
    /// Expected URIs are GLib 2.74's `g_filename_to_uri(path, NULL, NULL)` output for the same paths.
    func testFileURIMatchesGLib() {
        let cases: [(String, String)] = [
            ("/home/u/Pictures/IMG 1.jpg", "file:///home/u/Pictures/IMG%201.jpg"),
            ("/tmp/a b#ä%;?[]!$&'()*+,=:@~_-.x", "file:///tmp/a%20b%23%C3%A4%25%3B%3F%5B%5D!$&'()*+,=:@~_-.x"),
            ("/x/\u{7F}\"<>\\^`{|}", "file:///x/%7F%22%3C%3E%5C%5E%60%7B%7C%7D"),
            ("/ü/日本.png", "file:///%C3%BC/%E6%97%A5%E6%9C%AC.png"),
        ]
        for (path, uri) in cases {
            XCTAssertEqual(FreedesktopThumbnailPath.fileURI(forAbsolutePath: path), uri, path)
        }
    }

    /// The standard's own example, and a name with escapes (MD5 from Python's hashlib).
    func testThumbnailFileName() {
        XCTAssertEqual(FreedesktopThumbnailPath.fileName(forURI: "file:///home/jens/photos/me.png"),
                       "c6ee772d9e49320e97ec29a7eb5b1697.png")
        XCTAssertEqual(FreedesktopThumbnailPath.fileName(forURI: "file:///home/u/Pictures/IMG%201.jpg"),
                       "70bef759089851edc0100d08ef81e7f6.png")
    }

    func testCacheRoot() {
        XCTAssertEqual(FreedesktopThumbnailPath.cacheRoot(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]), "/c/thumbnails")
        XCTAssertEqual(FreedesktopThumbnailPath.cacheRoot(environment: ["XDG_CACHE_HOME": "/c/", "HOME": "/h"]), "/c/thumbnails")
        XCTAssertEqual(FreedesktopThumbnailPath.cacheRoot(environment: ["HOME": "/h"]), "/h/.cache/thumbnails")
        // Empty or relative XDG_CACHE_HOME is ignored, as the XDG base directory spec says.
        XCTAssertEqual(FreedesktopThumbnailPath.cacheRoot(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"]), "/h/.cache/thumbnails")
        XCTAssertEqual(FreedesktopThumbnailPath.cacheRoot(environment: ["XDG_CACHE_HOME": "cache", "HOME": "/h"]), "/h/.cache/thumbnails")
        XCTAssertNil(FreedesktopThumbnailPath.cacheRoot(environment: [:]))
    }

    func testAbsolutePath() {
        XCTAssertEqual(FreedesktopThumbnailPath.absolutePath("a/b.jpg", workingDirectory: "/w"), "/w/a/b.jpg")
        XCTAssertEqual(FreedesktopThumbnailPath.absolutePath("./a//../b.jpg", workingDirectory: "/w/"), "/w/b.jpg")
        XCTAssertEqual(FreedesktopThumbnailPath.absolutePath("/x/./y/../z.png"), "/x/z.png")
    }

    func testSizeChoice() {
        let cases: [(PixelSize, ThumbnailSize?)] = [
            (PixelSize(width: 100, height: 128), .normal),
            (PixelSize(width: 129, height: 50), .large),
            (PixelSize(width: 256, height: 256), .large),
            (PixelSize(width: 400, height: 300), .xLarge),
            (PixelSize(width: 800, height: 600), .xxLarge),
            (PixelSize(width: 1024, height: 1), .xxLarge),
            (PixelSize(width: 1025, height: 700), nil),
            (PixelSize(width: 2560, height: 1440), nil),
        ]
        for (box, size) in cases {
            XCTAssertEqual(ThumbnailSize.smallest(covering: box), size, "\(box)")
        }
        XCTAssertEqual(ThumbnailSize.allCases.map(\.folderName), ["normal", "large", "x-large", "xx-large"])
        XCTAssertEqual(ThumbnailSize.allCases.map(\.pixels), [128, 256, 512, 1024])
    }
}
