import Foundation
import Synchronization
import TesseraCore
import TesseraFiles

/// An SVG's tiles drawn by librsvg here, on the view's workers, several at once. A parsed document is for
/// one thread at a time, so each draw borrows one from a pool (parsing another when all are lent) and gives
/// it back.
final class InProcessSVGDrawing: SVGTileDrawing {
    /// A document no thread is using: one is taken out of the pool whole, used by the thread that took it
    /// alone, and put back, so librsvg's handle moves between threads but is never used by two.
    private struct Parked: @unchecked Sendable {
        let document: SVGDocument
    }

    let size: PixelSize
    private let bytes: Data
    private let idle = Mutex<[Parked]>([])

    /// Reads and parses `file`.
    init(_ file: ImageFile) throws(ImageLoadError.Reason) {
        do { bytes = try file.readAll() } catch { throw ImageLoadError.Reason(error) }
        let first = try Self.parse(bytes)
        size = first.size
        idle.withLock { $0.append(Parked(document: first)) }
    }

    func draw(_ region: PixelRegion, ofDrawing drawing: (width: Double, height: Double)) throws(ImageLoadError.Reason) -> PixelBuffer {
        try borrow { document throws(ImageLoadError.Reason) in try document.render(region, ofDrawing: drawing) }
    }

    private static func parse(_ bytes: Data) throws(ImageLoadError.Reason) -> SVGDocument {
        do {
            return try bytes.withUnsafeBytes { raw in try SVGDocument(raw) }
        } catch let reason as ImageLoadError.Reason {
            throw reason
        } catch {
            throw .decodeFailed(String(describing: error))
        }
    }

    /// Runs `body` with a document no other thread has meanwhile.
    private func borrow<Result>(_ body: (SVGDocument) throws(ImageLoadError.Reason) -> Result) throws(ImageLoadError.Reason) -> Result {
        let document: SVGDocument
        if let parked = idle.withLock({ $0.popLast() }) {
            document = parked.document
        } else {
            document = try Self.parse(bytes)
        }
        defer {
            let parked = Parked(document: document)
            idle.withLock { $0.append(parked) }
        }
        return try body(document)
    }
}
