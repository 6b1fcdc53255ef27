import Logging
import TesseraSDL

extension Window {
    /// Enters or leaves fullscreen (the `--fullscreen` option, the f key). When the window manager refuses,
    /// the window stays as it is and the log says why: nothing else depends on it.
    func switchFullscreen(_ on: Bool) {
        do {
            try setFullscreen(on)
        } catch {
            Logger(label: "tessera.viewer").warning("cannot \(on ? "enter" : "leave") fullscreen: \(error)")
        }
    }
}
