#ifndef TESSERA_CLCMS2_SHIM_H
#define TESSERA_CLCMS2_SHIM_H
#include <lcms2.h>
#endif
