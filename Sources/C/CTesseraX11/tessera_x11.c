/* _ICC_PROFILE through SDL's window-manager info and Xlib (see tessera_x11.h). */

#include "tessera_x11.h"

#include <stdlib.h>
#include <string.h>

#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

int tessera_window_icc_profile(struct SDL_Window *window, uint8_t **data, size_t *size) {
    *data = NULL;
    *size = 0;
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(window, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    Display *display = info.info.x11.display;
    XWindowAttributes attributes;
    if (display == NULL || !XGetWindowAttributes(display, info.info.x11.window, &attributes)) return 0;

    /* Only if some program has made the atom: nobody set the property otherwise. */
    Atom atom = XInternAtom(display, "_ICC_PROFILE", True);
    if (atom == None) return 0;
    Atom type = None;
    int format = 0;
    unsigned long count = 0, remaining = 0;
    unsigned char *value = NULL;
    /* The length is in 32-bit units: ask for all of it at once. */
    int status = XGetWindowProperty(display, attributes.root, atom, 0, 0x7fffffff / 4, False, AnyPropertyType,
                                    &type, &format, &count, &remaining, &value);
    int found = 0;
    if (status == Success && value != NULL && format == 8 && count > 0) {
        *data = malloc(count);
        if (*data != NULL) {
            memcpy(*data, value, count);
            *size = count;
            found = 1;
        }
    }
    if (value != NULL) XFree(value);
    return found;
}
