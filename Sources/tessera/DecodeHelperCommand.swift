import ArgumentParser
import Foundation
import Logging
import TesseraImaging
import TesseraSandbox
import TesseraUI

/// `tessera decode-helper`, hidden: a sandboxed decode helper the viewer starts (see `DecodeHelperPool`),
/// serving requests on descriptor 3 until the viewer closes it; with `--slide`, a whole-slide image's own
/// helper (see `SlideHelper`). Not for people.
struct DecodeHelperCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-helper",
        abstract: "Decode images for the viewer in a locked-down process (started by the viewer).",
        shouldDisplay: false)

    @Option(help: "Address space allowed on top of the warmed-up helper's, in bytes; 0: no limit.")
    var memoryLimit = 0

    @Option(help: "Serve this whole-slide image alone, opened by path under the lock-down.")
    var slide: String?

    @Flag(help: "With --slide: read a generic tiled TIFF as a slide too.")
    var acceptGenericTiff = false

    @Option(help: "Warm up only these formats (comma-separated), and leave files of the others unread.")
    var warmUp: String?

    func run() throws {
        let level = ProcessInfo.processInfo.environment["TESSERA_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var formats: Set<ImageFormat>?
        if let warmUp {
            formats = []
            for name in warmUp.split(separator: ",") {
                guard let format = ImageFormat(rawValue: String(name)) else { throw ValidationError("--warm-up: no format \(name)") }
                formats?.insert(format)
            }
        }
        let status = Self.serve(memoryLimit: memoryLimit, warmingUp: formats, slide: slide, acceptGenericTIFF: acceptGenericTiff)
        if status != 0 { throw ExitCode(status) }
    }

    /// The helper's service on descriptor 3, in this process: what `decode-helper` runs, and what a helper
    /// forked from the viewer runs (never a slide's). Returns the exit status.
    static func serve(memoryLimit: Int, turn: WarmUpTurn = .now, warmingUp formats: Set<ImageFormat>? = nil,
                      slide: String? = nil, acceptGenericTIFF: Bool = false) -> Int32 {
        var decoders = ImageDecoders.viewer
        var rowsHook: DecodeHelperService.RowsHook?
        var regionHook: DecodeHelperService.RegionHook?
        var readFacts: DecodeHelperService.FactsReader = ImageFacts.read
        #if DEBUG
        if ProcessInfo.processInfo.environment[MisbehavingDecoder.environmentKey] == "1" {
            decoders = decoders.map { MisbehavingDecoder(wrapping: $0) }
            rowsHook = MisbehavingDecoder.beforeRows
            regionHook = MisbehavingDecoder.beforeRegion
            readFacts = MisbehavingDecoder.readFacts
        }
        #endif
        if let slide {
            return SlideHelperService.run(socket: 3, path: slide, acceptGenericTIFF: acceptGenericTIFF,
                                          decoders: decoders, memoryLimit: memoryLimit, regionHook: regionHook)
        }
        return DecodeHelperService.run(socket: 3, decoders: decoders, memoryLimit: memoryLimit, turn: turn,
                                       warmingUp: formats, rowsHook: rowsHook, regionHook: regionHook, readFacts: readFacts)
    }
}
