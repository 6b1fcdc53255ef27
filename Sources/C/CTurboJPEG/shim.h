#ifndef TESSERA_CTURBOJPEG_SHIM_H
#define TESSERA_CTURBOJPEG_SHIM_H
#include <stdio.h>
#include <turbojpeg.h>
#include <jpeglib.h>
#endif
