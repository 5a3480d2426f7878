/* backend.c — opening a backend by name, and the be_* calls every backend shares.
 *
 * Each be_* function checks what does not depend on the device (NULL outputs, widths), forwards to
 * the backend's table, and, when a trace is being recorded, adds one call event with the handles'
 * ids and the status. Backends record everything that happens on the device themselves (ops, edges,
 * violations), since only they see it.
 */
#include "backends/backend.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct Backend {
    const BeOps *ops;
    void *self;
    TraceRecorder *trace;
    _Atomic(const char *) failed; /* be_launch_failed: the first failed launch */
};

static void say(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

BeStatus be_open(const char *name, const BeOptions *opt, Backend **out, char *err, size_t errlen)
{
    static const BeOptions none;
    *out = NULL;
    if (!opt)
        opt = &none;
    if (!name)
        name = "sim";
    say(err, errlen, "%s", "");
    const BeOps *ops = NULL;
    void *self = NULL;
    BeStatus st;
    if (strcmp(name, "sim") == 0) {
        st = be_sim_create(opt, &ops, &self, err, errlen);
    } else if (strcmp(name, "cuda") == 0) {
        char ignored[1];
        st = be_cuda_create(opt, &ops, &self, err ? err : ignored, err ? errlen : sizeof ignored);
    } else if (strcmp(name, "hip") == 0) {
        char ignored[1];
        st = be_hip_create(opt, &ops, &self, err ? err : ignored, err ? errlen : sizeof ignored);
    } else {
        say(err, errlen, "unknown backend '%s' (expected 'sim', 'cuda' or 'hip')", name);
        return BE_ERR_NO_BACKEND;
    }
    if (st != BE_OK)
        return st;
    Backend *be = calloc(1, sizeof *be);
    if (!be) {
        ops->close(self, NULL);
        say(err, errlen, "out of memory");
        return BE_ERR_MEMORY;
    }
    be->ops = ops;
    be->self = self;
    be->trace = opt->trace;
    *out = be;
    return BE_OK;
}

void be_close(Backend *be, BeSummary *summary)
{
    if (summary)
        *summary = (BeSummary){0};
    if (!be)
        return;
    be->ops->close(be->self, summary);
    free(be);
}

const char *be_name(const Backend *be)
{
    return be->ops->name;
}

size_t be_error_count(Backend *be)
{
    return be->ops->error_count(be->self);
}

size_t be_warning_count(Backend *be)
{
    return be->ops->warning_count(be->self);
}

const char *be_status_name(BeStatus st)
{
    switch (st) {
    case BE_OK: return "ok";
    case BE_NOT_READY: return "not ready";
    case BE_ERR_HANDLE: return "invalid handle";
    case BE_ERR_MEMORY: return "invalid memory";
    case BE_ERR_DEADLOCK: return "deadlock";
    case BE_ERR_ARG: return "invalid argument";
    case BE_ERR_UNSUPPORTED: return "unsupported";
    case BE_ERR_NO_BACKEND: return "no backend";
    case BE_ERR_DRIVER: return "driver error";
    }
    return "?";
}

BeBlobKind be_blob_kind(const void *data, size_t size)
{
    const unsigned char *p = data;
    if (!p || size == 0)
        return BE_BLOB_EMPTY;
    if (size >= 4 && memcmp(p, "\x7f" "ELF", 4) == 0) {
        /* e_machine, 16 bits at offset 18, in the byte order e_ident[5] names (1: little) */
        unsigned m = size < 20 ? 0 : p[5] == 2 ? (unsigned)p[18] << 8 | p[19] : (unsigned)p[19] << 8 | p[18];
        return m == 190 ? BE_BLOB_CUBIN : m == 224 ? BE_BLOB_HSACO : BE_BLOB_ELF;
    }
    if (size >= 4 && (memcmp(p, "\x50\xed\x55\xba", 4) == 0 || memcmp(p, "\xb1\x43\x62\x46", 4) == 0))
        return BE_BLOB_FATBIN;
    if (size >= 4 && memcmp(p, "BC\xc0\xde", 4) == 0)
        return BE_BLOB_BITCODE;
    /* PTX: blank space and comments, then the .version directive every PTX module opens with */
    size_t i = 0;
    while (i < size) {
        if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r') {
            i++;
        } else if (i + 1 < size && p[i] == '/' && p[i + 1] == '/') {
            while (i < size && p[i] != '\n')
                i++;
        } else if (i + 1 < size && p[i] == '/' && p[i + 1] == '*') {
            i += 2;
            while (i + 1 < size && !(p[i] == '*' && p[i + 1] == '/'))
                i++;
            i += 2;
        } else {
            break;
        }
    }
    if (i + 8 <= size && memcmp(p + i, ".version", 8) == 0)
        return BE_BLOB_PTX;
    return BE_BLOB_OTHER;
}

const char *be_blob_kind_name(BeBlobKind k)
{
    switch (k) {
    case BE_BLOB_EMPTY: return "empty";
    case BE_BLOB_PTX: return "PTX";
    case BE_BLOB_CUBIN: return "cubin (SASS)";
    case BE_BLOB_HSACO: return "AMD GPU code object (HSACO)";
    case BE_BLOB_ELF: return "ELF file of an unknown machine";
    case BE_BLOB_FATBIN: return "fatbinary (SASS)";
    case BE_BLOB_BITCODE: return "LLVM bitcode";
    case BE_BLOB_OTHER: break;
    }
    return "unrecognized data";
}

const char *be_diag_other_note(const char *kind)
{
    if (strcmp(kind, "race") == 0)
        return "the conflicting access";
    if (strcmp(kind, "deadlock") == 0)
        return "what it waits for";
    if (strcmp(kind, "misuse") == 0)
        return "the handle or memory was made or released here";
    return "related call";
}

void be_diag_print(FILE *out, const char *prefix, const BeDiag *d)
{
    const char *p = prefix ? prefix : "", *sep = prefix ? ": " : "";
    const char *kind = d->kind ? d->kind : "error";
    if (out == stderr)
        fflush(stdout); /* the program's output so far comes first when both go to one file */
    fprintf(out, "%s%s%s: %s: %s", p, sep, d->loc ? d->loc : "?", d->error ? "error" : "warning",
            d->message ? d->message : "");
    /* The class in brackets lets a reader (and a test) tell a race from a misuse at a glance; a
     * plain error needs no label. */
    if (strcmp(kind, "error") != 0)
        fprintf(out, " [%s]", kind);
    fputc('\n', out);
    if (d->loc2)
        fprintf(out, "%s%s%s: note: %s\n", p, sep, d->loc2, be_diag_other_note(kind));
    if (d->alloc_loc && !(d->loc && strcmp(d->alloc_loc, d->loc) == 0))
        fprintf(out, "%s%s%s: note: the memory was allocated here\n", p, sep, d->alloc_loc);
}

void be_report(Backend *be, bool error, const char *kind, const char *loc, const char *message)
{
    be->ops->report(be->self, error, kind, loc, message);
}

void be_launch_failed(Backend *be, const char *loc)
{
    const char *none = NULL;
    atomic_compare_exchange_strong(&be->failed, &none, loc ? loc : "?");
}

const char *be_failure(Backend *be)
{
    if (!be)
        return NULL;
    const char *failed = atomic_load(&be->failed);
    if (!failed && be->ops->failure)
        failed = be->ops->failure(be->self);
    return failed;
}

void be_quiet_leaks(Backend *be)
{
    if (be && be->ops->quiet_leaks)
        be->ops->quiet_leaks(be->self);
}

/* ---- tracing the calls ---- */

static _Thread_local const char *label; /* be_trace_label: what the caller is running */

void be_trace_label(const char *name)
{
    label = name;
}

const char *be_trace_label_now(void)
{
    return label;
}

typedef struct Detail {
    char buf[200];
    size_t n;
} Detail;

static void add(Detail *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(Detail *d, const char *fmt, ...)
{
    if (d->n >= sizeof d->buf)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(d->buf + d->n, sizeof d->buf - d->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        d->n += (size_t)k;
}

/* A handle of the wrong kind is named for what it is, so the trace line shows the mix-up. */
static void add_stream(Backend *be, Detail *d, BeStream s)
{
    uint64_t id = be->ops->stream_id(be->self, s), other;
    const char *sp = d->n ? " " : "";
    if (id)
        add(d, "%sstream %" PRIu64, sp, id);
    else if ((other = be->ops->event_id(be->self, (BeEvent)s)))
        add(d, "%sevent %" PRIu64 " given as a stream", sp, other);
    else if ((other = be->ops->token_id(be->self, (BeToken)s)))
        add(d, "%stoken op %" PRIu64 " given as a stream", sp, other);
    else
        add(d, "%sstream ?", sp);
}

static void add_event(Backend *be, Detail *d, BeEvent e)
{
    uint64_t id = be->ops->event_id(be->self, e), other;
    const char *sp = d->n ? " " : "";
    if (id)
        add(d, "%sevent %" PRIu64, sp, id);
    else if ((other = be->ops->stream_id(be->self, (BeStream)e)))
        add(d, "%sstream %" PRIu64 " given as an event", sp, other);
    else if ((other = be->ops->token_id(be->self, (BeToken)e)))
        add(d, "%stoken op %" PRIu64 " given as an event", sp, other);
    else
        add(d, "%sevent ?", sp);
}

static BeStatus done(Backend *be, const char *name, const char *loc, uint64_t t0, Detail *d, BeStatus st)
{
    if (st != BE_OK)
        add(d, "%s-> %s", d->n ? " " : "", be_status_name(st));
    trace_call(be->trace, label ? label : name, loc, t0, d->n ? d->buf : NULL);
    return st;
}

/* T0 starts the clock of a traced call; the rest of each wrapper only runs its detail code when
 * tracing, so an untraced call costs one branch. */
#define T0() uint64_t t0 = be->trace ? trace_recorder_now(be->trace) : 0

/* "b3", "b3+16" or "untracked": the buffer a pointer falls in, named as trace accesses name it. */
static void add_buffer(Backend *be, Detail *d, const void *ptr)
{
    uint64_t off = 0, id = be->ops->buffer_id(be->self, ptr, &off);
    const char *sp = d->n ? " " : "";
    if (!id)
        add(d, "%suntracked", sp);
    else if (off)
        add(d, "%sb%" PRIu64 "+%" PRIu64, sp, id, off);
    else
        add(d, "%sb%" PRIu64, sp, id);
}

/* ---- devices, streams, events ---- */

BeStatus be_device_set(Backend *be, int device, const char *loc)
{
    T0();
    BeStatus st = be->ops->device_set(be->self, device, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "device %d", device);
    return done(be, "device_set", loc, t0, &d, st);
}

BeStatus be_device_sync(Backend *be, const char *loc)
{
    T0();
    BeStatus st = be->ops->device_sync(be->self, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    return done(be, "device_sync", loc, t0, &d, st);
}

BeStatus be_stream_create(Backend *be, BeStream *out, const char *loc)
{
    T0();
    BeStatus st = be->ops->stream_create(be->self, out, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    if (st == BE_OK)
        add_stream(be, &d, *out);
    return done(be, "stream_create", loc, t0, &d, st);
}

BeStatus be_stream_destroy(Backend *be, BeStream s, const char *loc)
{
    Detail d = {0};
    T0();
    if (be->trace)
        add_stream(be, &d, s); /* before: the id is gone after */
    BeStatus st = be->ops->stream_destroy(be->self, s, loc);
    return be->trace ? done(be, "stream_destroy", loc, t0, &d, st) : st;
}

BeStatus be_stream_sync(Backend *be, BeStream s, const char *loc)
{
    T0();
    BeStatus st = be->ops->stream_sync(be->self, s, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_stream(be, &d, s);
    return done(be, "stream_sync", loc, t0, &d, st);
}

BeStatus be_stream_wait_event(Backend *be, BeStream s, BeEvent e, const char *loc)
{
    T0();
    BeStatus st = be->ops->stream_wait_event(be->self, s, e, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_stream(be, &d, s);
    add(&d, " waits for");
    add_event(be, &d, e);
    return done(be, "stream_wait_event", loc, t0, &d, st);
}

BeStatus be_event_create(Backend *be, BeEvent *out, const char *loc)
{
    T0();
    BeStatus st = be->ops->event_create(be->self, out, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    if (st == BE_OK)
        add_event(be, &d, *out);
    return done(be, "event_create", loc, t0, &d, st);
}

BeStatus be_event_destroy(Backend *be, BeEvent e, const char *loc)
{
    Detail d = {0};
    T0();
    if (be->trace)
        add_event(be, &d, e);
    BeStatus st = be->ops->event_destroy(be->self, e, loc);
    return be->trace ? done(be, "event_destroy", loc, t0, &d, st) : st;
}

BeStatus be_event_record(Backend *be, BeEvent e, BeStream s, const char *loc)
{
    T0();
    BeStatus st = be->ops->event_record(be->self, e, s, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_event(be, &d, e);
    add(&d, " on");
    add_stream(be, &d, s);
    return done(be, "event_record", loc, t0, &d, st);
}

BeStatus be_event_sync(Backend *be, BeEvent e, const char *loc)
{
    T0();
    BeStatus st = be->ops->event_sync(be->self, e, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_event(be, &d, e);
    return done(be, "event_sync", loc, t0, &d, st);
}

BeStatus be_event_query(Backend *be, BeEvent e, const char *loc)
{
    T0();
    BeStatus st = be->ops->event_query(be->self, e, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_event(be, &d, e);
    return done(be, "event_query", loc, t0, &d, st == BE_NOT_READY ? BE_OK : st);
}

/* ---- memory ---- */

BeStatus be_mem_alloc(Backend *be, size_t bytes, bool host_shared, BeStream s, void **out,
                      const char *loc)
{
    T0();
    *out = NULL;
    BeStatus st = be->ops->mem_alloc(be->self, bytes, host_shared, s, out, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu bytes%s", bytes, host_shared ? " host_shared" : "");
    if (st == BE_OK && *out) {
        add(&d, " ->");
        add_buffer(be, &d, *out);
    }
    return done(be, "mem_alloc", loc, t0, &d, st);
}

BeStatus be_mem_free(Backend *be, void *ptr, BeStream s, const char *loc)
{
    Detail d = {0};
    T0();
    if (be->trace) { /* before: the buffer is gone after */
        add_buffer(be, &d, ptr);
        add(&d, " after");
        add_stream(be, &d, s);
    }
    BeStatus st = be->ops->mem_free(be->self, ptr, s, loc);
    return be->trace ? done(be, "mem_free", loc, t0, &d, st) : st;
}

BeStatus be_memcpy(Backend *be, void *dst, const void *src, size_t bytes, BeStream s, const char *loc)
{
    T0();
    BeStatus st = be->ops->memcpy(be->self, dst, src, bytes, s, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu bytes to", bytes);
    add_buffer(be, &d, dst);
    add(&d, " from");
    add_buffer(be, &d, src);
    add(&d, " on");
    add_stream(be, &d, s);
    return done(be, "memcpy", loc, t0, &d, st);
}

BeStatus be_memset(Backend *be, void *dst, uint32_t value, unsigned width, size_t count, BeStream s,
                   const char *loc)
{
    T0();
    BeStatus st;
    if (width != 1 && width != 2 && width != 4) {
        char msg[96];
        snprintf(msg, sizeof msg, "memset element width must be 1, 2 or 4 bytes, not %u", width);
        be_report(be, true, "misuse", loc, msg);
        st = BE_ERR_ARG;
    } else {
        st = be->ops->memset(be->self, dst, value, width, count, s, loc);
    }
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu x %u bytes to", count, width);
    add_buffer(be, &d, dst);
    add(&d, " on");
    add_stream(be, &d, s);
    return done(be, "memset", loc, t0, &d, st);
}

/* Memory made known to the device (registration, interpreter host memory) and taken back: the
 * same call shapes, traced the same way. */
typedef BeStatus (*AddFn)(void *self, void *ptr, size_t bytes, const char *loc);
typedef BeStatus (*RemoveFn)(void *self, void *ptr, const char *loc);

static BeStatus traced_add(Backend *be, AddFn fn, const char *name, void *ptr, size_t bytes,
                           const char *loc)
{
    T0();
    BeStatus st = fn(be->self, ptr, bytes, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu bytes", bytes);
    if (st == BE_OK) {
        add(&d, " ->");
        add_buffer(be, &d, ptr);
    }
    return done(be, name, loc, t0, &d, st);
}

static BeStatus traced_remove(Backend *be, RemoveFn fn, const char *name, void *ptr, const char *loc)
{
    Detail d = {0};
    T0();
    if (be->trace)
        add_buffer(be, &d, ptr); /* before the buffer is gone */
    BeStatus st = fn(be->self, ptr, loc);
    return be->trace ? done(be, name, loc, t0, &d, st) : st;
}

BeStatus be_mem_register(Backend *be, void *ptr, size_t bytes, const char *loc)
{
    return traced_add(be, be->ops->mem_register, "mem_register", ptr, bytes, loc);
}

BeStatus be_mem_unregister(Backend *be, void *ptr, const char *loc)
{
    return traced_remove(be, be->ops->mem_unregister, "mem_unregister", ptr, loc);
}

BeStatus be_host_add(Backend *be, void *ptr, size_t bytes, const char *loc)
{
    return traced_add(be, be->ops->host_add, "host_add", ptr, bytes, loc);
}

BeStatus be_host_remove(Backend *be, void *ptr, const char *loc)
{
    return traced_remove(be, be->ops->host_remove, "host_remove", ptr, loc);
}

/* Not traced as a call: host loads and stores are far too many; violations still are. */
BeStatus be_host_access(Backend *be, const void *addr, size_t bytes, bool is_write, const char *loc)
{
    return be->ops->host_access(be->self, addr, bytes, is_write, loc);
}

void be_stall(Backend *be, BeStall *out)
{
    *out = (BeStall){0};
    if (be && be->ops->stall)
        be->ops->stall(be->self, out);
}

/* ---- modules and launches ---- */

BeStatus be_module_load(Backend *be, const void *data, size_t size, BeModule *out, const char *loc)
{
    T0();
    *out = NULL;
    BeStatus st = be->ops->module_load(be->self, data, size, out, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu bytes", size);
    return done(be, "module_load", loc, t0, &d, st);
}

BeStatus be_module_unload(Backend *be, BeModule m, const char *loc)
{
    T0();
    BeStatus st = be->ops->module_unload(be->self, m, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    return done(be, "module_unload", loc, t0, &d, st);
}

BeStatus be_module_function(Backend *be, BeModule m, const char *name, BeFunction *out,
                            const char *loc)
{
    T0();
    *out = NULL;
    BeStatus st = be->ops->module_function(be->self, m, name, out, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%s", name ? name : "(null)");
    return done(be, "module_function", loc, t0, &d, st);
}

static BeStatus check_launch(Backend *be, const BeLaunch *l, const char *loc)
{
    for (int i = 0; i < 3; i++) {
        if (l->grid[i] == 0 || l->block[i] == 0) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "launch with an empty grid or block (grid %ux%ux%u, block %ux%ux%u)", l->grid[0],
                     l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2]);
            be_report(be, true, "misuse", loc, msg);
            return BE_ERR_ARG;
        }
    }
    return BE_OK;
}

static void add_launch(Detail *d, const BeLaunch *l)
{
    add(d, "grid %ux%ux%u block %ux%ux%u smem %u on", l->grid[0], l->grid[1], l->grid[2], l->block[0],
        l->block[1], l->block[2], l->smem);
}

BeStatus be_launch(Backend *be, BeFunction f, const BeLaunch *launch, BeStream s, const char *loc)
{
    T0();
    BeStatus st = check_launch(be, launch, loc);
    if (st == BE_OK)
        st = be->ops->launch(be->self, f, launch, s, loc);
    if (st == BE_ERR_UNSUPPORTED || st == BE_ERR_DRIVER) /* not run: what it should have written is not there */
        be_launch_failed(be, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_launch(&d, launch);
    add_stream(be, &d, s);
    return done(be, "launch", loc, t0, &d, st);
}

BeStatus be_launch_host(Backend *be, BeKernelFn fn, void *user, const BeLaunch *launch, BeStream s,
                        const char *loc)
{
    T0();
    BeStatus st = check_launch(be, launch, loc);
    if (st == BE_OK)
        st = be->ops->launch_host(be->self, fn, user, launch, s, loc);
    if (st == BE_ERR_UNSUPPORTED) /* not run (a device that runs no host kernels) */
        be_launch_failed(be, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_launch(&d, launch);
    add_stream(be, &d, s);
    return done(be, "launch_host", loc, t0, &d, st);
}

/* ---- tokens ---- */

/* A token is named by its op, as the trace names ops: "op 7"; any other handle by what it is. */
static void add_token(Backend *be, Detail *d, BeToken t)
{
    uint64_t id = t ? be->ops->token_id(be->self, t) : 0, other;
    const char *sp = d->n ? " " : "";
    if (id)
        add(d, "%sop %" PRIu64, sp, id);
    else if (!t)
        add(d, "%snone", sp);
    else if ((other = be->ops->stream_id(be->self, (BeStream)t)))
        add(d, "%sstream %" PRIu64 " given as a token", sp, other);
    else if ((other = be->ops->event_id(be->self, (BeEvent)t)))
        add(d, "%sevent %" PRIu64 " given as a token", sp, other);
    else
        add(d, "%stoken ?", sp);
}

/* " after op 3 op 4" (NULL deps skipped, long lists cut), then " -> op 5" for the new token. */
static BeStatus token_done(Backend *be, const char *name, const char *loc, uint64_t t0, Detail *d,
                           const BeToken *deps, size_t ndeps, const BeToken *tok, BeStatus st)
{
    size_t shown = 0, all = 0;
    for (size_t i = 0; deps && i < ndeps; i++) {
        if (!deps[i])
            continue;
        if (all++ == 0)
            add(d, "%safter", d->n ? " " : "");
        if (shown < 8) {
            add_token(be, d, deps[i]);
            shown++;
        }
    }
    if (all > shown)
        add(d, " and %zu more", all - shown);
    if (tok && *tok) {
        add(d, "%s->", d->n ? " " : "");
        add_token(be, d, *tok);
    }
    return done(be, name, loc, t0, d, st);
}

/* A call refused before it reached the device still gives a token ordered like its op. */
static BeStatus refused(Backend *be, const BeToken *deps, size_t ndeps, BeToken *tok,
                        const char *loc, BeStatus why)
{
    be->ops->token_join(be->self, deps, ndeps, tok, loc);
    return why;
}

BeStatus be_token_memcpy(Backend *be, void *dst, const void *src, size_t bytes, const BeToken *deps,
                         size_t ndeps, BeToken *tok, const char *loc)
{
    T0();
    *tok = NULL;
    BeStatus st = be->ops->token_memcpy(be->self, dst, src, bytes, deps, ndeps, tok, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu bytes to", bytes);
    add_buffer(be, &d, dst);
    add(&d, " from");
    add_buffer(be, &d, src);
    return token_done(be, "token_memcpy", loc, t0, &d, deps, ndeps, tok, st);
}

BeStatus be_token_memset(Backend *be, void *dst, uint32_t value, unsigned width, size_t count,
                         const BeToken *deps, size_t ndeps, BeToken *tok, const char *loc)
{
    T0();
    *tok = NULL;
    BeStatus st;
    if (width != 1 && width != 2 && width != 4) {
        char msg[96];
        snprintf(msg, sizeof msg, "memset element width must be 1, 2 or 4 bytes, not %u", width);
        be_report(be, true, "misuse", loc, msg);
        st = refused(be, deps, ndeps, tok, loc, BE_ERR_ARG);
    } else {
        st = be->ops->token_memset(be->self, dst, value, width, count, deps, ndeps, tok, loc);
    }
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu x %u bytes to", count, width);
    add_buffer(be, &d, dst);
    return token_done(be, "token_memset", loc, t0, &d, deps, ndeps, tok, st);
}

BeStatus be_token_alloc(Backend *be, size_t bytes, bool host_shared, const BeToken *deps,
                        size_t ndeps, void **ptr, BeToken *tok, const char *loc)
{
    T0();
    *ptr = NULL;
    *tok = NULL;
    BeStatus st = be->ops->token_alloc(be->self, bytes, host_shared, deps, ndeps, ptr, tok, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "%zu bytes%s", bytes, host_shared ? " host_shared" : "");
    if (*ptr) {
        add(&d, " ->");
        add_buffer(be, &d, *ptr);
    }
    return token_done(be, "token_alloc", loc, t0, &d, deps, ndeps, tok, st);
}

BeStatus be_token_free(Backend *be, void *ptr, const BeToken *deps, size_t ndeps, BeToken *tok,
                       const char *loc)
{
    Detail d = {0};
    T0();
    *tok = NULL;
    if (be->trace)
        add_buffer(be, &d, ptr); /* before: the buffer is gone after */
    BeStatus st = be->ops->token_free(be->self, ptr, deps, ndeps, tok, loc);
    return be->trace ? token_done(be, "token_free", loc, t0, &d, deps, ndeps, tok, st) : st;
}

BeStatus be_token_launch_host(Backend *be, BeKernelFn fn, void *user, const BeLaunch *launch,
                              const BeToken *deps, size_t ndeps, BeToken *tok, const char *loc)
{
    T0();
    *tok = NULL;
    BeStatus st = check_launch(be, launch, loc);
    if (st == BE_OK)
        st = be->ops->token_launch_host(be->self, fn, user, launch, deps, ndeps, tok, loc);
    else
        refused(be, deps, ndeps, tok, loc, st);
    if (st == BE_ERR_UNSUPPORTED)
        be_launch_failed(be, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "grid %ux%ux%u block %ux%ux%u smem %u", launch->grid[0], launch->grid[1],
        launch->grid[2], launch->block[0], launch->block[1], launch->block[2], launch->smem);
    return token_done(be, "token_launch_host", loc, t0, &d, deps, ndeps, tok, st);
}

BeStatus be_token_launch(Backend *be, BeFunction f, const BeLaunch *launch, const BeToken *deps,
                         size_t ndeps, BeToken *tok, const char *loc)
{
    T0();
    *tok = NULL;
    BeStatus st = check_launch(be, launch, loc);
    if (st == BE_OK && be->ops->token_launch) {
        st = be->ops->token_launch(be->self, f, launch, deps, ndeps, tok, loc);
    } else {
        if (st == BE_OK) {
            char msg[160];
            snprintf(msg, sizeof msg, "the %s backend cannot launch a kernel of a loaded module here",
                     be->ops->name);
            be_report(be, true, "error", loc, msg);
            st = BE_ERR_UNSUPPORTED;
        }
        refused(be, deps, ndeps, tok, loc, st);
    }
    if (st == BE_ERR_UNSUPPORTED || st == BE_ERR_DRIVER)
        be_launch_failed(be, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "grid %ux%ux%u block %ux%ux%u smem %u", launch->grid[0], launch->grid[1],
        launch->grid[2], launch->block[0], launch->block[1], launch->block[2], launch->smem);
    return token_done(be, "token_launch", loc, t0, &d, deps, ndeps, tok, st);
}

BeStatus be_device_arch(Backend *be, char *buf, size_t cap, const char *loc)
{
    if (cap)
        buf[0] = '\0';
    if (!be->ops->device_arch || cap < 2)
        return BE_ERR_UNSUPPORTED;
    return be->ops->device_arch(be->self, buf, cap, loc);
}

bool be_runs_host_kernels(const Backend *be)
{
    return strcmp(be->ops->name, "sim") == 0;
}

BeStatus be_token_join(Backend *be, const BeToken *deps, size_t ndeps, BeToken *tok,
                       const char *loc)
{
    T0();
    *tok = NULL;
    BeStatus st = be->ops->token_join(be->self, deps, ndeps, tok, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    return token_done(be, "token_join", loc, t0, &d, deps, ndeps, tok, st);
}

BeStatus be_token_wait(Backend *be, const BeToken *toks, size_t n, const char *loc)
{
    T0();
    BeStatus st = be->ops->token_wait(be->self, toks, n, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "for");
    size_t all = 0;
    for (size_t i = 0; toks && i < n; i++)
        if (toks[i] && all++ < 8)
            add_token(be, &d, toks[i]);
    if (all > 8)
        add(&d, " and %zu more", all - 8);
    if (!all)
        add(&d, " nothing");
    return done(be, "token_wait", loc, t0, &d, st);
}

BeStatus be_token_retain(Backend *be, BeToken tok)
{
    return tok ? be->ops->token_retain(be->self, tok) : BE_OK;
}

BeStatus be_token_release(Backend *be, BeToken tok)
{
    return tok ? be->ops->token_release(be->self, tok) : BE_OK;
}

BeStatus be_token_from_stream(Backend *be, BeStream s, BeToken *tok, const char *loc)
{
    T0();
    *tok = NULL;
    BeStatus st = be->ops->token_from_stream(be->self, s, tok, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add(&d, "last op of");
    add_stream(be, &d, s);
    return token_done(be, "token_from_stream", loc, t0, &d, NULL, 0, tok, st);
}

BeStatus be_stream_wait_token(Backend *be, BeStream s, BeToken tok, const char *loc)
{
    T0();
    BeStatus st = be->ops->stream_wait_token(be->self, s, tok, loc);
    if (!be->trace)
        return st;
    Detail d = {0};
    add_stream(be, &d, s);
    add(&d, " waits for");
    add_token(be, &d, tok);
    return done(be, "stream_wait_token", loc, t0, &d, st);
}
