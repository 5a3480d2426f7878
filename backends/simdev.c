/* simdev.c — the "sim" backend: backend.h's table on top of the CPU simulator (sim/sim.h).
 *
 * Most entries forward one to one: a BeStream is the sim's tagged SimStream value, a BeEvent its
 * SimEvent, so the sim sees exactly the handle the caller passed and can say what it really was.
 * What the adapter adds:
 *
 *   - Diagnostics: the sim's SimDiag becomes a BeDiag for the options' sink, and is counted here, so
 *     the counts survive sim_destroy (which itself reports leaks and deadlocks).
 *   - Traces: the sim's observer events become trace events. Buffers are named by ids this adapter
 *     hands out in allocation order (b1, b2, ...), found by address in a sorted table, because a
 *     trace must not contain addresses; memory the adapter never saw (the program's own malloc) is
 *     buffer 0, and addresses in diagnostic texts become "<address>".
 *   - Stream-ordered free: mgpuMemFree(ptr, stream) frees after the work already on the stream
 *     (what `gpu.dealloc async [%t]` means); work on other streams not ordered before it is a
 *     use-after-free race, as it should be. The adapter waits for the stream's last op, but
 *     the host is not ordered after it (sim_mem_free_after), since the program's host did not.
 *   - Tokens (the high-level door): a BeToken is a tagged value, as the sim's streams and events
 *     are, naming a slot of this adapter's token table that holds one reference to a sim op
 *     (sim_submit's token). The sim's own op pointers are never handed out: the sim would have to
 *     dereference whatever it is given, while a tagged value is checked before anything is looked
 *     up, so a stream, an event, a module or a released token passed as a token is reported by
 *     what it is. A token free waits for a marker after its deps, then frees (as mem_free does).
 *   - Modules: the sim runs no device binaries. A module load is reported, naming what the data is
 *     (be_blob_kind; for SASS, how to get PTX instead), yet returns a placeholder, so lookups work
 *     and each launch is reported once and replaced by a marker that keeps the stream's order.
 *
 * Locking: `lock` guards the buffer table, the token table and the module list. The sim calls the
 * sink and the observer with its own lock held, and the observer takes `lock` to look buffers up;
 * so the order is sim lock -> adapter lock, and this file never calls into the sim while holding
 * `lock`.
 */
#include "backends/backend.h"
#include "sim/sim.h"

#include <ctype.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Buffer {
    uintptr_t base;
    size_t size;
    uint64_t id;
} Buffer;

typedef struct Module Module;
typedef struct Function Function;

struct Module {
    Module *next;
    const char *loc;    /* where it was loaded */
    const char *format; /* what the data looked like */
    size_t size;
    bool unloaded;
};

struct Function {
    Function *next;
    Module *module;
    char *name;
    bool reported; /* its first launch was reported; later ones are skipped quietly */
};

/* A slot of the token table. A token handle is TOKEN_TAG << 52 | gen << 32 | (index + 1). */
typedef struct Token {
    SimOp *op;          /* one sim reference while the token lives, else NULL */
    const char *loc;    /* where it was made (kept after release, for messages) */
    uint32_t refs;      /* the caller's references; 0: released, the slot is free */
    uint16_t gen;       /* bumped when the slot is given out again */
    uint32_t next_free; /* free list: index + 1 of the next free slot, 0 at the end */
} Token;

typedef struct SimBe {
    SimDevice *dev;
    TraceRecorder *trace;
    BeDiagFn sink;
    void *sink_user;
    atomic_size_t errors, warnings;
    atomic_bool quiet_leaks; /* be_quiet_leaks: leaks are dropped, not reported */
    bool leaks_are_errors;   /* BeOptions.leak_check: BE_LEAK_ERROR */
    pthread_mutex_t lock;
    Buffer *buf; /* sorted by base */
    size_t n_buf, cap_buf;
    uint64_t next_buf;
    Module *modules;
    Function *functions;
    Token *tok;
    uint32_t n_tok, cap_tok;
    uint32_t free_head, free_tail, n_free; /* free slots, oldest first (index + 1, 0: none) */
    uint64_t *op_stream; /* tracing: the stream of op i (ids are dense from 1); observer only */
    size_t cap_ops;
} SimBe;

/* ---- diagnostics ---- */

static const char *diag_kind(SimDiagKind k)
{
    switch (k) {
    case SIM_DIAG_RACE: return "race";
    case SIM_DIAG_MISUSE: return "misuse";
    case SIM_DIAG_OOB: return "out-of-bounds";
    case SIM_DIAG_UNINIT: return "uninitialized";
    case SIM_DIAG_DEADLOCK: return "deadlock";
    case SIM_DIAG_LEAK: return "leak";
    case SIM_DIAG_OTHER: return "error";
    }
    return "error";
}

static void sink(const SimDiag *d, void *user)
{
    SimBe *b = user;
    if (d->kind == SIM_DIAG_LEAK && atomic_load(&b->quiet_leaks))
        return;
    BeDiag bd = {.error = d->severity == SIM_SEV_ERROR || (d->kind == SIM_DIAG_LEAK && b->leaks_are_errors),
                 .kind = diag_kind(d->kind), .loc = d->loc,
                 .loc2 = d->loc2, .alloc_loc = d->alloc_loc, .message = d->message};
    if (bd.error)
        atomic_fetch_add(&b->errors, 1);
    else
        atomic_fetch_add(&b->warnings, 1);
    if (b->sink)
        b->sink(&bd, b->sink_user);
    else
        be_diag_print(stderr, NULL, &bd);
}

static void quiet_leaks(void *self)
{
    SimBe *b = self;
    atomic_store(&b->quiet_leaks, true);
}

static void report(void *self, bool error, const char *kind, const char *loc, const char *message)
{
    SimBe *b = self;
    SimDiagKind k = SIM_DIAG_OTHER;
    if (kind && strcmp(kind, "misuse") == 0)
        k = SIM_DIAG_MISUSE;
    else if (kind && strcmp(kind, "leak") == 0)
        k = SIM_DIAG_LEAK;
    sim_diag_report(b->dev, error ? SIM_SEV_ERROR : SIM_SEV_WARNING, k, loc, "%s", message);
}

static BeStatus status(SimStatus st)
{
    switch (st) {
    case SIM_OK: return BE_OK;
    case SIM_NOT_READY: return BE_NOT_READY;
    case SIM_ERR_HANDLE: return BE_ERR_HANDLE;
    case SIM_ERR_MEMORY: return BE_ERR_MEMORY;
    case SIM_ERR_DEADLOCK: return BE_ERR_DEADLOCK;
    case SIM_ERR_ARG: return BE_ERR_ARG;
    }
    return BE_ERR_ARG;
}

/* ---- the buffer table (caller holds b->lock) ---- */

/* Index of the first buffer whose base is > addr. */
static size_t upper(const SimBe *b, uintptr_t addr)
{
    size_t lo = 0, hi = b->n_buf;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->buf[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The table only names buffers in traces, so it is kept only while tracing. */
static void buffer_add(SimBe *b, const void *ptr, size_t size)
{
    if (!b->trace || !ptr || !size)
        return;
    pthread_mutex_lock(&b->lock);
    if (b->n_buf == b->cap_buf) {
        size_t cap = b->cap_buf ? b->cap_buf * 2 : 16;
        Buffer *t = realloc(b->buf, cap * sizeof *t);
        if (!t)
            goto out; /* traces then show the memory as untracked; nothing else depends on it */
        b->buf = t;
        b->cap_buf = cap;
    }
    uintptr_t base = (uintptr_t)ptr;
    size_t i = upper(b, base);
    memmove(&b->buf[i + 1], &b->buf[i], (b->n_buf - i) * sizeof *b->buf);
    b->buf[i] = (Buffer){.base = base, .size = size, .id = ++b->next_buf};
    b->n_buf++;
out:
    pthread_mutex_unlock(&b->lock);
}

static void buffer_remove(SimBe *b, const void *ptr)
{
    if (!b->trace)
        return;
    pthread_mutex_lock(&b->lock);
    size_t i = upper(b, (uintptr_t)ptr);
    if (i > 0 && b->buf[i - 1].base == (uintptr_t)ptr) {
        memmove(&b->buf[i - 1], &b->buf[i], (b->n_buf - i) * sizeof *b->buf);
        b->n_buf--;
    }
    pthread_mutex_unlock(&b->lock);
}

static TraceAccess buffer_access(SimBe *b, uintptr_t addr, size_t bytes, TraceAccessMode mode)
{
    TraceAccess a = {.buffer = 0, .offset = 0, .size = bytes, .mode = mode};
    pthread_mutex_lock(&b->lock);
    size_t i = upper(b, addr);
    if (i > 0 && addr - b->buf[i - 1].base < b->buf[i - 1].size) {
        a.buffer = b->buf[i - 1].id;
        a.offset = addr - b->buf[i - 1].base;
    }
    pthread_mutex_unlock(&b->lock);
    return a;
}

/* ---- traces ---- */

static const char *op_kind(SimOpKind k)
{
    switch (k) {
    case SIM_OP_MARKER: return "marker";
    case SIM_OP_MEMCPY: return "memcpy";
    case SIM_OP_MEMSET: return "memset";
    case SIM_OP_KERNEL: return "kernel";
    case SIM_OP_HOST: return "host";
    case SIM_OP_GATE: return "gate";
    }
    return "op";
}

/* Remembers which stream op runs on, so edges can be classified (observer only: the sim calls it
 * one event at a time). */
static void op_stream_set(SimBe *b, uint64_t op, uint64_t stream)
{
    if (op >= b->cap_ops) {
        size_t cap = b->cap_ops ? b->cap_ops : 1024;
        while (cap <= op)
            cap *= 2;
        uint64_t *t = realloc(b->op_stream, cap * sizeof *t);
        if (!t)
            return;
        memset(t + b->cap_ops, 0, (cap - b->cap_ops) * sizeof *t);
        b->op_stream = t;
        b->cap_ops = cap;
    }
    b->op_stream[op] = stream;
}

static uint64_t op_stream(const SimBe *b, uint64_t op)
{
    return op < b->cap_ops ? b->op_stream[op] : 0;
}

/* The sim names an edge "stream", "event" or just "dep". On the stream front door a plain "dep"
 * between two ops of one stream is the stream's order, and between two streams it can only come
 * from an event the second stream waited for (or a token joined with sim_stream_wait_op). */
static TraceEdgeKind edge_kind(const SimBe *b, const SimObs *o)
{
    if (o->name && strcmp(o->name, "stream") == 0)
        return TRACE_EDGE_STREAM;
    if (o->name && strcmp(o->name, "event") == 0)
        return TRACE_EDGE_EVENT;
    uint64_t from = op_stream(b, o->other), to = op_stream(b, o->op);
    if (from && to)
        return from == to ? TRACE_EDGE_STREAM : TRACE_EDGE_EVENT;
    return TRACE_EDGE_DEP;
}

static uint32_t worker(int w)
{
    return w < 0 ? 0 : (uint32_t)w + 1; /* 0: the host thread */
}

/* Copies a message with every hexadecimal address ("0x7ffd...") replaced by "<address>": addresses
 * change from run to run and a trace must not (stderr keeps them, for a debugger). */
static void scrub(char *out, size_t cap, const char *in)
{
    size_t n = 0;
    while (*in && n + 1 < cap) {
        if (in[0] == '0' && in[1] == 'x' && isxdigit((unsigned char)in[2])) {
            in += 2;
            while (isxdigit((unsigned char)*in))
                in++;
            for (const char *r = "<address>"; *r && n + 1 < cap; r++)
                out[n++] = *r;
        } else {
            out[n++] = *in++;
        }
    }
    out[n] = '\0';
}

static void observe(const SimObs *o, void *user)
{
    SimBe *b = user;
    TraceRecorder *t = b->trace;
    switch (o->kind) {
    case SIM_OBS_API:
        break; /* backend.c records the calls, with the caller's names */
    case SIM_OBS_ENQUEUE: {
        TraceAccess acc[2];
        size_t n = 0;
        if ((o->opkind == SIM_OP_MEMCPY || o->opkind == SIM_OP_MEMSET) && o->bytes)
            acc[n++] = buffer_access(b, o->dst, o->bytes, TRACE_WRITE);
        if (o->opkind == SIM_OP_MEMCPY && o->bytes)
            acc[n++] = buffer_access(b, o->src, o->bytes, TRACE_READ);
        op_stream_set(b, o->op, o->stream);
        /* the kind, and what the host ran when it said (be_trace_label): the host's thread
         * enqueues */
        TraceEvent ev = {.kind = TRACE_ENQUEUE, .op = o->op, .stream = o->stream,
                         .name = op_kind(o->opkind), .detail = be_trace_label_now(), .loc = o->loc,
                         .accesses = acc, .n_accesses = n};
        trace_recorder_add(t, &ev);
        break;
    }
    case SIM_OBS_DEP:
        trace_edge(t, edge_kind(b, o), o->other, o->op);
        break;
    case SIM_OBS_START:
        trace_op_start(t, o->op, o->stream, worker(o->worker));
        break;
    case SIM_OBS_END: {
        /* what a kernel touched (the sim merges its accesses per allocation and kind), so that
         * the trace, and --diff's ordering check over it, see kernels as they see copies */
        TraceAccess one = {0}, *acc = o->nacc > 1 ? malloc(o->nacc * sizeof *acc) : &one;
        size_t n = acc ? o->nacc : 0;
        for (size_t i = 0; i < n; i++)
            acc[i] = buffer_access(b, o->acc[i].addr, o->acc[i].bytes,
                                   o->acc[i].atomic  ? TRACE_READ | TRACE_WRITE | TRACE_ATOMIC
                                   : o->acc[i].write ? TRACE_WRITE
                                                     : TRACE_READ);
        trace_op_end(t, o->op, o->stream, acc, n);
        if (acc != &one)
            free(acc);
        break;
    }
    case SIM_OBS_HOST_WAIT:
        trace_edge(t, TRACE_EDGE_SYNC, o->op, TRACE_HOST);
        break;
    case SIM_OBS_DIAG: {
        const SimDiag *d = o->diag;
        if (!d)
            break;
        /* A diagnostic about a host call (op 0) says which call in its text. */
        char text[512], clean[512];
        if (d->op == 0 && d->loc)
            snprintf(text, sizeof text, "%s: %s", d->loc, d->message ? d->message : "");
        else
            snprintf(text, sizeof text, "%s", d->message ? d->message : "");
        scrub(clean, sizeof clean, text);
        trace_violation(t, diag_kind(d->kind), d->op, d->op2, clean);
        break;
    }
    }
}

/* ---- the table ---- */

static bool token_as(SimBe *b, const void *h, const char *as, const char *loc); /* tokens below */

static void close_(void *self, BeSummary *summary)
{
    SimBe *b = self;
    if (b->dev) {
        for (Module *m = b->modules; m; m = m->next)
            if (!m->unloaded)
                sim_diag_report(b->dev, SIM_SEV_WARNING, SIM_DIAG_LEAK, m->loc,
                                "module (%zu bytes) was never unloaded", m->size);
        /* Tokens still held are the interpreter's, not the program's (a program cannot leak
         * an SSA value): dropped quietly. */
        for (uint32_t i = 0; i < b->n_tok; i++)
            if (b->tok[i].op)
                sim_op_release(b->dev, b->tok[i].op);
        sim_destroy(b->dev);
    }
    if (summary) {
        summary->errors = atomic_load(&b->errors);
        summary->warnings = atomic_load(&b->warnings);
    }
    for (Function *f = b->functions, *next; f; f = next) {
        next = f->next;
        free(f->name);
        free(f);
    }
    for (Module *m = b->modules, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    free(b->buf);
    free(b->tok);
    free(b->op_stream);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static size_t error_count(void *self)
{
    return atomic_load(&((SimBe *)self)->errors);
}

static size_t warning_count(void *self)
{
    return atomic_load(&((SimBe *)self)->warnings);
}

static uint64_t stream_id(void *self, BeStream s)
{
    return sim_stream_id((SimStream)s);
}

static uint64_t event_id(void *self, BeEvent e)
{
    return sim_event_id((SimEvent)e);
}

static uint64_t buffer_id(void *self, const void *ptr, uint64_t *offset)
{
    TraceAccess a = buffer_access(self, (uintptr_t)ptr, 0, TRACE_READ);
    *offset = a.offset;
    return a.buffer;
}

static BeStatus device_set(void *self, int device, const char *loc)
{
    SimBe *b = self;
    if (device != 0)
        sim_diag_report(b->dev, SIM_SEV_WARNING, SIM_DIAG_OTHER, loc,
                        "the sim has one device (0); device %d is ignored", device);
    return BE_OK;
}

static BeStatus device_sync(void *self, const char *loc)
{
    return status(sim_device_sync(((SimBe *)self)->dev, loc));
}

static BeStatus stream_create(void *self, BeStream *out, const char *loc)
{
    SimStream s = NULL;
    SimStatus st = sim_stream_create(((SimBe *)self)->dev, &s, loc);
    *out = (BeStream)s;
    return status(st);
}

static BeStatus stream_destroy(void *self, BeStream s, const char *loc)
{
    if (token_as(self, s, "stream", loc))
        return BE_ERR_HANDLE;
    return status(sim_stream_destroy(((SimBe *)self)->dev, (SimStream)s, loc));
}

static BeStatus stream_sync(void *self, BeStream s, const char *loc)
{
    if (token_as(self, s, "stream", loc))
        return BE_ERR_HANDLE;
    return status(sim_stream_sync(((SimBe *)self)->dev, (SimStream)s, loc));
}

static BeStatus stream_wait_event(void *self, BeStream s, BeEvent e, const char *loc)
{
    if (token_as(self, s, "stream", loc) || token_as(self, e, "event", loc))
        return BE_ERR_HANDLE;
    return status(sim_stream_wait_event(((SimBe *)self)->dev, (SimStream)s, (SimEvent)e, loc));
}

static BeStatus event_create(void *self, BeEvent *out, const char *loc)
{
    SimEvent e = NULL;
    SimStatus st = sim_event_create(((SimBe *)self)->dev, &e, loc);
    *out = (BeEvent)e;
    return status(st);
}

static BeStatus event_destroy(void *self, BeEvent e, const char *loc)
{
    if (token_as(self, e, "event", loc))
        return BE_ERR_HANDLE;
    return status(sim_event_destroy(((SimBe *)self)->dev, (SimEvent)e, loc));
}

static BeStatus event_record(void *self, BeEvent e, BeStream s, const char *loc)
{
    if (token_as(self, e, "event", loc) || token_as(self, s, "stream", loc))
        return BE_ERR_HANDLE;
    return status(sim_event_record(((SimBe *)self)->dev, (SimEvent)e, (SimStream)s, loc));
}

static BeStatus event_sync(void *self, BeEvent e, const char *loc)
{
    if (token_as(self, e, "event", loc))
        return BE_ERR_HANDLE;
    return status(sim_event_sync(((SimBe *)self)->dev, (SimEvent)e, loc));
}

static BeStatus event_query(void *self, BeEvent e, const char *loc)
{
    if (token_as(self, e, "event", loc))
        return BE_ERR_HANDLE;
    return status(sim_event_query(((SimBe *)self)->dev, (SimEvent)e, loc));
}

static BeStatus mem_alloc(void *self, size_t bytes, bool host_shared, BeStream s, void **out,
                          const char *loc)
{
    SimBe *b = self;
    SimStatus st = sim_mem_alloc(b->dev, bytes, host_shared ? SIM_MEM_HOST_SHARED : SIM_MEM_DEVICE,
                                 out, loc);
    if (st == SIM_OK)
        buffer_add(b, *out, bytes);
    return status(st);
}

/* mgpuMemFree(ptr, stream) on a real device is cuMemFree, which waits for the device. Here the free
 * is ordered after the work already on its own stream only (the stream's work is done before the
 * memory goes), so work on other streams that nothing orders before the free is still reported as
 * a use-after-free race. The host does not become ordered after that work: it did not sync. */
static BeStatus mem_free(void *self, void *ptr, BeStream s, const char *loc)
{
    SimBe *b = self;
    if (token_as(b, s, "stream", loc))
        return BE_ERR_HANDLE;
    if (!ptr)
        return BE_OK; /* what mgpuMemAlloc returns for 0 bytes */
    SimOp *last = NULL;
    SimStatus st = sim_stream_last_op(b->dev, (SimStream)s, &last, loc);
    if (st != SIM_OK)
        return status(st);
    st = sim_mem_free_after(b->dev, ptr, last, loc);
    if (last)
        sim_op_release(b->dev, last);
    if (st == SIM_OK || st == SIM_ERR_DEADLOCK)
        buffer_remove(b, ptr);
    return status(st);
}

static BeStatus memcpy_(void *self, void *dst, const void *src, size_t bytes, BeStream s,
                        const char *loc)
{
    if (token_as(self, s, "stream", loc))
        return BE_ERR_HANDLE;
    SimOpDesc d = {.kind = SIM_OP_MEMCPY, .loc = loc, .dst = dst, .src = src, .bytes = bytes};
    return status(sim_stream_submit(((SimBe *)self)->dev, (SimStream)s, &d, NULL));
}

static BeStatus memset_(void *self, void *dst, uint32_t value, unsigned width, size_t count,
                        BeStream s, const char *loc)
{
    SimBe *b = self;
    if (token_as(b, s, "stream", loc))
        return BE_ERR_HANDLE;
    if (count > SIZE_MAX / width) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "memset of %zu elements of %u bytes overflows the address space", count, width);
        return BE_ERR_ARG;
    }
    SimOpDesc d = {.kind = SIM_OP_MEMSET, .loc = loc, .dst = dst, .value = value, .width = width,
                   .bytes = count * width};
    return status(sim_stream_submit(b->dev, (SimStream)s, &d, NULL));
}

static BeStatus mem_register(void *self, void *ptr, size_t bytes, const char *loc)
{
    SimBe *b = self;
    SimStatus st = sim_mem_register(b->dev, ptr, bytes, loc);
    if (st == SIM_OK)
        buffer_add(b, ptr, bytes);
    return status(st);
}

static BeStatus mem_unregister(void *self, void *ptr, const char *loc)
{
    SimBe *b = self;
    SimStatus st = sim_mem_unregister(b->dev, ptr, loc);
    if (st == SIM_OK)
        buffer_remove(b, ptr);
    return status(st);
}

static BeStatus host_add(void *self, void *ptr, size_t bytes, const char *loc)
{
    SimBe *b = self;
    SimStatus st = sim_mem_host_add(b->dev, ptr, bytes, loc);
    if (st == SIM_OK)
        buffer_add(b, ptr, bytes);
    return status(st);
}

static BeStatus host_remove(void *self, void *ptr, const char *loc)
{
    SimBe *b = self;
    SimStatus st = sim_mem_host_remove(b->dev, ptr, loc);
    if (st == SIM_OK)
        buffer_remove(b, ptr);
    return status(st);
}

static void stall(void *self, BeStall *out)
{
    SimStall st;
    sim_host_stall(((SimBe *)self)->dev, &st);
    *out = (BeStall){st.sched == SIM_SCHED_SERIAL ? "serial" : st.sched == SIM_SCHED_RANDOM ? "random" : NULL,
                     st.pending, st.first_loc, st.polled};
}

static BeStatus host_access(void *self, const void *addr, size_t bytes, bool is_write, const char *loc)
{
    return status(sim_host_access(((SimBe *)self)->dev, addr, bytes, is_write, loc));
}

/* ---- modules ---- */

static BeStatus module_load(void *self, const void *data, size_t size, BeModule *out, const char *loc)
{
    SimBe *b = self;
    Module *m = calloc(1, sizeof *m);
    if (!m) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_OTHER, loc, "out of memory loading a module");
        return BE_ERR_MEMORY;
    }
    m->loc = loc;
    m->size = size;
    BeBlobKind kind = be_blob_kind(data, size);
    m->format = be_blob_kind_name(kind);
    /* SASS will never run here, so say how to get PTX; PTX runs on the kernel engine, which the
       mgpu* ABI (mgpu/) hands PTX modules to before they reach a backend */
    const char *why = kind == BE_BLOB_CUBIN || kind == BE_BLOB_FATBIN ? "the sim cannot run SASS; " BE_BLOB_USE_PTX
                      : kind == BE_BLOB_PTX ? "PTX runs through mgpuModuleLoad (the kernel engine), not as a "
                                              "backend module"
                                            : "the sim cannot run this kind of binary";
    sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_OTHER, loc,
                    "cannot load a device binary (%zu bytes, %s) on the sim: %s; launches from this "
                    "module will be skipped",
                    size, m->format, why);
    pthread_mutex_lock(&b->lock);
    m->next = b->modules;
    b->modules = m;
    pthread_mutex_unlock(&b->lock);
    *out = (BeModule)m;
    return BE_ERR_UNSUPPORTED;
}

/* The module behind handle h, or NULL when h is none of ours. Never dereferences h itself. */
static Module *module_find(SimBe *b, BeModule h)
{
    pthread_mutex_lock(&b->lock);
    Module *m = b->modules;
    while (m && (BeModule)m != h)
        m = m->next;
    pthread_mutex_unlock(&b->lock);
    return m;
}

static Function *function_find(SimBe *b, BeFunction h)
{
    pthread_mutex_lock(&b->lock);
    Function *f = b->functions;
    while (f && (BeFunction)f != h)
        f = f->next;
    pthread_mutex_unlock(&b->lock);
    return f;
}

static BeStatus module_unload(void *self, BeModule h, const char *loc)
{
    SimBe *b = self;
    Module *m = module_find(b, h);
    if (!m || m->unloaded) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc, "%s",
                        m ? "module was already unloaded" : "argument is not a module handle");
        return BE_ERR_HANDLE;
    }
    m->unloaded = true;
    return BE_OK;
}

static BeStatus module_function(void *self, BeModule h, const char *name, BeFunction *out,
                                const char *loc)
{
    SimBe *b = self;
    Module *m = module_find(b, h);
    if (!m || m->unloaded) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc, "%s",
                        m ? "module was unloaded" : "argument is not a module handle");
        return BE_ERR_HANDLE;
    }
    /* One Function per (module, name): lowered code looks a kernel up before every launch, and a
     * kernel that cannot run is reported once. */
    if (!name)
        name = "";
    pthread_mutex_lock(&b->lock);
    Function *f = b->functions;
    while (f && !(f->module == m && strcmp(f->name, name) == 0))
        f = f->next;
    pthread_mutex_unlock(&b->lock);
    if (f) {
        *out = (BeFunction)f;
        return BE_OK;
    }
    f = calloc(1, sizeof *f);
    char *copy = strdup(name);
    if (!f || !copy) {
        free(f);
        free(copy);
        return BE_ERR_MEMORY;
    }
    f->module = m;
    f->name = copy;
    pthread_mutex_lock(&b->lock);
    f->next = b->functions;
    b->functions = f;
    pthread_mutex_unlock(&b->lock);
    *out = (BeFunction)f;
    return BE_OK;
}

static BeStatus launch(void *self, BeFunction h, const BeLaunch *l, BeStream s, const char *loc)
{
    SimBe *b = self;
    if (token_as(b, s, "stream", loc))
        return BE_ERR_HANDLE;
    Function *f = function_find(b, h);
    if (!f) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "argument is not a kernel function handle");
        return BE_ERR_HANDLE;
    }
    if (f->module->unloaded) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "kernel '%s' is launched after its module was unloaded", f->name);
        return BE_ERR_HANDLE;
    }
    if (!f->reported) {
        f->reported = true;
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_OTHER, loc,
                        "kernel '%s' was not run: its module (loaded at %s) is a device binary the "
                        "sim cannot execute; further launches of it are skipped",
                        f->name, f->module->loc ? f->module->loc : "?");
    }
    /* Keep the stream's order as if the kernel had run. */
    SimOpDesc d = {.kind = SIM_OP_MARKER, .loc = loc};
    sim_stream_submit(b->dev, (SimStream)s, &d, NULL);
    return BE_ERR_UNSUPPORTED;
}

typedef struct HostKernel {
    BeKernelFn fn;
    void *user;
    BeLaunch launch;
} HostKernel;

static void host_kernel_run(SimCtx *ctx, void *user)
{
    HostKernel *k = user;
    k->fn((BeKernelCtx *)ctx, &k->launch, k->user);
}

static BeStatus launch_host(void *self, BeKernelFn fn, void *user, const BeLaunch *l, BeStream s,
                            const char *loc)
{
    SimBe *b = self;
    if (token_as(b, s, "stream", loc))
        return BE_ERR_HANDLE;
    HostKernel *k = malloc(sizeof *k);
    if (!k)
        return BE_ERR_MEMORY;
    *k = (HostKernel){.fn = fn, .user = user, .launch = *l};
    SimOpDesc d = {.kind = SIM_OP_KERNEL, .loc = loc, .fn = host_kernel_run, .user = k, .release = free,
                   .bounded = l->bounded};
    return status(sim_stream_submit(b->dev, (SimStream)s, &d, NULL));
}

/* ---- tokens ---- */

#define TOKEN_TAG 0xbe7ull /* top 12 bits of a token handle; the sim's own handles use 0x51d */

/* Released slots wait this long in the free list before reuse, so that a token used shortly
 * after its release is still recognised as exactly that (later, by its stale generation). */
enum { TOKEN_KEEP_FREE = 64 };

static bool token_decode(BeToken h, uint32_t *idx, uint16_t *gen)
{
    uint64_t v = (uint64_t)(uintptr_t)h;
    if (v >> 52 != TOKEN_TAG || (uint32_t)v == 0)
        return false;
    *gen = (uint16_t)(v >> 32);
    *idx = (uint32_t)v - 1;
    return true;
}

/* Wraps op in a new token, which takes over the caller's sim reference; NULL when out of memory
 * (op is then released). */
static BeToken token_new(SimBe *b, SimOp *op, const char *loc)
{
    BeToken h = NULL;
    uint32_t idx = 0;
    pthread_mutex_lock(&b->lock);
    if (b->n_free > TOKEN_KEEP_FREE) {
        idx = b->free_head - 1;
        b->free_head = b->tok[idx].next_free;
        if (!b->free_head)
            b->free_tail = 0;
        b->n_free--;
        b->tok[idx].gen++;
    } else {
        if (b->n_tok == b->cap_tok) {
            uint32_t cap = b->cap_tok ? b->cap_tok * 2 : 64;
            Token *grown = cap > b->cap_tok ? realloc(b->tok, (size_t)cap * sizeof *grown) : NULL;
            if (!grown)
                goto out;
            b->tok = grown;
            b->cap_tok = cap;
        }
        idx = b->n_tok++;
        b->tok[idx].gen = 0;
    }
    Token *t = &b->tok[idx];
    t->op = op;
    t->loc = loc;
    t->refs = 1;
    t->next_free = 0;
    h = (BeToken)(uintptr_t)(TOKEN_TAG << 52 | (uint64_t)t->gen << 32 | (uint64_t)(idx + 1));
out:
    pthread_mutex_unlock(&b->lock);
    if (!h) {
        sim_op_release(b->dev, op);
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_OTHER, loc, "out of memory making a token");
    }
    return h;
}

/* Says what h is, since it is not a live token: released, another kind of handle, or nothing. */
static void token_misuse(SimBe *b, BeToken h, const char *what, const char *loc)
{
    uint32_t idx;
    uint16_t gen;
    uint64_t id;
    if (token_decode(h, &idx, &gen)) {
        const char *made = NULL;
        bool known = false, same = false;
        pthread_mutex_lock(&b->lock);
        if (idx < b->n_tok) {
            known = true;
            same = b->tok[idx].gen == gen;
            made = b->tok[idx].loc;
        }
        pthread_mutex_unlock(&b->lock);
        if (same)
            sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                            "%s: token used after it was released (it was made at '%s')", what,
                            made ? made : "?");
        else if (known)
            sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                            "%s: token used after it was released (its slot is reused since)",
                            what);
        else
            sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                            "%s: expects a token, got a token handle this device never made", what);
    } else if ((id = sim_stream_id((SimStream)h))) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "%s: expects a token, got a stream (stream %" PRIu64 ")", what, id);
    } else if ((id = sim_event_id((SimEvent)h))) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "%s: expects a token, got an event (event %" PRIu64 ")", what, id);
    } else if (module_find(b, (BeModule)h)) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "%s: expects a token, got a module handle", what);
    } else if (function_find(b, (BeFunction)h)) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "%s: expects a token, got a kernel function handle", what);
    } else {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "%s: expects a token, got %p, which is no handle of this device", what,
                        (void *)h);
    }
}

/* The op behind token h, borrowed: the caller's reference to h keeps it. NULL (after a report)
 * when h is not a live token. */
static SimOp *token_op(SimBe *b, BeToken h, const char *what, const char *loc)
{
    uint32_t idx;
    uint16_t gen;
    SimOp *op = NULL;
    if (token_decode(h, &idx, &gen)) {
        pthread_mutex_lock(&b->lock);
        if (idx < b->n_tok && b->tok[idx].gen == gen)
            op = b->tok[idx].op; /* NULL once released */
        pthread_mutex_unlock(&b->lock);
    }
    if (!op)
        token_misuse(b, h, what, loc);
    return op;
}

/* A token handed to the stream door: the sim would only see a handle it does not know, so say
 * what it is here. True when h was a token (reported). */
static bool token_as(SimBe *b, const void *h, const char *as, const char *loc)
{
    uint32_t idx;
    uint16_t gen;
    if (!token_decode((BeToken)h, &idx, &gen))
        return false;
    const char *made = NULL;
    pthread_mutex_lock(&b->lock);
    if (idx < b->n_tok && b->tok[idx].gen == gen)
        made = b->tok[idx].loc;
    pthread_mutex_unlock(&b->lock);
    sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                    "expects %s %s, got a token (made at '%s'): tokens are not streams or events",
                    as[0] == 'e' ? "an" : "a", as, made ? made : "?");
    return true;
}

/* The ops of a list of tokens: NULL entries stay NULL, bad handles become NULL after a report. */
typedef struct Deps {
    SimOp *small[8];
    SimOp **op;
    size_t n;
} Deps;

static BeStatus deps_get(SimBe *b, Deps *d, const BeToken *toks, size_t n, const char *what,
                         const char *loc)
{
    d->op = d->small;
    d->n = 0;
    if (!toks)
        return BE_OK;
    if (n > 8 && !(d->op = malloc(n * sizeof *d->op))) {
        d->op = d->small;
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_OTHER, loc,
                        "out of memory reading %zu tokens", n);
        return BE_ERR_MEMORY;
    }
    BeStatus st = BE_OK;
    for (size_t i = 0; i < n; i++) {
        d->op[i] = toks[i] ? token_op(b, toks[i], what, loc) : NULL;
        if (toks[i] && !d->op[i])
            st = BE_ERR_HANDLE;
    }
    d->n = n;
    return st;
}

static void deps_free(Deps *d)
{
    if (d->op != d->small)
        free(d->op);
}

/* Submits desc after deps; *out gets its token, even when the sim refused the op (it is then a
 * marker in its place). Returns the deps' status, else the submit's. */
static BeStatus token_submit(SimBe *b, const SimOpDesc *desc, const BeToken *deps, size_t ndeps,
                             BeToken *out)
{
    Deps d;
    BeStatus st = deps_get(b, &d, deps, ndeps, "dependency", desc->loc);
    if (st == BE_ERR_MEMORY) {
        if (desc->release)
            desc->release(desc->user);
        return st;
    }
    SimOp *op = NULL;
    BeStatus st2 = status(sim_submit(b->dev, desc, d.op, d.n, &op));
    deps_free(&d);
    if (op && !(*out = token_new(b, op, desc->loc)))
        return BE_ERR_MEMORY;
    return st != BE_OK ? st : st2;
}

static uint64_t token_id(void *self, BeToken h)
{
    SimBe *b = self;
    uint32_t idx;
    uint16_t gen;
    SimOp *op = NULL;
    if (!token_decode(h, &idx, &gen))
        return 0;
    pthread_mutex_lock(&b->lock);
    if (idx < b->n_tok && b->tok[idx].gen == gen)
        op = b->tok[idx].op;
    pthread_mutex_unlock(&b->lock);
    return op ? sim_op_id(op) : 0;
}

static BeStatus token_memcpy(void *self, void *dst, const void *src, size_t bytes,
                             const BeToken *deps, size_t ndeps, BeToken *out, const char *loc)
{
    SimOpDesc d = {.kind = SIM_OP_MEMCPY, .loc = loc, .dst = dst, .src = src, .bytes = bytes};
    return token_submit(self, &d, deps, ndeps, out);
}

static BeStatus token_join(void *self, const BeToken *deps, size_t ndeps, BeToken *out,
                           const char *loc)
{
    SimOpDesc d = {.kind = SIM_OP_MARKER, .loc = loc};
    return token_submit(self, &d, deps, ndeps, out);
}

static BeStatus token_memset(void *self, void *dst, uint32_t value, unsigned width, size_t count,
                             const BeToken *deps, size_t ndeps, BeToken *out, const char *loc)
{
    SimBe *b = self;
    if (count > SIZE_MAX / width) {
        sim_diag_report(b->dev, SIM_SEV_ERROR, SIM_DIAG_MISUSE, loc,
                        "memset of %zu elements of %u bytes overflows the address space", count,
                        width);
        token_join(self, deps, ndeps, out, loc);
        return BE_ERR_ARG;
    }
    SimOpDesc d = {.kind = SIM_OP_MEMSET, .loc = loc, .dst = dst, .value = value, .width = width,
                   .bytes = count * width};
    return token_submit(b, &d, deps, ndeps, out);
}

/* The memory exists at once; the token is a marker after deps. */
static BeStatus token_alloc(void *self, size_t bytes, bool host_shared, const BeToken *deps,
                            size_t ndeps, void **ptr, BeToken *out, const char *loc)
{
    SimBe *b = self;
    SimStatus st = sim_mem_alloc(b->dev, bytes, host_shared ? SIM_MEM_HOST_SHARED : SIM_MEM_DEVICE,
                                 ptr, loc);
    if (st == SIM_OK)
        buffer_add(b, *ptr, bytes);
    BeStatus st2 = token_join(self, deps, ndeps, out, loc);
    return st != SIM_OK ? status(st) : st2;
}

/* The token is a marker after deps; the host waits for it and frees, the free ordered after the
 * marker (sim_mem_free_after). The host itself is not ordered after deps: were it, so would every
 * later op be, and their races with deps (a later free, a copy) would go unseen. */
static BeStatus token_free(void *self, void *ptr, const BeToken *deps, size_t ndeps, BeToken *out,
                           const char *loc)
{
    SimBe *b = self;
    BeStatus st = token_join(self, deps, ndeps, out, loc);
    if (!ptr || !*out)
        return st;
    SimOp *op = token_op(b, *out, "free", loc);
    SimStatus s2 = sim_mem_free_after(b->dev, ptr, op, loc);
    if (s2 == SIM_OK || s2 == SIM_ERR_DEADLOCK)
        buffer_remove(b, ptr);
    if (st != BE_OK)
        return st;
    return status(s2);
}

static BeStatus token_launch_host(void *self, BeKernelFn fn, void *user, const BeLaunch *l,
                                  const BeToken *deps, size_t ndeps, BeToken *out, const char *loc)
{
    HostKernel *k = malloc(sizeof *k);
    if (!k)
        return BE_ERR_MEMORY;
    *k = (HostKernel){.fn = fn, .user = user, .launch = *l};
    SimOpDesc d = {.kind = SIM_OP_KERNEL, .loc = loc, .fn = host_kernel_run, .user = k,
                   .release = free, .bounded = l->bounded};
    return token_submit(self, &d, deps, ndeps, out);
}

static BeStatus token_wait(void *self, const BeToken *toks, size_t n, const char *loc)
{
    SimBe *b = self;
    Deps d;
    BeStatus st = deps_get(b, &d, toks, n, "wait", loc);
    if (st == BE_ERR_MEMORY)
        return st;
    BeStatus st2 = status(sim_host_wait(b->dev, d.op, d.n, loc));
    deps_free(&d);
    return st2 != BE_OK ? st2 : st;
}

/* Adds one reference to h (retain) or drops one (release); the last release frees the slot and
 * the sim op. */
static BeStatus token_ref(SimBe *b, BeToken h, bool retain, const char *what)
{
    uint32_t idx;
    uint16_t gen;
    SimOp *dead = NULL;
    bool ok = false;
    if (token_decode(h, &idx, &gen)) {
        pthread_mutex_lock(&b->lock);
        Token *t = idx < b->n_tok ? &b->tok[idx] : NULL;
        if (t && t->gen == gen && t->refs) {
            ok = true;
            if (retain) {
                t->refs++;
            } else if (--t->refs == 0) {
                dead = t->op;
                t->op = NULL;
                if (b->free_tail)
                    b->tok[b->free_tail - 1].next_free = idx + 1;
                else
                    b->free_head = idx + 1;
                b->free_tail = idx + 1;
                b->n_free++;
            }
        }
        pthread_mutex_unlock(&b->lock);
    }
    if (!ok) {
        token_misuse(b, h, what, what);
        return BE_ERR_HANDLE;
    }
    if (dead)
        sim_op_release(b->dev, dead);
    return BE_OK;
}

static BeStatus token_retain(void *self, BeToken h)
{
    return token_ref(self, h, true, "be_token_retain");
}

static BeStatus token_release(void *self, BeToken h)
{
    return token_ref(self, h, false, "be_token_release");
}

static BeStatus token_from_stream(void *self, BeStream s, BeToken *out, const char *loc)
{
    SimBe *b = self;
    if (token_as(b, s, "stream", loc))
        return BE_ERR_HANDLE;
    SimOp *op = NULL;
    SimStatus st = sim_stream_last_op(b->dev, (SimStream)s, &op, loc);
    if (st != SIM_OK)
        return status(st);
    if (!op) /* the stream never had work: nothing to wait for */
        return token_join(self, NULL, 0, out, loc);
    return (*out = token_new(b, op, loc)) ? BE_OK : BE_ERR_MEMORY;
}

static BeStatus stream_wait_token(void *self, BeStream s, BeToken t, const char *loc)
{
    SimBe *b = self;
    if (token_as(b, s, "stream", loc))
        return BE_ERR_HANDLE;
    SimOp *op = NULL;
    if (t && !(op = token_op(b, t, "stream wait", loc)))
        return BE_ERR_HANDLE;
    return status(sim_stream_wait_op(b->dev, (SimStream)s, op, loc));
}

/* ---- inside a host kernel: a BeKernelCtx is the sim's SimCtx ---- */

BeStatus be_kernel_access(BeKernelCtx *ctx, const void *addr, size_t bytes, bool is_write,
                          const char *loc)
{
    return status(sim_access((SimCtx *)ctx, addr, bytes, is_write, loc));
}

_Static_assert((int)BE_ACC_READ == (int)SIM_ACC_READ && (int)BE_ACC_WRITE == (int)SIM_ACC_WRITE &&
               (int)BE_ACC_ATOMIC == (int)SIM_ACC_ATOMIC, "BeAccess mirrors SimAccess");

BeStatus be_kernel_access_kind(BeKernelCtx *ctx, const void *addr, size_t bytes, BeAccess kind,
                               const char *loc)
{
    return status(sim_access_kind((SimCtx *)ctx, addr, bytes, (SimAccess)kind, loc));
}

bool be_access_conflict(BeAccess a, BeAccess b)
{
    return sim_access_conflict((SimAccess)a, (SimAccess)b);
}

BeStatus be_kernel_access_check(BeKernelCtx *ctx, const void *addr, size_t bytes, bool is_write,
                                const char *loc)
{
    return status(sim_access_check((SimCtx *)ctx, addr, bytes, is_write, loc));
}

bool be_kernel_access_probe(BeKernelCtx *ctx, const void *addr, size_t bytes)
{
    return sim_access_probe((SimCtx *)ctx, addr, bytes);
}

typedef struct ForJob {
    BeForFn fn;
    void *user;
} ForJob;

static void for_run(SimCtx *ctx, size_t i, void *user)
{
    ForJob *j = user;
    j->fn((BeKernelCtx *)ctx, i, j->user);
}

BeStatus be_kernel_parallel_for(BeKernelCtx *ctx, size_t n, BeForFn fn, void *user)
{
    ForJob j = {.fn = fn, .user = user};
    return status(sim_ctx_parallel_for((SimCtx *)ctx, n, for_run, &j));
}

static const BeOps ops = {
    .name = "sim",
    .close = close_,
    .error_count = error_count,
    .warning_count = warning_count,
    .stream_id = stream_id,
    .event_id = event_id,
    .buffer_id = buffer_id,
    .device_set = device_set,
    .device_sync = device_sync,
    .stream_create = stream_create,
    .stream_destroy = stream_destroy,
    .stream_sync = stream_sync,
    .stream_wait_event = stream_wait_event,
    .event_create = event_create,
    .event_destroy = event_destroy,
    .event_record = event_record,
    .event_sync = event_sync,
    .event_query = event_query,
    .mem_alloc = mem_alloc,
    .mem_free = mem_free,
    .memcpy = memcpy_,
    .memset = memset_,
    .mem_register = mem_register,
    .mem_unregister = mem_unregister,
    .host_add = host_add,
    .host_remove = host_remove,
    .host_access = host_access,
    .stall = stall,
    .module_load = module_load,
    .module_unload = module_unload,
    .module_function = module_function,
    .launch = launch,
    .launch_host = launch_host,
    .report = report,
    .quiet_leaks = quiet_leaks,
    .token_id = token_id,
    .token_memcpy = token_memcpy,
    .token_memset = token_memset,
    .token_alloc = token_alloc,
    .token_free = token_free,
    .token_launch_host = token_launch_host,
    .token_join = token_join,
    .token_wait = token_wait,
    .token_retain = token_retain,
    .token_release = token_release,
    .token_from_stream = token_from_stream,
    .stream_wait_token = stream_wait_token,
};

BeStatus be_sim_create(const BeOptions *opt, const BeOps **out_ops, void **self, char *err,
                       size_t errlen)
{
    *self = NULL;
    *out_ops = &ops;
    SimConfig cfg = {0};
    if (opt->sched && sim_sched_parse(opt->sched, &cfg) != SIM_OK) {
        if (err)
            snprintf(err, errlen, "bad scheduler '%s' (expected threads, serial or random:SEED)",
                     opt->sched);
        return BE_ERR_ARG;
    }
    SimBe *b = calloc(1, sizeof *b);
    if (!b)
        goto oom;
    pthread_mutex_init(&b->lock, NULL);
    b->trace = opt->trace;
    b->sink = opt->sink;
    b->sink_user = opt->sink_user;
    b->leaks_are_errors = opt->leak_check == BE_LEAK_ERROR;
    atomic_store(&b->quiet_leaks, opt->leak_check == BE_LEAK_OFF);
    cfg.workers = opt->workers;
    cfg.no_race_check = opt->no_race_check;
    cfg.sink = sink;
    cfg.sink_user = b;
    if (b->trace) {
        cfg.observer = observe;
        cfg.observer_user = b;
    }
    b->dev = sim_create(&cfg);
    if (!b->dev) {
        pthread_mutex_destroy(&b->lock);
        free(b);
        goto oom;
    }
    *self = b;
    return BE_OK;
oom:
    if (err)
        snprintf(err, errlen, "cannot start the simulator (out of memory or threads)");
    return BE_ERR_MEMORY;
}
