#ifndef TESSERA_CGOBJECT_SHIM_H
#define TESSERA_CGOBJECT_SHIM_H
#include <glib-object.h>
#endif
