/// Which of SDL's video drivers Tessera asks for, read from the environment alone.
///
/// SDL 2 tries X11 before Wayland, so on a Wayland desktop it would draw through XWayland at one scale,
/// blurred on a HiDPI output. Tessera asks for Wayland where a Wayland display is named, with X11 after
/// it in SDL's list so that a failed Wayland start still gets a window.
package enum VideoDriverChoice {
    /// SDL_HINT_VIDEODRIVER's value: `dummy` for a headless run, `wayland,x11` under Wayland. Nil leaves
    /// SDL's own order (X11 first), and always when `SDL_VIDEODRIVER` is set: the user's choice stands.
    package static func hint(headless: Bool, environment: [String: String]) -> String? {
        if let forced = environment["SDL_VIDEODRIVER"], !forced.isEmpty { return nil }
        if headless { return "dummy" }
        if let display = environment["WAYLAND_DISPLAY"], !display.isEmpty { return "wayland,x11" }
        return nil
    }

    /// Whether SDL will draw through X11: no Wayland display named (or X11 forced), not headless, and an X
    /// display named. What X11 says of the display can then be read before SDL starts.
    package static func usesX11(headless: Bool, environment: [String: String]) -> Bool {
        if headless { return false }
        if let forced = environment["SDL_VIDEODRIVER"], !forced.isEmpty { return forced == "x11" && environment["DISPLAY"] != nil }
        if let display = environment["WAYLAND_DISPLAY"], !display.isEmpty { return false }
        return !(environment["DISPLAY"] ?? "").isEmpty
    }
}
