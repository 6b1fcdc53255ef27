/* libtiff over memory or a descriptor, with per-file messages (see tessera_tiff.h). One file, longer than
 * most: every part (client procedures, directory selection, the direct and RGBA pixel paths, rows and
 * regions) works on the one reader struct, which would otherwise need a private header of its own. */

#include "tessera_tiff.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>
#include <unistd.h>

#include <tiffio.h>

/* The layout of a directory whose samples are read straight from its decoded strips or tiles. */
struct direct_layout {
    uint32_t width, height;
    /* A strip's rows (its width is the image's), or a tile's size. */
    uint32_t block_width, block_height;
    int tiled;
    /* Bytes per sample (1 or 2), samples per pixel, and how many of them are colour (1, 3 or 4). */
    int bytes, samples, colour;
    /* EXTRASAMPLE_ASSOCALPHA or EXTRASAMPLE_UNASSALPHA for the sample after the colour ones; 0: none, or
     * one that is not alpha (ignored). */
    int alpha;
};

struct tessera_tiff {
    TIFF *tif;
    /* The bytes in memory, or NULL and a descriptor read with pread. */
    const uint8_t *data;
    int fd;
    uint64_t size, offset;
    /* A read asked for bytes past the end: failures after it mean the file was cut short. */
    int ran_out;
    int pixels_begun;
    tessera_tiff_pixels pixels;
    TIFFRGBAImage image;
    struct direct_layout direct;
    /* One decoded strip or tile, for blocks that cannot be decoded into the caller's rows. */
    uint8_t *scratch;
    tmsize_t scratch_size;
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
    if (tiff->data != NULL) {
        memcpy(buffer, tiff->data + tiff->offset, (size_t)n);
    } else {
        uint64_t done = 0;
        while (done < n) {
            ssize_t got = pread(tiff->fd, (uint8_t *)buffer + done, (size_t)(n - done), (off_t)(tiff->offset + done));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                /* The file shrank or cannot be read: what was read is all there is. */
                tiff->ran_out = 1;
                break;
            }
            done += (uint64_t)got;
        }
        n = done;
    }
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
    if (tiff->data == NULL) return 0;
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

static tessera_tiff *open_reader(const uint8_t *data, int fd, uint64_t size, tessera_tiff_status *status,
                                 char *message, size_t message_size) {
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
    tiff->fd = fd;
    tiff->size = size;
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, tiff);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, tiff);
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, max_single_allocation);
    /* "m": no memory mapping of our own buffer is needed, libtiff reads through on_read; a descriptor is
     * never mapped, so a file that shrinks while open reads as short rather than faulting. */
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

tessera_tiff *tessera_tiff_open(const uint8_t *data, size_t size, tessera_tiff_status *status, char *message,
                                size_t message_size) {
    return open_reader(data, -1, size, status, message, message_size);
}

tessera_tiff *tessera_tiff_open_file(int fd, uint64_t size, tessera_tiff_status *status, char *message,
                                     size_t message_size) {
    return open_reader(NULL, fd, size, status, message, message_size);
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
    page->tile_width = 0;
    page->tile_height = 0;
    if (TIFFIsTiled(tiff->tif)) {
        TIFFGetField(tiff->tif, TIFFTAG_TILELENGTH, &block);
        TIFFGetField(tiff->tif, TIFFTAG_TILEWIDTH, &page->tile_width);
        TIFFGetField(tiff->tif, TIFFTAG_TILELENGTH, &page->tile_height);
    } else {
        TIFFGetFieldDefaulted(tiff->tif, TIFFTAG_ROWSPERSTRIP, &block);
    }
    page->rows_per_block = block == 0 || block > height ? height : block;
}

static void end_pixels(tessera_tiff *tiff) {
    if (tiff->pixels_begun && tiff->pixels == TESSERA_TIFF_PIXELS_RGBA) TIFFRGBAImageEnd(&tiff->image);
    tiff->pixels_begun = 0;
    free(tiff->scratch);
    tiff->scratch = NULL;
    tiff->scratch_size = 0;
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

/* Whether the current directory can be read straight from its strips or tiles, and how: 8 or 16-bit
 * unsigned samples stored together, grey, RGB or CMYK (InkSet 1) with at most one further sample, or
 * JPEG-compressed YCbCr, which libjpeg turns into RGB as it decodes. Alpha is told as libtiff's RGBA
 * interface tells it, so both ways show the same picture. */
static int direct_layout(tessera_tiff *tiff, struct direct_layout *layout) {
    TIFF *tif = tiff->tif;
    uint16_t photometric = 0, planar = PLANARCONFIG_CONTIG, samples = 1, bits = 1, format = SAMPLEFORMAT_UINT;
    uint16_t compression = COMPRESSION_NONE, inks = INKSET_CMYK, extra_count = 0;
    uint16_t *extra = NULL;
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (planar != PLANARCONFIG_CONTIG || (bits != 8 && bits != 16) || format != SAMPLEFORMAT_UINT) return 0;
    int colour;
    switch (photometric) {
    case PHOTOMETRIC_MINISBLACK: colour = 1; break;
    case PHOTOMETRIC_RGB: colour = 3; break;
    case PHOTOMETRIC_YCBCR:
        if (compression != COMPRESSION_JPEG || bits != 8 || samples != 3) return 0;
        colour = 3;
        break;
    case PHOTOMETRIC_SEPARATED:
        TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &inks);
        if (inks != INKSET_CMYK || samples != 4) return 0;
        colour = 4;
        break;
    default: return 0;
    }
    if (samples < colour || samples > colour + 1) return 0;
    int alpha = 0;
    if (samples > colour && extra_count > 0 && extra != NULL) {
        if (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA) alpha = extra[0];
        /* libtiff's reading of a further sample said to be unspecified, beside three others... */
        else if (extra[0] == EXTRASAMPLE_UNSPECIFIED && samples > 3) alpha = EXTRASAMPLE_ASSOCALPHA;
    } else if (samples > colour && samples == 4 && photometric == PHOTOMETRIC_RGB) {
        /* ...and of RGB's fourth sample when the file says nothing of it. */
        alpha = EXTRASAMPLE_ASSOCALPHA;
    }
    if (photometric == PHOTOMETRIC_YCBCR && !TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB)) return 0;

    uint32_t width = 0, height = 0;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height);
    layout->width = width;
    layout->height = height;
    layout->tiled = TIFFIsTiled(tif);
    if (layout->tiled) {
        uint32_t tile_width = 0, tile_height = 0;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_width);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_height);
        if (tile_width == 0 || tile_height == 0) return 0;
        layout->block_width = tile_width;
        layout->block_height = tile_height;
    } else {
        uint32_t rows = height;
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
        layout->block_width = width;
        layout->block_height = rows == 0 || rows > height ? height : rows;
    }
    layout->bytes = bits / 8;
    layout->samples = samples;
    layout->colour = colour;
    layout->alpha = alpha;
    return width > 0 && height > 0;
}

tessera_tiff_status tessera_tiff_begin_pixels(tessera_tiff *tiff, tessera_tiff_pixels *pixels) {
    end_pixels(tiff);
    if (direct_layout(tiff, &tiff->direct)) {
        tiff->pixels = tiff->direct.colour == 4 ? TESSERA_TIFF_PIXELS_CMYK : TESSERA_TIFF_PIXELS_DIRECT;
        tiff->pixels_begun = 1;
        *pixels = tiff->pixels;
        return TESSERA_TIFF_OK;
    }
    tiff->pixels = TESSERA_TIFF_PIXELS_RGBA;
    if (!TIFFRGBAImageOK(tiff->tif, tiff->message)) return TESSERA_TIFF_ERROR;
    if (!TIFFRGBAImageBegin(&tiff->image, tiff->tif, 1, tiff->message)) return failure(tiff);
    tiff->pixels_begun = 1;
    /* Rows as stored: asking for the file's own orientation makes libtiff flip nothing, and the loader
     * applies all eight orientations itself (libtiff would only flip, never turn). */
    tiff->image.req_orientation = tiff->image.orientation;
    *pixels = TESSERA_TIFF_PIXELS_RGBA;
    return TESSERA_TIFF_OK;
}

/* Colour stored multiplied by alpha, divided back out. */
static void unpremultiply(uint8_t *bgra, size_t count) {
    for (size_t i = 0; i < count * 4; i += 4) {
        unsigned a = bgra[i + 3];
        if (a == 255 || a == 0) continue;
        for (int c = 0; c < 3; c++) {
            unsigned v = (bgra[i + c] * 255u + a / 2) / a;
            bgra[i + c] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
}

/* `count` pixels of 8-bit samples at `src` as B, G, R, A (or C, M, Y, K) at `dst`. Pixel by pixel from the
 * first, each read whole before it is written, so `src` may lie inside `dst` at or after
 * dst + count * (4 - samples): a strip decoded into the end of its rows is spread out in place. One loop
 * per layout, so none asks about the layout per pixel. */
static void convert8(const struct direct_layout *layout, const uint8_t *src, uint8_t *dst, size_t count) {
    const int samples = layout->samples;
    if (layout->colour == 4) {
        /* CMYK: the bytes are already where they go (memmove: they may be in place). */
        memmove(dst, src, count * 4);
    } else if (layout->colour == 3 && layout->alpha) {
        for (size_t i = 0; i < count; i++, src += 4, dst += 4) {
            uint8_t r = src[0], g = src[1], b = src[2], a = src[3];
            dst[0] = b; dst[1] = g; dst[2] = r; dst[3] = a;
        }
    } else if (layout->colour == 3 && samples == 3) {
        /* The commonest layout, with its stride known to the compiler. */
        for (size_t i = 0; i < count; i++, src += 3, dst += 4) {
            uint8_t r = src[0], g = src[1], b = src[2];
            dst[0] = b; dst[1] = g; dst[2] = r; dst[3] = 255;
        }
    } else if (layout->colour == 3) {
        for (size_t i = 0; i < count; i++, src += samples, dst += 4) {
            uint8_t r = src[0], g = src[1], b = src[2];
            dst[0] = b; dst[1] = g; dst[2] = r; dst[3] = 255;
        }
    } else if (layout->alpha) {
        for (size_t i = 0; i < count; i++, src += 2, dst += 4) {
            uint8_t v = src[0], a = src[1];
            dst[0] = v; dst[1] = v; dst[2] = v; dst[3] = a;
        }
    } else {
        for (size_t i = 0; i < count; i++, src += samples, dst += 4) {
            uint8_t v = src[0];
            dst[0] = v; dst[1] = v; dst[2] = v; dst[3] = 255;
        }
    }
}

/* The same from 16-bit samples (native byte order, as libtiff gives them), each rounded to 8 bits as
 * libtiff's RGBA interface rounds them. */
static void convert16(const struct direct_layout *layout, const uint8_t *bytes, uint8_t *dst, size_t count) {
    const uint16_t *src = (const uint16_t *)bytes;
    const int samples = layout->samples;
    for (size_t i = 0; i < count; i++, src += samples, dst += 4) {
        uint8_t v[5];
        for (int c = 0; c < samples; c++) v[c] = (uint8_t)(((unsigned)src[c] + 128) / 257);
        switch (layout->colour) {
        case 1: dst[0] = v[0]; dst[1] = v[0]; dst[2] = v[0]; dst[3] = layout->alpha ? v[1] : 255; break;
        case 3: dst[0] = v[2]; dst[1] = v[1]; dst[2] = v[0]; dst[3] = layout->alpha ? v[3] : 255; break;
        default: memcpy(dst, v, 4); break;
        }
    }
}

static void convert(const struct direct_layout *layout, const uint8_t *src, uint8_t *dst, size_t count) {
    if (layout->bytes == 1) convert8(layout, src, dst, count); else convert16(layout, src, dst, count);
}

/* A buffer for one strip or tile of `size` bytes. */
static uint8_t *scratch(tessera_tiff *tiff, tmsize_t size) {
    if (size <= 0 || size > max_single_allocation) {
        snprintf(tiff->message, sizeof(tiff->message), "a strip or tile of %lld bytes", (long long)size);
        return NULL;
    }
    if (tiff->scratch_size < size) {
        free(tiff->scratch);
        tiff->scratch = malloc((size_t)size);
        tiff->scratch_size = tiff->scratch != NULL ? size : 0;
        if (tiff->scratch == NULL) snprintf(tiff->message, sizeof(tiff->message), "out of memory");
    }
    return tiff->scratch;
}

/* Rows [first, end) of a strip image into `bgra` (whose first row is `first`), strip by strip. */
static tessera_tiff_status read_strip_rows(tessera_tiff *tiff, uint32_t first, uint32_t end, uint8_t *bgra) {
    const struct direct_layout *layout = &tiff->direct;
    const size_t pixel_bytes = (size_t)layout->bytes * (size_t)layout->samples;
    const size_t row_in = (size_t)layout->width * pixel_bytes, row_out = (size_t)layout->width * 4;
    for (uint32_t row = first; row < end;) {
        uint32_t strip_first = row - row % layout->block_height;
        uint32_t strip_end = strip_first + layout->block_height;
        if (strip_end > layout->height) strip_end = layout->height;
        tmsize_t size = (tmsize_t)(row_in * (strip_end - strip_first));
        uint32_t strip = TIFFComputeStrip(tiff->tif, strip_first, 0);
        uint32_t until = strip_end < end ? strip_end : end;
        uint8_t *out = bgra + (size_t)(row - first) * row_out;
        if (layout->bytes == 1 && strip_first == row && until == strip_end) {
            /* The whole strip goes to the caller's rows: decoded into their end and spread out in place. */
            size_t count = (size_t)layout->width * (strip_end - strip_first);
            uint8_t *at = out + count * (4 - pixel_bytes);
            if (TIFFReadEncodedStrip(tiff->tif, strip, at, size) != size) return failure(tiff);
            convert(layout, at, out, count);
        } else {
            uint8_t *buffer = scratch(tiff, size);
            if (buffer == NULL) return TESSERA_TIFF_ERROR;
            if (TIFFReadEncodedStrip(tiff->tif, strip, buffer, size) != size) return failure(tiff);
            convert(layout, buffer + (size_t)(row - strip_first) * row_in, out, (size_t)layout->width * (until - row));
        }
        row = until;
    }
    return TESSERA_TIFF_OK;
}

/* Rows [first, end) of a tiled image into `bgra` (whose first row is `first`), a row of tiles at a time. */
static tessera_tiff_status read_tile_rows(tessera_tiff *tiff, uint32_t first, uint32_t end, uint8_t *bgra) {
    const struct direct_layout *layout = &tiff->direct;
    const size_t pixel_bytes = (size_t)layout->bytes * (size_t)layout->samples;
    const size_t tile_row = (size_t)layout->block_width * pixel_bytes, row_out = (size_t)layout->width * 4;
    tmsize_t size = TIFFTileSize(tiff->tif);
    if (size < (tmsize_t)(tile_row * layout->block_height)) {
        snprintf(tiff->message, sizeof(tiff->message), "tiles smaller than their size says");
        return TESSERA_TIFF_ERROR;
    }
    uint8_t *buffer = scratch(tiff, size);
    if (buffer == NULL) return TESSERA_TIFF_ERROR;
    for (uint32_t row = first; row < end;) {
        uint32_t tile_first = row - row % layout->block_height;
        uint32_t until = tile_first + layout->block_height;
        if (until > end) until = end;
        for (uint32_t x = 0; x < layout->width; x += layout->block_width) {
            if (TIFFReadTile(tiff->tif, buffer, x, tile_first, 0, 0) < 0) return failure(tiff);
            uint32_t columns = layout->width - x < layout->block_width ? layout->width - x : layout->block_width;
            for (uint32_t y = row; y < until; y++) {
                convert(layout, buffer + (size_t)(y - tile_first) * tile_row,
                        bgra + (size_t)(y - first) * row_out + (size_t)x * 4, columns);
            }
        }
        row = until;
    }
    return TESSERA_TIFF_OK;
}

static tessera_tiff_status read_direct_rows(tessera_tiff *tiff, uint32_t first_row, uint32_t count, uint8_t *bgra) {
    const struct direct_layout *layout = &tiff->direct;
    if (first_row >= layout->height || count > layout->height - first_row) {
        snprintf(tiff->message, sizeof(tiff->message), "rows %u to %u of %u asked for", first_row, first_row + count,
                 layout->height);
        return TESSERA_TIFF_ERROR;
    }
    uint32_t end = first_row + count;
    tessera_tiff_status status = layout->tiled ? read_tile_rows(tiff, first_row, end, bgra)
                                               : read_strip_rows(tiff, first_row, end, bgra);
    if (status == TESSERA_TIFF_OK && layout->alpha == EXTRASAMPLE_ASSOCALPHA) {
        unpremultiply(bgra, (size_t)layout->width * count);
    }
    return status;
}

/* The region through libtiff's RGBA interface, as B, G, R, A with straight alpha. */
static tessera_tiff_status read_rgba(tessera_tiff *tiff, uint32_t x, uint32_t y, uint32_t width, uint32_t height,
                                     uint8_t *bgra) {
    /* libtiff writes 32-bit A, B, G, R words: R, G, B, A bytes in memory on little-endian machines. */
    uint32_t *raster = (uint32_t *)bgra;
    tiff->image.row_offset = (int)y;
    tiff->image.col_offset = (int)x;
    if (!TIFFRGBAImageGet(&tiff->image, raster, width, height)) return failure(tiff);
    /* Colour comes premultiplied by alpha when the file stores it so (associated alpha), and when libtiff
     * associates unassociated alpha itself, which it does for colour images but not for grey ones. */
    int grey = tiff->image.photometric == PHOTOMETRIC_MINISBLACK || tiff->image.photometric == PHOTOMETRIC_MINISWHITE;
    int premultiplied = tiff->image.alpha == EXTRASAMPLE_ASSOCALPHA
        || (tiff->image.alpha == EXTRASAMPLE_UNASSALPHA && !grey);
    size_t n = (size_t)width * height * 4;
    for (size_t i = 0; i < n; i += 4) {
        uint8_t r = bgra[i];
        bgra[i] = bgra[i + 2];
        bgra[i + 2] = r;
    }
    if (premultiplied) unpremultiply(bgra, (size_t)width * height);
    return TESSERA_TIFF_OK;
}

tessera_tiff_status tessera_tiff_read_rows(tessera_tiff *tiff, uint32_t first_row, uint32_t count, uint8_t *bgra) {
    if (!tiff->pixels_begun) {
        snprintf(tiff->message, sizeof(tiff->message), "pixels read before tessera_tiff_begin_pixels");
        return TESSERA_TIFF_ERROR;
    }
    if (tiff->pixels != TESSERA_TIFF_PIXELS_RGBA) return read_direct_rows(tiff, first_row, count, bgra);
    return read_rgba(tiff, 0, first_row, tiff->image.width, count, bgra);
}

/* The region from the strips or tiles it meets, each decoded once into the scratch buffer. */
static tessera_tiff_status read_direct_region(tessera_tiff *tiff, uint32_t x, uint32_t y, uint32_t width,
                                              uint32_t height, uint8_t *bgra) {
    const struct direct_layout *layout = &tiff->direct;
    const size_t pixel_bytes = (size_t)layout->bytes * (size_t)layout->samples;
    const size_t block_row = (size_t)layout->block_width * pixel_bytes;
    const uint32_t right = x + width, bottom = y + height;
    tmsize_t tile_size = 0;
    uint8_t *buffer = NULL;
    if (layout->tiled) {
        tile_size = TIFFTileSize(tiff->tif);
        if (tile_size < (tmsize_t)(block_row * layout->block_height)) {
            snprintf(tiff->message, sizeof(tiff->message), "tiles smaller than their size says");
            return TESSERA_TIFF_ERROR;
        }
        if ((buffer = scratch(tiff, tile_size)) == NULL) return TESSERA_TIFF_ERROR;
    }
    for (uint32_t top = y - y % layout->block_height; top < bottom; top += layout->block_height) {
        uint32_t block_bottom = top + layout->block_height;
        if (block_bottom > layout->height) block_bottom = layout->height;
        for (uint32_t left = x - x % layout->block_width; left < right; left += layout->block_width) {
            if (layout->tiled) {
                if (TIFFReadTile(tiff->tif, buffer, left, top, 0, 0) < 0) return failure(tiff);
            } else {
                tmsize_t size = (tmsize_t)(block_row * (block_bottom - top));
                if ((buffer = scratch(tiff, size)) == NULL) return TESSERA_TIFF_ERROR;
                if (TIFFReadEncodedStrip(tiff->tif, TIFFComputeStrip(tiff->tif, top, 0), buffer, size) != size) {
                    return failure(tiff);
                }
            }
            uint32_t from_column = left > x ? left : x;
            uint32_t to_column = left + layout->block_width < right ? left + layout->block_width : right;
            uint32_t from_row = top > y ? top : y;
            uint32_t to_row = block_bottom < bottom ? block_bottom : bottom;
            for (uint32_t row = from_row; row < to_row; row++) {
                convert(layout, buffer + (size_t)(row - top) * block_row + (size_t)(from_column - left) * pixel_bytes,
                        bgra + ((size_t)(row - y) * width + (from_column - x)) * 4, to_column - from_column);
            }
        }
    }
    if (layout->alpha == EXTRASAMPLE_ASSOCALPHA) unpremultiply(bgra, (size_t)width * height);
    return TESSERA_TIFF_OK;
}

tessera_tiff_status tessera_tiff_read_region(tessera_tiff *tiff, uint32_t x, uint32_t y, uint32_t width,
                                             uint32_t height, uint8_t *bgra) {
    if (!tiff->pixels_begun) {
        snprintf(tiff->message, sizeof(tiff->message), "pixels read before tessera_tiff_begin_pixels");
        return TESSERA_TIFF_ERROR;
    }
    uint32_t image_width = tiff->pixels == TESSERA_TIFF_PIXELS_RGBA ? tiff->image.width : tiff->direct.width;
    uint32_t image_height = tiff->pixels == TESSERA_TIFF_PIXELS_RGBA ? tiff->image.height : tiff->direct.height;
    if (width == 0 || height == 0 || x >= image_width || y >= image_height || width > image_width - x
        || height > image_height - y) {
        snprintf(tiff->message, sizeof(tiff->message), "region %ux%u at %u,%u of a %ux%u image asked for", width,
                 height, x, y, image_width, image_height);
        return TESSERA_TIFF_ERROR;
    }
    if (tiff->pixels != TESSERA_TIFF_PIXELS_RGBA) return read_direct_region(tiff, x, y, width, height, bgra);
    return read_rgba(tiff, x, y, width, height, bgra);
}

const char *tessera_tiff_message(const tessera_tiff *tiff) { return tiff->message; }

void tessera_tiff_close(tessera_tiff *tiff) {
    if (tiff == NULL) return;
    end_pixels(tiff);
    TIFFClose(tiff->tif);
    free(tiff);
}
