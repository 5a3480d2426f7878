/* driver.c — backend.h's table on a GPU driver: what the "cuda" and "hip" backends share.
 *
 * cuda.c (NVIDIA's Driver API) and hip.c (AMD's HIP) load their library at run time and hand
 * this file a BeDriverApi (driver.h): one small function per driver operation. Everything else
 * is here, once. be_driver_create runs the driver's init and opens device 0 (count, get, name,
 * unified addressing required, since copies rely on it to tell directions apart, then made
 * current); no device, a failing init: be_open fails with one message.
 *
 * Calls map one to one onto the driver, as MLIR's runtime wrappers map mgpu* calls:
 * stream_create makes a non-blocking stream, memcpy is one asynchronous copy on the stream
 * (unified addressing tells directions apart), memset the 8-, 16- or 32-bit asynchronous memset,
 * mem_alloc device or managed memory, launch the driver's launch with the caller's parameter
 * array as is. Every result other than success becomes an error diagnostic at the call's loc
 * that names the driver function and the driver's name for the error: "'cuMemAlloc_v2' failed
 * with CUDA_ERROR_OUT_OF_MEMORY", "'hipMalloc' failed with hipErrorOutOfMemory". The run then
 * goes on, as on the sim, and the error count makes it exit 1.
 *
 * Handles. Streams, events, modules, kernel functions and tokens handed out are tagged values
 * naming a slot of this file's handle table (kind, generation, where made and destroyed), never
 * the driver's pointers. So what the sim catches before anything runs is caught here the same
 * way, before a driver call: a stream passed as an event, an event used after destroy, a token
 * passed as a stream, each with the sim's wording. Slots are reused only after a while, and with
 * a new generation, so a stale handle is still recognised.
 *
 * Memory. Allocations, registered memory and the interpreter's host buffers (host_add) are kept
 * in a table sorted by address: a copy or memset that starts in known memory and runs past it is
 * refused (out-of-bounds) before the driver sees it, a free of anything but a live allocation is
 * misuse, and a host load or store of device memory (which the host cannot reach) is refused.
 * Addresses the table does not know (a lowered program's malloc) pass through unchecked. Traces
 * name buffers by the ids this table gives (b1, b2, ...). There is no race detection here: a real
 * device does not say what it touched.
 *
 * Tokens (the high-level door) are events, as backend.h's token door describes: each token op
 * runs on one of a few streams of this backend's pool, chosen to continue the first dependency's
 * chain when that token was the last thing recorded on its stream, else in turn. The op's
 * stream waits for each dependency recorded on another stream, the op is enqueued, and an event
 * recorded after it is the token. A join records only the event; a join of nothing is a complete
 * token without an event. gpu.wait synchronizes each token's event, a token free waits for its
 * dependencies and frees (the driver's free waits for the device anyway), and releasing a
 * token's last reference destroys its event (legal right after a stream waited).
 *
 * Kernels: device binaries load as they are and launch with the driver's launch, on a stream
 * (launch) or as a token op (token_launch: the interpreter's gpu.launch_func, whose gpu.module it
 * compiled to PTX with mlir-opt or whose gpu.binary object it passes as is); kinds the driver
 * cannot load (PTX on HIP) are refused by name first. Kernels the interpreter runs itself
 * (launch_host) cannot run on a GPU: each such launch is an error naming the kernel's site, and
 * the launch counts as failed, so the program stops at its next synchronization.
 *
 * A kernel that fails is the device's sticky error: a call that returns one of the driver's codes
 * for it (BeDriverApi.kernel_faults: the launch on a driver that runs kernels when they are
 * enqueued, else the synchronization a real driver reports it at) fails the launch
 * (BeOps.failure: the last launch enqueued, when another call reports it), so the program ends at
 * its next synchronization, as on the sim.
 *
 * What kernels print goes where the driver writes it, in the order a GPU gives it relative to
 * the host's output: stdout is flushed around every driver call, and when the run captures the
 * device's output (BeOptions.device_out) fd 1 is redirected and drained after each call
 * (devout.c).
 *
 * Threads: one host thread calls the API (backend.h); nothing here runs on other threads, so the
 * tables take no lock.
 *
 * The token door is driver_tokens.c; what the two files share is driver_internal.h.
 */
#include "backends/driver_internal.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[H_KINDS] = {"?", "stream", "event", "module", "kernel function",
                                                "token"};

static const char *const alloc_names[] = {"device memory", "host-shared memory", "registered host memory",
                                          "host memory"};

/* ---- diagnostics ---- */

static void vdiag(Drv *c, bool error, const char *kind, const char *loc, const char *loc2,
                  const char *alloc_loc, const char *fmt, va_list ap)
{
    if (kind && strcmp(kind, "leak") == 0) {
        if (c->quiet_leaks)
            return;
        error = c->leaks_are_errors;
    }
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    BeDiag d = {.error = error, .kind = kind ? kind : "error", .loc = loc, .loc2 = loc2, .alloc_loc = alloc_loc,
                .message = msg};
    if (error)
        c->errors++;
    else
        c->warnings++;
    if (c->sink)
        c->sink(&d, c->sink_user);
    else
        be_diag_print(stderr, NULL, &d);
}

/* A diagnostic at loc; loc2: the other party (where a handle was made or released). */
static void diag(Drv *c, bool error, const char *kind, const char *loc, const char *loc2,
                 const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void diag(Drv *c, bool error, const char *kind, const char *loc, const char *loc2,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(c, error, kind, loc, loc2, NULL, fmt, ap);
    va_end(ap);
}

/* An error about memory: alloc_loc is where it was allocated, loc2 where it was freed (or NULL). */
static void diag_mem(Drv *c, const char *kind, const char *loc, const char *loc2, const char *alloc_loc,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void diag_mem(Drv *c, const char *kind, const char *loc, const char *loc2, const char *alloc_loc,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdiag(c, true, kind, loc, loc2, alloc_loc, fmt, ap);
    va_end(ap);
}

/* The driver's own name for r: "CUDA_ERROR_INVALID_HANDLE", "hipErrorInvalidValue". */
static const char *error_name(const BeDriverApi *api, void *drv, BeDrvResult r, char *buf, size_t cap)
{
    const char *name = api->error_name(drv, r);
    if (name)
        return name;
    snprintf(buf, cap, "%s %u (a code the %s does not name)", api->result_type, r, api->noun);
    return buf;
}

static BeStatus status_of(const BeDriverApi *api, BeDrvResult r)
{
    if (r == 0)
        return BE_OK;
    if (r == api->not_ready)
        return BE_NOT_READY;
    if (r == api->out_of_memory)
        return BE_ERR_MEMORY;
    if (r == api->invalid_handle)
        return BE_ERR_HANDLE;
    return BE_ERR_DRIVER;
}

/* A driver call's result: what the device printed during it is handed on, then an error
 * diagnostic at loc unless it succeeded; a kernel's error fails the last launch. */
BeStatus be_drv_checked(Drv *c, const char *loc, const char *fn, BeDrvResult r)
{
    be_devout_drain(&c->out, loc);
    if (r == 0)
        return BE_OK;
    for (size_t i = 0; i < sizeof c->api->kernel_faults / sizeof *c->api->kernel_faults && c->api->kernel_faults[i];
         i++)
        if (r == c->api->kernel_faults[i] && !c->failed)
            c->failed = c->last_launch ? c->last_launch : loc;
    char buf[64];
    diag(c, true, "error", loc, NULL, "'%s' failed with %s", fn, error_name(c->api, c->drv, r, buf, sizeof buf));
    return status_of(c->api, r);
}

static void report(void *self, bool error, const char *kind, const char *loc, const char *message)
{
    diag(self, error, kind, loc, NULL, "%s", message);
}

/* ---- the handle table ---- */

BeStatus be_drv_slot_new(Drv *c, int kind, const char *loc, void **out)
{
    uint32_t i;
    if (c->n_free > KEEP_FREE) {
        i = c->free_head - 1;
        c->free_head = c->slot[i].next_free;
        if (!c->free_head)
            c->free_tail = 0;
        c->n_free--;
        c->slot[i].gen++;
    } else {
        if (c->n_slot == c->cap_slot) {
            uint32_t cap = c->cap_slot ? c->cap_slot * 2 : 64;
            Slot *t = realloc(c->slot, (size_t)cap * sizeof *t);
            if (!t) {
                diag(c, true, "error", loc, NULL, "out of memory making a %s", kind_names[kind]);
                return BE_ERR_MEMORY;
            }
            c->slot = t;
            c->cap_slot = cap;
        }
        i = c->n_slot++;
        c->slot[i].gen = 0;
    }
    Slot *s = &c->slot[i];
    uint16_t gen = s->gen;
    memset(s, 0, sizeof *s);
    s->gen = gen;
    s->kind = (uint8_t)kind;
    s->live = true;
    s->made = loc;
    s->id = ++c->next_id[kind];
    *out = (void *)(uintptr_t)(HANDLE_TAG << 52 | (uint64_t)kind << 48 | (uint64_t)gen << 32 | (i + 1));
    return BE_OK;
}

/* Marks slot i dead; it goes to the end of the free list. */
void be_drv_slot_kill(Drv *c, uint32_t i, const char *loc)
{
    c->slot[i].live = false;
    c->slot[i].gone = loc;
    c->slot[i].next_free = 0;
    if (c->free_tail)
        c->slot[c->free_tail - 1].next_free = i + 1;
    else
        c->free_head = i + 1;
    c->free_tail = i + 1;
    c->n_free++;
}

static bool decode(const void *h, unsigned *kind, uint16_t *gen, uint32_t *idx)
{
    uint64_t v = (uint64_t)(uintptr_t)h;
    if (v >> 52 != HANDLE_TAG || (uint32_t)v == 0)
        return false;
    *kind = (unsigned)(v >> 48) & 0xf;
    *gen = (uint16_t)(v >> 32);
    *idx = (uint32_t)v - 1;
    return true;
}

#define LOC(s) ((s) ? (s) : "?")
#define AN(kind) ((kind) == H_EVENT ? "an" : "a")

/* The live slot of kind `want` behind h, or NULL after saying what h is (the sim's words). */
Slot *be_drv_lookup(Drv *c, const void *h, unsigned want, const char *loc)
{
    unsigned kind;
    uint16_t gen;
    uint32_t idx;
    if (!h) {
        diag(c, true, "misuse", loc, NULL, "expects %s %s, got a null handle", AN(want), kind_names[want]);
        return NULL;
    }
    if (!decode(h, &kind, &gen, &idx) || kind == 0 || kind >= H_KINDS || idx >= c->n_slot ||
        c->slot[idx].kind != kind) {
        diag(c, true, "misuse", loc, NULL, "expects %s %s, got %p, which is no handle of this device",
             AN(want), kind_names[want], h);
        return NULL;
    }
    Slot *s = &c->slot[idx];
    if (s->gen != gen) {
        diag(c, true, "misuse", loc, NULL, "expects %s %s, got %s %s that was destroyed (its slot is reused since)",
             AN(want), kind_names[want], AN(kind), kind_names[kind]);
        return NULL;
    }
    if (kind != want) {
        diag(c, true, "misuse", loc, s->made, "expects %s %s, got %s %s (created at '%s'%s%s%s)", AN(want),
             kind_names[want], AN(kind), kind_names[kind], LOC(s->made), s->live ? "" : ", destroyed at '",
             s->live ? "" : LOC(s->gone), s->live ? "" : "'");
        return NULL;
    }
    if (!s->live) {
        diag(c, true, "misuse", loc, s->gone, "use of a destroyed %s (created at '%s', destroyed at '%s')",
             kind_names[kind], LOC(s->made), LOC(s->gone));
        return NULL;
    }
    return s;
}

/* A stream argument: NULL is the default stream. False after a report. */
bool be_drv_stream_of(Drv *c, BeStream h, void **out, const char *loc)
{
    *out = NULL;
    if (!h)
        return true;
    Slot *s = be_drv_lookup(c, h, H_STREAM, loc);
    if (s)
        *out = s->u.stream;
    return s != NULL;
}

/* The id of h for traces when it is a live handle of this kind, else 0. */
uint64_t be_drv_id_of(Drv *c, const void *h, unsigned want)
{
    unsigned kind;
    uint16_t gen;
    uint32_t idx;
    if (!decode(h, &kind, &gen, &idx) || kind != want || idx >= c->n_slot)
        return 0;
    Slot *s = &c->slot[idx];
    return s->kind == kind && s->gen == gen && s->live ? s->id : 0;
}

static uint64_t stream_id(void *self, BeStream s)
{
    return be_drv_id_of(self, s, H_STREAM);
}

static uint64_t event_id(void *self, BeEvent e)
{
    return be_drv_id_of(self, e, H_EVENT);
}

static uint64_t token_id(void *self, BeToken t)
{
    return be_drv_id_of(self, t, H_TOKEN);
}

/* ---- the memory table ---- */

/* Index of the first allocation whose base is > addr. */
static size_t upper(const Drv *c, uintptr_t addr)
{
    size_t lo = 0, hi = c->n_alloc;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->alloc[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The allocation holding addr, or NULL. */
static Alloc *alloc_at(Drv *c, const void *ptr)
{
    uintptr_t addr = (uintptr_t)ptr;
    size_t i = upper(c, addr);
    if (i > 0 && addr - c->alloc[i - 1].base < (c->alloc[i - 1].size ? c->alloc[i - 1].size : 1))
        return &c->alloc[i - 1];
    return NULL;
}

static BeStatus alloc_add(Drv *c, const void *ptr, size_t size, AllocKind kind, const char *loc)
{
    if (!ptr)
        return BE_OK;
    if (c->n_alloc == c->cap_alloc) {
        size_t cap = c->cap_alloc ? c->cap_alloc * 2 : 16;
        Alloc *t = realloc(c->alloc, cap * sizeof *t);
        if (!t) {
            diag(c, true, "error", loc, NULL, "out of memory recording an allocation");
            return BE_ERR_MEMORY;
        }
        c->alloc = t;
        c->cap_alloc = cap;
    }
    uintptr_t base = (uintptr_t)ptr;
    /* Freed memory the driver hands out again is no longer freed memory. */
    for (size_t j = c->n_alloc; j-- > 0;) {
        Alloc *d = &c->alloc[j];
        if (d->freed && d->base < base + (size ? size : 1) && base < d->base + (d->size ? d->size : 1)) {
            memmove(d, d + 1, (c->n_alloc - j - 1) * sizeof *d);
            c->n_alloc--;
        }
    }
    size_t i = upper(c, base);
    memmove(&c->alloc[i + 1], &c->alloc[i], (c->n_alloc - i) * sizeof *c->alloc);
    c->alloc[i] = (Alloc){.base = base, .size = size, .kind = kind, .id = ++c->next_buf, .loc = loc};
    c->n_alloc++;
    return BE_OK;
}

static void alloc_remove(Drv *c, Alloc *a)
{
    size_t i = (size_t)(a - c->alloc);
    memmove(&c->alloc[i], &c->alloc[i + 1], (c->n_alloc - i - 1) * sizeof *c->alloc);
    c->n_alloc--;
}

static uint64_t buffer_id(void *self, const void *ptr, uint64_t *offset)
{
    Alloc *a = alloc_at(self, ptr);
    if (a && a->freed)
        a = NULL;
    *offset = a ? (uintptr_t)ptr - a->base : 0;
    return a ? a->id : 0;
}

/* [p, p+n) as `who` ("memcpy destination") uses it: refused when it starts in known memory and
 * runs past its end, or in freed device memory (the sim's words). */
static bool range_ok(Drv *c, const void *p, size_t n, const char *who, const char *loc)
{
    Alloc *a = alloc_at(c, p);
    if (!a || (!a->freed && n <= a->size - ((uintptr_t)p - a->base)))
        return true;
    size_t off = (uintptr_t)p - a->base;
    if (a->freed)
        diag_mem(c, "misuse", loc, a->freed, a->loc,
                 "%s: use after free: bytes [%zu, %zu) of the %s allocated at '%s' and freed at '%s'", who, off,
                 off + n, alloc_names[a->kind], LOC(a->loc), LOC(a->freed));
    else
        diag_mem(c, "out-of-bounds", loc, NULL, a->loc,
                 "%s: bytes [%zu, %zu) are out of bounds of the %zu-byte %s allocated at '%s'", who, off, off + n,
                 a->size, alloc_names[a->kind], LOC(a->loc));
    return false;
}

/* ---- opening and closing ---- */

static BeStatus device_use(Drv *c, int ordinal, const char *loc, char *err, size_t errlen);
static void timed_flush(Drv *c);

static void close_(void *self, BeSummary *summary)
{
    Drv *c = self;
    if (c->lib) {
        if (c->n_held)
            CALL0(c, "exit", sync);
        timed_flush(c);
        for (uint32_t i = 0; i < c->n_slot; i++) {
            Slot *s = &c->slot[i];
            if (!s->live)
                continue;
            if (s->kind == H_STREAM || s->kind == H_EVENT || s->kind == H_MODULE)
                diag(c, false, "leak", s->made, NULL, "%s created here was never destroyed", kind_names[s->kind]);
            if (s->kind == H_TOKEN && s->u.tok.event) /* the interpreter's, not the program's */
                CALL(c, "exit", event_destroy, s->u.tok.event);
        }
        for (size_t i = 0; i < c->n_alloc; i++)
            if ((c->alloc[i].kind == A_DEVICE || c->alloc[i].kind == A_MANAGED) && !c->alloc[i].freed)
                diag(c, false, "leak", c->alloc[i].loc, NULL, "%s (%zu bytes) allocated here was never freed",
                     alloc_names[c->alloc[i].kind], c->alloc[i].size);
        for (int i = 0; i < POOL; i++)
            if (c->pool[i])
                CALL(c, "exit", stream_destroy, c->pool[i]);
        for (int i = 0; c->api->device_release.fn && i < c->n_held; i++)
            CALL(c, "exit", device_release, c->held[i]);
        be_devout_close(&c->out, "exit");
        /* The library stays loaded: drivers register exit handlers of their own. */
    }
    if (summary) {
        summary->errors = c->errors;
        summary->warnings = c->warnings;
    }
    for (uint32_t i = 0; i < c->n_slot; i++)
        if (c->slot[i].kind == H_FUNCTION)
            free(c->slot[i].u.fn.name);
    free(c->slot);
    free(c->alloc);
    free(c->hreg);
    free(c->timed);
    free(c->drv);
    free(c);
}

static size_t error_count(void *self)
{
    return ((Drv *)self)->errors;
}

static size_t warning_count(void *self)
{
    return ((Drv *)self)->warnings;
}

static void quiet_leaks(void *self)
{
    ((Drv *)self)->quiet_leaks = true;
}

static const char *failure(void *self)
{
    return ((Drv *)self)->failed;
}

/* Makes device `ordinal` current (CUDA: its primary context). At open (err set) failures are
 * be_open's message; later (mgpuSetDefaultDevice) they are diagnostics at loc. */
static BeStatus device_use(Drv *c, int ordinal, const char *loc, char *err, size_t errlen)
{
    const BeDriverApi *api = c->api;
    const char *vendor = api->vendor;
    char buf[64];
    BeDrvResult r;
    const char *what;
    int dev;
    int count = 0;
    if ((r = api->device_count.fn(c->drv, &count)) != 0 && r != api->no_device) {
        what = api->device_count.call;
        goto fail;
    }
    const char *none = r ? error_name(api, c->drv, r, buf, sizeof buf) : "0"; /* HIP: no device is an error */
    if (r)
        count = 0;
    if (ordinal < 0 || ordinal >= count) {
        if (err && !count)
            snprintf(err, errlen, "no %s device found (%s says %s)", vendor, api->device_count.call, none);
        else if (err)
            snprintf(err, errlen, "there is no %s device %d (this machine has %d)", vendor, ordinal, count);
        else
            diag(c, true, "error", loc, NULL, "there is no %s device %d (this machine has %d)", vendor, ordinal,
                 count);
        return BE_ERR_ARG;
    }
    if ((r = api->device_get.fn(c->drv, &dev, ordinal)) != 0) {
        what = api->device_get.call;
        goto fail;
    }
    char name[sizeof c->device_name];
    if ((r = api->device_name.fn(c->drv, name, (int)sizeof name, dev)) != 0) {
        what = api->device_name.call;
        goto fail;
    }
    name[sizeof name - 1] = '\0';
    int uva = 0;
    if ((r = api->device_uva.fn(c->drv, &uva, dev)) != 0) {
        what = api->device_uva.call;
        goto fail;
    }
    if (!uva) {
        if (err)
            snprintf(err, errlen, "%s device %d (%s) has no unified addressing, which copies need", vendor, ordinal,
                     name);
        else
            diag(c, true, "error", loc, NULL, "%s device %d (%s) has no unified addressing, which copies need", vendor,
                 ordinal, name);
        return BE_ERR_UNSUPPORTED;
    }
    bool held = false;
    for (int i = 0; i < c->n_held; i++)
        held |= c->held[i] == dev;
    if (!held && c->n_held == (int)(sizeof c->held / sizeof *c->held)) {
        diag(c, true, "error", loc, NULL, "too many %s devices in use", vendor);
        return BE_ERR_ARG;
    }
    if ((r = api->device_activate(c->drv, dev, ordinal, held, &what)) != 0)
        goto fail;
    if (!held)
        c->held[c->n_held++] = dev;
    memcpy(c->device_name, name, sizeof name);
    c->device = dev;
    c->ordinal = ordinal;
    return BE_OK;
fail:
    if (err)
        snprintf(err, errlen, "cannot use %s device %d: '%s' failed with %s", vendor, ordinal, what,
                 error_name(api, c->drv, r, buf, sizeof buf));
    else
        diag(c, true, "error", loc, NULL, "'%s' failed with %s", what, error_name(api, c->drv, r, buf, sizeof buf));
    return status_of(api, r);
}

static BeStatus device_set(void *self, int device, const char *loc)
{
    Drv *c = self;
    if (device == c->ordinal)
        return BE_OK;
    return device_use(c, device, loc, NULL, 0);
}

static BeStatus device_sync(void *self, const char *loc)
{
    return CALL0((Drv *)self, loc, sync);
}

static BeStatus device_arch(void *self, char *buf, size_t cap, const char *loc)
{
    Drv *c = self;
    if (!c->api->device_arch.fn)
        return BE_ERR_UNSUPPORTED;
    BeStatus st = CALL(c, loc, device_arch, buf, cap, c->device);
    buf[cap - 1] = '\0';
    return st;
}

/* ---- streams and events ---- */

static BeStatus stream_create(void *self, BeStream *out, const char *loc)
{
    Drv *c = self;
    *out = NULL;
    void *s = NULL;
    BeStatus st = CALL(c, loc, stream_create, &s);
    if (st != BE_OK)
        return st;
    void *h;
    if ((st = be_drv_slot_new(c, H_STREAM, loc, &h)) != BE_OK) {
        c->api->stream_destroy.fn(c->drv, s);
        return st;
    }
    c->slot[(uint32_t)(uintptr_t)h - 1].u.stream = s;
    *out = h;
    return BE_OK;
}

uint32_t be_drv_index_of(Drv *c, const Slot *s)
{
    return (uint32_t)(s - c->slot);
}

static BeStatus stream_destroy(void *self, BeStream h, const char *loc)
{
    Drv *c = self;
    if (!h) {
        diag(c, true, "misuse", loc, NULL, "the default stream cannot be destroyed");
        return BE_ERR_HANDLE;
    }
    Slot *s = be_drv_lookup(c, h, H_STREAM, loc);
    if (!s)
        return BE_ERR_HANDLE;
    BeStatus st = CALL(c, loc, stream_destroy, s->u.stream);
    be_drv_slot_kill(c, be_drv_index_of(c, s), loc);
    return st;
}

static BeStatus stream_sync(void *self, BeStream h, const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, h, &s, loc))
        return BE_ERR_HANDLE;
    return CALL(c, loc, stream_sync, s);
}

static BeStatus stream_wait_event(void *self, BeStream hs, BeEvent he, const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    Slot *e = be_drv_lookup(c, he, H_EVENT, loc);
    if (!e)
        return BE_ERR_HANDLE;
    return CALL(c, loc, stream_wait_event, s, e->u.event);
}

static BeStatus event_create(void *self, BeEvent *out, const char *loc)
{
    Drv *c = self;
    *out = NULL;
    void *e = NULL;
    BeStatus st = CALL(c, loc, event_create, &e);
    if (st != BE_OK)
        return st;
    void *h;
    if ((st = be_drv_slot_new(c, H_EVENT, loc, &h)) != BE_OK) {
        c->api->event_destroy.fn(c->drv, e);
        return st;
    }
    c->slot[(uint32_t)(uintptr_t)h - 1].u.event = e;
    *out = h;
    return BE_OK;
}

static BeStatus event_destroy(void *self, BeEvent h, const char *loc)
{
    Drv *c = self;
    Slot *e = be_drv_lookup(c, h, H_EVENT, loc);
    if (!e)
        return BE_ERR_HANDLE;
    BeStatus st = CALL(c, loc, event_destroy, e->u.event);
    be_drv_slot_kill(c, be_drv_index_of(c, e), loc);
    return st;
}

static BeStatus event_record(void *self, BeEvent he, BeStream hs, const char *loc)
{
    Drv *c = self;
    Slot *e = be_drv_lookup(c, he, H_EVENT, loc);
    void *s;
    if (!e || !be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    return CALL(c, loc, event_record, e->u.event, s);
}

static BeStatus event_sync(void *self, BeEvent h, const char *loc)
{
    Drv *c = self;
    Slot *e = be_drv_lookup(c, h, H_EVENT, loc);
    if (!e)
        return BE_ERR_HANDLE;
    return CALL(c, loc, event_sync, e->u.event);
}

static BeStatus event_query(void *self, BeEvent h, const char *loc)
{
    Drv *c = self;
    Slot *e = be_drv_lookup(c, h, H_EVENT, loc);
    if (!e)
        return BE_ERR_HANDLE;
    BeDrvResult r = c->api->event_query.fn(c->drv, e->u.event);
    return r == c->api->not_ready ? BE_NOT_READY : be_drv_checked(c, loc, c->api->event_query.call, r);
}

/* ---- memory ---- */

BeStatus be_drv_mem_alloc(void *self, size_t bytes, bool host_shared, BeStream hs, void **out,
                          const char *loc)
{
    Drv *c = self;
    *out = NULL;
    if (bytes == 0)
        return BE_OK; /* as mgpuMemAlloc: no memory, no call */
    void *p = NULL;
    BeStatus st = host_shared ? CALL(c, loc, mem_alloc_managed, &p, bytes) : CALL(c, loc, mem_alloc, &p, bytes);
    if (st != BE_OK)
        return st;
    *out = p;
    return alloc_add(c, *out, bytes, host_shared ? A_MANAGED : A_DEVICE, loc);
}

BeStatus be_drv_mem_free(void *self, void *ptr, BeStream hs, const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    if (!ptr)
        return BE_OK;
    Alloc *a = alloc_at(c, ptr);
    if (a && a->freed && a->base == (uintptr_t)ptr) {
        diag_mem(c, "misuse", loc, a->freed, a->loc, "free twice: %s allocated at '%s' was already released at '%s'",
                 alloc_names[a->kind], LOC(a->loc), LOC(a->freed));
        return BE_ERR_MEMORY;
    }
    if (!a || a->freed || a->base != (uintptr_t)ptr || (a->kind != A_DEVICE && a->kind != A_MANAGED)) {
        if (a)
            diag_mem(c, "misuse", loc, NULL, a->loc, "free of %p, which is %sthe %s%s allocated at '%s'", ptr,
                     a->base == (uintptr_t)ptr ? "" : "inside ", a->freed ? "freed " : "", alloc_names[a->kind],
                     LOC(a->loc));
        else
            diag(c, true, "misuse", loc, NULL, "free of %p, which is no allocation of this device", ptr);
        return BE_ERR_MEMORY;
    }
    a->freed = loc;
    return CALL(c, loc, mem_free, ptr);
}

/* ---- event-timed traces ----
 *
 * With a trace recorder (BeOptions.trace) and a driver that times events (event_elapsed), every
 * copy, memset and launch is bracketed by two events recorded on its stream, and is a trace op:
 * its enqueue is recorded when the host submits it (named as the caller labels it,
 * be_trace_label), its start and end once the device is idle at close, at the host time of a
 * base event (recorded and waited for before the first op) plus what the driver measured from
 * it. So the trace formats show the device's own timing of each op; there are no accesses or
 * happens-before edges, which a device does not report. */
typedef struct Timed {
    uint64_t op, stream;
    void *start, *end;
} Timed;

/* The trace id of a driver stream: its handle's, or 0 for the token door's pool streams. */
static uint64_t trace_stream(Drv *c, void *s)
{
    for (uint32_t i = 0; s && i < c->n_slot; i++)
        if (c->slot[i].kind == H_STREAM && c->slot[i].live && c->slot[i].u.stream == s)
            return c->slot[i].id;
    return 0;
}

/* An event for timing. */
static BeStatus timing_event(Drv *c, const char *loc, void **ev)
{
    return c->api->event_create_timed.fn ? CALL(c, loc, event_create_timed, ev) : CALL(c, loc, event_create, ev);
}

/* Records the start event of an op of `kind` about to be enqueued on s; false when ops are not
 * timed (no trace, no timing in the driver, or an event failed). */
static bool timed_begin(Drv *c, void *s, const char *kind, const char *loc, Timed *t)
{
    if (!c->trace)
        return false;
    if (!c->t_base) {
        if (timing_event(c, loc, &c->t_base) != BE_OK)
            return false;
        if (CALL(c, loc, event_record, c->t_base, s) != BE_OK || CALL(c, loc, event_sync, c->t_base) != BE_OK) {
            c->api->event_destroy.fn(c->drv, c->t_base);
            c->t_base = NULL;
            return false;
        }
        c->t_base_ns = trace_recorder_now(c->trace);
    }
    /* a token op is named by its token's id, as the calls name it; another op takes the next */
    *t = (Timed){.op = c->token_op ? c->token_op : ++c->next_id[H_TOKEN], .stream = trace_stream(c, s)};
    if (timing_event(c, loc, &t->start) != BE_OK)
        return false;
    if (CALL(c, loc, event_record, t->start, s) != BE_OK) {
        c->api->event_destroy.fn(c->drv, t->start);
        return false;
    }
    TraceEvent ev = {.kind = TRACE_ENQUEUE, .op = t->op, .stream = t->stream, .name = kind, .loc = loc,
                     .detail = be_trace_label_now()};
    trace_recorder_add(c->trace, &ev);
    return true;
}

/* Records the op's end event and keeps the pair for the close. */
static void timed_end(Drv *c, void *s, Timed *t, const char *loc)
{
    if (c->n_timed == c->cap_timed) {
        size_t cap = c->cap_timed ? 2 * c->cap_timed : 64;
        Timed *p = realloc(c->timed, cap * sizeof *p);
        if (!p) {
            c->api->event_destroy.fn(c->drv, t->start);
            return;
        }
        c->timed = p;
        c->cap_timed = cap;
    }
    if (timing_event(c, loc, &t->end) != BE_OK) {
        c->api->event_destroy.fn(c->drv, t->start);
        return;
    }
    if (CALL(c, loc, event_record, t->end, s) != BE_OK) {
        c->api->event_destroy.fn(c->drv, t->end);
        t->end = NULL; /* not timed: the start event alone is destroyed at the close */
    }
    c->timed[c->n_timed++] = *t;
}

/* The device is idle: each timed op's start and end, on the host's clock. */
static void timed_flush(Drv *c)
{
    const BeDriverApi *api = c->api;
    for (size_t i = 0; i < c->n_timed; i++) {
        Timed *t = &c->timed[i];
        float a = 0, b = 0;
        if (t->end && api->event_elapsed.fn(c->drv, &a, c->t_base, t->start) == 0 &&
            api->event_elapsed.fn(c->drv, &b, c->t_base, t->end) == 0) {
            uint64_t ts = c->t_base_ns + (uint64_t)(a > 0 ? a * 1e6 : 0);
            uint64_t te = c->t_base_ns + (uint64_t)(b > a ? b * 1e6 : a > 0 ? a * 1e6 : 0);
            TraceEvent start = {.kind = TRACE_START, .t_ns = ts ? ts : 1, .op = t->op, .stream = t->stream};
            TraceEvent end = {.kind = TRACE_END, .t_ns = te ? te : 1, .op = t->op, .stream = t->stream};
            trace_recorder_add(c->trace, &start);
            trace_recorder_add(c->trace, &end);
        }
        api->event_destroy.fn(c->drv, t->start);
        if (t->end)
            api->event_destroy.fn(c->drv, t->end);
    }
    c->n_timed = 0;
    if (c->t_base)
        api->event_destroy.fn(c->drv, c->t_base);
    c->t_base = NULL;
}

BeStatus be_drv_enqueue_memcpy(Drv *c, void *dst, const void *src, size_t bytes, void *s,
                               const char *loc)
{
    if (!range_ok(c, dst, bytes, "memcpy destination", loc) || !range_ok(c, src, bytes, "memcpy source", loc))
        return BE_ERR_MEMORY;
    if (bytes == 0)
        return BE_OK;
    Timed t;
    bool timed = timed_begin(c, s, "memcpy", loc, &t);
    BeStatus st = CALL(c, loc, memcpy, dst, src, bytes, s);
    if (timed)
        timed_end(c, s, &t, loc);
    return st;
}

BeStatus be_drv_enqueue_memset(Drv *c, void *dst, uint32_t value, unsigned width, size_t count,
                               void *s, const char *loc)
{
    if (count > SIZE_MAX / width) {
        diag(c, true, "misuse", loc, NULL, "memset of %zu elements of %u bytes overflows the address space",
             count, width);
        return BE_ERR_ARG;
    }
    if (!range_ok(c, dst, count * width, "memset destination", loc))
        return BE_ERR_MEMORY;
    if (count == 0)
        return BE_OK;
    Timed t;
    bool timed = timed_begin(c, s, "memset", loc, &t);
    BeStatus st = width == 1   ? CALL(c, loc, memset8, dst, (uint8_t)value, count, s)
                  : width == 2 ? CALL(c, loc, memset16, dst, (uint16_t)value, count, s)
                               : CALL(c, loc, memset32, dst, value, count, s);
    if (timed)
        timed_end(c, s, &t, loc);
    return st;
}

static BeStatus memcpy_(void *self, void *dst, const void *src, size_t bytes, BeStream hs,
                        const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    return be_drv_enqueue_memcpy(c, dst, src, bytes, s, loc);
}

static BeStatus memset_(void *self, void *dst, uint32_t value, unsigned width, size_t count,
                        BeStream hs, const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    return be_drv_enqueue_memset(c, dst, value, width, count, s, loc);
}

/* Host memory made known: registered with the driver, or (host_add) only recorded. The
 * interpreter's own host memory (host_add) may be registered in place, a range at a time, as on
 * the sim: a range that overlaps one registered already is refused before the driver sees it
 * (which would answer CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED), one beside it is not. */
static BeStatus reg_in_place(Drv *c, Alloc *a, uintptr_t p, size_t bytes, const char *loc)
{
    for (size_t j = 0; j < c->n_hreg; j++) {
        const HostReg *r = &c->hreg[j];
        if (p < r->base + r->size && r->base < p + bytes) {
            diag_mem(c, "misuse", loc, r->loc, a->loc,
                     "host register of %zu bytes: the host memory allocated at '%s' is already registered at '%s' "
                     "(%zu bytes at offset %zu)",
                     bytes, LOC(a->loc), LOC(r->loc), r->size, (size_t)(r->base - a->base));
            return BE_ERR_MEMORY;
        }
    }
    if (c->n_hreg == c->cap_hreg) {
        size_t cap = c->cap_hreg ? c->cap_hreg * 2 : 8;
        HostReg *t = realloc(c->hreg, cap * sizeof *t);
        if (!t) {
            diag(c, true, "error", loc, NULL, "out of memory recording a registration");
            return BE_ERR_MEMORY;
        }
        c->hreg = t;
        c->cap_hreg = cap;
    }
    BeStatus st = CALL(c, loc, host_register, (void *)p, bytes);
    if (st == BE_OK)
        c->hreg[c->n_hreg++] = (HostReg){p, bytes, loc};
    return st;
}

static BeStatus known_add(Drv *c, void *ptr, size_t bytes, AllocKind kind, const char *loc)
{
    if (!ptr || !bytes)
        return BE_OK;
    uintptr_t p = (uintptr_t)ptr;
    Alloc *a = alloc_at(c, ptr);
    size_t i = upper(c, p);
    if (!a && i < c->n_alloc && c->alloc[i].base < p + bytes && !c->alloc[i].freed)
        a = &c->alloc[i]; /* starts before the next known block and runs into it */
    if (a && a->freed)
        a = NULL;
    if (a && kind == A_REGISTERED && a->kind == A_HOST && p >= a->base && bytes <= a->size - (p - a->base))
        return reg_in_place(c, a, p, bytes, loc);
    if (a) {
        diag_mem(c, "misuse", loc, NULL, a->loc, "%s of %zu bytes overlaps the %s allocated at '%s'",
                 kind == A_REGISTERED ? "host register" : "host memory", bytes, alloc_names[a->kind],
                 LOC(a->loc));
        return BE_ERR_MEMORY;
    }
    if (kind == A_REGISTERED) {
        BeStatus st = CALL(c, loc, host_register, ptr, bytes);
        if (st != BE_OK)
            return st;
    }
    return alloc_add(c, ptr, bytes, kind, loc);
}

static BeStatus known_remove(Drv *c, void *ptr, AllocKind kind, const char *loc)
{
    if (!ptr)
        return BE_OK;
    Alloc *a = alloc_at(c, ptr);
    if (kind == A_REGISTERED && a && a->kind == A_HOST)
        for (size_t j = 0; j < c->n_hreg; j++)
            if (c->hreg[j].base == (uintptr_t)ptr) {
                c->hreg[j] = c->hreg[--c->n_hreg];
                return CALL(c, loc, host_unregister, ptr);
            }
    if (!a || a->freed || a->base != (uintptr_t)ptr || a->kind != kind) {
        diag(c, true, "misuse", loc, NULL, "%p is not %s this device knows", ptr,
             kind == A_REGISTERED ? "registered host memory" : "host memory");
        return BE_ERR_MEMORY;
    }
    /* host memory about to be freed: its registrations in place end with it, as on the sim, and
     * the driver is told, so that it does not keep pages of freed memory registered */
    for (size_t j = c->n_hreg; kind == A_HOST && j-- > 0;)
        if (c->hreg[j].base >= a->base && c->hreg[j].base < a->base + a->size) {
            void *r = (void *)c->hreg[j].base;
            c->hreg[j] = c->hreg[--c->n_hreg];
            CALL(c, loc, host_unregister, r);
        }
    alloc_remove(c, a);
    return kind == A_REGISTERED ? CALL(c, loc, host_unregister, ptr) : BE_OK;
}

static BeStatus mem_register(void *self, void *ptr, size_t bytes, const char *loc)
{
    return known_add(self, ptr, bytes, A_REGISTERED, loc);
}

static BeStatus mem_unregister(void *self, void *ptr, const char *loc)
{
    return known_remove(self, ptr, A_REGISTERED, loc);
}

static BeStatus host_add(void *self, void *ptr, size_t bytes, const char *loc)
{
    return known_add(self, ptr, bytes, A_HOST, loc);
}

static BeStatus host_remove(void *self, void *ptr, const char *loc)
{
    return known_remove(self, ptr, A_HOST, loc);
}

static BeStatus host_access(void *self, const void *addr, size_t bytes, bool is_write, const char *loc)
{
    Drv *c = self;
    Alloc *a = alloc_at(c, addr);
    if (!a || a->kind != A_DEVICE || a->freed)
        return BE_OK;
    size_t off = (uintptr_t)addr - a->base;
    diag_mem(c, "misuse", loc, NULL, a->loc,
             "host %s of device memory allocated at '%s' (bytes [%zu, %zu)); only host-shared memory is visible "
             "to the host", is_write ? "store" : "load", LOC(a->loc), off, off + bytes);
    return BE_ERR_MEMORY;
}

/* ---- modules and launches ---- */

static BeStatus module_load(void *self, const void *data, size_t size, BeModule *out, const char *loc)
{
    Drv *c = self;
    *out = NULL;
    if (!data || !size) {
        diag(c, true, "misuse", loc, NULL, "module load of an empty device binary");
        return BE_ERR_ARG;
    }
    /* A binary for another vendor's GPUs is refused, yet still gets a module (with no driver
     * module behind it), as on the sim: the program goes on, and each launch of one of its
     * kernels is reported and fails. */
    BeBlobKind kind = be_blob_kind(data, size);
    if (c->api->refused_blobs >> kind & 1) {
        diag(c, true, "error", loc, NULL, "module load of %s, which the %s backend cannot load: it loads %s only",
             be_blob_kind_name(kind), c->api->name, c->api->binaries);
        return be_drv_slot_new(c, H_MODULE, loc, (void **)out) == BE_OK ? BE_ERR_UNSUPPORTED : BE_ERR_MEMORY;
    }
    /* PTX is text the driver reads up to its NUL; a blob that lacks one gets it here. */
    const unsigned char *p = data;
    char *copy = NULL;
    bool elf = size >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0;
    bool fatbin = size >= 4 && memcmp(p, "\x50\xed\x55\xba", 4) == 0;
    if (!elf && !fatbin && p[size - 1] != '\0') {
        if (!(copy = malloc(size + 1))) {
            diag(c, true, "error", loc, NULL, "out of memory loading a module");
            return BE_ERR_MEMORY;
        }
        memcpy(copy, data, size);
        copy[size] = '\0';
        data = copy;
    }
    void *m = NULL;
    BeStatus st = CALL(c, loc, module_load, &m, data);
    free(copy);
    if (st != BE_OK)
        return st;
    void *h;
    if ((st = be_drv_slot_new(c, H_MODULE, loc, &h)) != BE_OK) {
        c->api->module_unload.fn(c->drv, m);
        return st;
    }
    c->slot[(uint32_t)(uintptr_t)h - 1].u.module = m;
    *out = h;
    return BE_OK;
}

static BeStatus module_unload(void *self, BeModule h, const char *loc)
{
    Drv *c = self;
    Slot *m = be_drv_lookup(c, h, H_MODULE, loc);
    if (!m)
        return BE_ERR_HANDLE;
    BeStatus st = m->u.module ? CALL(c, loc, module_unload, m->u.module) : BE_OK;
    be_drv_slot_kill(c, be_drv_index_of(c, m), loc);
    return st;
}

static BeStatus module_function(void *self, BeModule h, const char *name, BeFunction *out,
                                const char *loc)
{
    Drv *c = self;
    *out = NULL;
    Slot *m = be_drv_lookup(c, h, H_MODULE, loc);
    if (!m)
        return BE_ERR_HANDLE;
    if (!name)
        name = "";
    uint32_t mi = be_drv_index_of(c, m);
    /* One handle per (module, name): lowered code looks a kernel up before every launch. */
    for (uint32_t i = 0; i < c->n_slot; i++) {
        Slot *f = &c->slot[i];
        if (f->kind == H_FUNCTION && f->live && f->u.fn.module == mi && f->u.fn.module_gen == m->gen &&
            strcmp(f->u.fn.name, name) == 0) {
            *out = (void *)(uintptr_t)(HANDLE_TAG << 52 | (uint64_t)H_FUNCTION << 48 | (uint64_t)f->gen << 32 |
                                       (i + 1));
            return BE_OK;
        }
    }
    void *fn = NULL;
    BeStatus st = m->u.module ? CALL(c, loc, module_function, &fn, m->u.module, name) : BE_OK;
    if (st != BE_OK)
        return st;
    char *copy = strdup(name);
    void *hf;
    if (!copy || (st = be_drv_slot_new(c, H_FUNCTION, loc, &hf)) != BE_OK) {
        free(copy);
        return copy ? st : BE_ERR_MEMORY;
    }
    m = &c->slot[mi]; /* slot_new may have moved the table */
    Slot *f = &c->slot[(uint32_t)(uintptr_t)hf - 1];
    f->u.fn.fn = fn;
    f->u.fn.module = mi;
    f->u.fn.module_gen = m->gen;
    f->u.fn.name = copy;
    *out = hf;
    return BE_OK;
}

/* The driver function behind h in *out, or an error after a report: not a kernel function, its
 * module unloaded, or its module a binary the backend refused (no driver function). */
BeStatus be_drv_function_of(Drv *c, BeFunction h, const char *loc, Slot **out)
{
    Slot *f = be_drv_lookup(c, h, H_FUNCTION, loc);
    if (!f)
        return BE_ERR_HANDLE;
    Slot *m = &c->slot[f->u.fn.module];
    if (m->gen != f->u.fn.module_gen || !m->live) {
        diag(c, true, "misuse", loc, m->gone, "kernel '%s' is launched after its module was unloaded",
             f->u.fn.name);
        return BE_ERR_HANDLE;
    }
    if (!f->u.fn.fn) {
        diag(c, true, "error", loc, m->made, "kernel '%s' is not launched: its module, loaded at '%s', holds a binary "
             "the %s backend cannot load", f->u.fn.name, LOC(m->made), c->api->name);
        return BE_ERR_UNSUPPORTED;
    }
    *out = f;
    return BE_OK;
}

BeStatus be_drv_enqueue_launch(Drv *c, void *fn, const BeLaunch *l, void *s, const char *loc)
{
    Timed t;
    bool timed = timed_begin(c, s, "kernel", loc, &t);
    c->last_launch = loc;
    BeStatus st = CALL(c, loc, launch, fn, l, s);
    if (timed)
        timed_end(c, s, &t, loc);
    return st;
}

static BeStatus launch(void *self, BeFunction h, const BeLaunch *l, BeStream hs, const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    Slot *f;
    BeStatus st = be_drv_function_of(c, h, loc, &f);
    if (st != BE_OK)
        return st;
    return be_drv_enqueue_launch(c, f->u.fn.fn, l, s, loc);
}

void be_drv_host_kernel_refused(Drv *c, const BeLaunch *l, const char *loc)
{
    diag(c, true, "error", loc, NULL,
         "a kernel the interpreter runs itself (a gpu.launch body) cannot run on the %s backend: only "
         "device code can (%s; outline the body with -gpu-kernel-outlining); this launch (grid %ux%ux%u, "
         "block %ux%ux%u, on %s) is skipped and the program stops at its next synchronization",
         c->api->vendor, c->api->device_code, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], c->device_name);
}

static BeStatus launch_host(void *self, BeKernelFn fn, void *user, const BeLaunch *l, BeStream hs,
                            const char *loc)
{
    Drv *c = self;
    void *s;
    if (!be_drv_stream_of(c, hs, &s, loc))
        return BE_ERR_HANDLE;
    be_drv_host_kernel_refused(c, l, loc);
    return BE_ERR_UNSUPPORTED;
}

static const BeOps ops = {
    .close = close_,
    .error_count = error_count,
    .warning_count = warning_count,
    .stream_id = stream_id,
    .event_id = event_id,
    .buffer_id = buffer_id,
    .device_set = device_set,
    .device_sync = device_sync,
    .device_arch = device_arch,
    .stream_create = stream_create,
    .stream_destroy = stream_destroy,
    .stream_sync = stream_sync,
    .stream_wait_event = stream_wait_event,
    .event_create = event_create,
    .event_destroy = event_destroy,
    .event_record = event_record,
    .event_sync = event_sync,
    .event_query = event_query,
    .mem_alloc = be_drv_mem_alloc,
    .mem_free = be_drv_mem_free,
    .memcpy = memcpy_,
    .memset = memset_,
    .mem_register = mem_register,
    .mem_unregister = mem_unregister,
    .host_add = host_add,
    .host_remove = host_remove,
    .host_access = host_access,
    .module_load = module_load,
    .module_unload = module_unload,
    .module_function = module_function,
    .launch = launch,
    .launch_host = launch_host,
    .report = report,
    .quiet_leaks = quiet_leaks,
    .failure = failure,
    .token_id = token_id,
};

const char *be_driver_path(const BeOptions *opt, const char *env)
{
    const char *path = opt->driver_lib;
    if (!path || !*path)
        path = getenv(env);
    return path && *path ? path : NULL;
}

static void *lib_open(const BeDriverApi *api, const char *const *paths, const char **used, char *err,
                       size_t errlen)
{
    char why[256] = "";
    for (size_t i = 0; paths[i]; i++) {
        void *lib = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (lib) {
            *used = paths[i];
            return lib;
        }
        if (i == 0)
            snprintf(why, sizeof why, "%s", dlerror());
    }
    snprintf(err, errlen, "cannot load the %s %s library '%s' (%s): the %s backend needs %s (%s name another library)",
             api->vendor, api->noun, paths[0], why, api->name, api->needs, api->lib_hint);
    return NULL;
}

void *be_driver_sym(const BeDriverApi *api, void *lib, const char *path, const char *name, char *err,
                    size_t errlen)
{
    void *p = dlsym(lib, name);
    if (!p)
        snprintf(err, errlen, "the %s %s library '%s' has no '%s': the %s is too old or this is not a %s %s",
                 api->vendor, api->noun, path, name, api->noun, api->vendor, api->noun);
    return p;
}

static BeStatus create(const BeDriverApi *api, void *drv, void *lib, const char *path, const BeOptions *opt,
                       const BeOps **out_ops, void **self, char *err, size_t errlen)
{
    char buf[64];
    BeDrvResult r = api->init.fn(drv);
    if (r != 0) {
        snprintf(err, errlen, "cannot start the %s %s ('%s'): '%s' failed with %s", api->vendor, api->noun, path,
                 api->init.call, error_name(api, drv, r, buf, sizeof buf));
        return BE_ERR_NO_BACKEND;
    }
    Drv *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return BE_ERR_MEMORY;
    }
    c->api = api;
    c->drv = drv;
    c->out = (BeDevOut){.fd = -1, .saved = -1}; /* nothing captured until be_devout_open */
    c->ops = ops;
    be_drv_token_ops(&c->ops);
    c->ops.name = api->name;
    c->sink = opt->sink;
    c->sink_user = opt->sink_user;
    c->leaks_are_errors = opt->leak_check == BE_LEAK_ERROR;
    c->quiet_leaks = opt->leak_check == BE_LEAK_OFF;
    BeStatus st = device_use(c, 0, "open", err, errlen);
    if (st != BE_OK) {
        for (int i = 0; api->device_release.fn && i < c->n_held; i++)
            api->device_release.fn(drv, c->held[i]);
        free(c);
        return BE_ERR_NO_BACKEND;
    }
    if (api->event_elapsed.fn && (!api->times_events || api->times_events(drv)))
        c->trace = opt->trace;
    if (!be_devout_open(&c->out, opt, err, errlen)) {
        for (int i = 0; api->device_release.fn && i < c->n_held; i++)
            api->device_release.fn(drv, c->held[i]);
        free(c);
        return BE_ERR_NO_BACKEND;
    }
    c->lib = lib;
    *out_ops = &c->ops;
    *self = c;
    return BE_OK;
}

BeStatus be_driver_open(const BeDriverApi *api, const char *const *paths, const BeOptions *opt,
                        const BeOps **out_ops, void **self, char *err, size_t errlen)
{
    *self = NULL;
    *out_ops = NULL;
    const char *path;
    void *lib = lib_open(api, paths, &path, err, errlen);
    if (!lib)
        return BE_ERR_NO_BACKEND;
    void *drv = calloc(1, api->drv_size);
    if (!drv)
        snprintf(err, errlen, "out of memory");
    if (drv && api->resolve(drv, lib, path, err, errlen) &&
        create(api, drv, lib, path, opt, out_ops, self, err, errlen) == BE_OK)
        return BE_OK;
    free(drv);
    dlclose(lib);
    return BE_ERR_NO_BACKEND;
}

