import Foundation

/// The binary decode helpers run: this one (its `decode-helper` subcommand), as the kernel knows it, so a
/// relative or PATH-found invocation starts the same file.
enum DecodeHelperExecutable {
    static var path: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}
