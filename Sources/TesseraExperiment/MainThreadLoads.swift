import TesseraCore

/// Listing 14.1's loads: decoded on the calling (main) thread when a cell still showing its placeholder
/// asks, so the frame that shows a new cell waits for its decode. Nothing is queued on the workers.
package struct MainThreadLoads: LoadStarting {
    /// A load that failed or found its cell gone leaves nothing in the pipeline to notice, so every frame
    /// looks at its visible cells again.
    package var asksEveryFrame: Bool { true }

    package init() {}

    package func start(_ key: ImageKey, for request: LoadRequest, cell: CarouselCell?,
                      in pipeline: ImagePipeline) -> Result<PixelBuffer, LoadFailure>? {
        guard let cell, case .placeholder = cell.content else { return nil }
        return pipeline.loadNow(key)
    }
}
