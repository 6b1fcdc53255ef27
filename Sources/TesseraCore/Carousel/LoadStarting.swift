/// Starts the loads a strategy asks for, one request at a time. The carousel's own (`QueuedLoads`) queues
/// each on the pipeline's workers; a strategy may load in place instead (the experiment's main-thread
/// decodes), so the driver calls one starter and never asks where decodes run.
package protocol LoadStarting {
    /// Whether every frame asks again for its requests. A starter whose loads end only in the pipeline's
    /// deliveries says false: a frame that asks for exactly what the last one did, with nothing changed in
    /// the pipeline, would start nothing, and the driver skips it.
    var asksEveryFrame: Bool { get }
    /// Starts loading `key` for `request`; `cell` shows the request's item, when a cell does. Returns what
    /// that cell shows at once (without a fade), or nil when the image comes later as a delivery.
    func start(_ key: ImageKey, for request: LoadRequest, cell: CarouselCell?,
               in pipeline: ImagePipeline) -> Result<PixelBuffer, LoadFailure>?
}

/// Queues every load on the pipeline's workers, at the request's priority; results come as deliveries.
package struct QueuedLoads: LoadStarting {
    package var asksEveryFrame: Bool { false }

    package init() {}

    package func start(_ key: ImageKey, for request: LoadRequest, cell: CarouselCell?,
                      in pipeline: ImagePipeline) -> Result<PixelBuffer, LoadFailure>? {
        pipeline.request(key, priority: request.priority)
        return nil
    }
}
