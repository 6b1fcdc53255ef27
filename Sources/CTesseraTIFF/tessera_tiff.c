#include "tessera_tiff.h"
