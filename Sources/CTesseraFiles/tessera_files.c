#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "tessera_files.h"

int tessera_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int tessera_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
