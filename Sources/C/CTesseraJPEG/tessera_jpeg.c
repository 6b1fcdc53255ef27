/* libjpeg row reader with errors trapped by setjmp (see tessera_jpeg.h for why this is C). */

#include "tessera_jpeg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

struct tessera_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error_manager;
    jmp_buf jump;
    FILE *file;
    int started;
    tessera_jpeg_colour colour;
    /* Set by the warning handler when libjpeg ran out of data and padded the image. */
    int truncated;
    char message[JMSG_LENGTH_MAX + 32];
};

static void copy_message(char *dest, size_t size, const char *text) {
    if (dest == NULL || size == 0) return;
    snprintf(dest, size, "%s", text);
}

/* libjpeg's default error_exit calls exit(); this one returns to the setjmp point of the current call. */
static void on_error_exit(j_common_ptr cinfo) {
    tessera_jpeg_reader *reader = (tessera_jpeg_reader *)cinfo->client_data;
    (*cinfo->err->format_message)(cinfo, reader->message);
    longjmp(reader->jump, 1);
}

/* Warnings are counted, never printed; running out of data is remembered as truncation. Other warnings
 * (extraneous bytes before a marker, common in camera files) leave a correct image. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  /* trace messages */
    tessera_jpeg_reader *reader = (tessera_jpeg_reader *)cinfo->client_data;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) reader->truncated = 1;
    cinfo->err->num_warnings++;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* After jpeg_read_header with APP2 markers saved. A broken chunk sequence only loses the profile. */
static void read_colour(j_decompress_ptr cinfo, tessera_jpeg_colour *colour) {
    JOCTET *icc = NULL;
    unsigned int icc_size = 0;
    if (!jpeg_read_icc_profile(cinfo, &icc, &icc_size)) {
        icc = NULL;
        icc_size = 0;
    }
    colour->icc = icc;
    colour->icc_size = icc_size;
    colour->is_cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    colour->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
}

tessera_image_status tessera_jpeg_read_colour(const uint8_t *data, size_t size, tessera_jpeg_colour *colour,
                                              char *message, size_t message_size) {
    memset(colour, 0, sizeof(*colour));
    /* The reader struct only for its error handling; nothing is decoded. */
    tessera_jpeg_reader *reader = calloc(1, sizeof(*reader));
    if (reader == NULL) {
        copy_message(message, message_size, "out of memory");
        return TESSERA_IMAGE_SYSTEM;
    }
    reader->cinfo.err = jpeg_std_error(&reader->error_manager);
    reader->error_manager.error_exit = on_error_exit;
    reader->error_manager.emit_message = on_emit_message;
    reader->error_manager.output_message = on_output_message;
    reader->cinfo.client_data = reader;
    if (setjmp(reader->jump)) {
        tessera_image_status status = reader->truncated ? TESSERA_IMAGE_TRUNCATED : TESSERA_IMAGE_ERROR;
        copy_message(message, message_size, reader->message);
        jpeg_destroy_decompress(&reader->cinfo);
        free(reader);
        return status;
    }
    jpeg_create_decompress(&reader->cinfo);
    jpeg_mem_src(&reader->cinfo, data, (unsigned long)size);
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&reader->cinfo, TRUE);
    read_colour(&reader->cinfo, colour);
    jpeg_destroy_decompress(&reader->cinfo);
    free(reader);
    return TESSERA_IMAGE_OK;
}

tessera_jpeg_reader *tessera_jpeg_open(int fd, tessera_image_info *info, tessera_image_status *status,
                                       char *message, size_t message_size) {
    tessera_jpeg_reader *reader = calloc(1, sizeof(*reader));
    if (reader == NULL) {
        close(fd);
        *status = TESSERA_IMAGE_SYSTEM;
        copy_message(message, message_size, "out of memory");
        return NULL;
    }
    reader->file = fdopen(fd, "rb");
    if (reader->file == NULL) {
        *status = TESSERA_IMAGE_SYSTEM;
        copy_message(message, message_size, strerror(errno));
        close(fd);
        free(reader);
        return NULL;
    }
    reader->cinfo.err = jpeg_std_error(&reader->error_manager);
    reader->error_manager.error_exit = on_error_exit;
    reader->error_manager.emit_message = on_emit_message;
    reader->error_manager.output_message = on_output_message;
    reader->cinfo.client_data = reader;
    if (setjmp(reader->jump)) {
        *status = reader->truncated ? TESSERA_IMAGE_TRUNCATED : TESSERA_IMAGE_ERROR;
        copy_message(message, message_size, reader->message);
        tessera_jpeg_close(reader);
        return NULL;
    }
    jpeg_create_decompress(&reader->cinfo);
    jpeg_stdio_src(&reader->cinfo, reader->file);
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&reader->cinfo, TRUE);
    read_colour(&reader->cinfo, &reader->colour);

    /* CMYK and YCCK cannot be converted to RGB by libjpeg: they are read as CMYK, for the caller. */
    J_COLOR_SPACE space = reader->cinfo.jpeg_color_space;
    reader->cinfo.out_color_space = reader->colour.is_cmyk ? JCS_CMYK : JCS_EXT_BGRA;

    info->width = (int)reader->cinfo.image_width;
    info->height = (int)reader->cinfo.image_height;
    info->is_grayscale = space == JCS_GRAYSCALE;
    info->has_alpha = 0;
    info->needs_whole_image = jpeg_has_multiple_scans(&reader->cinfo) ? 1 : 0;
    *status = TESSERA_IMAGE_OK;
    return reader;
}

void tessera_jpeg_colour_of(const tessera_jpeg_reader *reader, tessera_jpeg_colour *colour) {
    *colour = reader->colour;
}

tessera_image_status tessera_jpeg_read_rows(tessera_jpeg_reader *reader, uint8_t *first_row, size_t stride,
                                            int count) {
    if (setjmp(reader->jump)) {
        return reader->truncated ? TESSERA_IMAGE_TRUNCATED : TESSERA_IMAGE_ERROR;
    }
    if (!reader->started) {
        jpeg_start_decompress(&reader->cinfo);
        reader->started = 1;
    }
    int done = 0;
    while (done < count) {
        JSAMPROW rows[16];
        int wanted = count - done < 16 ? count - done : 16;
        for (int i = 0; i < wanted; i++) rows[i] = first_row + (size_t)(done + i) * stride;
        JDIMENSION got = jpeg_read_scanlines(&reader->cinfo, rows, (JDIMENSION)wanted);
        if (reader->truncated) {
            copy_message(reader->message, sizeof(reader->message), "Premature end of JPEG file");
            return TESSERA_IMAGE_TRUNCATED;
        }
        if (got == 0) {
            copy_message(reader->message, sizeof(reader->message), "no more scanlines");
            return TESSERA_IMAGE_ERROR;
        }
        done += (int)got;
    }
    return TESSERA_IMAGE_OK;
}

tessera_image_status tessera_jpeg_finish(tessera_jpeg_reader *reader) {
    if (setjmp(reader->jump)) {
        return reader->truncated ? TESSERA_IMAGE_TRUNCATED : TESSERA_IMAGE_ERROR;
    }
    if (reader->started) jpeg_finish_decompress(&reader->cinfo);
    reader->started = 0;
    if (reader->truncated) {
        copy_message(reader->message, sizeof(reader->message), "Premature end of JPEG file");
        return TESSERA_IMAGE_TRUNCATED;
    }
    return TESSERA_IMAGE_OK;
}

const char *tessera_jpeg_message(const tessera_jpeg_reader *reader) { return reader->message; }

void tessera_jpeg_close(tessera_jpeg_reader *reader) {
    if (reader == NULL) return;
    /* jpeg_destroy never raises an error. */
    jpeg_destroy_decompress(&reader->cinfo);
    if (reader->file != NULL) fclose(reader->file);
    free(reader->colour.icc);
    free(reader);
}

/* A libjpeg source reading a descriptor with pread from offset 0, so readers of one descriptor on
 * several threads do not share a file position. */
typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    off_t offset;
    JOCTET buffer[1 << 16];
} pread_source;

static void pread_init(j_decompress_ptr cinfo) { (void)cinfo; }

static void pread_term(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean pread_fill(j_decompress_ptr cinfo) {
    pread_source *source = (pread_source *)cinfo->src;
    ssize_t got;
    do {
        got = pread(source->fd, source->buffer, sizeof(source->buffer), source->offset);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) {
        /* As libjpeg's own sources do at the end of the data: warn (recorded as truncation) and end the image. */
        WARNMS(cinfo, JWRN_JPEG_EOF);
        source->buffer[0] = (JOCTET)0xFF;
        source->buffer[1] = (JOCTET)JPEG_EOI;
        got = 2;
    } else {
        source->offset += got;
    }
    source->pub.next_input_byte = source->buffer;
    source->pub.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void pread_skip(j_decompress_ptr cinfo, long count) {
    pread_source *source = (pread_source *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= source->pub.bytes_in_buffer) {
        source->pub.next_input_byte += count;
        source->pub.bytes_in_buffer -= (size_t)count;
    } else {
        source->offset += (off_t)((size_t)count - source->pub.bytes_in_buffer);
        source->pub.bytes_in_buffer = 0;
    }
}

tessera_image_status tessera_jpeg_read_region(int fd, int denominator, int x, int y, int width, int height,
                                              uint8_t *pixels, tessera_jpeg_colour *colour,
                                              char *message, size_t message_size) {
    memset(colour, 0, sizeof(*colour));
    if ((denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) || x < 0 || y < 0
        || width <= 0 || height <= 0) {
        copy_message(message, message_size, "no such part");
        return TESSERA_IMAGE_ERROR;
    }
    tessera_jpeg_reader *reader = calloc(1, sizeof(*reader));
    pread_source *source = calloc(1, sizeof(*source));
    /* Set after setjmp and read after a longjmp back to it: volatile, so the value is not a stale register. */
    uint8_t *volatile row = NULL;
    if (reader == NULL || source == NULL) {
        free(reader);
        free(source);
        copy_message(message, message_size, "out of memory");
        return TESSERA_IMAGE_SYSTEM;
    }
    source->fd = fd;
    source->pub.init_source = pread_init;
    source->pub.fill_input_buffer = pread_fill;
    source->pub.skip_input_data = pread_skip;
    source->pub.resync_to_restart = jpeg_resync_to_restart;
    source->pub.term_source = pread_term;
    reader->cinfo.err = jpeg_std_error(&reader->error_manager);
    reader->error_manager.error_exit = on_error_exit;
    reader->error_manager.emit_message = on_emit_message;
    reader->error_manager.output_message = on_output_message;
    reader->cinfo.client_data = reader;
    tessera_image_status status = TESSERA_IMAGE_OK;
    if (setjmp(reader->jump)) {
        status = reader->truncated ? TESSERA_IMAGE_TRUNCATED : TESSERA_IMAGE_ERROR;
        copy_message(message, message_size, reader->message);
        goto done;
    }
    jpeg_create_decompress(&reader->cinfo);
    reader->cinfo.src = &source->pub;
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&reader->cinfo, TRUE);
    read_colour(&reader->cinfo, colour);
    if (jpeg_has_multiple_scans(&reader->cinfo)) {
        status = TESSERA_IMAGE_ERROR;
        copy_message(message, message_size, "a progressive JPEG is decoded whole, not in parts");
        goto done;
    }
    reader->cinfo.out_color_space = colour->is_cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    reader->cinfo.scale_num = 1;
    reader->cinfo.scale_denom = (unsigned int)denominator;
    jpeg_start_decompress(&reader->cinfo);
    reader->started = 1;
    if ((JDIMENSION)x + (JDIMENSION)width > reader->cinfo.output_width
        || (JDIMENSION)y + (JDIMENSION)height > reader->cinfo.output_height) {
        status = TESSERA_IMAGE_ERROR;
        copy_message(message, message_size, "the part reaches past the image");
        goto done;
    }
    /* libjpeg crops to whole blocks: it may widen the part to the left and right. It upsamples chroma at the
     * crop's edges as at the image's, so one block more is asked for on each side, for the part's first
     * and last columns to be upsampled with their true neighbours. */
    JDIMENSION block = (JDIMENSION)(reader->cinfo.max_h_samp_factor * reader->cinfo.min_DCT_scaled_size);
    JDIMENSION left = (JDIMENSION)x > block ? (JDIMENSION)x - block : 0;
    JDIMENSION right = (JDIMENSION)x + (JDIMENSION)width + block;
    if (right > reader->cinfo.output_width) right = reader->cinfo.output_width;
    JDIMENSION first = left, count = right - left;
    jpeg_crop_scanline(&reader->cinfo, &first, &count);
    row = malloc((size_t)count * 4);
    if (row == NULL) {
        status = TESSERA_IMAGE_SYSTEM;
        copy_message(message, message_size, "out of memory");
        goto done;
    }
    if (y > 0) jpeg_skip_scanlines(&reader->cinfo, (JDIMENSION)y);
    for (int line = 0; line < height; line++) {
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&reader->cinfo, rows, 1) != 1) {
            status = TESSERA_IMAGE_ERROR;
            copy_message(message, message_size, "no more scanlines");
            goto done;
        }
        memcpy(pixels + (size_t)line * (size_t)width * 4, row + (size_t)((JDIMENSION)x - first) * 4, (size_t)width * 4);
    }
    if (reader->truncated) {
        status = TESSERA_IMAGE_PADDED;
        copy_message(message, message_size, "Premature end of JPEG file");
    }
done:
    /* The rows below the part are never decoded: the decode is abandoned, not finished. */
    jpeg_destroy_decompress(&reader->cinfo);
    free(row);
    free(source);
    free(reader);
    if (status != TESSERA_IMAGE_OK && status != TESSERA_IMAGE_PADDED) {
        free(colour->icc);
        colour->icc = NULL;
        colour->icc_size = 0;
    }
    return status;
}
