/* Writes a WIDTH x HEIGHT photo-like picture (smooth bands of colour with a little noise, so it compresses
 * as a photograph does, about 2 bits a pixel at quality 90) as binary PPM to standard output, one row at a
 * time, so pictures larger than memory can be made. The large JPEGs bench/view-memory.py measures:
 *
 *     cc -O2 -o /tmp/make-large-jpeg tools/make-large-jpeg.c -lm
 *     /tmp/make-large-jpeg 12000 8000 | cjpeg -quality 90 > /tmp/photo-12000x8000.jpg
 *     /tmp/make-large-jpeg 20480 11520 | cjpeg -quality 90 > /tmp/giant-20480x11520.jpg
 *
 * cjpeg is in libjpeg-turbo-progs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned char clamp(double v) { return v < 0 ? 0 : v > 255 ? 255 : (unsigned char)v; }

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s WIDTH HEIGHT > picture.ppm\n", argv[0]);
        return 2;
    }
    int width = atoi(argv[1]), height = atoi(argv[2]);
    if (width <= 0 || height <= 0) {
        fprintf(stderr, "width and height must be positive\n");
        return 2;
    }
    unsigned char *row = malloc((size_t)width * 3);
    if (row == NULL) return 1;
    unsigned seed = 12345;
    printf("P6\n%d %d\n255\n", width, height);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            seed = seed * 1103515245u + 12345u;
            int noise = (int)((seed >> 16) & 15) - 8;
            double fx = (double)x / width, fy = (double)y / height;
            unsigned char *p = row + 3 * (size_t)x;
            p[0] = clamp(128 + 100 * sin(fx * 37 + fy * 11) + noise);
            p[1] = clamp(128 + 100 * sin(fy * 23 - fx * 7) * cos(fx * 5) + noise);
            p[2] = clamp(128 + 100 * cos((fx - .5) * (fy - .5) * 900) + noise);
        }
        if (fwrite(row, 1, (size_t)width * 3, stdout) != (size_t)width * 3) return 1;
    }
    free(row);
    return 0;
}
