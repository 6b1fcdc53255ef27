import TesseraCore

extension CachePolicy {
    /// Nothing is kept: a cell that comes back decodes again (listings 14.1 to 14.4).
    package static let none = CachePolicy(keepsImages: false, evictsFarthestFromCentre: false)
    /// The cost cache, least recently used out first (listing 14.5, LazyTableImages).
    package static let leastRecentlyUsed = CachePolicy(keepsImages: true, evictsFarthestFromCentre: false)
}
