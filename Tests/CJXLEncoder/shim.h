#ifndef TESSERA_CJXL_ENCODER_SHIM_H
#define TESSERA_CJXL_ENCODER_SHIM_H
/* libjxl's encoder, for tests that write files cjxl cannot (CMYK with a black channel). */
#include <jxl/encode.h>
#endif
