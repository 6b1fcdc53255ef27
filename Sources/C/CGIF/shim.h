#ifndef TESSERA_CGIF_SHIM_H
#define TESSERA_CGIF_SHIM_H
#include <gif_lib.h>
#endif
