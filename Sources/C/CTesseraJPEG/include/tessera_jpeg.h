#ifndef TESSERA_JPEG_H
#define TESSERA_JPEG_H

/* Row-by-row JPEG and PNG reading, and PNG writing: Tessera's one path through libjpeg and libpng.
 *
 * Why C: libjpeg and libpng report errors by calling a handler that must not return; the only way back
 * is longjmp to a setjmp point, and Swift can neither call setjmp nor be unwound through. Each function
 * here sets its own setjmp point, so every libjpeg/libpng error comes back as a status code and a message.
 * Nothing here prints: warnings are recorded, never written to stderr.
 *
 * Pixels come out as B, G, R, A bytes (Tessera's ARGB8888), alpha 255 where the file has none; CMYK JPEGs
 * as C, M, Y, K bytes, for the caller's colour management. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TESSERA_IMAGE_OK = 0,
    /* The library rejected the data (corrupt, unsupported); see the message. */
    TESSERA_IMAGE_ERROR = 1,
    /* The data ends before the image does. */
    TESSERA_IMAGE_TRUNCATED = 2,
    /* Out of memory or a failed system call. */
    TESSERA_IMAGE_SYSTEM = 3,
    /* Every row asked for was read, but the data ended first: the rows past it are libjpeg's grey
     * padding (tessera_jpeg_read_region only). */
    TESSERA_IMAGE_PADDED = 4
} tessera_image_status;

typedef struct {
    int width;
    int height;
    /* One grey channel in the file (pixels still come out as BGRA). */
    int is_grayscale;
    /* The file has an alpha channel or a transparency chunk. */
    int has_alpha;
    /* Rows cannot be produced one by one in bounded memory: a progressive or multi-scan JPEG (libjpeg
     * keeps the whole image's coefficients) or an interlaced PNG (decoded whole on the first read). */
    int needs_whole_image;
} tessera_image_info;

/* ---- JPEG (libjpeg API, so rows are decoded as they are asked for) ---- */

/* What a JPEG says about its colours, read from its markers by libjpeg (jpeg_read_icc_profile puts the
 * APP2 "ICC_PROFILE" chunks back together in their numbered order). */
typedef struct {
    /* The embedded ICC profile (malloc'ed: release with free()), or NULL. */
    uint8_t *icc;
    unsigned int icc_size;
    /* CMYK or YCCK: the pixels come out as C, M, Y, K. */
    int is_cmyk;
    /* An Adobe APP14 marker: CMYK is stored inverted (255 = no ink), as Photoshop writes it. */
    int saw_adobe_marker;
} tessera_jpeg_colour;

/* Reads the header of the JPEG in `size` bytes at `data` for its colour description. A damaged ICC
 * chunk sequence gives no profile rather than an error; a header libjpeg cannot read is an error. */
tessera_image_status tessera_jpeg_read_colour(const uint8_t *data, size_t size, tessera_jpeg_colour *colour,
                                              char *message, size_t message_size);

typedef struct tessera_jpeg_reader tessera_jpeg_reader;

/* Reads the header from `fd` (taken over: closed by tessera_jpeg_close, or here on failure).
 * On failure returns NULL with *status and message set. */
tessera_jpeg_reader *tessera_jpeg_open(int fd, tessera_image_info *info, tessera_image_status *status,
                                       char *message, size_t message_size);

/* The opened JPEG's colour description (its header has been read); the reader keeps owning `icc`. */
void tessera_jpeg_colour_of(const tessera_jpeg_reader *reader, tessera_jpeg_colour *colour);

/* Reads the next `count` rows into first_row, first_row + stride, ... Decoding starts on the first call.
 * A file that ends early reports TESSERA_IMAGE_TRUNCATED rather than grey padding. CMYK and YCCK JPEGs
 * give C, M, Y, K bytes (see tessera_jpeg_colour), which the caller converts. */
tessera_image_status tessera_jpeg_read_rows(tessera_jpeg_reader *reader, uint8_t *first_row, size_t stride,
                                            int count);

/* After the last row: reads to the end of the image, so a file missing its tail is reported truncated. */
tessera_image_status tessera_jpeg_finish(tessera_jpeg_reader *reader);

/* The message of the last failure (never NULL). */
const char *tessera_jpeg_message(const tessera_jpeg_reader *reader);

void tessera_jpeg_close(tessera_jpeg_reader *reader);

/* Decodes the part (x, y, width, height) of the JPEG on `fd` as it is at 1/`denominator` of its size
 * (1, 2, 4 or 8: libjpeg's scaled IDCT) into `pixels`, `width` * 4 bytes a row: a tile of a large photo
 * without the rest of it in memory. Rows above the part are skipped (entropy-decoded, not transformed)
 * and columns outside it are cropped, so the working memory follows the part's width, not the image's.
 * The file is read with pread from its start; `fd` stays open and its offset is left alone, so
 * several threads can read parts of one descriptor at once. `colour` receives the file's colour
 * description (its `icc`, if any, to be released with free()); CMYK comes out as C, M, Y, K bytes.
 * A JPEG stored in several scans (progressive) is refused: libjpeg would hold the coefficients of the
 * whole image for any part of it. A file that ends before the part does gives the part with libjpeg's
 * grey padding, `colour` as for a whole file, and TESSERA_IMAGE_PADDED. */
tessera_image_status tessera_jpeg_read_region(int fd, int denominator, int x, int y, int width, int height,
                                              uint8_t *pixels, tessera_jpeg_colour *colour,
                                              char *message, size_t message_size);

/* ---- PNG (libpng, png_read_row) ---- */

typedef struct tessera_png_reader tessera_png_reader;

tessera_png_reader *tessera_png_open(int fd, tessera_image_info *info, tessera_image_status *status,
                                     char *message, size_t message_size);

/* The same over `size` bytes at `data`, which must stay valid until tessera_png_close. */
tessera_png_reader *tessera_png_open_memory(const uint8_t *data, size_t size, tessera_image_info *info,
                                            tessera_image_status *status, char *message, size_t message_size);

/* tessera_png_open_memory, but rows come as 16-bit R, G, B, A samples in native byte order (8 bytes a
 * pixel; lower depths widened, grey and palettes expanded, an opaque image's alpha 65535): for HDR
 * images, whose samples are rendered for the screen from their full depth. */
tessera_png_reader *tessera_png_open_memory_wide(const uint8_t *data, size_t size, tessera_image_info *info,
                                                 tessera_image_status *status, char *message, size_t message_size);

/* As tessera_jpeg_read_rows (rows of 8 bytes a pixel for a wide reader). An interlaced PNG is decoded
 * whole on the first call. */
tessera_image_status tessera_png_read_rows(tessera_png_reader *reader, uint8_t *first_row, size_t stride,
                                           int count);

/* After the last row: reads the rest of the file to IEND (text chunks after the image data included),
 * so a file missing its tail is reported truncated and a damaged chunk as an error. */
tessera_image_status tessera_png_finish(tessera_png_reader *reader);

/* How many text chunks (tEXt, zTXt, iTXt) have been read: those before the image data once opened, all
 * of them after tessera_png_finish. A text chunk whose checksum is wrong is left out. */
int tessera_png_text_count(const tessera_png_reader *reader);

/* The keyword and text of text chunk `index`, NUL-terminated, valid until the next call on the reader.
 * The text is UTF-8 when *is_utf8 (iTXt), Latin-1 otherwise; keywords are always Latin-1. */
void tessera_png_text_at(const tessera_png_reader *reader, int index, const char **keyword, const char **text,
                         int *is_utf8);

/* The ICC profile of the iCCP chunk (decompressed; libpng drops one it finds malformed), valid until
 * tessera_png_close: returns 1 with *data and *size set, 0 when there is none. */
int tessera_png_icc_profile(const tessera_png_reader *reader, const uint8_t **data, size_t *size);

const char *tessera_png_message(const tessera_png_reader *reader);

void tessera_png_close(tessera_png_reader *reader);

/* ---- PNG encoding ---- */

/* A tEXt chunk: keyword (1 to 79 Latin-1 characters) and text (Latin-1), both NUL-terminated. */
typedef struct {
    const char *keyword;
    const char *text;
} tessera_png_text;

/* Encodes width x height BGRA pixels (rows `stride` bytes apart) as an 8-bit PNG with `channels`
 * channels: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA (grey is taken from the green byte). The `text_count`
 * chunks of `text` are written before the image data, where readers that stop early find them.
 * `compression_level` is zlib's (0-9); without `filter_rows` every row is stored unfiltered, which
 * writes faster and compresses less. On success *out is a malloc'ed buffer of *out_size bytes, to be
 * released with free(). */
tessera_image_status tessera_png_encode(const uint8_t *bgra, size_t stride, int width, int height, int channels,
                                        int compression_level, int filter_rows, const tessera_png_text *text,
                                        int text_count, uint8_t **out, size_t *out_size, char *message,
                                        size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
