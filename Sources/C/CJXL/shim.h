#ifndef TESSERA_CJXL_SHIM_H
#define TESSERA_CJXL_SHIM_H
#include <jxl/decode.h>
/* The encoder, for tests that write files cjxl cannot (CMYK with a black channel). */
#include <jxl/encode.h>
#endif
