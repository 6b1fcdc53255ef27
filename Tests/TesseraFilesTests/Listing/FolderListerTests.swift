import Foundation
import Synchronization
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles

final class FolderListerTests: XCTestCase {
    func testImagesByExtensionAndSubfoldersHiddenOnesNever() throws {
        let dir = try TemporaryDirectory()
        for name in ["a.jpg", "B.JPEG", "c.Tiff", "notes.txt", "jpg", ".hidden.png", "pipe-less.webp"] {
            try dir.write(Data([1]), to: name)
        }
        for folder in ["sub", ".git", "looks.jpg"] {
            try FileManager.default.createDirectory(atPath: dir.path(folder), withIntermediateDirectories: true)
        }
        // Links are followed: to a folder it is a subfolder, to an image an image; one to nowhere is left out.
        try FileManager.default.createSymbolicLink(atPath: dir.path("linked"), withDestinationPath: dir.path("sub"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("alias.png"), withDestinationPath: dir.path("a.jpg"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("gone.jpg"), withDestinationPath: dir.path("nowhere"))

        let listing = FolderLister.list(dir.url.path)
        XCTAssertEqual(listing.images.sorted(), ["B.JPEG", "a.jpg", "alias.png", "c.Tiff", "pipe-less.webp"])
        XCTAssertEqual(listing.subfolders.sorted(), ["linked", "looks.jpg", "sub"])
        XCTAssertEqual(FolderLister.list(dir.path("no such folder")), FolderLister.Listing())
    }

    func testImageNamesAreDecidedInOnePlace() {
        for name in ["a.jpg", "a.JPG", "x.tar.png", "photo.jfif", "scan.tif"] { XCTAssertTrue(FolderLister.isImageName(name), name) }
        for name in [".a.jpg", "jpg", "a.", "a.jpg.txt", "a.psd", ".jpg", "a.svg.txt"] { XCTAssertFalse(FolderLister.isImageName(name), name) }
        // What phones, browsers, drawing programs and cameras write, in any case.
        for name in ["IMG_0001.HEIC", "a.heif", "a.avif", "a.jxl", "logo.svg", "logo.SVGZ", "a.tiff", "a.dng", "a.CR2",
                     "a.cr3", "a.NEF", "a.arw", "a.raf", "a.orf", "a.Rw2", "spinner.apng", "a.APNG"] {
            XCTAssertTrue(FolderLister.isImageName(name), name)
        }
    }

    /// The browser and the watcher name a folder's files alike, however the folder was typed.
    func testPathsJoinWithOneSlash() {
        XCTAssertEqual(FolderLister.path(of: "a.jpg", in: "photos"), "photos/a.jpg")
        XCTAssertEqual(FolderLister.path(of: "a.jpg", in: "photos/"), "photos/a.jpg")
        XCTAssertEqual(FolderLister.path(of: "a.jpg", in: "photos//"), "photos/a.jpg")
        XCTAssertEqual(FolderLister.path(of: "a.jpg", in: "/"), "/a.jpg")
        XCTAssertEqual(FolderLister.path(of: "a.jpg", in: "."), "./a.jpg")
    }

    func testCollectorAndWatcherAgreeOnAFolderTypedWithTrailingSlashes() throws {
        let dir = try TemporaryDirectory()
        try dir.write(Data([1]), to: "a.jpg")
        let typed = dir.url.path + "//"
        let items = try ImagePathCollector().collect([typed]).items
        XCTAssertEqual(items.map(\.path), [dir.path("a.jpg")])

        let changes = Mutex<[ItemChange]>([])
        let watcher = try FolderWatcher(folders: [typed], settleDelay: .milliseconds(20)) { new in changes.withLock { $0 += new } }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())
        try dir.write(Data([1, 2]), to: "a.jpg")
        let deadline = Date().addingTimeInterval(5)
        while changes.withLock({ $0.isEmpty }) && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(changes.withLock { $0.map(\.path) }, items.map(\.path))
    }
}
