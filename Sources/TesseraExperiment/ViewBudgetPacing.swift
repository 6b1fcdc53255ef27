import TesseraCore

/// Uploads keep to the view's own byte budget per frame, whatever the frame has cost so far.
package struct ViewBudgetPacing: UploadPacing, Equatable {
    package init() {}

    package func budget(frameElapsedMs: Double, bytesPerMs: Double, viewBudgetBytes: Int) -> Int { viewBudgetBytes }
}
