#ifndef TESSERA_CRAW_SHIM_H
#define TESSERA_CRAW_SHIM_H
#include <libraw/libraw.h>
#endif
