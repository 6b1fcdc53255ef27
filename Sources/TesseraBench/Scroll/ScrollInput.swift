/// One scripted input of `ScrollBench` (an input script the viewer replays), in window points of a
/// 1280x720 window.
package struct ScrollInput: Sendable {
    package let name: String
    package let script: String

    /// The input called `name`, nil for an unknown name.
    package static func named(_ name: String) -> ScrollInput? { all.first { $0.name == name } }

    package static let all = [
        ScrollInput(name: "slow-drag", script: """
            wait 0.3
            drag 1000 360 400 360 1.5
            wait-scroll
            drag 1000 360 400 360 1.5
            wait-scroll
            drag 1000 360 400 360 1.5
            wait-scroll
            wait-idle
            """),
        ScrollInput(name: "fast-fling", script: """
            wait 0.3
            drag 1100 360 200 360 0.06
            wait-scroll
            drag 1100 360 200 360 0.06
            wait-scroll
            drag 1100 360 200 360 0.06
            wait-scroll
            wait-idle
            """),
        ScrollInput(name: "back-and-forth", script: """
            wait 0.3
            """ + String(repeating: """

            drag 1100 360 300 360 0.25
            wait-scroll
            drag 300 360 1100 360 0.25
            wait-scroll
            """, count: 4) + "\nwait-idle\n"),
        // Three round trips, as the other inputs repeat theirs: one trip is too few frames for a p99
        // that is more than its single worst frame.
        ScrollInput(name: "jump", script: "wait 0.3" + String(repeating: """

            key end
            wait-scroll
            wait 0.5
            key home
            wait-scroll
            wait 0.5
            """, count: 3) + "\nwait-idle\n"),
    ]
}
