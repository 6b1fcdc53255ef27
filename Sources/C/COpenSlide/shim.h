#ifndef TESSERA_COPENSLIDE_SHIM_H
#define TESSERA_COPENSLIDE_SHIM_H
#include <openslide/openslide.h>
#endif
