/// Which view a measured event belongs to: the strip (its cells, its image pipeline) or a zoomable view
/// (its tiles, their pipelines).
package enum MeasuredView: Sendable, Hashable {
    case strip
    case tiled
}
