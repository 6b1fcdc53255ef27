#ifndef TESSERA_X11_H
#define TESSERA_X11_H

/* The X display as it stands before SDL starts: its default screen's size and colour profile, the
 * _ICC_PROFILE property of its root window (the ICC Profiles in X Specification), which colord and KDE set.
 *
 * Why C: Xlib's names (Window, Display, Font, Bool...) would collide with Tessera's in Swift. Here they
 * stay behind one function. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens $DISPLAY on a connection of its own: the size of its default screen in *width and *height, and
 * the bytes of _ICC_PROFILE in *data (malloc'ed: release with free()) and *size when the property is set
 * and not empty (*data NULL otherwise). Returns 0, with nothing set, when the display cannot be opened.
 * Any thread. */
int tessera_x11_display_facts(uint8_t **data, size_t *size, int *width, int *height);

/* Gives an SDL window on X11 a background of the colour 0xRRGGBB, which the X server paints at once and
 * whenever part of the window is exposed, or with `on` 0 takes it away again (a resize then leaves the
 * drawn picture in place until the next frame, not a flash of the colour). `sdl_window` is an SDL_Window.
 * Returns 0, or -1 when the window is not an X11 one (Wayland shows nothing before the first frame).
 * Main thread. */
int tessera_x11_window_background(void *sdl_window, int on, uint32_t rgb);

#ifdef __cplusplus
}
#endif

#endif
