#ifndef TESSERA_CPNG_SHIM_H
#define TESSERA_CPNG_SHIM_H
#include <png.h>
#endif
