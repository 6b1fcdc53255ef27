/* libpng row reader and encoder with errors trapped by setjmp (see tessera_jpeg.h for why). One file
 * because both halves share the setjmp error trap and libpng's memory callbacks. */

#include "tessera_jpeg.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <png.h>

struct tessera_png_reader {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    FILE *file;
    int width, height;
    int interlaced;
    /* The whole image of an interlaced PNG, decoded on the first read. */
    uint8_t *whole;
    png_bytep *whole_rows;
    int next_row;
    /* 16-bit R, G, B, A rows instead of 8-bit B, G, R, A. */
    int wide;
    char message[256];
};

static void copy_text(char *dest, size_t size, const char *text) {
    if (dest == NULL || size == 0) return;
    snprintf(dest, size, "%s", text);
}

/* libpng must not get control back from an error: return to the setjmp point of the current call. */
static void on_png_error(png_structp png, png_const_charp text) {
    tessera_png_reader *reader = (tessera_png_reader *)png_get_error_ptr(png);
    copy_text(reader->message, sizeof(reader->message), text);
    longjmp(reader->jump, 1);
}

static void on_png_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static tessera_png_reader *finish_open(tessera_png_reader *reader, tessera_image_info *info,
                                       tessera_image_status *status, char *message, size_t message_size);

/* libpng's stdio reader says only "Read Error" when the file ends early. */
static tessera_image_status failure_status(tessera_png_reader *reader) {
    if (reader->file != NULL && feof(reader->file)) return TESSERA_IMAGE_TRUNCATED;
    return TESSERA_IMAGE_ERROR;
}

tessera_png_reader *tessera_png_open(int fd, tessera_image_info *info, tessera_image_status *status,
                                     char *message, size_t message_size) {
    tessera_png_reader *reader = calloc(1, sizeof(*reader));
    if (reader == NULL) {
        close(fd);
        *status = TESSERA_IMAGE_SYSTEM;
        copy_text(message, message_size, "out of memory");
        return NULL;
    }
    reader->file = fdopen(fd, "rb");
    if (reader->file == NULL) {
        *status = TESSERA_IMAGE_SYSTEM;
        copy_text(message, message_size, strerror(errno));
        close(fd);
        free(reader);
        return NULL;
    }
    return finish_open(reader, info, status, message, message_size);
}

static tessera_png_reader *open_memory(const uint8_t *data, size_t size, int wide, tessera_image_info *info,
                                       tessera_image_status *status, char *message, size_t message_size);

tessera_png_reader *tessera_png_open_memory(const uint8_t *data, size_t size, tessera_image_info *info,
                                            tessera_image_status *status, char *message, size_t message_size) {
    return open_memory(data, size, 0, info, status, message, message_size);
}

tessera_png_reader *tessera_png_open_memory_wide(const uint8_t *data, size_t size, tessera_image_info *info,
                                                 tessera_image_status *status, char *message, size_t message_size) {
    return open_memory(data, size, 1, info, status, message, message_size);
}

static tessera_png_reader *open_memory(const uint8_t *data, size_t size, int wide, tessera_image_info *info,
                                       tessera_image_status *status, char *message, size_t message_size) {
    tessera_png_reader *reader = calloc(1, sizeof(*reader));
    if (reader == NULL) {
        *status = TESSERA_IMAGE_SYSTEM;
        copy_text(message, message_size, "out of memory");
        return NULL;
    }
    reader->wide = wide;
    /* A read-only stream over the caller's bytes, so the stdio reader (and its end-of-file test for
     * truncation) serves both sources. */
    reader->file = size > 0 ? fmemopen((void *)data, size, "rb") : NULL;
    if (reader->file == NULL) {
        *status = size > 0 ? TESSERA_IMAGE_SYSTEM : TESSERA_IMAGE_TRUNCATED;
        copy_text(message, message_size, size > 0 ? strerror(errno) : "empty data");
        free(reader);
        return NULL;
    }
    return finish_open(reader, info, status, message, message_size);
}

/* The rest of opening, once `reader->file` is set: header, transforms to BGRA, size checks. */
static tessera_png_reader *finish_open(tessera_png_reader *reader, tessera_image_info *info,
                                       tessera_image_status *status, char *message, size_t message_size) {
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_png_error, on_png_warning);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        *status = TESSERA_IMAGE_SYSTEM;
        copy_text(message, message_size, "out of memory");
        tessera_png_close(reader);
        return NULL;
    }
    if (setjmp(reader->jump)) {
        *status = failure_status(reader);
        copy_text(message, message_size, reader->message);
        tessera_png_close(reader);
        return NULL;
    }
    png_init_io(reader->png, reader->file);
    /* Images are limited by the caller's pixel arithmetic, not libpng's default 1,000,000 columns. */
    png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
    png_read_info(reader->png, reader->info);

    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(reader->png, reader->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    int has_trns = png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    int has_alpha = (color & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    int grey = (color & PNG_COLOR_MASK_COLOR) == 0;

    /* Everything to 8-bit B, G, R, A: palettes and low bit depths expanded, tRNS to alpha, 16-bit
     * samples rounded to the nearest 8-bit level (v * 255 / 65535; keeping the high byte would be up to a
     * level too bright). */
    png_set_expand(reader->png);
    if (reader->wide) {
        /* 16-bit R, G, B, A in the machine's byte order. */
        png_set_expand_16(reader->png);
        if (grey) png_set_gray_to_rgb(reader->png);
        if (!has_alpha) png_set_filler(reader->png, 0xFFFF, PNG_FILLER_AFTER);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        png_set_swap(reader->png); /* PNG stores samples big-endian */
#endif
    } else {
        png_set_scale_16(reader->png);
        if (grey) png_set_gray_to_rgb(reader->png);
        png_set_bgr(reader->png);
        if (!has_alpha) png_set_filler(reader->png, 0xFF, PNG_FILLER_AFTER);
    }
    reader->interlaced = interlace != PNG_INTERLACE_NONE;
    if (reader->interlaced) png_set_interlace_handling(reader->png);
    png_read_update_info(reader->png, reader->info);
    if (png_get_rowbytes(reader->png, reader->info) != (size_t)width * (reader->wide ? 8 : 4)) {
        *status = TESSERA_IMAGE_ERROR;
        copy_text(message, message_size, "unexpected PNG row layout");
        tessera_png_close(reader);
        return NULL;
    }

    reader->width = (int)width;
    reader->height = (int)height;
    info->width = (int)width;
    info->height = (int)height;
    info->is_grayscale = grey;
    info->has_alpha = has_alpha;
    info->needs_whole_image = reader->interlaced;
    *status = TESSERA_IMAGE_OK;
    return reader;
}

tessera_image_status tessera_png_read_rows(tessera_png_reader *reader, uint8_t *first_row, size_t stride,
                                           int count) {
    if (setjmp(reader->jump)) return failure_status(reader);
    size_t row_bytes = (size_t)reader->width * (reader->wide ? 8 : 4);
    if (reader->interlaced && reader->whole == NULL) {
        /* Both live in the reader, so a longjmp out of png_read_image cannot leak them. */
        reader->whole = malloc(row_bytes * (size_t)reader->height);
        reader->whole_rows = malloc(sizeof(png_bytep) * (size_t)reader->height);
        if (reader->whole == NULL || reader->whole_rows == NULL) {
            copy_text(reader->message, sizeof(reader->message), "out of memory");
            return TESSERA_IMAGE_SYSTEM;
        }
        for (int y = 0; y < reader->height; y++) reader->whole_rows[y] = reader->whole + row_bytes * (size_t)y;
        png_read_image(reader->png, reader->whole_rows);
    }
    for (int i = 0; i < count; i++) {
        if (reader->next_row >= reader->height) {
            copy_text(reader->message, sizeof(reader->message), "no more rows");
            return TESSERA_IMAGE_ERROR;
        }
        uint8_t *dest = first_row + (size_t)i * stride;
        if (reader->whole != NULL) {
            memcpy(dest, reader->whole + row_bytes * (size_t)reader->next_row, row_bytes);
        } else {
            png_read_row(reader->png, dest, NULL);
        }
        reader->next_row++;
    }
    return TESSERA_IMAGE_OK;
}

tessera_image_status tessera_png_finish(tessera_png_reader *reader) {
    if (reader->next_row < reader->height) {
        copy_text(reader->message, sizeof(reader->message), "rows left unread");
        return TESSERA_IMAGE_ERROR;
    }
    if (setjmp(reader->jump)) return failure_status(reader);
    /* The same info struct, so text chunks after the image data join those read before it. */
    png_read_end(reader->png, reader->info);
    return TESSERA_IMAGE_OK;
}

int tessera_png_text_count(const tessera_png_reader *reader) {
    png_textp text = NULL;
    return png_get_text(reader->png, reader->info, &text, NULL);
}

void tessera_png_text_at(const tessera_png_reader *reader, int index, const char **keyword, const char **text,
                         int *is_utf8) {
    png_textp chunks = NULL;
    int count = png_get_text(reader->png, reader->info, &chunks, NULL);
    if (index < 0 || index >= count) {
        *keyword = "";
        *text = "";
        *is_utf8 = 0;
        return;
    }
    *keyword = chunks[index].key;
    *text = chunks[index].text != NULL ? chunks[index].text : "";
    *is_utf8 = chunks[index].compression == PNG_ITXT_COMPRESSION_NONE
        || chunks[index].compression == PNG_ITXT_COMPRESSION_zTXt;
}

int tessera_png_icc_profile(const tessera_png_reader *reader, const uint8_t **data, size_t *size) {
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(reader->png, reader->info, &name, &compression, &profile, &length) != PNG_INFO_iCCP
        || profile == NULL || length == 0) {
        return 0;
    }
    *data = profile;
    *size = length;
    return 1;
}

const char *tessera_png_message(const tessera_png_reader *reader) { return reader->message; }

void tessera_png_close(tessera_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    if (reader->file != NULL) fclose(reader->file);
    free(reader->whole);
    free(reader->whole_rows);
    free(reader);
}

/* ---- Encoding ---- */

typedef struct {
    jmp_buf jump;
    uint8_t *data;
    size_t size, capacity;
    int out_of_memory;
    char message[256];
} png_sink;

static void on_sink_error(png_structp png, png_const_charp text) {
    png_sink *sink = (png_sink *)png_get_error_ptr(png);
    copy_text(sink->message, sizeof(sink->message), text);
    longjmp(sink->jump, 1);
}

static void on_sink_write(png_structp png, png_bytep bytes, png_size_t length) {
    png_sink *sink = (png_sink *)png_get_io_ptr(png);
    if (sink->size + length > sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity : 16384;
        while (capacity < sink->size + length) capacity *= 2;
        uint8_t *grown = realloc(sink->data, capacity);
        if (grown == NULL) {
            sink->out_of_memory = 1;
            png_error(png, "out of memory");
        }
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->size, bytes, length);
    sink->size += length;
}

static void on_sink_flush(png_structp png) { (void)png; }

tessera_image_status tessera_png_encode(const uint8_t *bgra, size_t stride, int width, int height, int channels,
                                        int compression_level, int filter_rows, const tessera_png_text *text,
                                        int text_count, uint8_t **out, size_t *out_size, char *message,
                                        size_t message_size) {
    static const int color_types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                       PNG_COLOR_TYPE_RGB_ALPHA};
    if (channels < 1 || channels > 4 || width <= 0 || height <= 0 || text_count < 0) {
        copy_text(message, message_size, "invalid PNG image");
        return TESSERA_IMAGE_ERROR;
    }
    png_sink *sink = calloc(1, sizeof(*sink));
    uint8_t *row = malloc((size_t)width * (size_t)channels);
    png_structp png = NULL;
    png_infop info = NULL;
    if (sink != NULL && row != NULL) png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink, on_sink_error, on_png_warning);
    if (png != NULL) info = png_create_info_struct(png);
    if (info == NULL) {
        if (png != NULL) png_destroy_write_struct(&png, NULL);
        free(row);
        free(sink);
        copy_text(message, message_size, "out of memory");
        return TESSERA_IMAGE_SYSTEM;
    }
    if (setjmp(sink->jump)) {
        tessera_image_status status = sink->out_of_memory ? TESSERA_IMAGE_SYSTEM : TESSERA_IMAGE_ERROR;
        copy_text(message, message_size, sink->message);
        png_destroy_write_struct(&png, &info);
        free(sink->data);
        free(row);
        free(sink);
        return status;
    }
    png_set_write_fn(png, sink, on_sink_write, on_sink_flush);
    png_set_compression_level(png, compression_level);
    if (!filter_rows) png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, color_types[channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    for (int i = 0; i < text_count; i++) {
        /* libpng copies the strings; the casts only drop const from its older prototype. */
        png_text chunk;
        memset(&chunk, 0, sizeof(chunk));
        chunk.compression = PNG_TEXT_COMPRESSION_NONE;
        chunk.key = (png_charp)text[i].keyword;
        chunk.text = (png_charp)text[i].text;
        png_set_text(png, info, &chunk, 1);
    }
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        const uint8_t *p = bgra + (size_t)y * stride;
        uint8_t *q = row;
        switch (channels) {
        case 1:
            for (int x = 0; x < width; x++, p += 4) *q++ = p[1];
            break;
        case 2:
            for (int x = 0; x < width; x++, p += 4) { *q++ = p[1]; *q++ = p[3]; }
            break;
        case 3:
            for (int x = 0; x < width; x++, p += 4) { *q++ = p[2]; *q++ = p[1]; *q++ = p[0]; }
            break;
        default:
            for (int x = 0; x < width; x++, p += 4) { *q++ = p[2]; *q++ = p[1]; *q++ = p[0]; *q++ = p[3]; }
            break;
        }
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    *out = sink->data;
    *out_size = sink->size;
    free(sink);
    return TESSERA_IMAGE_OK;
}
