/* The X display's size and _ICC_PROFILE through Xlib (see tessera_x11.h). */

#include "tessera_x11.h"

#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>

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

/* A channel of 8 bits placed in a visual's mask: scaled to the mask's width and shifted to its place. */
static unsigned long tessera_x11_channel(uint32_t value8, unsigned long mask) {
    if (mask == 0) return 0;
    int shift = 0;
    while (!(mask & 1UL)) { mask >>= 1; shift++; }
    unsigned long scaled = (unsigned long)value8 * mask / 255UL;
    return scaled << shift;
}

int tessera_x11_window_background(void *sdl_window, int on, uint32_t rgb) {
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo((SDL_Window *)sdl_window, &info) || info.subsystem != SDL_SYSWM_X11) return -1;
    Display *display = info.info.x11.display;
    Window window = info.info.x11.window;
    if (on) {
        XWindowAttributes attributes;
        if (!XGetWindowAttributes(display, window, &attributes) || attributes.visual == NULL) return -1;
        Visual *visual = attributes.visual;
        unsigned long pixel = tessera_x11_channel((rgb >> 16) & 0xff, visual->red_mask)
                            | tessera_x11_channel((rgb >> 8) & 0xff, visual->green_mask)
                            | tessera_x11_channel(rgb & 0xff, visual->blue_mask);
        /* A visual of 32 bits keeps alpha in the bits no colour uses: opaque, or a compositor would show
         * what is behind the window through it. */
        if (attributes.depth == 32) pixel |= ~(visual->red_mask | visual->green_mask | visual->blue_mask) & 0xffffffffUL;
        XSetWindowBackground(display, window, pixel);
        XClearWindow(display, window);
    } else {
        XSetWindowBackgroundPixmap(display, window, None);
    }
    XFlush(display);
    return 0;
}
