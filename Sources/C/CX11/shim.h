#ifndef TESSERA_CX11_SHIM_H
#define TESSERA_CX11_SHIM_H
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#endif
