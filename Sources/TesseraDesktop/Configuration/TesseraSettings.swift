import TesseraCore

/// The options of `browse` and `view` that a configuration file gives defaults for. Their ranges are the
/// commands' own (each command's `validate()`); a test runs the binary at both ends of every range and
/// with every choice, so the file never accepts what the command line refuses.
public enum TesseraSettings {
    public static let all: [Setting] = [
        Setting("rows", .wholeNumber(1...32), in: [.browse]),
        Setting("cell", .size(1...16384), in: [.browse]),
        Setting("cache-mb", .wholeNumber(1...Int.max), in: [.browse, .view]),
        Setting("cache-count", .wholeNumber(0...Int.max), in: [.browse]),
        Setting("fade", .number(0...10, unit: "seconds"), in: [.browse, .view]),
        Setting("preload-ahead", .wholeNumber(0...Int.max), in: [.browse]),
        Setting("preload-behind", .wholeNumber(0...Int.max), in: [.browse]),
        Setting("workers", .wholeNumber(1...64), in: [.browse, .view]),
        Setting("strategy", .choice(LoadingStrategies.names), in: [.browse]),
        Setting("pixel-limit-mp", .wholeNumber(1...Int.max), in: [.browse, .view]),
        Setting("recursive", .flag, in: [.browse]),
        Setting("watch", .flag, in: [.browse]),
        Setting("thumbnail-cache", .flag, in: [.browse]),
        Setting("downloads-per-host", .wholeNumber(1...32), in: [.browse]),
        Setting("download-timeout", .number(0.1...600, unit: "seconds"), in: [.browse]),
        Setting("download-limit-mb", .wholeNumber(1...4096), in: [.browse]),
        Setting("window", .size(1...16384), in: [.browse, .view]),
        Setting("fullscreen", .flag, in: [.browse, .view]),
        Setting("pixel-scale", .number(0.5...4, unit: nil), in: [.browse, .view]),
    ]

    public static var schema: ConfigurationSchema { ConfigurationSchema(settings: all) }
}
