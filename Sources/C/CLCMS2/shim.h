#ifndef TESSERA_CLCMS2_SHIM_H
#define TESSERA_CLCMS2_SHIM_H
#include <lcms2.h>

/* lcms2 builds its pixel formats with function-like macros, which Swift cannot import: the ones Tessera
 * uses, as constants. */

/* ARGB8888 on little-endian machines: B, G, R, A bytes. */
static const cmsUInt32Number TESSERA_TYPE_BGRA_8 = TYPE_BGRA_8;
/* A grey image expanded to BGRA (B = G = R): the grey is read from the first byte of each pixel, the
 * other three are skipped. */
static const cmsUInt32Number TESSERA_TYPE_GRAY_8_IN_BGRA =
    COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3);
/* C, M, Y, K bytes, 0 = no ink (TIFF's usual ink set). */
static const cmsUInt32Number TESSERA_TYPE_CMYK_8 = TYPE_CMYK_8;
/* C, M, Y, K bytes, 255 = no ink: what Adobe's JPEGs store (APP14 "Adobe" marker). */
static const cmsUInt32Number TESSERA_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
/* R, G, B floats: for reading a linear-light matrix out of a transform. */
static const cmsUInt32Number TESSERA_TYPE_RGB_FLT = TYPE_RGB_FLT;

#endif
