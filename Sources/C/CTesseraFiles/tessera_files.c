#define _GNU_SOURCE
#include <malloc.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>

#include "tessera_files.h"

int tessera_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int tessera_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int tessera_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

long tessera_flistxattr(int fd, char *names, unsigned long size) {
    return flistxattr(fd, names, size);
}

long tessera_fgetxattr(int fd, const char *name, void *value, unsigned long size) {
    return fgetxattr(fd, name, value, size);
}

int tessera_fsetxattr(int fd, const char *name, const void *value, unsigned long size) {
    return fsetxattr(fd, name, value, size, 0);
}

void *tessera_memmem(const void *haystack, unsigned long haystack_length, const void *needle, unsigned long needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length);
}
