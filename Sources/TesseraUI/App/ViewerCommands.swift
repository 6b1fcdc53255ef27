import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraRemote
import TesseraSDL

/// What keys do: each combo is looked up in the bindings for the view shown and its action carried out on
/// the selection and the marks, the files (trash, turns, undo, the key-handler after its prefix), the
/// sort order, the slideshow, the overlay and the clipboard; moving and zooming go to the view shown
/// (`ViewerModes`). The results of the actions that run on workers are applied here each frame, and the
/// overlay is gathered from this state. Main thread only.
///
/// One switch over the key table's actions, which reads best whole; each action's
/// work lives in the type it belongs to (`FileActions`, `Slideshow`, `StripSorting`, the models).
final class ViewerCommands {
    private(set) var overlayLevel = OverlayLevel.name
    private(set) var status = StatusLine()
    private(set) var slideshow: Slideshow
    /// After the key-handler's prefix: the next combo goes to the handler.
    private(set) var awaitsKeyHandlerKey = false

    private let model: CarouselModel
    private let modes: ViewerModes
    private let window: Window
    private let fileActions: FileActions
    private let keyHandler: KeyHandlerSession
    private let quitting: Quitting
    private let information: ImageInformationCache
    private let sorting: StripSorting
    private let cellRatings: CellRatings
    private let imageCopier: ImageCopier
    private let droppedFiles: DroppedFiles
    private let remote: RemoteImageStore?
    /// The bindings, the key-handler's separator, the slideshow's delay and start.
    private let options: ViewerOptions
    private var startsSlideshow: Bool
    private var opensSingleView: Bool

    init(model: CarouselModel, modes: ViewerModes, window: Window, fileActions: FileActions,
         keyHandler: KeyHandlerSession, quitting: Quitting, information: ImageInformationCache, sorting: StripSorting, cellRatings: CellRatings, imageCopier: ImageCopier, droppedFiles: DroppedFiles,
         remote: RemoteImageStore?, options: ViewerOptions) {
        self.model = model
        self.modes = modes
        self.window = window
        self.fileActions = fileActions
        self.keyHandler = keyHandler
        self.quitting = quitting
        self.information = information
        self.sorting = sorting
        self.cellRatings = cellRatings
        self.imageCopier = imageCopier
        self.droppedFiles = droppedFiles
        self.remote = remote
        self.options = options
        slideshow = Slideshow(delay: options.slideshowDelay)
        startsSlideshow = options.startsSlideshow
        opensSingleView = options.singleViewAtStart != nil
    }

    // MARK: Keys

    /// A key pressed; `isRepeat` when it is held down. A held key does not trash, turn or undo again and
    /// again: each of those takes its own press.
    func handle(_ combo: KeyCombo, isRepeat: Bool = false, now: Duration) {
        if awaitsKeyHandlerKey {
            awaitsKeyHandlerKey = false
            if combo == KeyCombo(key: "Escape") { return }
            runKeyHandler(combo, now: now)
            return
        }
        guard let action = options.keyBindings.action(for: combo, in: modes.view) else { return }
        if isRepeat, Self.onePressEach.contains(action) { return }
        // Once quitting, no new work on the files starts: what runs is being finished.
        if quitting.isRequested, Self.startsWork.contains(action) { return }
        perform(action, now: now)
    }

    private static let onePressEach = Set<ViewerAction>([.trash, .undo, .rotateLeft, .rotateRight, .flipHorizontal,
                                                         .flipVertical, .keyHandler, .slideshow, .sort, .nextPage,
                                                         .previousPage, .compare, .ratingFilter, .copyPicture]).union(rating)

    /// The keys that rate, and the rating each gives.
    private static let ratings: [ViewerAction: Rating] = [.rate1: .stars(1), .rate2: .stars(2), .rate3: .stars(3),
                                                          .rate4: .stars(4), .rate5: .stars(5), .clearRating: .unrated,
                                                          .reject: .rejected]
    private static let rating = Set(ratings.keys)

    /// The actions that work on the user's files.
    private static let startsWork = Set<ViewerAction>([.trash, .undo, .rotateLeft, .rotateRight, .flipHorizontal,
                                                       .flipVertical, .keyHandler]).union(rating)

    /// The single view's next or previous image of a file of several, as far as the file has them (the
    /// count is the information overlay's, read on a worker the first time it is asked for).
    private func stepPage(forward: Bool, now: Duration) {
        guard modes.mode == .detail, let item = model.selectedItem, !item.isRemote else { return }
        let count: Int
        switch information.information(path: item.path, version: item.version) {
        case .ready(let info) where info.pages?.isSequence == true && (info.pages?.count ?? 1) == 1:
            status.show("an image sequence: its first image is all that can be shown", now: now)
            return
        case .ready(let info): count = info.pages?.count ?? 1
        case .reading:
            status.show("reading how many images the file holds", now: now)
            return
        case .failed(let reason):
            status.show("cannot tell how many images the file holds: \(reason)", isError: true, now: now)
            return
        }
        let page = modes.detailPage + (forward ? 1 : -1)
        guard page >= 0, page < count else {
            status.show(count == 1 ? "the file holds one image" : forward ? "no page after this one" : "no page before this one",
                        now: now)
            return
        }
        modes.showPage(page, now: now)
    }

    /// Whether item `index` may hold several images: as its decode in the strip said, or, with no picture
    /// from the strip, as TIFF and HEIF names say.
    private func mayHoldSeveralImages(_ index: Int) -> Bool {
        if let cached = model.cachedImage(for: index) { return cached.holdsSeveralImages || cached.isSequence }
        guard let path = model.items.indices.contains(index) ? model.items[index].path : nil else { return false }
        return ["tif", "tiff", "heic", "heif", "avif"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// How many images the file of `item` holds, once its information is read (asking for it otherwise);
    /// nil while it is read or when it cannot be.
    private func pageCount(of item: CarouselItem) -> Int? {
        guard case .ready(let info) = information.information(path: item.path, version: item.version) else { return nil }
        return info.pages?.count ?? 1
    }

    func perform(_ action: ViewerAction, now: Duration) {
        let selected = model.selectedIndex
        switch action {
        case .quit: modes.quit()
        case .fullscreen: window.switchFullscreen(!window.isFullscreen)
        case .info: overlayLevel = overlayLevel.next
        case .next: step(to: selected + 1, now: now)
        case .previous: step(to: selected - 1, now: now)
        case .first: step(to: 0, now: now)
        case .last: step(to: model.items.count - 1, now: now)
        case .mark:
            if let item = model.selectedItem { model.marks.toggle(item.path) }
        case .invertMarks: model.invertMarks()
        case .clearMarks: model.marks.clear()
        case .nextPage, .previousPage:
            stepPage(forward: action == .nextPage, now: now)
        case .nextMark, .previousMark:
            let forward = action == .nextMark
            if let index = model.nearestMarked(from: selected, forward: forward) {
                step(to: index, now: now)
            } else {
                status.show(forward ? "no marked image after this one" : "no marked image before this one", now: now)
            }
        case .keyHandler:
            if let running = keyHandler.running {
                status.show("the key-handler is still running (\(running.combo.argument))", isError: true, now: now)
            } else {
                awaitsKeyHandlerKey = true
            }
        case .trash:
            let paths = targets()
            if !paths.isEmpty { fileActions.trash(paths) }
        case .undo:
            switch fileActions.undo() {
            case .started: break
            case .nothingToUndo: status.show("nothing to undo", now: now)
            case .busy: status.show("still working on the last action", now: now)
            }
        case .rotateLeft: turnTargets(.rotateLeft)
        case .rotateRight: turnTargets(.rotateRight)
        case .flipHorizontal: turnTargets(.flipHorizontal)
        case .flipVertical: turnTargets(.flipVertical)
        case .sort:
            let order = model.sortOrder.next
            model.sort(by: order, time: now)
            modes.itemsChanged(now: now)
            // An order that needs the files read shows what is known until the reads are in.
            status.show(model.itemsToRead == nil ? "sorted by \(order.label)" : "sorting by \(order.label)…", now: now)
        case .slideshow: toggleSlideshow(now: now)
        case .pause, .pauseOrNext:
            if let paused = modes.togglePause(now: now) {
                status.show(paused ? "animation paused" : "animation playing", now: now)
            } else if action == .pauseOrNext {
                step(to: selected + 1, now: now)
            } else {
                status.show("not an animation", now: now)
            }
        case .copyPath, .copyImage: copy(uriOnly: action == .copyImage, now: now)
        case .copyPicture:
            guard let item = model.selectedItem else { return }
            if item.isRemote {
                copy(uriOnly: true, now: now)
            } else {
                imageCopier.copy(path: item.path, displayName: item.displayName, sessionOrientation: item.sessionOrientation)
                status.show("copying \(item.displayName)…", now: now)
            }
        case .compare: toggleCompare(now: now)
        case .rate1, .rate2, .rate3, .rate4, .rate5, .clearRating, .reject:
            let paths = targets()
            if let rating = Self.ratings[action], !paths.isEmpty { fileActions.rate(paths, rating) }
        case .filmStrip:
            if modes.toggleFilmStrip() == nil { status.show("the film strip belongs to the single view", now: now) }
        case .ratingFilter:
            let filter = model.ratingFilter.next
            model.filter(by: filter, time: now)
            modes.itemsChanged(now: now)
            status.show(model.items.isEmpty ? "showing \(filter.label): none yet" : "showing \(filter.label)", now: now)
        case .clipping:
            if let view = modes.shownView {
                view.showsClipping.toggle()
                status.show(view.showsClipping ? "clipped highlights in red, crushed shadows in blue" : "clipping marks off", now: now)
            } else {
                status.show("clipping is marked in the single view", now: now)
            }
        case .retryTiles:
            guard let view = modes.shownView else { return status.show("failed tiles are tried again in the single view", now: now) }
            let failed = view.failedTileCount
            _ = view.perform(.retryTiles, now: now)
            status.show(failed == 0 ? "no tile has failed" : "trying \(failed) failed tile\(failed == 1 ? "" : "s") again", now: now)
        case .nextPane:
            if !modes.focusNextPane(now: now) { status.show("one image is shown: Tab moves between compared images", now: now) }
        case .lockPanes:
            if let locked = modes.toggleCompareLock() {
                status.show(locked ? "zoom and pan locked together" : "each image zooms and pans alone", now: now)
            } else {
                status.show("one image is shown: z locks the compared images' zoom", now: now)
            }
        default:
            viewAsked(modes.perform(action, now: now), now: now)
        }
    }

    /// `c`: the marked images side by side (in strip order, at most `ComparePanes.maximum`), else the
    /// selected one and the next; in the compare view, back.
    private func toggleCompare(now: Duration) {
        if modes.mode == .compare {
            modes.endCompare(now: now)
            return
        }
        let marked = model.markedPaths.compactMap { model.index(of: $0) }
        let selected = model.selectedIndex
        let indices: [Int]
        if marked.count >= 2 {
            indices = Array(marked.prefix(ComparePanes.maximum))
        } else if model.items.count >= 2 {
            indices = selected + 1 < model.items.count ? [selected, selected + 1] : [selected - 1, selected]
        } else {
            status.show("compare needs two images", now: now)
            return
        }
        stopSlideshow()
        // The selected image keeps the keys when it is among those compared.
        guard modes.startCompare(indices, focusing: selected, now: now) else {
            status.show("those images cannot be shown yet", isError: true, now: now)
            return
        }
        if marked.count > ComparePanes.maximum {
            status.show("comparing the first \(ComparePanes.maximum) of \(marked.count) marked images", now: now)
        }
    }

    /// What the single view asked of its host after a key.
    private func viewAsked(_ request: TiledViewAction?, now: Duration) {
        switch request {
        case .close where modes.mode == .compare:
            modes.endCompare(now: now)
        case .close:
            stopSlideshow()
            modes.close(now: now)
        case .quit: modes.quit()
        case .showPrevious: step(to: model.selectedIndex - 1, now: now)
        case .showNext: step(to: model.selectedIndex + 1, now: now)
        case nil: break
        }
    }

    /// Selects item `index` (clamped: nsxiv's steps stop at the ends) in the view shown; a step restarts
    /// the slideshow's delay.
    private func step(to index: Int, now: Duration) {
        guard !model.items.isEmpty else { return }
        if modes.mode == .compare {
            // A step (n, p) passes over the images the other panes show; a jump (g, G, a mark) goes where
            // it is told, and a pane already showing that image takes the focus.
            guard index != model.selectedIndex else { return }
            let forward = index > model.selectedIndex
            guard abs(index - model.selectedIndex) == 1 else { return modes.go(to: index, now: now) }
            if let next = modes.nextUncompared(forward: forward) {
                modes.go(to: next, now: now)
            } else {
                status.show(forward ? "no other image after this one" : "no other image before this one", now: now)
            }
            return
        }
        modes.go(to: min(max(0, index), model.items.count - 1), now: now)
        if slideshow.isRunning { slideshow.imageShown(now: now) }
    }

    /// The marked images in strip order, or the selected one when none is marked: what the trash, the
    /// turns and the key-handler act on, as in nsxiv.
    private func targets() -> [String] {
        // In the compare view, the focused pane's image: the one looked at among several.
        if modes.mode == .compare { return model.selectedPath.map { [$0] } ?? [] }
        let marked = model.markedPaths
        if !marked.isEmpty { return marked }
        return model.selectedPath.map { [$0] } ?? []
    }

    private func turnTargets(_ turn: OrientationTurn) {
        let paths = targets()
        if !paths.isEmpty { fileActions.turn(paths, by: turn) }
    }

    private func runKeyHandler(_ combo: KeyCombo, now: Duration) {
        let paths = targets()
        guard !paths.isEmpty else { return }
        if !keyHandler.start(combo, paths: paths, nulSeparated: options.nulSeparated) {
            status.show("the key-handler is still running", isError: true, now: now)
        }
    }

    /// `y` puts the selected image's path on the clipboard; `Y` a `file://` URI, which file managers and
    /// image editors paste as the file itself (SDL 2's clipboard holds text only).
    private func copy(uriOnly: Bool, now: Duration) {
        guard let item = model.selectedItem else { return }
        // The clipboard holds UTF-8 text: a path that is not UTF-8 is exact only in its URI, whose
        // percent-escapes carry every byte.
        var text = PathText.displayName(item.path)
        if uriOnly, !item.isRemote {
            text = FreedesktopThumbnailPath.fileURI(forAbsolutePath: FreedesktopThumbnailPath.absolutePath(item.path))
        }
        do {
            try Clipboard.setText(text)
            status.show("copied \(text)", now: now)
        } catch {
            status.show("cannot copy: \(error)", isError: true, now: now)
        }
    }

    // MARK: Drops

    /// A file or folder dropped on the window: its images join the strip (listed on a worker).
    func open(dropped path: String, now: Duration) {
        droppedFiles.add(path)
        status.show("adding \(PathText.displayName((path as NSString).lastPathComponent))…", now: now)
    }

    /// The dropped images join the strip in its order, and the first is selected.
    private func apply(_ arrival: DroppedFiles.Arrival, now: Duration) {
        let name = PathText.displayName((arrival.dropped as NSString).lastPathComponent)
        guard case .present(let first, _)? = arrival.changes.first else {
            status.show("\(name): no images there", isError: true, now: now)
            return
        }
        if modes.mode == .compare { modes.endCompare(now: now) }
        modes.apply(arrival.changes, now: now)
        let count = arrival.changes.count
        let added = count == 1 ? "added \(name)" : "added \(count) images from \(name)"
        if let index = model.index(of: first) {
            modes.go(to: index, now: now)
            status.show(added, now: now)
        } else {
            status.show(added + ", not shown: \(model.ratingFilter.label)", now: now)
        }
    }

    // MARK: Slideshow

    private func toggleSlideshow(now: Duration) {
        if slideshow.isRunning {
            stopSlideshow()
            status.show("slideshow stopped", now: now)
        } else {
            startSlideshow(now: now)
        }
    }

    /// Starts the slideshow in the single view (opening the selected image when the strip is shown).
    private func startSlideshow(now: Duration) {
        if modes.mode == .compare {
            status.show("no slideshow while comparing", now: now)
            return
        }
        if modes.mode == .strip { modes.open(now: now) }
        guard modes.mode == .detail else { return }
        slideshow.start(now: now)
    }

    private func stopSlideshow() {
        slideshow.stop()
        modes.dropUpcoming()
    }

    /// The image the slideshow shows next: the following one, the first after the last.
    private var nextSlide: Int? {
        model.items.count > 1 ? (model.selectedIndex + 1) % model.items.count : nil
    }

    // MARK: Frame

    /// Applies what the workers finished (trash, turns, undo, the key-handler) and moves the slideshow on
    /// when its image has had its time and the next one is decoded.
    func update(now: Duration) {
        if startsSlideshow {
            startsSlideshow = false
            startSlideshow(now: now)
        }
        if opensSingleView {
            opensSingleView = false
            if modes.mode == .strip { modes.open(now: now) }
        }
        switch sorting.update(model: model, now: now) {
        case .finished(let order)?:
            modes.itemsChanged(now: now)
            status.show("sorted by \(order.label)", now: now)
        case .refined?:
            modes.itemsChanged(now: now)
        case nil:
            break
        }
        cellRatings.update(model: model, now: now)
        for arrival in droppedFiles.drain() { apply(arrival, now: now) }
        for copied in imageCopier.drain() {
            if let text = copied.fallbackText { try? Clipboard.setText(text) }
            status.show(copied.message, isError: copied.isError, now: now)
        }
        for outcome in fileActions.drain() { apply(outcome, now: now) }
        for outcome in keyHandler.drain() { apply(outcome, now: now) }
        quitting.update()
        guard slideshow.isRunning else { return }
        guard modes.mode == .detail, let next = nextSlide else {
            stopSlideshow()
            return
        }
        modes.prepareUpcoming(next, now: now)
        if slideshow.shouldAdvance(now: now, nextIsReady: modes.isReadyToShow(next)) {
            modes.go(to: next, now: now)
            slideshow.imageShown(now: now)
        }
    }

    private func apply(_ outcome: FileActions.Outcome, now: Duration) {
        model.apply(outcome.changes)
        for (path, rating) in outcome.ratings { model.setRating(rating, ofPaths: [path]) }
        for (path, turn) in outcome.sessionTurns {
            guard let index = model.index(of: path) else { continue }
            let current = ImageOrientation(rawValue: model.items[index].sessionOrientation) ?? .up
            model.setSessionOrientation(current.turned(turn).rawValue, of: path)
        }
        modes.itemsChanged(now: now)
        if let message = outcome.message { status.show(message, isError: outcome.isError, now: now) }
    }

    private func apply(_ outcome: KeyHandlerSession.Outcome, now: Duration) {
        modes.apply(outcome.changes, now: now)
        switch outcome.result {
        case .failure(let error):
            status.show(error.description, isError: true, now: now)
        case .success(let ended) where !ended.succeeded && !ended.wasCancelled:
            let said = ended.standardErrorTail.split(separator: "\n").last.map { ": \($0)" } ?? ""
            status.show("key-handler \(outcome.combo.argument): \(ended.termination)\(said)", isError: true, now: now)
        case .success:
            break
        }
    }

    /// Whether nothing is due soon: the slideshow's next step wakes the loop on time, and information
    /// being read for the overlay (or for the single view's page count), or files read for the sort
    /// order, show when they come.
    func isIdle(now: Duration) -> Bool {
        if quitting.isWaiting { return false }
        if overlayLevel == .information || modes.mode == .detail, information.isReading { return false }
        if sorting.isBusy { return false }
        guard let due = slideshow.dueAt else { return true }
        return due - now > .milliseconds(500)
    }

    // MARK: Overlay

    func overlayContent(now: Duration, information: ImageInformationCache) -> OverlayContent {
        var content = OverlayContent(level: overlayLevel)
        content.status = status.current(now: now)
        if let quitting = quitting.statusText {
            content.activity = quitting
        } else if awaitsKeyHandlerKey {
            content.activity = "key-handler: press a key (Esc cancels)"
        } else if let running = keyHandler.running {
            content.activity = "running key-handler: \(running.combo.argument)"
        }
        guard let item = model.selectedItem else { return content }
        let index = model.selectedIndex
        content.name = item.displayName
        content.position = "\(index + 1) / \(model.items.count)"
        let markedCount = model.markedCount
        if model.isMarked(index) {
            content.tags.append(markedCount > 1 ? "marked (\(markedCount))" : "marked")
        } else if markedCount > 0 {
            content.tags.append("\(markedCount) marked")
        }
        if item.sessionOrientation != 1 { content.tags.append("turned, not saved") }
        if let rating = model.rating(of: index).flatMap(Rating.init(xmpValue:)), rating != .unrated {
            content.tags.append(rating == .rejected ? "rejected" : String(repeating: "★", count: rating.xmpValue))
        }
        if model.ratingFilter != .all { content.tags.append(model.ratingFilter.label) }
        // The single view's own decode says what it found; the strip's cell, what the strip's did.
        let damage = modes.mode != .strip ? modes.shownView?.damage ?? model.damage(of: index) : model.damage(of: index)
        if damage != nil { content.tags.append("damaged") }
        if let progress = sorting.progress {
            let share = "\(progress.done * 100 / max(1, progress.total)) %"
            content.tags.append(progress.readsRatingsForFilter ? "reading ratings \(share)" : "sorting by \(progress.order.label) \(share)")
        } else if model.sortOrder != .name || model.isReversed {
            content.tags.append("by \(model.sortOrder.label)" + (model.isReversed ? ", reversed" : ""))
        }
        if slideshow.isRunning { content.tags.append("slideshow \(Int(slideshow.delay.seconds.rounded())) s") }
        if modes.mode != .strip, let scale = modes.shownView?.pictureScale {
            content.tags.append("\(Int((scale * 100).rounded())) %")
        }
        if let compare = modes.compare {
            content.tags.append("compare \(compare.focused + 1) / \(compare.panes.count)" + (compare.isLocked ? ", locked" : ""))
        }
        // A file the strip found to hold several images (or, opened alone, one whose name says it may) has
        // the count read once the picture is sharp, so the read does not compete with the decode the user
        // waits for.
        if modes.mode == .detail, !item.isRemote, modes.detail?.isSharp == true, mayHoldSeveralImages(index),
           let count = pageCount(of: item), count > 1 {
            content.tags.append("page \(modes.detailPage + 1) / \(count)")
        }
        if overlayLevel == .information {
            content.information = informationLines(for: item, from: information)
            if let damage { content.information.append(("Damaged", damage)) }
            if let rating = model.rating(of: index).flatMap(Rating.init(xmpValue:)) {
                content.information.append(("Rating", rating == .unrated ? "none" : rating.description))
            }
            if let view = modes.shownView { content.information += inspectionLines(of: view, content: &content) }
        }
        return content
    }

    /// The single view's histogram (counted on a worker the first time it is asked for), its clipped
    /// shares and the pixel under the pointer.
    private func inspectionLines(of view: TiledImageView, content: inout OverlayContent) -> [(label: String, value: String)] {
        var lines: [(label: String, value: String)] = []
        view.requestHistogram()
        if let histogram = view.histogram {
            content.histogram = histogram
            let shares = histogram.clippedShares
            lines.append(("Clipped", String(format: "%.1f %% highlights, %.1f %% shadows", shares.highlights * 100, shares.shadows * 100)))
        }
        if let probe = view.probePixelUnderPointer() {
            let value = probe.value.map { "R \($0.r)  G \($0.g)  B \($0.b)" + ($0.a < 255 ? "  A \($0.a)" : "") } ?? "reading…"
            lines.append(("Pixel", "\(probe.x), \(probe.y): \(value)"))
        }
        return lines
    }

    private func informationLines(for item: CarouselItem, from information: ImageInformationCache) -> [(label: String, value: String)] {
        var path = item.path, version = item.version
        if item.isRemote {
            guard case .ready(let localPath, let downloaded)? = remote?.state(of: item.path) else {
                return [("File", item.displayName), ("Download", "not here yet")]
            }
            (path, version) = (localPath, downloaded)
        }
        switch information.information(path: path, version: version) {
        case .reading:
            return [("File", item.displayName), ("Information", "reading…")]
        case .failed(let reason):
            return [("File", item.displayName), ("Information", reason)]
        case .ready(let info):
            // The name the strip knows (a download's cached copy has a name of its own).
            return info.fields.map { $0.label == "File" ? ("File", item.displayName) : $0 }
        }
    }
}
