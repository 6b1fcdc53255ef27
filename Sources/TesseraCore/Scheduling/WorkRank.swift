/// How urgent a lane's work is to the user, the first thing a `WorkExecutor` orders jobs by (a job's own
/// priority comes second, within its rank). Texture's ranges named by distance from the screen: the
/// view holding a lane moves it between ranks as what it shows comes on or goes off screen.
package enum WorkRank: Int, Sendable, Comparable, CaseIterable {
    /// Work the user asked for and waits on, short and one at a time: the information overlay, the file
    /// actions. It goes before a screenful of decodes, as a key press answers before the picture sharpens.
    case interactive
    /// What is on screen now: the strip's cells and the facts its order is read from, the image shown
    /// alone (its opening and its tiles).
    case visible
    /// Work for what comes next, nobody looking at it yet: the slideshow's next image.
    case preload

    package static func < (lhs: WorkRank, rhs: WorkRank) -> Bool { lhs.rawValue < rhs.rawValue }
}
