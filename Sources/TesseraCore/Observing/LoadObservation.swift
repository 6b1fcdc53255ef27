/// A load pipeline's observer and the view its loads are counted for: the strip's images or a zoomable
/// view's tiles, which the report keeps apart.
package struct LoadObservation: Sendable {
    package let observer: any RunObserver
    package let view: MeasuredView

    package init(_ observer: any RunObserver, view: MeasuredView) {
        self.observer = observer
        self.view = view
    }

    func callAsFunction(_ event: LoadEvent) { observer.load(event, in: view) }
}
