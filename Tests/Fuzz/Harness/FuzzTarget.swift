import Foundation
import Logging
import TesseraCore
import TesseraImaging

/// The fuzz target: one input through what reads untrusted bytes, in the viewer or in a decode helper: the
/// format sniffer, the header readers (the libraries' and the Swift ones the viewer uses beside helpers),
/// the EXIF orientation reader, the information overlay's reader (header, EXIF tags, ICC profile), and
/// the loader with every decoder (the one the sniffer picks decodes, shrunk to a cell's size, with a small
/// pixel limit so a lying header is refused quickly).
///
/// Built by `make fuzz` with `-sanitize=fuzzer,address` and `-D FUZZING`: libFuzzer calls
/// `LLVMFuzzerTestOneInput`. Built plainly (as `swift build` does), it is a replayer: each file named on
/// the command line is run through the same function, which is how the suite decodes the regression files
/// in Tests/Fuzz/regressions.
enum FuzzTarget {
    static let loader = ImageLoader(decoders: ImageDecoders.standard(), pixelLimit: 4_000_000, byteLimit: 16 << 20)
    static let box = PixelSize(width: 96, height: 96)

    static func run(_ data: Data) {
        let format = ImageFormat.sniff(data)
        _ = ImageHeader.read(data)
        _ = ImageHeader.read(data, isWholeFile: false, readers: .memorySafe)
        if format != .unknown {
            _ = ExifReader.orientation(in: data, format: format)
            _ = ImageInformation(path: "fuzz input", bytes: data)
        }
        _ = try? loader.load(data: data, name: "fuzz input", fitting: box)
    }

    /// Loader warnings are the expected outcome for most inputs: not worth a line each.
    static let silenced: Bool = {
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        return true
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    _ = FuzzTarget.silenced
    FuzzTarget.run(Data(bytes: bytes, count: count))
    return 0
}

#if !FUZZING
@main
struct Replay {
    static func main() {
        _ = FuzzTarget.silenced
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("tessera-fuzz: cannot read \(path)\n".utf8))
                exit(2)
            }
            FuzzTarget.run(data)
            count += 1
        }
        print("replayed \(count) input(s)")
    }
}
#endif
