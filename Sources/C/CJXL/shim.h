#ifndef TESSERA_CJXL_SHIM_H
#define TESSERA_CJXL_SHIM_H
#include <jxl/decode.h>
#endif
