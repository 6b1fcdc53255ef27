#ifndef TESSERA_CWEBP_SHIM_H
#define TESSERA_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/demux.h>
#endif
