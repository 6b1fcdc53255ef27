#ifndef TESSERA_X11_CLIPBOARD_H
#define TESSERA_X11_CLIPBOARD_H

/* An owner of the X11 CLIPBOARD selection that offers a picture: its PNG bytes as image/png, its file as
 * text/uri-list and, for programs that paste only text, the same URIs as plain text (what Eye of GNOME
 * offers beside its image, and what Tessera's `Y` puts on the clipboard).
 *
 * SDL 2 has no image clipboard and owns the main thread and its own X connection, so the owner has both of
 * its own: a second connection to the same display, served by a background thread with an unmapped window
 * of its own, which answers other programs' requests (ICCCM section 2) for as long as it holds the
 * selection. Data above the server's maximum request size goes by the INCR protocol, a chunk each time
 * the requestor deletes the property; a requestor that stops taking them is dropped after a timeout.
 *
 * Xlib reports a failed request (a requestor's window that vanished) through one process-wide error
 * handler. Starting an owner installs one that takes the errors of the owners' connections and passes
 * every other to the handler it replaced; likewise for the handler of a lost connection, so a display that
 * goes away ends the owner, not the process. Start owners after SDL has set up its video: SDL installs a
 * handler of its own that would otherwise run first. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tessera_x11_clipboard tessera_x11_clipboard;

/* What tessera_x11_clipboard_offer says. */
enum {
    /* The owner thread has the offer and takes the selection for it. */
    TESSERA_X11_CLIPBOARD_OFFERED = 0,
    /* The owner has ended: its connection to the display was lost. Stop it; a new one may start. */
    TESSERA_X11_CLIPBOARD_ENDED = 1,
    /* No memory for a copy of the bytes. */
    TESSERA_X11_CLIPBOARD_NO_MEMORY = 2,
};

/* Opens `display_name` (NULL: $DISPLAY) on a connection of its own and starts the owner's thread; it takes
 * the selection at the first offer. NULL when the display cannot be opened or the thread not started, with
 * the reason in `error` (NUL-terminated, cut to `error_size`). One round trip to the server: quick, but
 * it waits for the server. `transfer_timeout_ms` is how long an INCR transfer waits for the requestor to
 * take the next chunk before it is dropped (0: ten seconds). Any thread. */
tessera_x11_clipboard *tessera_x11_clipboard_start(const char *display_name, unsigned transfer_timeout_ms,
                                                   char *error, size_t error_size);

/* Copies the PNG bytes, the text/uri-list (CRLF after each URI, as RFC 2483 has it) and the plain text
 * and hands them to the owner's thread, which takes the CLIPBOARD selection for them and answers with
 * them from then on; an earlier offer is replaced (a transfer already under way finishes with its own
 * bytes). An empty `uri_list` offers no uri-list, an empty `text` no text. Returns at once, without waiting
 * for the server. Any thread. */
int tessera_x11_clipboard_offer(tessera_x11_clipboard *clipboard, const uint8_t *png, size_t png_size,
                                const char *uri_list, size_t uri_list_size, const char *text, size_t text_size);

/* 1 when the owner holds the CLIPBOARD selection with the latest offer: the thread has taken it and no other
 * program has taken it since. 0 before the first offer, while an offer waits for the thread, and after
 * another program copied something. Any thread. */
int tessera_x11_clipboard_holds(tessera_x11_clipboard *clipboard);

/* How many INCR transfers are under way (what a requestor that stopped taking chunks keeps up until its
 * timeout). Any thread. */
int tessera_x11_clipboard_transfers(tessera_x11_clipboard *clipboard);

/* Ends the owner: its thread gives up the selection, closes its connection and ends; then everything is
 * freed and `clipboard` may not be used again. Waits for the thread, which is between events and ends at
 * once. Any thread but the owner's own. */
void tessera_x11_clipboard_stop(tessera_x11_clipboard *clipboard);

#ifdef __cplusplus
}
#endif

#endif
