import TesseraCore
import TesseraSDL

/// Two to four images side by side, each a zoomable view of its own in a pane of the window, drawn through
/// the same tiled pipeline as the single view: what a photographer compares a burst with. One pane has the
/// focus (keys and the selection go to it, a click gives it); while the panes are locked, the others show
/// the same part of their pictures as the focused one, zoomed and panned with it. Main thread only.
final class ComparePanes {
    /// One pane: the item it shows and its view.
    struct Pane {
        var item: CarouselItem
        var view: TiledImageView
    }

    /// The most panes the window is split into.
    static let maximum = 4

    private(set) var panes: [Pane]
    private(set) var focused = 0
    /// Zoom and pan follow the focused pane.
    var isLocked = true
    /// Where each pane lies in the window, in device pixels, as last laid out.
    private(set) var rects: [PixelRect] = []
    /// The pane a drag began in keeps the pointer until the button is let go.
    private var dragging: Int?
    private var pixelScale = 1.0

    init(_ panes: [Pane]) {
        precondition(!panes.isEmpty)
        self.panes = panes
    }

    var focusedPane: Pane { panes[focused] }

    func focus(_ index: Int) {
        guard panes.indices.contains(index) else { return }
        focused = index
    }

    func focusNext() { focus((focused + 1) % panes.count) }

    /// Shows `pane` in the focused pane instead of what it showed.
    func replaceFocused(with pane: Pane, now: Duration) {
        let framing = panes[focused].view.framing
        panes[focused] = pane
        layOut(output: nil)
        if isLocked, let framing { pane.view.follow(framing, now: now) }
    }

    /// Removes the panes whose items `keep` refuses (gone from the strip); the focus stays on its pane
    /// when it remains.
    func removePanes(where shouldRemove: (Pane) -> Bool) {
        let focusedItem = panes[focused].item
        panes.removeAll(where: shouldRemove)
        focused = panes.firstIndex { $0.item == focusedItem } ?? 0
        // A drag under way, and the places of the panes, were those of the panes before.
        dragging = nil
        layOut(output: nil)
    }

    func replacePane(at index: Int, with pane: Pane) {
        guard panes.indices.contains(index) else { return }
        panes[index] = pane
        layOut(output: nil)
    }

    // MARK: Layout

    /// The panes' rectangles for an output of `size` device pixels: side by side for two or three, two
    /// by two for four, a thin gap between them.
    static func layout(count: Int, in size: PixelSize, gap: Int) -> [PixelRect] {
        guard count > 0 else { return [] }
        let columns = count == 4 ? 2 : count, rows = count == 4 ? 2 : 1
        let width = (size.width - gap * (columns - 1)) / columns
        let height = (size.height - gap * (rows - 1)) / rows
        return (0..<count).map { index in
            let column = index % columns, row = index / columns
            return PixelRect(x: column * (width + gap), y: row * (height + gap), width: max(1, width), height: max(1, height))
        }
    }

    private var outputSize = PixelSize(width: 1, height: 1)

    /// The lines between panes, in device pixels.
    static func gap(pixelScale: Double) -> Int { max(1, Int((2 * pixelScale).rounded())) }

    private func layOut(output: PixelSize?) {
        if let output { outputSize = output }
        rects = Self.layout(count: panes.count, in: outputSize, gap: Self.gap(pixelScale: pixelScale))
        for (pane, rect) in zip(panes, rects) { pane.view.pane = rect }
    }

    // MARK: Frame

    func update(output: PixelSize, pixelScale: Double, now: Duration) {
        self.pixelScale = pixelScale
        layOut(output: output)
        for pane in panes { pane.view.pixelScale = pixelScale }
        panes[focused].view.update(now: now)
        if isLocked, let framing = panes[focused].view.framing {
            for (index, pane) in panes.enumerated() where index != focused { pane.view.follow(framing, now: now) }
        }
        for (index, pane) in panes.enumerated() where index != focused { pane.view.update(now: now) }
    }

    /// Draws each pane with its image's name and rating (`rating`: -1 rejected, 0 none, 1 to 5 stars) in
    /// its bottom-right corner, above the overlay's name bar where the pane meets the window's bottom (the
    /// overlay's panels take the top corners, its lines the bottom left), then a frame around the focused one.
    func render(renderer: Renderer, text: TextCache, rating: (CarouselItem) -> Int?, now: Duration) {
        renderer.clear(Theme.compareGap)
        for pane in panes { pane.view.render(now: now) }
        let size = max(8, Int(14 * pixelScale)), padding = Int(5 * pixelScale), inset = Int(8 * pixelScale)
        let bar = Int(CarouselConfiguration.nameBarHeight * pixelScale)
        for (pane, rect) in zip(panes, rects) {
            // The name, then the stars (or the rejected cross) that the panes are compared for.
            let stars = rating(pane.item).flatMap(RatingMark.of)
            guard let label = text.texture(pane.view.name, size: size, color: Theme.text) else { continue }
            let mark = stars.flatMap { text.texture($0.text, size: size, color: $0.colour) }
            let gap = mark == nil ? 0 : padding * 2
            let room = rect.width - 2 * inset - 2 * padding
            let width = min(label.width, room - gap - (mark?.width ?? 0))
            guard width > 0 else { continue }
            let bottom = rect.maxY - inset - (rect.maxY >= outputSize.height - 1 ? bar : 0)
            let backingWidth = width + gap + (mark?.width ?? 0) + 2 * padding
            let backing = PixelRect(x: rect.maxX - inset - backingWidth, y: bottom - label.height - 2 * padding,
                                    width: backingWidth, height: label.height + 2 * padding)
            renderer.fill(backing, Theme.overlayBar)
            text.draw(pane.view.name, x: backing.x + padding, y: backing.y + padding, size: size, color: Theme.text, maxWidth: width)
            if let stars, mark != nil {
                text.draw(stars.text, x: backing.x + padding + width + gap, y: backing.y + padding, size: size, color: stars.colour)
            }
        }
        guard panes.count > 1, rects.indices.contains(focused) else { return }
        renderer.outline(rects[focused], Theme.compareFocus, thickness: max(1, Int((2 * pixelScale).rounded())))
    }

    func isStill(now: Duration) -> Bool { panes.allSatisfy { $0.view.isStill(now: now) } }
    func isIdle(now: Duration) -> Bool { panes.allSatisfy { $0.view.isIdle(now: now) } }
    func nextWake(now: Duration) -> Duration? { panes.compactMap { $0.view.nextWake(now: now) }.min() }
    /// Every pane shows its picture sharp (or its error).
    var isSharp: Bool { panes.allSatisfy { $0.view.isSharp || $0.view.errorText != nil } }

    // MARK: Input

    /// The mouse and the wheel: a press focuses the pane under it; each event goes to the pane it is
    /// over (a drag to the pane it began in), in that pane's coordinates.
    func handle(_ event: InputEvent, now: Duration) -> TiledViewAction? {
        func paneIndex(x: Double, y: Double) -> Int? {
            let px = Int(x * pixelScale), py = Int(y * pixelScale)
            return rects.indices.first { index in
                let rect = rects[index]
                return panes.indices.contains(index) && px >= rect.x && px < rect.maxX && py >= rect.y && py < rect.maxY
            }
        }
        func local(_ index: Int, _ x: Double, _ y: Double) -> (Double, Double) {
            (x - Double(rects[index].x) / pixelScale, y - Double(rects[index].y) / pixelScale)
        }
        switch event {
        case .mouseDown(let button, let x, let y, let clicks):
            guard let index = paneIndex(x: x, y: y) else { return nil }
            focused = index
            if button == .left { dragging = index }
            let (lx, ly) = local(index, x, y)
            return panes[index].view.handle(.mouseDown(button, x: lx, y: ly, clicks: clicks), now: now)
        case .mouseUp(let button, let x, let y):
            let index = dragging ?? paneIndex(x: x, y: y) ?? focused
            guard panes.indices.contains(index), rects.indices.contains(index) else { return nil }
            if button == .left { dragging = nil }
            let (lx, ly) = local(index, x, y)
            return panes[index].view.handle(.mouseUp(button, x: lx, y: ly), now: now)
        case .mouseMotion(let x, let y, let isLeftDown):
            guard let index = dragging ?? paneIndex(x: x, y: y), panes.indices.contains(index), rects.indices.contains(index) else {
                return nil
            }
            let (lx, ly) = local(index, x, y)
            return panes[index].view.handle(.mouseMotion(x: lx, y: ly, isLeftDown: isLeftDown), now: now)
        case .wheel(let dx, let dy, let x, let y):
            guard let index = paneIndex(x: x, y: y) else { return nil }
            focused = index
            let (lx, ly) = local(index, x, y)
            return panes[index].view.handle(.wheel(dx: dx, dy: dy, x: lx, y: ly), now: now)
        default:
            return nil
        }
    }

    /// A key's action for the focused pane's view.
    func perform(_ action: ViewerAction, now: Duration) -> TiledViewAction? {
        panes[focused].view.perform(action, now: now)
    }
}
