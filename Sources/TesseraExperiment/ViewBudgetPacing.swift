import TesseraCore

/// Uploads keep to the view's own byte budget per frame, whatever the frame has cost so far.
public struct ViewBudgetPacing: UploadPacing, Equatable {
    public init() {}

    public func budget(frameElapsedMs: Double, bytesPerMs: Double, viewBudgetBytes: Int) -> Int { viewBudgetBytes }
}
