#ifndef TESSERA_CHEIF_SHIM_H
#define TESSERA_CHEIF_SHIM_H
#include <libheif/heif.h>
#endif
