import TesseraCore

/// One image alone, fitted to the window (Enter or double-click in the strip; Esc goes back). While the
/// window-sized decode runs, the cell-sized image already in the cache is shown enlarged, then the sharp
/// one fades in over it: the book's resolution swap.
public final class DetailView {
    private let coordinator: LoadCoordinator
    private let renderer: Renderer
    private let assets: AssetCatalog
    private let text: TextCache
    private let fade: FadeTiming
    public private(set) var item: CarouselItem
    private var cellKey: ImageKey
    private var key: ImageKey
    private var sharp: (texture: Texture, size: PixelSize, shownAt: Duration)?
    private var preview: (texture: Texture, size: PixelSize)?
    private var failure: LoadFailure?

    public init(item: CarouselItem, cellKey: ImageKey, coordinator: LoadCoordinator, renderer: Renderer,
                assets: AssetCatalog, text: TextCache, fade: FadeTiming) {
        self.item = item
        self.cellKey = cellKey
        self.coordinator = coordinator
        self.renderer = renderer
        self.assets = assets
        self.text = text
        self.fade = fade
        key = ImageKey(path: item.path, size: renderer.outputSize)
        loadPreview()
    }

    /// Shows another item (Left/Right inside the detail view).
    public func show(_ item: CarouselItem, cellKey: ImageKey) {
        self.item = item
        self.cellKey = cellKey
        key = ImageKey(path: item.path, size: renderer.outputSize)
        sharp = nil
        failure = nil
        loadPreview()
    }

    private func loadPreview() {
        preview = nil
        if let pixels = coordinator.cache.peek(cellKey), let texture = try? renderer.makeTexture(from: pixels) {
            preview = (texture, pixels.size)
        }
    }

    /// Takes the finished decode if it is for this view, and asks for it otherwise.
    /// Completions for other keys are left in the cache for the strip.
    public func update(now: Duration, completions: [LoadCoordinator.Completion]) {
        if key.size != renderer.outputSize {
            key = ImageKey(path: item.path, size: renderer.outputSize)
            sharp = nil
        }
        for completion in completions where completion.key == key {
            if case .failure(let failure) = completion.result { self.failure = failure }
        }
        guard sharp == nil, failure == nil else { return }
        if let pixels = coordinator.cache.peek(key) {
            if let texture = try? renderer.makeTexture(from: pixels) {
                // A decode that finished while we watched fades in; one that was cached shows at once.
                let arrivedNow = completions.contains { $0.key == key }
                sharp = (texture, pixels.size, arrivedNow ? now : now - fade.duration)
            }
        } else if let failure = coordinator.failure(for: key) {
            self.failure = failure
        } else {
            coordinator.request(key, priority: 0)
            coordinator.retainOnly([key])
        }
    }

    public var isLoading: Bool { sharp == nil && failure == nil }

    public func render(now: Duration, scale: Double) {
        renderer.clear(RGBA(r: 0, g: 0, b: 0))
        let output = renderer.outputSize
        let sharpAlpha = sharp.map { fade.alpha(startedAt: $0.shownAt, now: now) } ?? 0
        if let preview, sharpAlpha < 1 {
            draw(preview.texture, size: preview.size, output: output, alpha: 1)
        }
        if let sharp {
            draw(sharp.texture, size: sharp.size, output: output, alpha: sharpAlpha)
        }
        if let failure {
            let side = Int(128 * scale)
            if let icon = assets.texture(named: "error") {
                renderer.draw(icon, destination: PixelRect(x: (output.width - side) / 2, y: output.height / 2 - side,
                                                           width: side, height: side))
            }
            if let label = text.texture("\(item.displayName): \(failure.shortText)", size: Int(18 * scale), color: Theme.errorText) {
                renderer.draw(label, destination: PixelRect(x: (output.width - label.width) / 2, y: output.height / 2 + Int(16 * scale),
                                                            width: label.width, height: label.height))
            }
        }
    }

    private func draw(_ texture: Texture, size: PixelSize, output: PixelSize, alpha: Double) {
        let fitted = size.aspectFit(in: output, allowUpscale: true)
        let destination = PixelRect(x: (output.width - fitted.width) / 2, y: (output.height - fitted.height) / 2,
                                    width: fitted.width, height: fitted.height)
        renderer.fill(destination, Theme.imageBackdrop.withAlpha(alpha))
        texture.setAlpha(alpha)
        renderer.draw(texture, destination: destination)
    }
}
