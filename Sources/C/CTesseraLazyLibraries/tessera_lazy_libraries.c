#define _GNU_SOURCE
#include "tessera_lazy_libraries.h"

#include <dlfcn.h>
#include <stdio.h>

static const char *const names[] = {
#include "generated/library-names.inc"
};

const char *tessera_lazy_library_name(int index) {
    return index >= 0 && (size_t)index < sizeof names / sizeof names[0] ? names[index] : NULL;
}

/* The stubs' loader. RTLD_NODELETE: the stubs close the library at exit, while a worker thread may still
 * be inside it; with it the library stays mapped until the process ends. On failure the stub aborts after
 * this line, which names the library and why. */
void *tessera_lazy_library_open(const char *soname) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_GLOBAL | RTLD_NODELETE);
    if (!handle) {
        const char *why = dlerror();
        fprintf(stderr, "tessera: cannot load %s: %s\n", soname, why ? why : "unknown error");
    }
    return handle;
}

int tessera_lazy_library_load(const char *soname) {
    return tessera_lazy_library_open(soname) ? 0 : -1;
}

int tessera_lazy_library_is_loaded(const char *soname) {
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
    if (!handle) return 0;
    dlclose(handle);
    return 1;
}
