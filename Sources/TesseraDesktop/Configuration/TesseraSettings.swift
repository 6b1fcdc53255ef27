import TesseraCore
import TesseraExperiment

/// The options of `browse` and `view` that a configuration file gives defaults for. Their ranges are the
/// commands' own (each command's `validate()`); a test runs the binary at both ends of every range and
/// with every choice, so the file never accepts what the command line refuses.
package enum TesseraSettings {
    package static let all: [Setting] = [
        Setting("rows", .wholeNumber(1...32), in: [.browse]),
        Setting("cell", .size(1...16384), in: [.browse]),
        Setting("cache-mb", .wholeNumber(1...1_048_576), in: [.browse, .view]),
        Setting("cache-count", .wholeNumber(0...Int.max), in: [.browse]),
        Setting("fade", .number(0...10, unit: "seconds"), in: [.browse, .view]),
        Setting("preload-ahead", .wholeNumber(0...Int.max), in: [.browse]),
        Setting("preload-behind", .wholeNumber(0...Int.max), in: [.browse]),
        Setting("workers", .wholeNumber(1...64), in: [.browse, .view]),
        Setting("decode-memory-mb", .wholeNumber(1...1_048_576), in: [.browse, .view]),
        Setting("strategy", .choice(LoadingStrategies.names), in: [.browse]),
        Setting("pixel-limit-mp", .wholeNumber(1...100_000), in: [.browse, .view]),
        Setting("recursive", .flag, in: [.browse]),
        Setting("sort", .choice(StripOrder.allCases.map(\.rawValue)), in: [.browse]),
        Setting("reverse", .flag, in: [.browse]),
        Setting("min-rating", .wholeNumber(0...5), in: [.browse]),
        Setting("watch", .flag, in: [.browse]),
        Setting("thumbnail-cache", .flag, in: [.browse]),
        Setting("slideshow-delay", .number(0.1...86_400, unit: "seconds"), in: [.browse]),
        Setting("downloads-per-host", .wholeNumber(1...32), in: [.browse]),
        Setting("download-timeout", .number(0.1...600, unit: "seconds"), in: [.browse]),
        Setting("download-limit-mb", .wholeNumber(1...4096), in: [.browse]),
        Setting("window", .size(1...16384), in: [.browse, .view]),
        Setting("fullscreen", .flag, in: [.browse, .view]),
        Setting("pixel-scale", .number(0.5...4, unit: nil), in: [.browse, .view]),
        Setting("colour-management", .flag, in: [.browse, .view]),
        Setting("decode-time-limit", .number(0.1...3600, unit: "seconds"), in: [.browse, .view]),
        Setting("disk-cache-mb", .wholeNumber(1...1_048_576), in: [.browse, .view]),
    ]

    /// `[keys]`: a key as bindings spell it (`KeyCombo(parsing:)`), bound to a `ViewerAction`'s name, in
    /// both views or in one (`[keys.strip]`, `[keys.single]`).
    package static let keys = KeyBindingRules(
        actions: ViewerAction.allCases.map(\.rawValue), views: KeyBindings.View.allCases.map(\.rawValue),
        checkKey: { text in
            do throws(KeyComboError) {
                _ = try KeyCombo(parsing: text)
                return nil
            } catch {
                return error.description
            }
        })

    package static var schema: ConfigurationSchema { ConfigurationSchema(settings: all, keys: keys) }
}

extension ConfigurationFile {
    /// `bindings` with this file's `[keys]` applied: bindings for both views first, then each view's.
    package func applyingKeyBindings(to bindings: KeyBindings) -> KeyBindings {
        var bindings = bindings
        for setting in keyBindings {
            // The file was checked against `TesseraSettings.keys`, so every key and action here reads.
            guard let combo = try? KeyCombo(parsing: setting.key) else { continue }
            let action = setting.action.map(ViewerAction.init(rawValue:))
            if action == .some(nil) { continue }
            let scope = setting.view.flatMap(KeyBindings.Scope.init(rawValue:)) ?? .both
            bindings.bind(combo, to: action ?? nil, in: scope)
        }
        return bindings
    }
}
