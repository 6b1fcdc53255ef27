#include "tessera_glib.h"
#include <librsvg/rsvg.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
int tessera_glib_probe(void) { RsvgHandle *h = rsvg_handle_new(); g_object_unref(h); GdkPixbufLoader *l = gdk_pixbuf_loader_new(); g_object_unref(l); return 0; }
