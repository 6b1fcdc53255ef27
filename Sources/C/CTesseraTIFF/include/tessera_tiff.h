#ifndef TESSERA_TIFF_H
#define TESSERA_TIFF_H

/* libtiff over a file held in memory or read through a descriptor, with its messages caught per file: Swift cannot call libtiff's
 * variadic tag getter, and libtiff's default handlers print to stderr from any thread. Nothing here prints.
 *
 * Pixels come out as B, G, R, A bytes (Tessera's ARGB8888) with straight alpha, rows as stored (the file's
 * orientation is not applied), 16-bit samples rounded to 8. The common layouts (8 or 16-bit grey, RGB and
 * CMYK samples stored together, with or without alpha, in strips or tiles, and JPEG-compressed YCbCr) are
 * read straight from libtiff's decoded strips and tiles; the rest (palettes, other subsampled YCbCr, 1 to
 * 4-bit samples, separate planes, white-is-zero, ...) go through libtiff's RGBA interface, which knows
 * every photometric interpretation, bit depth and compression it reads but packs each pixel into a word
 * on the way. CMYK read straight comes out as C, M, Y, K bytes for the caller's colour conversion. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TESSERA_TIFF_OK = 0,
    /* libtiff rejected the data or cannot convert it; see the message. */
    TESSERA_TIFF_ERROR = 1,
    /* The data ends before the image does. */
    TESSERA_TIFF_TRUNCATED = 2
} tessera_tiff_status;

typedef struct {
    uint32_t width;
    uint32_t height;
    /* SubfileType bits: 1 a reduced-resolution version of another image, 2 one page of several, 4 a mask. */
    uint32_t subfile_type;
    /* The Orientation tag, 1 to 8. */
    uint16_t orientation;
    uint16_t photometric;
    uint16_t samples_per_pixel;
    uint16_t bits_per_sample;
    /* Rows decoded together: a strip's rows, or a tile's height. */
    uint32_t rows_per_block;
    /* A tile's size; 0 for an image stored in strips. */
    uint32_t tile_width;
    uint32_t tile_height;
} tessera_tiff_page;

typedef struct tessera_tiff tessera_tiff;

/* How tessera_tiff_read_rows fills its rows for the current directory. */
typedef enum {
    /* B, G, R, A through libtiff's RGBA interface. */
    TESSERA_TIFF_PIXELS_RGBA = 0,
    /* B, G, R, A from the decoded strips or tiles. */
    TESSERA_TIFF_PIXELS_DIRECT = 1,
    /* C, M, Y, K (0 is no ink, InkSet 1) from the decoded strips or tiles, for the caller to convert. */
    TESSERA_TIFF_PIXELS_CMYK = 2
} tessera_tiff_pixels;

/* Opens `size` bytes at `data` (which must outlive the reader) at the first directory. NULL with *status
 * and message set on failure. */
tessera_tiff *tessera_tiff_open(const uint8_t *data, size_t size, tessera_tiff_status *status, char *message,
                                size_t message_size);

/* Opens the `size` bytes of the file open at `fd` (which must stay open until the reader closes), read
 * with pread at offsets of the reader's own, so several readers may share one descriptor across threads.
 * NULL with *status and message set on failure. */
tessera_tiff *tessera_tiff_open_file(int fd, uint64_t size, tessera_tiff_status *status, char *message,
                                     size_t message_size);

/* How many top-level directories (pages and reduced-resolution levels) the file has. */
int tessera_tiff_directory_count(tessera_tiff *tiff);

/* Makes directory `index` (0-based) current and describes it. */
tessera_tiff_status tessera_tiff_select_directory(tessera_tiff *tiff, int index, tessera_tiff_page *page);

/* The offsets of the current directory's SubIFDs (reduced-resolution levels some writers nest there):
 * up to `capacity` of them written to `offsets`; returns how many there are. */
int tessera_tiff_subdirectories(tessera_tiff *tiff, uint64_t *offsets, int capacity);

/* Makes the SubIFD at `offset` current and describes it. */
tessera_tiff_status tessera_tiff_select_subdirectory(tessera_tiff *tiff, uint64_t offset, tessera_tiff_page *page);

/* The current directory's ICC profile (tag 34675), valid until the directory changes; 0 when it has none. */
int tessera_tiff_icc_profile(tessera_tiff *tiff, const uint8_t **profile, uint32_t *size);

/* Prepares to read the current directory's pixels and says how they come (*pixels); fails with libtiff's
 * reason for images neither way can read. */
tessera_tiff_status tessera_tiff_begin_pixels(tessera_tiff *tiff, tessera_tiff_pixels *pixels);

/* Reads `count` rows from `first_row` into `bgra` (width * count * 4 bytes), after tessera_tiff_begin_pixels.
 * Each strip or row of tiles is decoded once when the rows asked for start and end on their boundaries
 * (`rows_per_block`); a strip read whole into its rows is decoded in place, with no buffer of its own. */
tessera_tiff_status tessera_tiff_read_rows(tessera_tiff *tiff, uint32_t first_row, uint32_t count, uint8_t *bgra);

/* Reads the `width` x `height` pixels at (`x`, `y`) of the current directory into `bgra` (width * height * 4
 * bytes), after tessera_tiff_begin_pixels, decoding only the strips or tiles the region meets: what a tiled
 * view asks of a tiled file. */
tessera_tiff_status tessera_tiff_read_region(tessera_tiff *tiff, uint32_t x, uint32_t y, uint32_t width,
                                             uint32_t height, uint8_t *bgra);

/* The message of the last failure (never NULL). */
const char *tessera_tiff_message(const tessera_tiff *tiff);

void tessera_tiff_close(tessera_tiff *tiff);

#ifdef __cplusplus
}
#endif

#endif
