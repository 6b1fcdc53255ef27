import TesseraCore

/// Every strategy by the name `--strategy`, the configuration file and the scroll bench know it by: the
/// book's seven and our adaptive one.
package enum LoadingStrategies {
    package static let names = ["sync", "async", "predraw", "tiled", "cache", "lazy", "swap", "adaptive"]

    /// The strategy called `name`, nil for an unknown name. `decodeWorkers` is the strip's scheduler's
    /// worker count, for strategies that plan decodes over the workers.
    package static func make(_ name: String, preload: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1),
                            decodeWorkers: Int) -> LoadingStrategy? {
        switch name {
        case "sync": return SyncStrategy()
        case "async": return AsyncStrategy()
        case "predraw": return PredrawStrategy()
        case "tiled": return TiledStrategy()
        case "cache": return CacheStrategy(preload: preload)
        case "lazy": return LazyStrategy()
        case "swap": return SwapStrategy(preload: preload)
        case "adaptive": return AdaptiveStrategy(base: preload, decodeWorkers: decodeWorkers)
        default: return nil
        }
    }
}
