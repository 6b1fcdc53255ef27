import TesseraCore

/// What the book's strategies share beyond `LoadingStrategy`: uploads keep to the view's byte budget per
/// frame, whatever the frame has cost so far, as UIKit's main thread did.
package protocol BookStrategy: LoadingStrategy {}

extension BookStrategy {
    package var uploadPacing: any UploadPacing { ViewBudgetPacing() }
}
