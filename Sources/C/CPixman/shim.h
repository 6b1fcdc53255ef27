#ifndef TESSERA_CPIXMAN_SHIM_H
#define TESSERA_CPIXMAN_SHIM_H
#include <pixman.h>
#endif
