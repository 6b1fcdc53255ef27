/* The CLIPBOARD selection's owner on a thread and connection of its own (see tessera_x11_clipboard.h). */

#define _GNU_SOURCE
#include "tessera_x11_clipboard.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <X11/Xatom.h>
#include <X11/Xlib.h>

/* INCR transfers at once: each holds a reference to its offer's bytes, so this and the timeout bound
 * what requestors can keep alive. A request beyond it is refused. */
#define MAX_TRANSFERS 16
/* Pairs in one MULTIPLE request; more are refused. */
#define MAX_MULTIPLE_PAIRS 64
#define DEFAULT_TRANSFER_TIMEOUT_MS 10000u

enum {
    ATOM_CLIPBOARD,
    ATOM_TARGETS,
    ATOM_TIMESTAMP,
    ATOM_MULTIPLE,
    ATOM_ATOM_PAIR,
    ATOM_INCR,
    ATOM_PNG,
    ATOM_URI_LIST,
    ATOM_UTF8_STRING,
    ATOM_TEXT_PLAIN_UTF8,
    ATOM_TEXT_PLAIN,
    /* A property of the owner's own window, changed only to learn the server's time. */
    ATOM_TIME_PROBE,
    ATOM_COUNT
};

static const char *const atom_names[ATOM_COUNT] = {
    "CLIPBOARD", "TARGETS", "TIMESTAMP", "MULTIPLE", "ATOM_PAIR", "INCR", "image/png", "text/uri-list",
    "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "_TESSERA_CLIPBOARD_TIME",
};

/* The bytes of one offer. Shared by the current offer and the INCR transfers still sending it; only the
 * owner's thread counts references. */
typedef struct offer {
    int references;
    uint8_t *png;
    size_t png_size;
    uint8_t *uri_list;
    size_t uri_list_size;
    uint8_t *text;
    size_t text_size;
    /* Whether the text is ASCII, which STRING (Latin-1) and text/plain (no charset) carry unchanged. */
    int text_is_ascii;
} offer;

/* One INCR transfer: `data` goes to `property` of `requestor` a chunk at a time. */
typedef struct transfer {
    Window requestor;
    Atom property;
    Atom type;
    offer *source;
    const uint8_t *data;
    size_t size;
    size_t sent;
    /* The requestor's window has gone (an X error named it): dropped at the next sweep. */
    int dead;
    uint64_t deadline_ms;
} transfer;

struct tessera_x11_clipboard {
    Display *display;
    Window window;
    Atom atoms[ATOM_COUNT];
    pthread_t thread;
    int wake_fd;
    size_t chunk_size;
    uint64_t transfer_timeout_ms;

    /* Shared with the callers' threads, under `lock`. */
    pthread_mutex_t lock;
    offer *pending;
    uint64_t offered_number;
    uint64_t held_number;
    int transfer_count_shared;
    int stopping;
    /* The thread has ended: its connection was lost, or it was stopped. */
    int ended;

    /* The owner's thread only. */
    offer *current;
    uint64_t current_number;
    Time owned_since;
    transfer transfers[MAX_TRANSFERS];
    int transfer_count;
    /* Set by the error handlers, which run on the owner's thread (Xlib reports a connection's errors on
     * the thread that reads it). */
    int connection_lost;

    struct tessera_x11_clipboard *next_registered;
};

/* ---- Xlib's process-wide handlers ---- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static tessera_x11_clipboard *registered = NULL;
static int handlers_installed = 0;
static XErrorHandler previous_error_handler = NULL;
static XIOErrorHandler previous_io_error_handler = NULL;

/* The owner whose connection is `display`, or NULL: another part of the process (SDL) made it. */
static tessera_x11_clipboard *owner_of(Display *display) {
    pthread_mutex_lock(&registry_lock);
    tessera_x11_clipboard *found = registered;
    while (found != NULL && found->display != display) found = found->next_registered;
    pthread_mutex_unlock(&registry_lock);
    return found;
}

static void drop_transfers_to(tessera_x11_clipboard *clipboard, Window window) {
    for (int i = 0; i < clipboard->transfer_count; i++) {
        if (clipboard->transfers[i].requestor == window) clipboard->transfers[i].dead = 1;
    }
}

/* An owner's failed request is a requestor gone or broken: its transfers stop, nothing else. */
static int error_handler(Display *display, XErrorEvent *error) {
    tessera_x11_clipboard *clipboard = owner_of(display);
    if (clipboard == NULL) return previous_error_handler != NULL ? previous_error_handler(display, error) : 0;
    if (error->error_code == BadWindow) drop_transfers_to(clipboard, (Window)error->resourceid);
    return 0;
}

/* Xlib calls this, then the connection's exit handler; returning from both leaves the call that met the
 * lost connection to fail, and the owner's loop ends. */
static int io_error_handler(Display *display) {
    tessera_x11_clipboard *clipboard = owner_of(display);
    if (clipboard == NULL) return previous_io_error_handler != NULL ? previous_io_error_handler(display) : 0;
    clipboard->connection_lost = 1;
    return 0;
}

static void io_error_exit_handler(Display *display, void *data) {
    (void)display;
    ((tessera_x11_clipboard *)data)->connection_lost = 1;
}

static void register_owner(tessera_x11_clipboard *clipboard) {
    pthread_mutex_lock(&registry_lock);
    if (!handlers_installed) {
        previous_error_handler = XSetErrorHandler(error_handler);
        previous_io_error_handler = XSetIOErrorHandler(io_error_handler);
        handlers_installed = 1;
    }
    clipboard->next_registered = registered;
    registered = clipboard;
    pthread_mutex_unlock(&registry_lock);
}

static void unregister_owner(tessera_x11_clipboard *clipboard) {
    pthread_mutex_lock(&registry_lock);
    tessera_x11_clipboard **link = &registered;
    while (*link != NULL && *link != clipboard) link = &(*link)->next_registered;
    if (*link != NULL) *link = clipboard->next_registered;
    pthread_mutex_unlock(&registry_lock);
}

/* ---- Offers and transfers ---- */

static void release_offer(offer *source) {
    if (source == NULL || --source->references > 0) return;
    free(source->png);
    free(source->uri_list);
    free(source->text);
    free(source);
}

static uint64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000u + (uint64_t)now.tv_nsec / 1000000u;
}

static void publish_transfer_count(tessera_x11_clipboard *clipboard) {
    pthread_mutex_lock(&clipboard->lock);
    clipboard->transfer_count_shared = clipboard->transfer_count;
    pthread_mutex_unlock(&clipboard->lock);
}

/* Removes transfer `index`. Its requestor's events are no longer needed once no other transfer goes to it;
 * `window_alive` says whether the window is still there to be told so. */
static void remove_transfer(tessera_x11_clipboard *clipboard, int index, int window_alive) {
    transfer gone = clipboard->transfers[index];
    clipboard->transfers[index] = clipboard->transfers[clipboard->transfer_count - 1];
    clipboard->transfer_count--;
    release_offer(gone.source);
    int shared = 0;
    for (int i = 0; i < clipboard->transfer_count; i++) shared |= clipboard->transfers[i].requestor == gone.requestor;
    if (!shared && window_alive) XSelectInput(clipboard->display, gone.requestor, NoEventMask);
    publish_transfer_count(clipboard);
}

/* Drops the transfers whose requestor vanished or stopped taking chunks. */
static void sweep_transfers(tessera_x11_clipboard *clipboard) {
    uint64_t now = now_ms();
    for (int i = clipboard->transfer_count - 1; i >= 0; i--) {
        transfer *t = &clipboard->transfers[i];
        if (t->dead) remove_transfer(clipboard, i, 0);
        else if (now >= t->deadline_ms) remove_transfer(clipboard, i, 1);
    }
}

/* Milliseconds until the first transfer's deadline; -1 (wait for ever) when none is under way. */
static int poll_timeout(const tessera_x11_clipboard *clipboard) {
    if (clipboard->transfer_count == 0) return -1;
    uint64_t first = UINT64_MAX;
    for (int i = 0; i < clipboard->transfer_count; i++) {
        if (clipboard->transfers[i].deadline_ms < first) first = clipboard->transfers[i].deadline_ms;
    }
    uint64_t now = now_ms();
    if (first <= now) return 0;
    uint64_t wait = first - now;
    return wait > INT_MAX ? INT_MAX : (int)wait;
}

/* The next chunk after the requestor deleted the last; after the last chunk an empty property, which
 * tells the requestor the data is complete. Nothing is awaited after that (the requestor has all it
 * needs), so the transfer ends there. */
static void continue_transfer(tessera_x11_clipboard *clipboard, int index) {
    transfer *t = &clipboard->transfers[index];
    size_t count = t->size - t->sent;
    if (count > clipboard->chunk_size) count = clipboard->chunk_size;
    XChangeProperty(clipboard->display, t->requestor, t->property, t->type, 8, PropModeReplace,
                    t->data + t->sent, (int)count);
    t->sent += count;
    if (count == 0) {
        remove_transfer(clipboard, index, 1);
        return;
    }
    t->deadline_ms = now_ms() + clipboard->transfer_timeout_ms;
}

/* ---- Conversions ---- */

static void target_data(const tessera_x11_clipboard *clipboard, const offer *source, Atom target,
                        const uint8_t **data, size_t *size) {
    const Atom *atoms = clipboard->atoms;
    *data = NULL;
    *size = 0;
    if (target == atoms[ATOM_PNG]) {
        *data = source->png;
        *size = source->png_size;
    } else if (target == atoms[ATOM_URI_LIST] && source->uri_list_size > 0) {
        *data = source->uri_list;
        *size = source->uri_list_size;
    } else if (source->text_size > 0 &&
               (target == atoms[ATOM_UTF8_STRING] || target == atoms[ATOM_TEXT_PLAIN_UTF8] ||
                (source->text_is_ascii && (target == XA_STRING || target == atoms[ATOM_TEXT_PLAIN])))) {
        *data = source->text;
        *size = source->text_size;
    }
}

static int offered_targets(const tessera_x11_clipboard *clipboard, const offer *source, long *targets) {
    const Atom *atoms = clipboard->atoms;
    int count = 0;
    targets[count++] = (long)atoms[ATOM_TARGETS];
    targets[count++] = (long)atoms[ATOM_TIMESTAMP];
    targets[count++] = (long)atoms[ATOM_MULTIPLE];
    targets[count++] = (long)atoms[ATOM_PNG];
    if (source->uri_list_size > 0) targets[count++] = (long)atoms[ATOM_URI_LIST];
    if (source->text_size > 0) {
        targets[count++] = (long)atoms[ATOM_UTF8_STRING];
        targets[count++] = (long)atoms[ATOM_TEXT_PLAIN_UTF8];
        if (source->text_is_ascii) {
            targets[count++] = (long)XA_STRING;
            targets[count++] = (long)atoms[ATOM_TEXT_PLAIN];
        }
    }
    return count;
}

/* Starts an INCR transfer of `data`: the property first holds the INCR type and a lower bound of the size,
 * and each deletion by the requestor brings the next chunk. 0 when too many are under way. */
static int start_transfer(tessera_x11_clipboard *clipboard, offer *source, Window requestor, Atom property,
                          Atom type, const uint8_t *data, size_t size) {
    /* A requestor asking again into the same property starts over. */
    for (int i = 0; i < clipboard->transfer_count; i++) {
        if (clipboard->transfers[i].requestor == requestor && clipboard->transfers[i].property == property) {
            remove_transfer(clipboard, i, 1);
            break;
        }
    }
    if (clipboard->transfer_count == MAX_TRANSFERS) return 0;
    /* Its deletions and its destruction, asked for before it can see the INCR property. */
    XSelectInput(clipboard->display, requestor, PropertyChangeMask | StructureNotifyMask);
    long length = size > LONG_MAX ? LONG_MAX : (long)size;
    XChangeProperty(clipboard->display, requestor, property, clipboard->atoms[ATOM_INCR], 32, PropModeReplace,
                    (const unsigned char *)&length, 1);
    source->references++;
    clipboard->transfers[clipboard->transfer_count++] = (transfer){
        .requestor = requestor, .property = property, .type = type, .source = source,
        .data = data, .size = size, .deadline_ms = now_ms() + clipboard->transfer_timeout_ms,
    };
    publish_transfer_count(clipboard);
    return 1;
}

/* Puts `target` of the current offer into `property` of `requestor`: 1 when done or under way by INCR. */
static int convert(tessera_x11_clipboard *clipboard, Window requestor, Atom target, Atom property) {
    Display *display = clipboard->display;
    const Atom *atoms = clipboard->atoms;
    offer *source = clipboard->current;
    if (target == atoms[ATOM_TARGETS]) {
        long targets[16];
        int count = offered_targets(clipboard, source, targets);
        XChangeProperty(display, requestor, property, XA_ATOM, 32, PropModeReplace, (const unsigned char *)targets,
                        count);
        return 1;
    }
    if (target == atoms[ATOM_TIMESTAMP]) {
        long timestamp = (long)clipboard->owned_since;
        XChangeProperty(display, requestor, property, XA_INTEGER, 32, PropModeReplace,
                        (const unsigned char *)&timestamp, 1);
        return 1;
    }
    const uint8_t *data;
    size_t size;
    target_data(clipboard, source, target, &data, &size);
    if (data == NULL) return 0;
    if (size > clipboard->chunk_size) return start_transfer(clipboard, source, requestor, property, target, data, size);
    XChangeProperty(display, requestor, property, target, 8, PropModeReplace, data, (int)size);
    return 1;
}

/* MULTIPLE: the property lists (target, property) pairs; each is converted, and a pair that fails has its
 * property replaced by None in the list (ICCCM 2.6.2). */
static int convert_multiple(tessera_x11_clipboard *clipboard, Window requestor, Atom property) {
    Display *display = clipboard->display;
    Atom type = None;
    int format = 0;
    unsigned long count = 0, remaining = 0;
    unsigned char *value = NULL;
    int status = XGetWindowProperty(display, requestor, property, 0, 2 * MAX_MULTIPLE_PAIRS, False, AnyPropertyType,
                                    &type, &format, &count, &remaining, &value);
    int done = 0;
    if (status == Success && value != NULL && format == 32 && remaining == 0 && count % 2 == 0 && count > 0) {
        long *pairs = (long *)value;
        int changed = 0;
        for (unsigned long i = 0; i < count; i += 2) {
            Atom target = (Atom)pairs[i], pair_property = (Atom)pairs[i + 1];
            if (target == clipboard->atoms[ATOM_MULTIPLE] || pair_property == None ||
                !convert(clipboard, requestor, target, pair_property)) {
                pairs[i + 1] = None;
                changed = 1;
            }
        }
        if (changed) {
            XChangeProperty(display, requestor, property, type, 32, PropModeReplace, value, (int)count);
        }
        done = 1;
    }
    if (value != NULL) XFree(value);
    return done;
}

/* Whether server time `a` comes before `b`: the 32-bit millisecond clock wraps after 49 days. */
static int time_before(Time a, Time b) {
    return (int32_t)((uint32_t)a - (uint32_t)b) < 0;
}

static void answer_request(tessera_x11_clipboard *clipboard, const XSelectionRequestEvent *request) {
    const Atom *atoms = clipboard->atoms;
    /* A requestor from before ICCCM names no property: the target's name stands for it. */
    Atom property = request->property != None ? request->property : request->target;
    int converted = 0;
    /* A request from before the current offer took the selection is for something this owner no longer
     * has (ICCCM 2.2); CurrentTime asks for whatever is there. */
    int current = clipboard->current != NULL && request->selection == atoms[ATOM_CLIPBOARD] &&
                  (request->time == CurrentTime || !time_before(request->time, clipboard->owned_since));
    if (current) {
        if (request->target == atoms[ATOM_MULTIPLE]) {
            converted = request->property != None && convert_multiple(clipboard, request->requestor, property);
        } else {
            converted = convert(clipboard, request->requestor, request->target, property);
        }
    }
    XEvent reply;
    memset(&reply, 0, sizeof reply);
    reply.xselection.type = SelectionNotify;
    reply.xselection.display = clipboard->display;
    reply.xselection.requestor = request->requestor;
    reply.xselection.selection = request->selection;
    reply.xselection.target = request->target;
    reply.xselection.property = converted ? property : None;
    reply.xselection.time = request->time;
    XSendEvent(clipboard->display, request->requestor, False, NoEventMask, &reply);
}

/* ---- Taking the selection ---- */

static Bool is_time_probe(Display *display, XEvent *event, XPointer data) {
    (void)display;
    const tessera_x11_clipboard *clipboard = (const tessera_x11_clipboard *)data;
    return event->type == PropertyNotify && event->xproperty.window == clipboard->window &&
           event->xproperty.atom == clipboard->atoms[ATOM_TIME_PROBE];
}

/* The server's time now, as ICCCM 2.1 has owners learn it: an empty append to a property of their own
 * window, whose PropertyNotify carries the time. Other events wait in the queue meanwhile. */
static Time server_time(tessera_x11_clipboard *clipboard) {
    XChangeProperty(clipboard->display, clipboard->window, clipboard->atoms[ATOM_TIME_PROBE], XA_INTEGER, 8,
                    PropModeAppend, NULL, 0);
    XEvent event;
    XIfEvent(clipboard->display, &event, is_time_probe, (XPointer)clipboard);
    return event.xproperty.time;
}

static void set_held(tessera_x11_clipboard *clipboard, uint64_t number) {
    pthread_mutex_lock(&clipboard->lock);
    clipboard->held_number = number;
    pthread_mutex_unlock(&clipboard->lock);
}

static void take_offer(tessera_x11_clipboard *clipboard, offer *source, uint64_t number) {
    release_offer(clipboard->current);
    clipboard->current = source;
    clipboard->current_number = number;
    Time now = server_time(clipboard);
    if (clipboard->connection_lost) return;
    Atom selection = clipboard->atoms[ATOM_CLIPBOARD];
    XSetSelectionOwner(clipboard->display, selection, clipboard->window, now);
    /* The server ignores a time older than the selection's last change: only asking tells. */
    if (XGetSelectionOwner(clipboard->display, selection) == clipboard->window) {
        clipboard->owned_since = now;
        set_held(clipboard, number);
    } else {
        release_offer(clipboard->current);
        clipboard->current = NULL;
        set_held(clipboard, 0);
    }
}

/* Another program took the selection: the offer goes (transfers under way keep their bytes). A clear from
 * before this owner took the selection again arrives late; asking the server tells it apart. */
static void selection_cleared(tessera_x11_clipboard *clipboard, const XSelectionClearEvent *clear) {
    if (clear->selection != clipboard->atoms[ATOM_CLIPBOARD] || clipboard->current == NULL) return;
    if (XGetSelectionOwner(clipboard->display, clear->selection) == clipboard->window) return;
    release_offer(clipboard->current);
    clipboard->current = NULL;
    set_held(clipboard, 0);
}

/* ---- The owner's thread ---- */

static void handle_event(tessera_x11_clipboard *clipboard, XEvent *event) {
    switch (event->type) {
    case SelectionRequest:
        answer_request(clipboard, &event->xselectionrequest);
        break;
    case SelectionClear:
        selection_cleared(clipboard, &event->xselectionclear);
        break;
    case PropertyNotify:
        if (event->xproperty.state != PropertyDelete) break;
        for (int i = 0; i < clipboard->transfer_count; i++) {
            transfer *t = &clipboard->transfers[i];
            if (t->requestor == event->xproperty.window && t->property == event->xproperty.atom && !t->dead) {
                continue_transfer(clipboard, i);
                break;
            }
        }
        break;
    case DestroyNotify:
        drop_transfers_to(clipboard, event->xdestroywindow.window);
        break;
    default:
        break;
    }
}

static void *owner_thread(void *argument) {
    tessera_x11_clipboard *clipboard = argument;
    Display *display = clipboard->display;
    for (;;) {
        pthread_mutex_lock(&clipboard->lock);
        int stopping = clipboard->stopping;
        offer *pending = clipboard->pending;
        uint64_t number = clipboard->offered_number;
        clipboard->pending = NULL;
        pthread_mutex_unlock(&clipboard->lock);
        if (stopping) {
            release_offer(pending);
            break;
        }
        if (pending != NULL) take_offer(clipboard, pending, number);
        while (!clipboard->connection_lost && XPending(display) > 0) {
            XEvent event;
            XNextEvent(display, &event);
            handle_event(clipboard, &event);
        }
        if (clipboard->connection_lost) break;
        sweep_transfers(clipboard);
        XFlush(display);
        /* The sweep's requests may have brought events that XFlush read into the queue. */
        if (XEventsQueued(display, QueuedAlready) > 0) continue;
        struct pollfd fds[2] = {
            {.fd = ConnectionNumber(display), .events = POLLIN},
            {.fd = clipboard->wake_fd, .events = POLLIN},
        };
        if (poll(fds, 2, poll_timeout(clipboard)) < 0 && errno != EINTR) break;
        if (fds[1].revents & POLLIN) {
            uint64_t wakes;
            ssize_t ignored = read(clipboard->wake_fd, &wakes, sizeof wakes);
            (void)ignored;
        }
    }
    for (int i = clipboard->transfer_count - 1; i >= 0; i--) {
        remove_transfer(clipboard, i, !clipboard->connection_lost && !clipboard->transfers[i].dead);
    }
    release_offer(clipboard->current);
    clipboard->current = NULL;
    /* Destroying the window gives up the selection. */
    if (!clipboard->connection_lost) XDestroyWindow(display, clipboard->window);
    /* Still registered while it closes: a lost connection reports itself again here. */
    XCloseDisplay(display);
    unregister_owner(clipboard);
    pthread_mutex_lock(&clipboard->lock);
    clipboard->held_number = 0;
    clipboard->ended = 1;
    pthread_mutex_unlock(&clipboard->lock);
    return NULL;
}

/* ---- The callers' side ---- */

static void set_error(char *error, size_t error_size, const char *message) {
    if (error != NULL && error_size > 0) snprintf(error, error_size, "%s", message);
}

tessera_x11_clipboard *tessera_x11_clipboard_start(const char *display_name, unsigned transfer_timeout_ms,
                                                   char *error, size_t error_size) {
    set_error(error, error_size, "");
    tessera_x11_clipboard *clipboard = calloc(1, sizeof *clipboard);
    if (clipboard == NULL) {
        set_error(error, error_size, "out of memory");
        return NULL;
    }
    clipboard->transfer_timeout_ms = transfer_timeout_ms > 0 ? transfer_timeout_ms : DEFAULT_TRANSFER_TIMEOUT_MS;
    clipboard->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (clipboard->wake_fd < 0) {
        set_error(error, error_size, "eventfd failed");
        free(clipboard);
        return NULL;
    }
    Display *display = XOpenDisplay(display_name);
    if (display == NULL) {
        const char *name = display_name != NULL ? display_name : getenv("DISPLAY");
        char message[256];
        snprintf(message, sizeof message, "cannot open the X display %s", name != NULL && *name ? name : "(DISPLAY is not set)");
        set_error(error, error_size, message);
        close(clipboard->wake_fd);
        free(clipboard);
        return NULL;
    }
    clipboard->display = display;
    pthread_mutex_init(&clipboard->lock, NULL);
    register_owner(clipboard);
    XSetIOErrorExitHandler(display, io_error_exit_handler, clipboard);
    XInternAtoms(display, (char **)atom_names, ATOM_COUNT, False, clipboard->atoms);
    /* The largest request the server takes, with BIG-REQUESTS (16 MiB on Xorg and Xwayland) as GTK and Qt
     * measure it, less room for the request's own header: what fits goes in one property, which every
     * requestor reads (Xwayland's bridge in wlroots 0.15 loses INCR chunks that a Wayland program does not
     * read at once), and larger data goes by INCR in chunks of this size. */
    long units = XExtendedMaxRequestSize(display);
    if (units == 0) units = XMaxRequestSize(display);
    clipboard->chunk_size = (size_t)units * 4 - 100;
    XSetWindowAttributes attributes = {.event_mask = PropertyChangeMask};
    clipboard->window = XCreateWindow(display, DefaultRootWindow(display), 0, 0, 1, 1, 0, 0, InputOnly,
                                      CopyFromParent, CWEventMask, &attributes);
    /* For tools that show who owns a selection (xprop, xwininfo). */
    XStoreName(display, clipboard->window, "Tessera clipboard");
    XFlush(display);
    if (pthread_create(&clipboard->thread, NULL, owner_thread, clipboard) != 0) {
        set_error(error, error_size, "cannot start the clipboard's thread");
        XDestroyWindow(display, clipboard->window);
        unregister_owner(clipboard);
        XCloseDisplay(display);
        pthread_mutex_destroy(&clipboard->lock);
        close(clipboard->wake_fd);
        free(clipboard);
        return NULL;
    }
    return clipboard;
}

static void wake(tessera_x11_clipboard *clipboard) {
    uint64_t one = 1;
    ssize_t ignored = write(clipboard->wake_fd, &one, sizeof one);
    (void)ignored;
}

static uint8_t *copy_bytes(const void *bytes, size_t size) {
    if (size == 0) return NULL;
    uint8_t *copy = malloc(size);
    if (copy != NULL) memcpy(copy, bytes, size);
    return copy;
}

int tessera_x11_clipboard_offer(tessera_x11_clipboard *clipboard, const uint8_t *png, size_t png_size,
                                const char *uri_list, size_t uri_list_size, const char *text, size_t text_size) {
    offer *source = calloc(1, sizeof *source);
    if (source == NULL) return TESSERA_X11_CLIPBOARD_NO_MEMORY;
    source->references = 1;
    source->png = copy_bytes(png, png_size);
    source->uri_list = copy_bytes(uri_list, uri_list_size);
    source->text = copy_bytes(text, text_size);
    if ((png_size > 0 && source->png == NULL) || (uri_list_size > 0 && source->uri_list == NULL) ||
        (text_size > 0 && source->text == NULL)) {
        release_offer(source);
        return TESSERA_X11_CLIPBOARD_NO_MEMORY;
    }
    source->png_size = png_size;
    source->uri_list_size = uri_list_size;
    source->text_size = text_size;
    source->text_is_ascii = 1;
    for (size_t i = 0; i < text_size; i++) source->text_is_ascii &= source->text[i] < 0x80;

    pthread_mutex_lock(&clipboard->lock);
    int ended = clipboard->ended || clipboard->stopping;
    offer *replaced = NULL;
    if (!ended) {
        replaced = clipboard->pending;
        clipboard->pending = source;
        clipboard->offered_number++;
    }
    pthread_mutex_unlock(&clipboard->lock);
    if (ended) {
        release_offer(source);
        return TESSERA_X11_CLIPBOARD_ENDED;
    }
    /* An offer the thread had not taken yet is the only one it never saw: freed here. */
    release_offer(replaced);
    wake(clipboard);
    return TESSERA_X11_CLIPBOARD_OFFERED;
}

int tessera_x11_clipboard_holds(tessera_x11_clipboard *clipboard) {
    pthread_mutex_lock(&clipboard->lock);
    int holds = clipboard->held_number != 0 && clipboard->held_number == clipboard->offered_number;
    pthread_mutex_unlock(&clipboard->lock);
    return holds;
}

int tessera_x11_clipboard_transfers(tessera_x11_clipboard *clipboard) {
    pthread_mutex_lock(&clipboard->lock);
    int count = clipboard->transfer_count_shared;
    pthread_mutex_unlock(&clipboard->lock);
    return count;
}

void tessera_x11_clipboard_stop(tessera_x11_clipboard *clipboard) {
    if (clipboard == NULL) return;
    pthread_mutex_lock(&clipboard->lock);
    clipboard->stopping = 1;
    pthread_mutex_unlock(&clipboard->lock);
    wake(clipboard);
    pthread_join(clipboard->thread, NULL);
    release_offer(clipboard->pending);
    pthread_mutex_destroy(&clipboard->lock);
    close(clipboard->wake_fd);
    free(clipboard);
}
