#ifndef TESSERA_TIFF_WRITER_H
#define TESSERA_TIFF_WRITER_H

/* Tiled and pyramidal TIFF fixtures written with libtiff (the tests' own writer: Tessera only reads TIFF).
 * libtiff's tag setter is variadic, which Swift cannot call. */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    /* BigTIFF rather than classic TIFF. */
    int big_tiff;
    /* Square tiles of this side (a multiple of 16); 0 stores strips. */
    uint32_t tile_size;
    /* libtiff's COMPRESSION_* value: 1 none, 5 LZW, 7 JPEG (YCbCr), 8 deflate. */
    uint16_t compression;
    /* Reduced levels as SubIFDs of the main image rather than as further pages. */
    int levels_as_subifds;
    /* The index of a tile (or strip) of the main image written as junk bytes; negative: none. */
    int corrupt_block;
    /* The main image's ImageDescription (what tells an Aperio slide, say); NULL: none. */
    const char *description;
    /* An ICC profile for the main image; NULL: none. */
    const uint8_t *icc_profile;
    uint32_t icc_profile_size;
} tessera_test_tiff_options;

/* Writes `count` images to `path`, the first the main image and the rest its reduced levels (SubfileType
 * 1). Image i is `widths[i]` x `heights[i]` pixels of B, G, R, A bytes at `pixels[i]` (alpha is dropped).
 * Returns 0, or -1 with libtiff's complaint on stderr. */
int tessera_test_write_tiff(const char *path, const uint8_t *const *pixels, const uint32_t *widths,
                            const uint32_t *heights, int count, const tessera_test_tiff_options *options);

#ifdef __cplusplus
}
#endif

#endif
