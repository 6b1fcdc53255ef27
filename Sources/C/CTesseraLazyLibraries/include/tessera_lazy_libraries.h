#ifndef TESSERA_LAZY_LIBRARIES_H
#define TESSERA_LAZY_LIBRARIES_H

/* The codec libraries that the viewer loads on first use rather than at start (see
 * tools/lazy-libraries.py): loading them costs more than the rest of the start together (their
 * constructors and those of their dependencies), and a viewer that shows JPEGs never calls them in its own
 * process, since its decode helpers decode. A helper loads the ones it needs before its system call filter
 * forbids opening files. */

#ifdef __cplusplus
extern "C" {
#endif

/* The soname of the library at `index`, from 0; NULL past the last. */
const char *tessera_lazy_library_name(int index);

/* Loads the library now, as its first call would; 0, or -1 after one line on stderr. Loading one already
 * loaded opens nothing. */
int tessera_lazy_library_load(const char *soname);

/* Whether the library is in this process. */
int tessera_lazy_library_is_loaded(const char *soname);

#ifdef __cplusplus
}
#endif

#endif
