#ifndef TESSERA_CEXEMPI_SHIM_H
#define TESSERA_CEXEMPI_SHIM_H
/* Exempi: Adobe's XMP toolkit behind a C interface, for the star ratings in XMP sidecars. */
#include <exempi/xmp.h>
#endif
