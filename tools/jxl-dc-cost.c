/* What libjxl 0.7 costs to stop at a lossy frame's DC (1/8) image against decoding the whole frame, both
 * to RGBA8 on one thread (docs/FORMATS.md): ./jxl-dc-cost FILE whole|dc, counted by callgrind. */
#include <jxl/decode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    int dc = strcmp(argv[2], "dc") == 0;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(n);
    if (fread(data, 1, n, f) != (size_t)n) return 2;
    fclose(f);
    JxlDecoder *dec = JxlDecoderCreate(NULL);
    int events = JXL_DEC_BASIC_INFO | JXL_DEC_FULL_IMAGE | (dc ? JXL_DEC_FRAME_PROGRESSION : 0);
    JxlDecoderSubscribeEvents(dec, events);
    if (dc) JxlDecoderSetProgressiveDetail(dec, kDC);
    JxlDecoderSetInput(dec, data, n);
    JxlDecoderCloseInput(dec);
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlBasicInfo info;
    unsigned char *pixels = NULL;
    for (;;) {
        JxlDecoderStatus s = JxlDecoderProcessInput(dec);
        if (s == JXL_DEC_BASIC_INFO) {
            JxlDecoderGetBasicInfo(dec, &info);
        } else if (s == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t size;
            JxlDecoderImageOutBufferSize(dec, &format, &size);
            pixels = malloc(size);
            JxlDecoderSetImageOutBuffer(dec, &format, pixels, size);
        } else if (s == JXL_DEC_FRAME_PROGRESSION) {
            if (JxlDecoderFlushImage(dec) != JXL_DEC_SUCCESS) { fprintf(stderr, "flush failed\n"); return 1; }
            printf("DC image flushed at %ux%u\n", info.xsize, info.ysize);
            break;
        } else if (s == JXL_DEC_FULL_IMAGE) {
            printf("whole frame %ux%u\n", info.xsize, info.ysize);
        } else if (s == JXL_DEC_SUCCESS) {
            break;
        } else {
            fprintf(stderr, "status %d\n", s); return 1;
        }
    }
    JxlDecoderDestroy(dec);
    free(pixels); free(data);
    return 0;
}
