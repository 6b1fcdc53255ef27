/* libtiff over memory with per-file messages (see tessera_tiff.h). */

#include "tessera_tiff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

struct tessera_tiff {
    TIFF *tif;
    const uint8_t *data;
    uint64_t size, offset;
    /* A read asked for bytes past the end: failures after it mean the file was cut short. */
    int ran_out;
    int pixels_begun;
    TIFFRGBAImage image;
    char message[256];
};

/* The largest single allocation libtiff may make for one file (a strip or tile buffer, a tag's values):
 * far above any real strip, far below what a forged length would ask for. */
static const tmsize_t max_single_allocation = (tmsize_t)512 << 20;

static tmsize_t on_read(thandle_t handle, void *buffer, tmsize_t count) {
    struct tessera_tiff *tiff = handle;
    if (count < 0) return -1;
    uint64_t left = tiff->offset < tiff->size ? tiff->size - tiff->offset : 0;
    uint64_t n = (uint64_t)count < left ? (uint64_t)count : left;
    if (n < (uint64_t)count) tiff->ran_out = 1;
    memcpy(buffer, tiff->data + tiff->offset, (size_t)n);
    tiff->offset += n;
    return (tmsize_t)n;
}

static tmsize_t on_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle; (void)buffer; (void)count;
    return -1;
}

static toff_t on_seek(thandle_t handle, toff_t offset, int whence) {
    struct tessera_tiff *tiff = handle;
    uint64_t base = whence == SEEK_CUR ? tiff->offset : whence == SEEK_END ? tiff->size : 0;
    tiff->offset = base + offset;
    return tiff->offset;
}

static int on_close(thandle_t handle) { (void)handle; return 0; }
static toff_t on_size(thandle_t handle) { return ((struct tessera_tiff *)handle)->size; }

static int on_map(thandle_t handle, void **base, toff_t *size) {
    struct tessera_tiff *tiff = handle;
    *base = (void *)tiff->data;
    *size = tiff->size;
    return 1;
}

static void on_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int on_error(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif; (void)module;
    struct tessera_tiff *tiff = user_data;
    vsnprintf(tiff->message, sizeof(tiff->message), format, args);
    return 1;
}

static int on_warning(TIFF *tif, void *user_data, const char *module, const char *format, va_list args) {
    (void)tif; (void)user_data; (void)module; (void)format; (void)args;
    return 1;
}

static tessera_tiff_status failure(struct tessera_tiff *tiff) {
    if (tiff->message[0] == 0) snprintf(tiff->message, sizeof(tiff->message), "libtiff could not read the image");
    return tiff->ran_out ? TESSERA_TIFF_TRUNCATED : TESSERA_TIFF_ERROR;
}

tessera_tiff *tessera_tiff_open(const uint8_t *data, size_t size, tessera_tiff_status *status, char *message,
                                size_t message_size) {
    struct tessera_tiff *tiff = calloc(1, sizeof(*tiff));
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (tiff == NULL || options == NULL) {
        free(tiff);
        if (options != NULL) TIFFOpenOptionsFree(options);
        *status = TESSERA_TIFF_ERROR;
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    tiff->data = data;
    tiff->size = size;
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, tiff);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, tiff);
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_single_allocation);
    /* "m": no memory mapping of our own buffer is needed, libtiff reads through on_read. */
    tiff->tif = TIFFClientOpenExt("image", "rm", tiff, on_read, on_write, on_seek, on_close, on_size, on_map,
                                  on_unmap, options);
    TIFFOpenOptionsFree(options);
    if (tiff->tif == NULL) {
        *status = failure(tiff);
        snprintf(message, message_size, "%s", tiff->message);
        free(tiff);
        return NULL;
    }
    *status = TESSERA_TIFF_OK;
    return tiff;
}

int tessera_tiff_directory_count(tessera_tiff *tiff) {
    tdir_t current = TIFFCurrentDirectory(tiff->tif);
    int count = (int)TIFFNumberOfDirectories(tiff->tif);
    TIFFSetDirectory(tiff->tif, current);
    return count;
}

static void describe(tessera_tiff *tiff, tessera_tiff_page *page) {
    uint32_t width = 0, height = 0, subfile = 0;
    uint16_t orientation = ORIENTATION_TOPLEFT, photometric = 0, samples = 1, bits = 1;
    TIFFGetField(tiff->tif, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tiff->tif, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetField(tiff->tif, TIFFTAG_SUBFILETYPE, &subfile);
    TIFFGetFieldDefaulted(tiff->tif, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetField(tiff->tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetFieldDefaulted(tiff->tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff->tif, TIFFTAG_BITSPERSAMPLE, &bits);
    page->width = width;
    page->height = height;
    page->subfile_type = subfile;
    page->orientation = orientation;
    page->photometric = photometric;
    page->samples_per_pixel = samples;
    page->bits_per_sample = bits;
    uint32_t block = height;
    if (TIFFIsTiled(tiff->tif)) {
        TIFFGetField(tiff->tif, TIFFTAG_TILELENGTH, &block);
    } else {
        TIFFGetFieldDefaulted(tiff->tif, TIFFTAG_ROWSPERSTRIP, &block);
    }
    page->rows_per_block = block == 0 || block > height ? height : block;
}

static void end_pixels(tessera_tiff *tiff) {
    if (tiff->pixels_begun) TIFFRGBAImageEnd(&tiff->image);
    tiff->pixels_begun = 0;
}

tessera_tiff_status tessera_tiff_select_directory(tessera_tiff *tiff, int index, tessera_tiff_page *page) {
    end_pixels(tiff);
    if (index < 0 || !TIFFSetDirectory(tiff->tif, (tdir_t)index)) return failure(tiff);
    describe(tiff, page);
    return TESSERA_TIFF_OK;
}

int tessera_tiff_subdirectories(tessera_tiff *tiff, uint64_t *offsets, int capacity) {
    uint16_t count = 0;
    uint64_t *found = NULL;
    if (!TIFFGetField(tiff->tif, TIFFTAG_SUBIFD, &count, &found) || found == NULL) return 0;
    for (int i = 0; i < count && i < capacity; i++) offsets[i] = found[i];
    return count;
}

tessera_tiff_status tessera_tiff_select_subdirectory(tessera_tiff *tiff, uint64_t offset, tessera_tiff_page *page) {
    end_pixels(tiff);
    if (!TIFFSetSubDirectory(tiff->tif, offset)) return failure(tiff);
    describe(tiff, page);
    return TESSERA_TIFF_OK;
}

int tessera_tiff_icc_profile(tessera_tiff *tiff, const uint8_t **profile, uint32_t *size) {
    uint32_t count = 0;
    void *bytes = NULL;
    if (!TIFFGetField(tiff->tif, TIFFTAG_ICCPROFILE, &count, &bytes) || bytes == NULL || count == 0) return 0;
    *profile = bytes;
    *size = count;
    return 1;
}

tessera_tiff_status tessera_tiff_begin_pixels(tessera_tiff *tiff) {
    end_pixels(tiff);
    if (!TIFFRGBAImageOK(tiff->tif, tiff->message)) return TESSERA_TIFF_ERROR;
    if (!TIFFRGBAImageBegin(&tiff->image, tiff->tif, 1, tiff->message)) return failure(tiff);
    tiff->pixels_begun = 1;
    /* Rows as stored: asking for the file's own orientation makes libtiff flip nothing, and the loader
     * applies all eight orientations itself (libtiff would only flip, never turn). */
    tiff->image.req_orientation = tiff->image.orientation;
    return TESSERA_TIFF_OK;
}

tessera_tiff_status tessera_tiff_read_rows(tessera_tiff *tiff, uint32_t first_row, uint32_t count, uint8_t *bgra) {
    if (!tiff->pixels_begun) {
        snprintf(tiff->message, sizeof(tiff->message), "pixels read before tessera_tiff_begin_pixels");
        return TESSERA_TIFF_ERROR;
    }
    uint32_t width = tiff->image.width;
    /* libtiff writes 32-bit A, B, G, R words: R, G, B, A bytes in memory on little-endian machines. */
    uint32_t *raster = (uint32_t *)bgra;
    tiff->image.row_offset = (int)first_row;
    tiff->image.col_offset = 0;
    if (!TIFFRGBAImageGet(&tiff->image, raster, width, count)) return failure(tiff);
    /* Colour comes premultiplied by alpha when the file stores it so (associated alpha), and when libtiff
     * associates unassociated alpha itself, which it does for colour images but not for grey ones. */
    int grey = tiff->image.photometric == PHOTOMETRIC_MINISBLACK || tiff->image.photometric == PHOTOMETRIC_MINISWHITE;
    int premultiplied = tiff->image.alpha == EXTRASAMPLE_ASSOCALPHA
        || (tiff->image.alpha == EXTRASAMPLE_UNASSALPHA && !grey);
    size_t n = (size_t)width * count * 4;
    for (size_t i = 0; i < n; i += 4) {
        uint8_t r = bgra[i], b = bgra[i + 2];
        bgra[i] = b;
        bgra[i + 2] = r;
        unsigned a = bgra[i + 3];
        if (premultiplied && a != 255 && a != 0) {
            for (int c = 0; c < 3; c++) {
                unsigned v = (bgra[i + c] * 255u + a / 2) / a;
                bgra[i + c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
    return TESSERA_TIFF_OK;
}

const char *tessera_tiff_message(const tessera_tiff *tiff) { return tiff->message; }

void tessera_tiff_close(tessera_tiff *tiff) {
    if (tiff == NULL) return;
    end_pixels(tiff);
    TIFFClose(tiff->tif);
    free(tiff);
}
