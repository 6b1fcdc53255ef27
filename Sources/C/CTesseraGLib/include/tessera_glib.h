#ifndef TESSERA_GLIB_H
#define TESSERA_GLIB_H

/* librsvg (SVG) and gdk-pixbuf (BMP) behind plain C functions: no GLib or cairo type and no GLib include
 * path reaches Swift. Nothing here prints; failures come back as a status and a message.
 *
 * Pixels come out as B, G, R, A bytes (Tessera's ARGB8888) with straight alpha. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TESSERA_GLIB_OK = 0,
    /* The library rejected the data; see the message. */
    TESSERA_GLIB_ERROR = 1,
    /* The data ends before the image does. */
    TESSERA_GLIB_TRUNCATED = 2
} tessera_glib_status;

/* ---- SVG (librsvg) ---- */

typedef struct tessera_svg tessera_svg;

/* Parses an SVG document, plain or gzip-compressed, from memory. External files (images, stylesheets) are
 * not loaded: there is no base location to resolve them against. NULL with *status and message set on
 * failure. */
tessera_svg *tessera_svg_open(const uint8_t *data, size_t size, tessera_glib_status *status, char *message,
                              size_t message_size);

/* The document's own size in pixels (at 96 dpi): its width and height, or where those are missing or
 * relative (percentages), its viewBox's. 0 x 0 when it states neither. */
void tessera_svg_size(const tessera_svg *svg, double *width, double *height);

/* Renders the part (x, y, width, height) of the document drawn fitted into drawn_width x drawn_height (its
 * aspect kept, as preserveAspectRatio says) onto transparent pixels at `bgra`, which must hold
 * width * height * 4 bytes: the whole document when the part is all of it, one tile of a larger drawing
 * otherwise. */
tessera_glib_status tessera_svg_render(tessera_svg *svg, double drawn_width, double drawn_height, int x, int y,
                                       int width, int height, uint8_t *bgra, char *message, size_t message_size);

void tessera_svg_close(tessera_svg *svg);

/* ---- Images through gdk-pixbuf's loaders (BMP) ---- */

typedef struct tessera_pixbuf tessera_pixbuf;

/* Decodes `size` bytes with gdk-pixbuf's loader for `type` ("bmp"). NULL with *status and message set on
 * failure; a file cut short is TESSERA_GLIB_TRUNCATED. */
tessera_pixbuf *tessera_pixbuf_decode(const char *type, const uint8_t *data, size_t size,
                                      tessera_glib_status *status, char *message, size_t message_size);

int tessera_pixbuf_width(const tessera_pixbuf *pixbuf);
int tessera_pixbuf_height(const tessera_pixbuf *pixbuf);
int tessera_pixbuf_has_alpha(const tessera_pixbuf *pixbuf);

/* Copies the pixels to `bgra` (width * height * 4 bytes). */
void tessera_pixbuf_copy_bgra(const tessera_pixbuf *pixbuf, uint8_t *bgra);

void tessera_pixbuf_free(tessera_pixbuf *pixbuf);

#ifdef __cplusplus
}
#endif

#endif
