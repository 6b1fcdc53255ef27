#ifndef TESSERA_CCRYPTO_SHIM_H
#define TESSERA_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto, for the one digest Tessera needs: MD5 names cache files. */
#include <openssl/evp.h>
#endif
