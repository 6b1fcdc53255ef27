/* Tiled and pyramidal TIFF fixtures (see tessera_tiff_writer.h). */

#include "tessera_tiff_writer.h"

#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

/* One image's tags and blocks into the current directory. */
static int write_image(TIFF *tif, const uint8_t *bgra, uint32_t width, uint32_t height, int reduced,
                       const tessera_test_tiff_options *options, int subifds) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 3);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, options->compression);
    if (reduced) TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_REDUCEDIMAGE);
    if (!reduced && options->description != NULL) TIFFSetField(tif, TIFFTAG_IMAGEDESCRIPTION, options->description);
    if (!reduced && options->icc_profile != NULL) {
        TIFFSetField(tif, TIFFTAG_ICCPROFILE, options->icc_profile_size, options->icc_profile);
    }
    if (options->compression == COMPRESSION_JPEG) {
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_YCBCR);
        TIFFSetField(tif, TIFFTAG_JPEGQUALITY, 95);
        TIFFSetField(tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    } else {
        TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    }
    if (subifds > 0) {
        uint64_t *offsets = calloc((size_t)subifds, sizeof(uint64_t));
        TIFFSetField(tif, TIFFTAG_SUBIFD, (uint16_t)subifds, offsets);
        free(offsets);
    }
    uint32_t block_width = options->tile_size ? options->tile_size : width;
    uint32_t block_height = options->tile_size ? options->tile_size : 16;
    if (options->tile_size) {
        TIFFSetField(tif, TIFFTAG_TILEWIDTH, block_width);
        TIFFSetField(tif, TIFFTAG_TILELENGTH, block_height);
    } else {
        TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, block_height);
    }
    size_t block_bytes = (size_t)block_width * block_height * 3;
    uint8_t *block = malloc(block_bytes);
    if (block == NULL) return -1;
    int index = 0, status = 0;
    for (uint32_t top = 0; top < height && status == 0; top += block_height) {
        for (uint32_t left = 0; left < width && status == 0; left += block_width, index++) {
            uint32_t rows = height - top < block_height ? height - top : block_height;
            memset(block, 0, block_bytes);
            for (uint32_t y = 0; y < rows; y++) {
                for (uint32_t x = 0; x < block_width && left + x < width; x++) {
                    const uint8_t *p = bgra + (((size_t)(top + y) * width) + left + x) * 4;
                    uint8_t *q = block + ((size_t)y * block_width + x) * 3;
                    q[0] = p[2]; q[1] = p[1]; q[2] = p[0];
                }
            }
            if (!reduced && index == options->corrupt_block) {
                memset(block, 0xA5, 64);
                if (options->tile_size) {
                    if (TIFFWriteRawTile(tif, (uint32_t)index, block, 64) < 0) status = -1;
                } else if (TIFFWriteRawStrip(tif, (uint32_t)index, block, 64) < 0) {
                    status = -1;
                }
            } else if (options->tile_size) {
                if (TIFFWriteEncodedTile(tif, (uint32_t)index, block, (tmsize_t)block_bytes) < 0) status = -1;
            } else if (TIFFWriteEncodedStrip(tif, (uint32_t)index, block, (tmsize_t)((size_t)width * rows * 3)) < 0) {
                status = -1;
            }
        }
    }
    free(block);
    if (status == 0 && !TIFFWriteDirectory(tif)) status = -1;
    return status;
}

int tessera_test_write_tiff(const char *path, const uint8_t *const *pixels, const uint32_t *widths,
                            const uint32_t *heights, int count, const tessera_test_tiff_options *options) {
    TIFF *tif = TIFFOpen(path, options->big_tiff ? "w8" : "w");
    if (tif == NULL) return -1;
    int status = 0;
    for (int i = 0; i < count && status == 0; i++) {
        int subifds = i == 0 && options->levels_as_subifds ? count - 1 : 0;
        status = write_image(tif, pixels[i], widths[i], heights[i], i > 0, options, subifds);
    }
    TIFFClose(tif);
    return status;
}
