import Foundation
import TesseraCore
import TesseraFiles
import TesseraTiling

/// The strip an IIIF Presentation manifest or collection opens as: one item per canvas, named by its label,
/// whose cell is the canvas's thumbnail (downloaded as any remote item is) and whose single view is the
/// canvas's image service, opened as a remote pyramid through its `info.json`.
///
/// A collection's strip holds the canvases of all its manifests, in order, each named "manifest: canvas";
/// member collections are followed `collectionDepthLimit` deep, at most `manifestLimit` manifests. Every
/// document, and each `info.json` a thumbnail is chosen from, is fetched before the strip opens, six at a
/// time, for at most `readingTimeLimit`.
///
/// A canvas's thumbnail is, in order: its image service drawn at the cell's size (a level 1 or 2 service,
/// `full/W,/0/default.jpg` at the width that fits the cell when the manifest gives the image's size, else
/// level 2's `full/!W,H/0/default.jpg`); the canvas's own thumbnail; or what the service's `info.json`
/// offers (drawn at the cell's size by a level 1 or 2 server, else the smallest listed size that fills
/// the cell, else a static tree's one-tile level).
package struct PresentationStrip: Sendable {
    /// The canvases as strip items: each a thumbnail's URL, named by the canvas's label.
    package var items: [CarouselItem]
    /// The `info.json` URL each item's single view opens, by the item's URL.
    package var pyramids: [String: String]
    /// What was left out, one line each ("2 canvases skipped: no http(s) image service").
    package var notes: [String]

    /// Why a manifest opens no strip: one line, with the document's URL or path.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let location: String
        package let reason: String
        /// The document named is not JSON, or JSON of another kind (`PresentationDocument.Refusal`).
        package var isOtherContent = false
        package var description: String { "\(location): \(reason)" }
    }

    /// Documents followed at most this deep below the collection opened.
    package static let collectionDepthLimit = 3
    /// Manifests of a collection read at most.
    package static let manifestLimit = 500
    /// Canvases shown at most: each is an item, and a thumbnail may need its service's `info.json` read
    /// before the strip opens.
    package static let canvasLimit = 10_000

    /// Whether `path` names what is read as a Presentation document: an http(s) URL or a file whose last
    /// path component ends in `.json` (other than an image service's `info.json`), or an http(s) URL whose
    /// last component has no extension and whose path has a component named as publishers name their
    /// documents' folders (`manifest`, `manifests`, `collection`, `collections`, `presentation`).
    package static func mayBeDocument(_ path: String) -> Bool {
        guard CarouselItem.isRemote(path) else { return isNamedAsDocument(path) }
        let components = (URLComponents(string: path)?.path ?? "").lowercased().split(separator: "/")
        guard let name = components.last else { return false }
        if name.hasSuffix(".json") { return name != "info.json" }
        return !name.contains(".") && components.contains { documentFolders.contains(String($0)) }
    }

    /// Whether `path`'s own name says it is a Presentation document: its last path component ends in
    /// `.json` and is no image service's `info.json`. A URL `mayBeDocument` takes for one by its folder
    /// alone may as well be an image.
    package static func isNamedAsDocument(_ path: String) -> Bool {
        let given = CarouselItem.isRemote(path) ? URLComponents(string: path)?.path ?? "" : path
        let name = (given as NSString).lastPathComponent.lowercased()
        return name.hasSuffix(".json") && name != "info.json"
    }

    private static let documentFolders: Set<String> = ["manifest", "manifests", "collection", "collections", "presentation"]

    /// How long a collection's documents and the thumbnails' `info.json` are read for before the strip
    /// opens: a request begun within it finishes (within the fetcher's own time limits), what is not begun
    /// by then is left unread, so that a collection of stalling servers cannot hold the window back for
    /// each of its members in turn.
    package static let readingTimeLimit: Duration = .seconds(30)

    /// Reads the manifest or collection at `location` (an http(s) URL through `fetcher`, or a file) and
    /// makes its strip, asking thumbnails for cells of `box` pixels; reads nothing new after `timeLimit`.
    package static func load(_ location: String, fetcher: any TileFetching, box: PixelSize,
                             timeLimit: Duration = readingTimeLimit) throws(Failure) -> PresentationStrip {
        var notes: [String] = []
        let deadline = ContinuousClock.now + timeLimit
        let manifests = try manifests(at: location, fetcher: fetcher, deadline: deadline, timeLimit: timeLimit, notes: &notes)
        var canvases: [(label: String, canvas: PresentationDocument.Canvas)] = []
        var skipped = 0, leftOut = 0
        for (manifest, ofCollection) in manifests {
            skipped += manifest.skipped
            for canvas in manifest.canvases {
                guard canvases.count < canvasLimit else {
                    leftOut += 1
                    continue
                }
                let label = ofCollection ? "\(manifest.label ?? "manifest"): \(canvas.label)" : canvas.label
                canvases.append((label, canvas))
            }
        }
        if skipped > 0 {
            notes.append("\(skipped) canvas\(skipped == 1 ? "" : "es") skipped: no http(s) image service")
        }
        if leftOut > 0 {
            notes.append("\(leftOut) canvas\(leftOut == 1 ? "" : "es") not shown: at most \(canvasLimit) are")
        }
        guard !canvases.isEmpty else {
            throw Failure(location: location, reason: skipped > 0
                ? "no canvas has an http(s) image service (\(skipped) skipped)" : "the manifest has no canvases")
        }
        // A canvas listed again (the same image in two manifests of a collection) is looked up once.
        var painted: [PresentationDocument.Canvas] = [], place: [PresentationDocument.Canvas: Int] = [:]
        for (_, canvas) in canvases where place[canvas] == nil {
            place[canvas] = painted.count
            painted.append(canvas)
        }
        let looked = sideBySide(painted.count) { [painted] index in
            thumbnailURL(of: painted[index], fetcher: fetcher, box: box, mayRead: ContinuousClock.now < deadline)
        }
        let unread = looked.count { $0 == nil }
        if unread > 0 {
            notes.append("\(unread) thumbnail\(unread == 1 ? "" : "s") asked of the image service unread: reading took over \(timeLimit.secondsText)")
        }
        let thumbnails = zip(painted, looked).map { canvas, url in url ?? drawnThumbnailURL(of: canvas, box: box) }
        var strip = PresentationStrip(items: [], pyramids: [:], notes: notes)
        for (index, entry) in canvases.enumerated() {
            var url = thumbnails[place[entry.canvas]!]
            let info = entry.canvas.service.infoURL
            // One thumbnail shared by canvases of different images (a placeholder) is told apart by a
            // fragment of its own, which no request carries.
            if let taken = strip.pyramids[url], taken != info {
                url = url.prefix { $0 != "#" } + "#canvas\(index + 1)"
            }
            strip.pyramids[url] = info
            strip.items.append(CarouselItem(path: url, displayName: entry.label))
        }
        return strip
    }

    /// The manifests at `location`: itself, or a collection's, each with whether it came from a collection.
    private static func manifests(at location: String, fetcher: any TileFetching, deadline: ContinuousClock.Instant,
                                  timeLimit: Duration, notes: inout [String]) throws(Failure) -> [(PresentationDocument.Manifest, Bool)] {
        switch try document(at: location, fetcher: fetcher) {
        case .manifest(let manifest):
            return [(manifest, false)]
        case .collection(let collection):
            var manifests: [PresentationDocument.Manifest] = []
            var skipped = collection.skipped, failures: [Failure] = []
            var level = collection.members, depth = 1
            var seen = Set([location]), leftOver = 0, tooDeep = 0, late = 0
            while !level.isEmpty, manifests.count < manifestLimit {
                level = level.filter { seen.insert($0.url).inserted }
                // No more documents are fetched than manifests may still be read.
                leftOver += max(0, level.count - (manifestLimit - manifests.count))
                level = Array(level.prefix(manifestLimit - manifests.count))
                let urls = level.map(\.url)
                let bodies = sideBySide(urls.count) { index -> Result<PresentationDocument, Failure>? in
                    guard ContinuousClock.now < deadline else { return nil }
                    return Result { () throws(Failure) in try document(at: urls[index], fetcher: fetcher) }
                }
                var next: [PresentationDocument.Member] = []
                for result in bodies {
                    guard let result else {
                        late += 1
                        continue
                    }
                    switch result {
                    case .success(.manifest(let manifest)):
                        if manifests.count < manifestLimit { manifests.append(manifest) }
                    case .success(.collection(let member)):
                        skipped += member.skipped
                        if depth < collectionDepthLimit { next += member.members } else { tooDeep += member.members.count }
                    case .failure(let failure): failures.append(failure)
                    }
                }
                level = next
                depth += 1
            }
            leftOver += level.count
            if skipped > 0 { notes.append("\(skipped) member\(skipped == 1 ? "" : "s") of the collection skipped: not an http(s) URL") }
            if leftOver > 0 { notes.append("\(leftOver) member\(leftOver == 1 ? "" : "s") of the collection not read: at most \(manifestLimit) manifests are") }
            if late > 0 {
                notes.append("\(late) member\(late == 1 ? "" : "s") of the collection not read: reading took over \(timeLimit.secondsText)")
            }
            if tooDeep > 0 {
                notes.append("\(tooDeep) member\(tooDeep == 1 ? "" : "s") of the collection not read: collections are followed \(collectionDepthLimit) deep")
            }
            if let first = failures.first {
                notes.append("\(failures.count) manifest\(failures.count == 1 ? "" : "s") of the collection not read (\(first))")
            }
            guard !manifests.isEmpty else {
                if let first = failures.first {
                    throw Failure(location: location, reason: "no manifest of the collection could be read (\(first))")
                }
                if late > 0 { throw Failure(location: location, reason: "no manifest of the collection was read within \(timeLimit.secondsText)") }
                throw Failure(location: location, reason: tooDeep > 0
                    ? "no manifest within \(collectionDepthLimit) collections of it" : "the collection lists no manifests")
            }
            return manifests.map { ($0, true) }
        }
    }

    /// The document at `location`, fetched (an http(s) URL) or read (a file), at most
    /// `PresentationDocument.byteLimit` bytes.
    static func document(at location: String, fetcher: any TileFetching) throws(Failure) -> PresentationDocument {
        let data: Data
        if CarouselItem.isRemote(location) {
            do {
                data = try fetcher.get(location, byteLimit: PresentationDocument.byteLimit)
            } catch {
                throw Failure(location: location, reason: error.reason)
            }
        } else if location.contains("://") {
            throw Failure(location: location, reason: "not an http(s) URL")
        } else {
            // Opened by its bytes, as every file the user names is: a name that is not UTF-8 stays the same file.
            do throws(ImageFile.Failure) {
                data = try ImageFile(path: location).head(PresentationDocument.byteLimit + 1)
            } catch .empty {
                data = Data()
            } catch {
                throw Failure(location: location, reason: error.description)
            }
        }
        do throws(PresentationDocument.Refusal) {
            return try PresentationDocument(json: data)
        } catch {
            throw Failure(location: location, reason: error.reason, isOtherContent: error.isOtherContent)
        }
    }

    /// The URL of `canvas`'s cell picture for a box of `box` pixels (see the type's description); nil when
    /// that needs the service's `info.json` and `mayRead` is false. A service whose `info.json` cannot be
    /// read is still asked to draw one: the cell then says what went wrong.
    static func thumbnailURL(of canvas: PresentationDocument.Canvas, fetcher: any TileFetching, box: PixelSize,
                             mayRead: Bool = true) -> String? {
        let service = canvas.service
        if let level = service.level, level > 0 {
            // A width alone is what level 1 draws too; `!W,H` is level 2's.
            if let size = service.size { return RemoteIIIFTileSource.drawnURL(base: service.id, imageSize: size, fitting: box) }
            if level == 2 { return drawnThumbnailURL(of: canvas, box: box) }
        }
        if let thumbnail = canvas.thumbnail { return thumbnail }
        guard mayRead else { return nil }
        let source = try? RemoteIIIFTileSource(infoURL: canvas.service.infoURL, fetcher: fetcher, decoders: [])
        return source?.thumbnailURL(fitting: box) ?? drawnThumbnailURL(of: canvas, box: box)
    }

    /// The request of a level 2 service for `canvas`'s whole image fitted into `box`.
    static func drawnThumbnailURL(of canvas: PresentationDocument.Canvas, box: PixelSize) -> String {
        "\(canvas.service.id)/full/!\(box.width),\(box.height)/0/default.jpg"
    }
}
