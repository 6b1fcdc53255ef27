#ifndef TESSERA_X11_H
#define TESSERA_X11_H

/* The display's colour profile as X11 publishes it: the _ICC_PROFILE property of the root window of the
 * window's screen (the ICC Profiles in X Specification), which colord and KDE set.
 *
 * Why C: SDL hands out the window's X11 Display and Window through SDL_SysWMinfo, whose header pulls in
 * Xlib, whose names (Window, Display, Font, Bool...) would collide with Tessera's in Swift. Here they stay
 * behind one function that takes an SDL_Window. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct SDL_Window;

/* The bytes of _ICC_PROFILE for `window`'s screen: returns 1 with *data (malloc'ed: release with free())
 * and *size when the property is set and not empty, 0 when it is not, or the window is not an X11 one
 * (Wayland, SDL's dummy driver). Call on the thread that owns SDL. */
int tessera_window_icc_profile(struct SDL_Window *window, uint8_t **data, size_t *size);

#ifdef __cplusplus
}
#endif

#endif
