/* librsvg and gdk-pixbuf behind plain C (see tessera_glib.h). */

#include "tessera_glib.h"

#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <librsvg/rsvg.h>

static void copy_text(char *dest, size_t size, const char *text) {
    if (dest == NULL || size == 0) return;
    snprintf(dest, size, "%s", text != NULL ? text : "unknown error");
}

/* XML that ends early: libxml2 says "Premature end of data", gdk-pixbuf "Premature end-of-file". */
static tessera_glib_status status_of(const GError *error) {
    if (error != NULL && error->message != NULL && strstr(error->message, "remature end") != NULL) {
        return TESSERA_GLIB_TRUNCATED;
    }
    return TESSERA_GLIB_ERROR;
}

/* ---- SVG ---- */

struct tessera_svg {
    RsvgHandle *handle;
};

tessera_svg *tessera_svg_open(const uint8_t *data, size_t size, tessera_glib_status *status, char *message,
                              size_t message_size) {
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_data(data, size, &error);
    if (handle == NULL) {
        *status = status_of(error);
        copy_text(message, message_size, error != NULL ? error->message : "not an SVG document");
        if (error != NULL) g_error_free(error);
        return NULL;
    }
    tessera_svg *svg = g_new0(tessera_svg, 1);
    svg->handle = handle;
    *status = TESSERA_GLIB_OK;
    return svg;
}

void tessera_svg_size(const tessera_svg *svg, double *width, double *height) {
    *width = 0;
    *height = 0;
    rsvg_handle_set_dpi(svg->handle, 96);
    if (rsvg_handle_get_intrinsic_size_in_pixels(svg->handle, width, height) && *width > 0 && *height > 0) return;
    gboolean has_width = FALSE, has_height = FALSE, has_viewbox = FALSE;
    RsvgLength w, h;
    RsvgRectangle viewbox;
    rsvg_handle_get_intrinsic_dimensions(svg->handle, &has_width, &w, &has_height, &h, &has_viewbox, &viewbox);
    if (has_viewbox && viewbox.width > 0 && viewbox.height > 0) {
        *width = viewbox.width;
        *height = viewbox.height;
    } else {
        *width = 0;
        *height = 0;
    }
}

tessera_glib_status tessera_svg_render(tessera_svg *svg, double drawn_width, double drawn_height, int x, int y,
                                       int width, int height, uint8_t *bgra, char *message, size_t message_size) {
    int stride = width * 4;
    if (cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width) != stride) {
        copy_text(message, message_size, "unexpected cairo row layout");
        return TESSERA_GLIB_ERROR;
    }
    memset(bgra, 0, (size_t)stride * (size_t)height);
    cairo_surface_t *surface = cairo_image_surface_create_for_data(bgra, CAIRO_FORMAT_ARGB32, width, height, stride);
    cairo_t *cr = cairo_create(surface);
    /* The drawing's viewport placed so the part asked for falls on the surface; librsvg draws only what
     * lands there. */
    RsvgRectangle viewport = {-x, -y, drawn_width, drawn_height};
    GError *error = NULL;
    gboolean drawn = rsvg_handle_render_document(svg->handle, cr, &viewport, &error);
    cairo_status_t cairo_failure = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    if (!drawn || cairo_failure != CAIRO_STATUS_SUCCESS) {
        copy_text(message, message_size, error != NULL ? error->message : cairo_status_to_string(cairo_failure));
        if (error != NULL) g_error_free(error);
        return TESSERA_GLIB_ERROR;
    }
    /* cairo's ARGB32 is premultiplied; Tessera's pixels are not. */
    for (size_t i = 0, n = (size_t)width * (size_t)height * 4; i < n; i += 4) {
        unsigned a = bgra[i + 3];
        if (a == 0 || a == 255) continue;
        for (int c = 0; c < 3; c++) {
            unsigned v = (bgra[i + c] * 255u + a / 2) / a;
            bgra[i + c] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    return TESSERA_GLIB_OK;
}

void tessera_svg_close(tessera_svg *svg) {
    if (svg == NULL) return;
    g_object_unref(svg->handle);
    g_free(svg);
}

/* ---- gdk-pixbuf ---- */

struct tessera_pixbuf {
    GdkPixbuf *pixbuf;
};

/* Which rows the loader has filled in: gdk-pixbuf's loaders accept a file that ends early without an
 * error and leave the missing rows blank, so the rows they report are counted. */
typedef struct {
    uint8_t *rows;
    int height;
} row_coverage;

static void on_area_updated(GdkPixbufLoader *loader, int x, int y, int width, int height, gpointer data) {
    (void)x;
    (void)width;
    row_coverage *coverage = data;
    if (coverage->rows == NULL) {
        GdkPixbuf *pixbuf = gdk_pixbuf_loader_get_pixbuf(loader);
        if (pixbuf == NULL) return;
        coverage->height = gdk_pixbuf_get_height(pixbuf);
        coverage->rows = g_malloc0((gsize)coverage->height);
    }
    for (int row = y < 0 ? 0 : y; row < y + height && row < coverage->height; row++) coverage->rows[row] = 1;
}

static int covers_every_row(const row_coverage *coverage) {
    if (coverage->rows == NULL) return 0;
    for (int row = 0; row < coverage->height; row++) {
        if (!coverage->rows[row]) return 0;
    }
    return 1;
}

tessera_pixbuf *tessera_pixbuf_decode(const char *type, const uint8_t *data, size_t size,
                                      tessera_glib_status *status, char *message, size_t message_size) {
    GError *error = NULL;
    GdkPixbufLoader *loader = gdk_pixbuf_loader_new_with_type(type, &error);
    if (loader == NULL) {
        *status = TESSERA_GLIB_ERROR;
        copy_text(message, message_size, error != NULL ? error->message : "no loader");
        if (error != NULL) g_error_free(error);
        return NULL;
    }
    row_coverage coverage = {NULL, 0};
    g_signal_connect(loader, "area-updated", G_CALLBACK(on_area_updated), &coverage);
    gboolean written = gdk_pixbuf_loader_write(loader, data, size, &error);
    /* Closing is what reports a file that ended early, and it must happen either way. */
    gboolean closed = gdk_pixbuf_loader_close(loader, written ? &error : NULL);
    int complete = covers_every_row(&coverage);
    g_free(coverage.rows);
    if (!written || !closed) {
        *status = status_of(error);
        copy_text(message, message_size, error != NULL ? error->message : "gdk-pixbuf could not decode the image");
        if (error != NULL) g_error_free(error);
        g_object_unref(loader);
        return NULL;
    }
    if (!complete) {
        *status = TESSERA_GLIB_TRUNCATED;
        copy_text(message, message_size, "the image ends before its last row");
        g_object_unref(loader);
        return NULL;
    }
    GdkPixbuf *pixbuf = gdk_pixbuf_loader_get_pixbuf(loader);
    if (pixbuf == NULL || gdk_pixbuf_get_bits_per_sample(pixbuf) != 8 || gdk_pixbuf_get_n_channels(pixbuf) < 3) {
        *status = TESSERA_GLIB_ERROR;
        copy_text(message, message_size, "gdk-pixbuf returned no 8-bit RGB image");
        g_object_unref(loader);
        return NULL;
    }
    tessera_pixbuf *result = g_new0(tessera_pixbuf, 1);
    result->pixbuf = g_object_ref(pixbuf);
    g_object_unref(loader);
    *status = TESSERA_GLIB_OK;
    return result;
}

int tessera_pixbuf_width(const tessera_pixbuf *p) { return gdk_pixbuf_get_width(p->pixbuf); }
int tessera_pixbuf_height(const tessera_pixbuf *p) { return gdk_pixbuf_get_height(p->pixbuf); }
int tessera_pixbuf_has_alpha(const tessera_pixbuf *p) { return gdk_pixbuf_get_has_alpha(p->pixbuf); }

void tessera_pixbuf_copy_bgra(const tessera_pixbuf *p, uint8_t *bgra) {
    int width = gdk_pixbuf_get_width(p->pixbuf), height = gdk_pixbuf_get_height(p->pixbuf);
    int channels = gdk_pixbuf_get_n_channels(p->pixbuf), stride = gdk_pixbuf_get_rowstride(p->pixbuf);
    const guint8 *pixels = gdk_pixbuf_read_pixels(p->pixbuf);
    for (int y = 0; y < height; y++) {
        const guint8 *s = pixels + (size_t)y * (size_t)stride;
        uint8_t *d = bgra + (size_t)y * (size_t)width * 4;
        for (int x = 0; x < width; x++, s += channels, d += 4) {
            d[0] = s[2];
            d[1] = s[1];
            d[2] = s[0];
            d[3] = channels == 4 ? s[3] : 255;
        }
    }
}

void tessera_pixbuf_free(tessera_pixbuf *p) {
    if (p == NULL) return;
    g_object_unref(p->pixbuf);
    g_free(p);
}
