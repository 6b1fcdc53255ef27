#include <stdint.h>
int tessera_glib_probe(void);
