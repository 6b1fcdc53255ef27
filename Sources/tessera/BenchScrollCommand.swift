import ArgumentParser
import Foundation
import TesseraBench
import TesseraExperiment

/// `tessera bench scroll`: every loading strategy over the same scripted inputs (`ScrollBench`).
struct BenchScroll: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll",
        abstract: "Compare the loading strategies over scripted scrolling (headless).",
        discussion: "Inputs: \(ScrollInput.all.map(\.name).joined(separator: ", ")). See docs/EXPERIMENT.md.")

    @Argument(help: "Image files and folders.")
    var paths: [String]
    @Option(help: "Strategies to run: all, or a comma-separated list.")
    var strategy = "all"
    @Option(help: "Inputs to run: all, or a comma-separated list.")
    var input = "all"
    @Option(help: "Decoded-image cache limit in MB.")
    var cacheMb = 256
    @Flag(help: "Print JSON instead of a table.")
    var json = false
    @Option(help: "Draw frame time over time for each strategy as SVG.")
    var plot: String?
    @Option(help: "Fade-in time of an arriving image, in seconds, as in browse; 0 turns fading off.")
    var fade = Seconds(0.25)
    @Option(help: "Runs of every strategy and input; each figure is then the median over the runs (--json adds each run's p99 and the p99 of all their frames together).")
    var runs = 1

    func run() throws {
        let strategies = strategy == "all" ? LoadingStrategies.names : strategy.split(separator: ",").map(String.init)
        for name in strategies where !LoadingStrategies.names.contains(name) {
            throw fail("unknown strategy \(name); choose from \(LoadingStrategies.names.joined(separator: ", "))")
        }
        guard (1...99).contains(runs) else { throw fail("--runs must be between 1 and 99") }
        guard FadeOption.isValid(fade) else { throw fail(FadeOption.outOfRange) }
        let inputs = input == "all" ? ScrollInput.all : try input.split(separator: ",").map { name in
            guard let found = ScrollInput.named(String(name)) else {
                throw fail("unknown input \(name); choose from \(ScrollInput.all.map(\.name).joined(separator: ", "))")
            }
            return found
        }
        // The viewer runs measured are this very binary's.
        let bench = ScrollBench(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(), paths: paths,
                                strategies: strategies, inputs: inputs, cacheMB: cacheMb, fadeSeconds: fade.value, runs: runs)
        let result: ScrollBenchResult
        do {
            result = try bench.run { line in
                if !json { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
        } catch {
            throw fail("\(error)")
        }
        print(json ? try result.json() : result.text)
        if let plot { try result.plot.write(toFile: plot, atomically: true, encoding: .utf8) }
    }
}
