#ifndef TESSERA_FILES_H
#define TESSERA_FILES_H

/* The Linux file and memory calls Swift's Glibc module does not show: glibc declares them only under _GNU_SOURCE,
 * which a Swift module cannot define for a system header. Each is a direct call, no policy here.
 * Every function returns what the system call returns, with errno set on failure. */

#ifdef __cplusplus
extern "C" {
#endif

/* rename(2) that fails with EEXIST instead of replacing what is at `to` (renameat2, RENAME_NOREPLACE).
 * A file system that cannot do this answers EINVAL (or ENOSYS on an old kernel). */
int tessera_rename_noreplace(const char *from, const char *to);

/* pipe(2) with both ends close-on-exec from the start (pipe2, O_CLOEXEC), so a process another thread
 * spawns meanwhile does not inherit them. fds[0] reads, fds[1] writes. */
int tessera_pipe_cloexec(int fds[2]);

/* mallopt(M_MMAP_THRESHOLD, bytes): allocations of at least `bytes` get mappings of their own, given
 * back to the system when freed (malloc.h is not in Swift's Glibc module). Returns 1 on success. */
int tessera_set_mmap_threshold(int bytes);

/* flistxattr(2), fgetxattr(2), fsetxattr(2) (sys/xattr.h is not in Swift's Glibc module): a file's
 * extended attributes, ACLs among them (system.posix_acl_access), read from one descriptor and written
 * to another. */
long tessera_flistxattr(int fd, char *names, unsigned long size);
long tessera_fgetxattr(int fd, const char *name, void *value, unsigned long size);
int tessera_fsetxattr(int fd, const char *name, const void *value, unsigned long size);

/* memmem(3): the first `needle_length` bytes of `needle` in `haystack`, or NULL. */
void *tessera_memmem(const void *haystack, unsigned long haystack_length, const void *needle, unsigned long needle_length);

#ifdef __cplusplus
}
#endif

#endif
