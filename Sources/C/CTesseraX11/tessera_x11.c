/* The X display's size and _ICC_PROFILE through Xlib (see tessera_x11.h). */

#include "tessera_x11.h"

#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>

/* _ICC_PROFILE of `root` on `display`: 1 with *data (malloc'ed) and *size when set and not empty. */
static int root_icc_profile(Display *display, Window root, uint8_t **data, size_t *size) {
    /* Only if some program has made the atom: nobody set the property otherwise. */
    Atom atom = XInternAtom(display, "_ICC_PROFILE", True);
    if (atom == None) return 0;
    Atom type = None;
    int format = 0;
    unsigned long count = 0, remaining = 0;
    unsigned char *value = NULL;
    /* The length is in 32-bit units: ask for all of it at once. */
    int status = XGetWindowProperty(display, root, atom, 0, 0x7fffffff / 4, False, AnyPropertyType,
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

int tessera_x11_display_facts(uint8_t **data, size_t *size, int *width, int *height) {
    *data = NULL;
    *size = 0;
    *width = 0;
    *height = 0;
    Display *display = XOpenDisplay(NULL);
    if (display == NULL) return 0;
    int screen = DefaultScreen(display);
    *width = DisplayWidth(display, screen);
    *height = DisplayHeight(display, screen);
    root_icc_profile(display, RootWindow(display, screen), data, size);
    XCloseDisplay(display);
    return 1;
}
