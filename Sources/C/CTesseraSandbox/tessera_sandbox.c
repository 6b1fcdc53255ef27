#define _GNU_SOURCE
#include "tessera_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/syscall.h>
#include <malloc.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int tessera_socketpair_cloexec(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
}

/* `fd` onto `target` in a forked child, or `target` closed when `fd` is -1. */
static void place(int fd, int target) {
    if (fd < 0) {
        close(target);
    } else if (fd == target) {
        fcntl(target, F_SETFD, 0);
    } else {
        dup2(fd, target);
    }
}

int tessera_fork_helper(int *socket_out, int keep_a, int keep_b) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(pair[0]);
        close(pair[1]);
        errno = saved;
        return -1;
    }
    if (pid > 0) {
        close(pair[1]);
        *socket_out = pair[0];
        return pid;
    }
    close(pair[0]);
    /* Out of the way of 3, 4 and 5 first, so no dup2 below overwrites one still to be moved. */
    int socket = fcntl(pair[1], F_DUPFD_CLOEXEC, 16);
    int a = keep_a < 0 ? -1 : fcntl(keep_a, F_DUPFD_CLOEXEC, 16);
    int b = keep_b < 0 ? -1 : fcntl(keep_b, F_DUPFD_CLOEXEC, 16);
    place(socket, 3);
    place(a, 4);
    place(b, 5);
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0 && null != 0) {
        dup2(null, 0);
        close(null);
    }
    dup2(2, 1);
    close_range(6, ~0U, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    return 0;
}

int tessera_send_with_fd(int socket, const void *bytes, size_t length, int fd) {
    const char *next = bytes;
    size_t left = length;
    int attach = fd >= 0;
    while (left > 0) {
        struct iovec io = { .iov_base = (void *)next, .iov_len = left };
        union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
        struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1 };
        if (attach) {
            memset(&control, 0, sizeof control);
            message.msg_control = control.buffer;
            message.msg_controllen = sizeof control.buffer;
            struct cmsghdr *header = CMSG_FIRSTHDR(&message);
            header->cmsg_level = SOL_SOCKET;
            header->cmsg_type = SCM_RIGHTS;
            header->cmsg_len = CMSG_LEN(sizeof(int));
            memcpy(CMSG_DATA(header), &fd, sizeof(int));
        }
        ssize_t sent = sendmsg(socket, &message, MSG_NOSIGNAL);
        if (sent < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        attach = 0;  /* the descriptor went with the first bytes */
        next += sent;
        left -= (size_t)sent;
    }
    return 0;
}

ssize_t tessera_receive_with_fd(int socket, void *bytes, size_t length, int *fd) {
    char *next = bytes;
    size_t got = 0;
    *fd = -1;
    while (got < length) {
        struct iovec io = { .iov_base = next + got, .iov_len = length - got };
        union { char buffer[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
        struct msghdr message = { .msg_iov = &io, .msg_iovlen = 1,
                                  .msg_control = control.buffer, .msg_controllen = sizeof control.buffer };
        ssize_t n = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_RIGHTS) {
                int received;
                memcpy(&received, CMSG_DATA(header), sizeof(int));
                if (*fd < 0) *fd = received; else close(received);
            }
        }
        if (n == 0) {
            if (got == 0) return 0;
            errno = EPROTO;
            return -1;
        }
        got += (size_t)n;
    }
    return (ssize_t)got;
}

int tessera_memfd(const char *name) {
    return memfd_create(name, MFD_CLOEXEC);
}

int tessera_memfd_sealed(const char *name, long long size) {
    int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int tessera_memfd_cannot_shrink(int fd) {
    int seals = fcntl(fd, F_GET_SEALS);
    return seals >= 0 && (seals & F_SEAL_SHRINK) != 0;
}

unsigned long long tessera_address_space_in_use(void) {
    FILE *file = fopen("/proc/self/statm", "re");
    if (!file) return 0;
    unsigned long long pages = 0;
    if (fscanf(file, "%llu", &pages) != 1) pages = 0;
    fclose(file);
    return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* With TESSERA_SECCOMP_REPORT set, a forbidden call is trapped instead, named on stderr, and the process
 * then dies of SIGSYS as it would have: how the list below is kept complete (strace cannot show the call
 * that kills). */
static void tessera_report_forbidden(int signal_number, siginfo_t *info, void *context) {
    (void)context;
    char line[64];
    int length = snprintf(line, sizeof line, "tessera decode helper: forbidden system call %d\n", info->si_syscall);
    if (length > 0) { ssize_t ignored = write(2, line, (size_t)length); (void)ignored; }
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

/* Adds `call` to `filter` unconditionally. */
#define ALLOW(call) \
    do { if (seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(call), 0) < 0) goto failed; } while (0)
#define ALLOW_IF(call, ...) \
    do { if (seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(call), __VA_ARGS__) < 0) goto failed; } while (0)

/* Landlock: from now on this process opens files under `paths` read-only and nothing else anywhere.
 * Returns 0 when in force, -1 when the kernel has no Landlock (or refuses the rules). */
static int tessera_restrict_opens(const char *const *paths, size_t count) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return -1;
    struct landlock_ruleset_attr ruleset = {
        .handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE
            | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE
            | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG
            | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK
            | LANDLOCK_ACCESS_FS_MAKE_SYM | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0),
    };
    int ruleset_fd = (int)syscall(SYS_landlock_create_ruleset, &ruleset, sizeof ruleset, 0);
    if (ruleset_fd < 0) return -1;
    for (size_t i = 0; i < count; i++) {
        int folder = open(paths[i], O_PATH | O_CLOEXEC);
        if (folder < 0) continue;  /* a folder that does not exist needs no rule */
        struct landlock_path_beneath_attr rule = {
            .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR, .parent_fd = folder,
        };
        syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
        close(folder);
    }
    long rc = syscall(SYS_landlock_restrict_self, ruleset_fd, 0);
    close(ruleset_fd);
    return rc == 0 ? 0 : -1;
}

int tessera_lock_down(unsigned long long address_space_limit, const char *const *readable, size_t readable_count) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    if (address_space_limit > 0) {
        struct rlimit limit = { .rlim_cur = address_space_limit, .rlim_max = address_space_limit };
        if (setrlimit(RLIMIT_AS, &limit) != 0) return -1;
    }
    int landlocked = tessera_restrict_opens(readable, readable_count) == 0;
    /* Anything not listed kills the whole process with SIGSYS, which the viewer reports as "decoder tried
     * a forbidden system call". */
    uint32_t forbidden = SCMP_ACT_KILL_PROCESS;
    if (getenv("TESSERA_SECCOMP_REPORT")) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = tessera_report_forbidden;
        action.sa_flags = SA_SIGINFO;
        sigaction(SIGSYS, &action, NULL);
        forbidden = SCMP_ACT_TRAP;
    }
    scmp_filter_ctx filter = seccomp_init(forbidden);
    if (!filter) { errno = ENOMEM; return -1; }
    int rc;

    /* The descriptors it holds: the socket, the image's file or memfd, the pixels' memfd, stderr. */
    ALLOW(read);
    ALLOW(readv);
    ALLOW(pread64);
    ALLOW(write);      /* the reply is sent with sendmsg; write is stderr's (the log) and memfds' */
    ALLOW(writev);     /* stdio flushing the log */
    ALLOW(lseek);
    ALLOW(fstat);
    /* fstat by descriptor only: glibc's fstat is newfstatat(fd, "", AT_EMPTY_PATH); a path is refused. */
    if (!landlocked) {
        ALLOW_IF(newfstatat, 1, SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
        ALLOW_IF(statx, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH));
    }
    ALLOW(close);
    ALLOW(fcntl);      /* F_GETFL/F_SETFL on the image's descriptor (blocking mode for stdio readers); F_ADD_SEALS on the
                          rows' memfd; F_DUPFD_CLOEXEC for libtiff's own descriptor of a TIFF whose directory lies
                          past the first bytes */
    ALLOW(recvmsg);    /* the requests and their descriptors */
    ALLOW(sendmsg);    /* the replies and the pixels' memfd */
    ALLOW(memfd_create);  /* where the pixels (or a tile cut's rows) go */
    /* Opening, read-only, and only where Landlock lets it (fontconfig's folders, for the fonts an SVG's text
     * asks for; a slide's helper, its slide's folder): without Landlock, not at all. O_TMPFILE's own bit is
     * checked alone, since the flag includes O_DIRECTORY, which opendir passes to list a folder. */
    if (landlocked) {
        ALLOW_IF(openat, 1, SCMP_A2(SCMP_CMP_MASKED_EQ, O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY), 0));
        ALLOW(getdents64);   /* fontconfig listing a font folder */
        ALLOW(newfstatat);   /* ... and checking its cache against it: metadata, never content */
        ALLOW(statx);
        ALLOW(readlink);
        ALLOW(access);
        ALLOW(faccessat);
    }
    ALLOW(ftruncate);     /* sizing that memfd */

    /* Memory. */
    ALLOW(mmap);
    ALLOW(munmap);
    ALLOW(mprotect);
    ALLOW(mremap);
    ALLOW(brk);
    ALLOW(madvise);

    /* Threads (libheif's and libjxl's workers, libraw's OpenMP): clone only for a thread, never a
     * process; clone3's flags sit in memory a filter cannot read, so it is refused with ENOSYS, which
     * makes glibc fall back to clone. */
    ALLOW_IF(clone, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) < 0) goto failed;
    ALLOW(set_robust_list);
    ALLOW(rseq);
    ALLOW(futex);
    ALLOW(sched_yield);
    ALLOW(sched_getaffinity);  /* thread pools sizing themselves to the cores */
    ALLOW(gettid);
    ALLOW(getpid);
    /* Naming a thread (prctl PR_SET_NAME) is refused harmlessly; nothing else of prctl is needed. */
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 0) < 0) goto failed;

    /* Time. */
    ALLOW(clock_gettime);
    ALLOW(clock_getres);
    ALLOW(gettimeofday);
    ALLOW(clock_nanosleep);
    ALLOW(nanosleep);

    /* Signals: a crash report re-raises its own signal (tgkill to itself only), and returning from a
     * handler. */
    ALLOW(rt_sigreturn);
    ALLOW(rt_sigprocmask);
    ALLOW(rt_sigaction);
    ALLOW(sigaltstack);
    ALLOW_IF(tgkill, 1, SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid()));

    /* The machine's memory size (sysconf(_SC_PHYS_PAGES) reads it with sysinfo), which OpenSlide asks
     * for when it opens a slide: counts, no names. */
    ALLOW(sysinfo);

    /* Randomness (Swift's hash seeds, glibc's malloc), and the end. */
    ALLOW(getrandom);
    ALLOW(exit);
    ALLOW(exit_group);

    rc = seccomp_load(filter);
    seccomp_release(filter);
    if (rc < 0) { errno = -rc; return -1; }
    return 0;

failed:
    seccomp_release(filter);
    errno = EINVAL;
    return -1;
}

static void tessera_crash_handler(int signal_number) {
    if (errno == ENOMEM) _exit(TESSERA_EXIT_OUT_OF_MEMORY);
    /* SA_RESETHAND put the default action back: die of the same signal. */
    raise(signal_number);
}

void tessera_classify_crashes(void) {
    static char alternate[1 << 16];
    stack_t stack = { .ss_sp = alternate, .ss_size = sizeof alternate };
    sigaltstack(&stack, NULL);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = tessera_crash_handler;
    action.sa_flags = SA_ONSTACK | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) sigaction(fatal[i], &action, NULL);
}

void tessera_one_malloc_arena(void) {
    mallopt(M_ARENA_MAX, 1);
}
