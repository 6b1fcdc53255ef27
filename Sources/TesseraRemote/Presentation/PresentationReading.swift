import TesseraFiles

/// An IIIF manifest or collection read on a thread of its own, so that the window opens while its
/// documents and thumbnails' `info.json`s are fetched (for up to `PresentationStrip.readingTimeLimit`);
/// the strip waits for it once the window shows. Nil read: what was named is no Presentation document
/// after all, and is shown as what it is.
package typealias PresentationReading = BackgroundResult<PresentationStrip?, PresentationStrip.Failure>
