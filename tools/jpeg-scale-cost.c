/* What libjpeg-turbo costs to decode a JPEG at 1/1, 1/2, 1/4 and 1/8 of its size, to RGBA, the best of 5
 * runs each (docs/PERFORMANCE-open.md): ./jpeg-scale-cost FILE.jpg. A progressive JPEG's decode at any
 * scale holds and entropy-decodes every coefficient; the scaled IDCT saves the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <jpeglib.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
    unsigned char *data = malloc(n);
    if (fread(data, 1, n, f) != (size_t)n) return 2;
    fclose(f);
    for (unsigned denominator = 1; denominator <= 8; denominator *= 2) {
        double best = 1e9;
        unsigned width = 0, height = 0;
        for (int run = 0; run < 5; run++) {
            struct jpeg_decompress_struct info;
            struct jpeg_error_mgr errors;
            info.err = jpeg_std_error(&errors);
            jpeg_create_decompress(&info);
            jpeg_mem_src(&info, data, n);
            jpeg_read_header(&info, TRUE);
            info.scale_num = 1;
            info.scale_denom = denominator;
            info.out_color_space = JCS_EXT_RGBA;
            double start = now_ms();
            jpeg_start_decompress(&info);
            width = info.output_width; height = info.output_height;
            unsigned char *pixels = malloc((size_t)width * height * 4);
            while (info.output_scanline < height) {
                unsigned char *row = pixels + (size_t)info.output_scanline * width * 4;
                jpeg_read_scanlines(&info, &row, 1);
            }
            jpeg_finish_decompress(&info);
            double took = now_ms() - start;
            if (took < best) best = took;
            jpeg_destroy_decompress(&info);
            free(pixels);
        }
        printf("1/%u (%ux%u): %.1f ms\n", denominator, width, height, best);
    }
    free(data);
    return 0;
}
