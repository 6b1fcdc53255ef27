#ifndef TESSERA_CAVIF_SHIM_H
#define TESSERA_CAVIF_SHIM_H
#include <avif/avif.h>
#endif
