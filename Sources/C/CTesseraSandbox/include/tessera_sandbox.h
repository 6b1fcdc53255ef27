#ifndef TESSERA_SANDBOX_H
#define TESSERA_SANDBOX_H

/* What a decode helper process and the viewer that runs it need from Linux that Swift cannot spell:
 * passing descriptors over a socket (SCM_RIGHTS, whose CMSG_* macros Swift cannot call), memfd_create
 * (declared only under _GNU_SOURCE), and the lock-down (no_new_privs, RLIMIT_AS, a libseccomp filter).
 * Every function returns what the system call returns, with errno set on failure, unless it says otherwise. */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A connected pair of stream sockets, both ends close-on-exec. */
int tessera_socketpair_cloexec(int fds[2]);

/* Forks a helper from this process, without exec: to the parent, the child's pid, with the parent's end
 * of a new socket pair in `*socket_out`; in the child, 0, with the other end as descriptor 3, `keep_a` and
 * `keep_b` (when not -1) as descriptors 4 and 5, stdin from /dev/null, stdout onto stderr, every other
 * descriptor closed and no signal blocked. -1 with errno on failure. Safe only while this process runs
 * one thread: a lock another thread held would stay held. */
int tessera_fork_helper(int *socket_out, int keep_a, int keep_b);

/* Sends `length` bytes from `bytes` on `socket`, with `fd` attached (none when negative), in one sendmsg;
 * retries EINTR and short writes. 0 on success, -1 on failure. */
int tessera_send_with_fd(int socket, const void *bytes, size_t length, int fd);

/* Receives exactly `length` bytes into `bytes` from `socket`, and the descriptor attached to them, if any,
 * into `*fd` (else -1; received descriptors are close-on-exec). Returns `length`, 0 at the end of the
 * stream before any byte, -1 on failure (EPROTO when the stream ends inside the message). */
ssize_t tessera_receive_with_fd(int socket, void *bytes, size_t length, int *fd);

/* memfd_create(name, MFD_CLOEXEC). */
int tessera_memfd(const char *name);

/* A memfd of `size` bytes sealed against shrinking, growing and further sealing: whoever maps it can
 * read all `size` bytes for as long as it lives, whatever the process that made it does later. */
int tessera_memfd_sealed(const char *name, long long size);

/* Whether `fd` is a memfd sealed against shrinking (reading its mapping cannot fault past a shrink). */
int tessera_memfd_cannot_shrink(int fd);

/* The helper's lock-down, in this order: PR_SET_NO_NEW_PRIVS; RLIMIT_AS (soft and hard) to
 * `address_space_limit` bytes unless it is 0; Landlock (when the kernel has it), under which files can be
 * opened read-only below the `readable` folders and nowhere else; a seccomp filter that kills the process
 * (SIGSYS) on any system call it does not list (the list, with why each is there, is in the .c file),
 * opening included when Landlock is not there to narrow it. After this the process can read and write
 * the descriptors it holds, map memory, run threads and exit; it cannot write a file, connect, spawn or
 * trace anything. 0 on success; -1 with errno on failure, in which case the caller must not decode. */
int tessera_lock_down(unsigned long long address_space_limit, const char *const *readable, size_t readable_count);

/* The address space this process maps now, in bytes (from /proc/self/statm), 0 if unknown: the baseline
 * the memory limit is added to. Call before `tessera_lock_down`, which forbids opening the file. */
unsigned long long tessera_address_space_in_use(void);

/* What a request asks (`kind`). A decode is one request and one reply. A rows exchange (the tile
 * cutter's) is an opening, any number of rows requests and an end, each with its reply, on a helper no one
 * else uses meanwhile; the rows travel in a memfd the opening's reply attaches. A frames exchange (an
 * animation's) is the same: an opening, frame and rewind requests, an end; the frames travel in a memfd
 * of two frame slots the opening's reply attaches. */
#define TESSERA_REQUEST_DECODE 0     /* decode the attached image whole (scaled, turned, converted) */
#define TESSERA_REQUEST_ROWS_OPEN 1  /* open the attached image for its rows; `pixel_limit` bounds a whole decode */
#define TESSERA_REQUEST_ROWS_NEXT 2  /* the next `row_count` rows into half `buffer_half` of the rows memfd */
#define TESSERA_REQUEST_ROWS_END 3   /* end the exchange; after the last row, check the rest of the file first */
/* 4 to 6: a question about the attached file (ImageFacts.Kind), answered with status 4. */
#define TESSERA_REQUEST_FRAMES_OPEN 8    /* open the attached animation; its first frame comes in slot 0 */
#define TESSERA_REQUEST_FRAMES_NEXT 9    /* the next frame into slot `buffer_half` of the frames memfd */
#define TESSERA_REQUEST_FRAMES_REWIND 10 /* start again from the first frame (the next request reads it) */
#define TESSERA_REQUEST_FRAMES_END 11    /* end the exchange */
#define TESSERA_REQUEST_FRAMES_PROBE 12  /* one request: whether the attached file is an animation */
/* A region is one request and one reply, the file attached each time; a helper may keep the file's
 * parsed state between regions (keyed by the file's identity), so any helper can answer any region. */
#define TESSERA_REQUEST_TIFF_REGION 22  /* `region_*` of directory `directory` of the attached TIFF, reduced to the box */
#define TESSERA_REQUEST_SVG_TILE 23     /* `region_*` of the attached SVG drawn `drawing_width` x `drawing_height` */
#define TESSERA_REQUEST_JPEG_REGION 26  /* `region_*` of the attached JPEG decoded at 1/`directory` of its size */
/* A slide's own helper (started for one slide, which it opens by path) answers kind 24, the slide's facts
 * (ImageFacts.Kind), and kind 25, a region of the slide, with no descriptor attached; nothing else. */
#define TESSERA_REQUEST_SLIDE_REGION 25 /* `region_*` of OpenSlide level `directory`, x and y in the full image's pixels, reduced to the box */
/* 20, 21: the tiled view's questions about the attached file (ImageFacts.Kind), answered with status 4. */

/* What the viewer asks a decode helper, with the image's descriptor attached (decode and rows opening):
 * fixed size, then `display_profile_length` bytes of the display's ICC profile and `name_length` bytes of
 * the path (for the helper's log lines). */
struct tessera_decode_request {
    uint32_t magic;
    int32_t box_width, box_height;       /* 0, 0: full size */
    int64_t pixel_limit, byte_limit;
    uint8_t apply_orientation;
    uint8_t convert_colour;
    uint8_t colour_mode;                 /* 0: colour management off, 1: to sRGB, 2: to the profile that follows */
    uint8_t kind;                        /* TESSERA_REQUEST_*, or else a question (ImageFacts.Kind) */
    uint32_t display_profile_length;
    uint32_t name_length;
    int32_t row_count, buffer_half;      /* TESSERA_REQUEST_ROWS_NEXT; buffer_half also FRAMES_NEXT's slot */
    uint8_t animations_only;             /* TESSERA_REQUEST_FRAMES_OPEN: a still is answered as one, unopened */
    /* TESSERA_REQUEST_TIFF_REGION, TESSERA_REQUEST_SVG_TILE, TESSERA_REQUEST_SLIDE_REGION and
     * TESSERA_REQUEST_JPEG_REGION: the pixels asked for, in the directory's (or the drawing's, or the slide
     * level's, or the scaled JPEG's) own pixels. */
    int32_t region_x, region_y, region_width, region_height;
    uint64_t directory;                  /* a TIFF's top-level directory index, or a SubIFD's offset ...; a slide's level; a JPEG's scale denominator */
    uint8_t directory_is_sub;            /* ... when this is 1 */
    double drawing_width, drawing_height;
    uint32_t page;                       /* TESSERA_REQUEST_DECODE: which image of a file of several, from 0 */
};

/* The helper's answer, fixed size. To a decode or a region, with status 0, a memfd is attached holding width * height
 * * 4 bytes of pixels, then `profile_length` bytes of the image's ICC profile, and `reason` 1 says the
 * pixels are only part of the image (a damaged file), `text` why, numbers[0] 1 when the file holds
 * several images and numbers[1] 1 for a HEIF image sequence; otherwise `reason` and its
 * numbers and text say what the loader refused. To a rows opening, with status 0, a sealed memfd is
 * attached holding two halves of rows (each rows-per-half * width * 4 bytes, rows-per-half following from
 * the width on both sides), then the profile; `grayscale` and `alpha` describe the rows. To rows and to
 * the end, status 0 says done; status 1 carries the tile cutter's reason in `reason`, numbers and text.
 * To a frames opening, with status 0, a sealed memfd is attached holding two slots of width * height * 4
 * bytes (the first frame in slot 0), then the profile every frame carries; numbers are the plays (0:
 * forever) and the frame's delay as seconds and attoseconds; a still, where the opening asked for
 * animations only, is status 0 with no size and no memfd. To a next frame, the same size and numbers, or
 * no size after the last frame; to a rewind and the end, status 0 says done; to a probe, numbers[0] is 1
 * for an animation. Status 1 carries the loader's reason, as to a decode.
 * To a question (kinds 4 to 6, 20, 21 and 24), status 4 attaches a memfd holding the answer serialized, as long as the
 * memfd is. */
struct tessera_decode_reply {
    uint32_t magic;
    int32_t status;                      /* 0: pixels, 1: the loader's refusal, 4: facts; once, first: 2
                                            locked down and ready, 3 cannot lock down (the text says why) */
    int32_t width, height;
    int32_t source_width, source_height; /* -1: unknown */
    uint32_t profile_length;
    int32_t known_opaque;                /* -1 unknown, 0, 1 */
    uint8_t has_code_points, full_range;
    uint16_t primaries, transfer, matrix;
    int32_t reason;
    int64_t numbers[3];
    char text[400];
    uint8_t grayscale, alpha;            /* a rows opening's */
};

/* The exit status of a helper whose crash followed a failed allocation (errno ENOMEM when the fatal
 * signal came): it ran into its memory limit. */
#define TESSERA_EXIT_OUT_OF_MEMORY 86

/* Handlers for the fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE) that exit with
 * TESSERA_EXIT_OUT_OF_MEMORY when errno says the last thing to fail was an allocation, and otherwise
 * die of the signal as they would have. */
void tessera_classify_crashes(void);

/* mallopt(M_ARENA_MAX, 1): every thread allocates from the one arena, none reserves its own. */
void tessera_one_malloc_arena(void);

#ifdef __cplusplus
}
#endif

#endif
