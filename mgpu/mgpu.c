/* mgpu.c — MLIR's mgpu* runtime ABI, implemented once on top of backend.h.
 *
 * `mlir-opt --gpu-to-llvm` turns gpu.* host ops into calls such as mgpuStreamCreate, mgpuMemcpy and
 * mgpuEventRecord; MLIR ships these functions in libmlir_cuda_runtime.so. This file defines the same
 * functions with the same C signatures, so the library built from it (libmgpusim.so) is a drop-in:
 *
 *   mlir-runner --shared-libs=...,build/libmgpusim.so prog-lowered.mlir
 *
 * runs the lowered host code on the simulator, which checks what real drivers never do.
 *
 * The device is opened on the first call, from the environment:
 *   MGPUSIM_BACKEND       backend name: "sim" (the default), "cuda" or "hip"
 *   MGPUSIM_SCHED         threads (default) | serial | random:SEED
 *   MGPUSIM_WORKERS       worker threads of the threads scheduler (default: one per CPU)
 *   MGPUSIM_RACE_CHECK=0  turn race detection off
 *   MGPUSIM_TRACE=PATH    write a trace there at exit ("-" for stdout)
 *   MGPUSIM_TRACE_FORMAT  chrome | text; by default chrome (Perfetto) when PATH ends in .json,
 *                         else text (trace_format_for_path, the rule of gpuinterp's --trace)
 *   MGPUSIM_LEAK_CHECK    off | warn (default) | error: leaked streams, events, memory and modules
 *                         at exit are not reported, are warnings, or are errors
 *
 * Locations. Lowered code carries no source locations at run time, so each call is named by its
 * function and a per-function call counter: "mgpuMemcpy#3" is the third mgpuMemcpy call. Counters
 * follow the program's own call order, so under the serial scheduler they are the same on every run.
 * The strings live in an arena until exit, since the backend keeps pointers to them (a few dozen
 * bytes per call).
 *
 * Diagnostics go to stderr as "mgpusim: mgpuStreamWaitEvent#1: error: ... [misuse]", then note
 * lines. Exit status: the library cannot return an error through the ABI (the functions return
 * void or a handle, as upstream's), and mlir-runner would exit 0, so the verdict is given at exit.
 * An atexit handler, registered on the first call, drains and closes the device (leaks and
 * deadlocks are reported then), writes the trace, prints a one-line summary if anything was
 * reported, and if any error was found flushes stdio and _exit(1)s, so a lit test can use `not`.
 * Handlers registered before it (mlir-runner's own) are then skipped, which is harmless since
 * everything is flushed; a clean run exits as it would have. A launch that failed (a kernel the sim
 * could not run) is sticky: the program ends at the next mgpuStreamSynchronize or
 * mgpuEventSynchronize, with exit status 1 and no leak reports, as a real GPU's sticky error ends a
 * CUDA program at its next synchronization. MGPUSIM_* settings that are not
 * understood count as errors. Calls made after the handler ran do nothing.
 *
 * A host that runs lowered code itself (gpuinterp) calls these functions too, after
 * mgpu_bind(its engine host, the call's location): then no process-wide device is opened, nothing
 * is read from the environment, and diagnostics name the call by that location.
 *
 * Modules of PTX run on the kernel engine when the device is the sim ("PTX modules" below); every
 * other kind of device binary, and PTX for a GPU, goes to the backend.
 */
#include "mgpu/mgpu.h"
#include "sim/sim.h" /* sim_sched_parse: MGPUSIM_SCHED is checked as the sim reads it */

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- process-wide state ---- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static Backend *dev;
static TraceRecorder *rec;
static const char *trace_path;
static TraceFormat trace_format;
static atomic_size_t n_errors, n_warnings;
static bool no_race_check; /* MGPUSIM_RACE_CHECK=0 */

/* The location arena: chunks of strings, freed at exit. Each thread fills its own chunk, so naming
 * a call takes no lock; the lock only guards the list of all chunks. */
typedef struct Chunk Chunk;
struct Chunk {
    Chunk *next;
    size_t used;
    char data[16384 - 2 * sizeof(void *)];
};
static pthread_mutex_t arena_lock = PTHREAD_MUTEX_INITIALIZER;
static Chunk *chunks;
static _Thread_local Chunk *chunk; /* this thread's current chunk */

/* Every function of the ABI, for call counters: X(name). */
#define MGPU_FUNCTIONS(X)                                                                        \
    X(mgpuStreamCreate) X(mgpuStreamDestroy) X(mgpuStreamSynchronize) X(mgpuStreamWaitEvent)     \
    X(mgpuEventCreate) X(mgpuEventDestroy) X(mgpuEventSynchronize) X(mgpuEventRecord)            \
    X(mgpuMemAlloc) X(mgpuMemFree) X(mgpuMemcpy) X(mgpuMemset32) X(mgpuMemset16)                 \
    X(mgpuMemHostRegister) X(mgpuMemHostUnregister) X(mgpuMemHostRegisterMemRef)                 \
    X(mgpuMemHostUnregisterMemRef) X(mgpuSetDefaultDevice) X(mgpuModuleLoad) X(mgpuModuleLoadJIT) \
    X(mgpuModuleUnload) X(mgpuModuleGetFunction) X(mgpuLaunchKernel)

#define ENUM(name) F_##name,
#define NAME(name) #name,
enum { MGPU_FUNCTIONS(ENUM) N_FUNCTIONS };
static const char *const names[N_FUNCTIONS] = {MGPU_FUNCTIONS(NAME)};
static atomic_uint_fast64_t calls[N_FUNCTIONS];

static size_t name_len[N_FUNCTIONS];

/* "mgpuMemcpy#3": the function's name and how many times it was called, this call included. Runs
 * on every call, so it formats by hand into the thread's chunk (about 20 ns; snprintf and a
 * locked arena cost ten times that). */
static const char *call_loc(int f)
{
    uint64_t n = atomic_fetch_add_explicit(&calls[f], 1, memory_order_relaxed) + 1;
    char digits[20];
    size_t k = 0;
    do
        digits[k++] = (char)('0' + n % 10);
    while ((n /= 10));
    size_t len = name_len[f], need = len + 1 + k + 1;
    Chunk *c = chunk;
    if (!c || sizeof c->data - c->used < need) {
        c = malloc(sizeof *c);
        if (!c)
            return names[f];
        c->used = 0;
        pthread_mutex_lock(&arena_lock);
        c->next = chunks;
        chunks = c;
        pthread_mutex_unlock(&arena_lock);
        chunk = c;
    }
    char *out = c->data + c->used, *p = out;
    memcpy(p, names[f], len);
    p += len;
    *p++ = '#';
    while (k)
        *p++ = digits[--k];
    *p = '\0';
    c->used += need;
    return out;
}

static void sink(const BeDiag *d, void *user)
{
    if (d->error)
        atomic_fetch_add(&n_errors, 1);
    else
        atomic_fetch_add(&n_warnings, 1);
    be_diag_print(stderr, "mgpusim", d);
}

static void ptx_finish(void);

static void finish(void)
{
    BeSummary sum;
    ptx_finish();
    be_close(dev, &sum);
    dev = NULL;
    if (rec && trace_path) {
        errno = 0;
        if (trace_write_path(rec, trace_format, trace_path) != 0) {
            fprintf(stderr, "mgpusim: error: cannot write to '%s': %s\n", trace_path,
                    strerror(errno ? errno : EIO));
            atomic_fetch_add(&n_errors, 1);
        }
    }
    trace_recorder_destroy(rec);
    rec = NULL;
    for (Chunk *c = chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    chunks = NULL;
    chunk = NULL;
    size_t errors = atomic_load(&n_errors), warnings = atomic_load(&n_warnings);
    /* gpuinterp's closing summary: only the counts that are not zero */
    fflush(stdout);
    if (errors && warnings)
        fprintf(stderr, "mgpusim: %zu error%s, %zu warning%s\n", errors, errors == 1 ? "" : "s",
                warnings, warnings == 1 ? "" : "s");
    else if (errors)
        fprintf(stderr, "mgpusim: %zu error%s\n", errors, errors == 1 ? "" : "s");
    else if (warnings)
        fprintf(stderr, "mgpusim: %zu warning%s\n", warnings, warnings == 1 ? "" : "s");
    if (errors) {
        fflush(NULL);
        _exit(1);
    }
}

/* A setting that makes no sense is an error of the run (it would silently do something else). */
static void bad_env(const char *name, const char *value, const char *expected)
{
    fprintf(stderr, "mgpusim: error: %s='%s' is not understood (expected %s); using the default\n",
            name, value, expected);
    atomic_fetch_add(&n_errors, 1);
}

static void start(void)
{
    const char *env;
    for (int f = 0; f < N_FUNCTIONS; f++)
        name_len[f] = strlen(names[f]);
    BeOptions opt = {.sink = sink};
    opt.sched = getenv("MGPUSIM_SCHED");
    SimConfig cfg = {0};
    if (opt.sched && sim_sched_parse(opt.sched, &cfg) != SIM_OK) {
        bad_env("MGPUSIM_SCHED", opt.sched, "threads, serial or random:SEED");
        opt.sched = NULL;
    }
    if ((env = getenv("MGPUSIM_WORKERS"))) {
        char *end;
        long n = strtol(env, &end, 10);
        if (*env && !*end && n >= 0 && n <= 1024)
            opt.workers = (int)n;
        else
            bad_env("MGPUSIM_WORKERS", env, "a number of threads, 0 for one per CPU");
    }
    if ((env = getenv("MGPUSIM_RACE_CHECK")) && strcmp(env, "0") != 0 && strcmp(env, "1") != 0)
        bad_env("MGPUSIM_RACE_CHECK", env, "0 or 1");
    if ((env = getenv("MGPUSIM_RACE_CHECK")) && strcmp(env, "0") == 0)
        opt.no_race_check = no_race_check = true;
    if ((env = getenv("MGPUSIM_LEAK_CHECK"))) {
        if (strcmp(env, "off") == 0)
            opt.leak_check = BE_LEAK_OFF;
        else if (strcmp(env, "error") == 0)
            opt.leak_check = BE_LEAK_ERROR;
        else if (strcmp(env, "warn") != 0)
            bad_env("MGPUSIM_LEAK_CHECK", env, "off, warn or error");
    }
    trace_path = getenv("MGPUSIM_TRACE");
    if (trace_path && *trace_path) {
        trace_format = trace_format_for_path(trace_path);
        if ((env = getenv("MGPUSIM_TRACE_FORMAT"))) {
            if (strcmp(env, "text") == 0)
                trace_format = TRACE_FORMAT_TEXT;
            else if (strcmp(env, "chrome") == 0)
                trace_format = TRACE_FORMAT_CHROME;
            else
                bad_env("MGPUSIM_TRACE_FORMAT", env, "chrome or text");
        }
        rec = trace_recorder_create();
        opt.trace = rec;
    } else {
        trace_path = NULL;
    }
    char err[256];
    const char *name = getenv("MGPUSIM_BACKEND");
    if (be_open(name, &opt, &dev, err, sizeof err) != BE_OK) {
        fprintf(stderr, "mgpusim: error: MGPUSIM_BACKEND='%s': %s; using the sim\n", name ? name : "",
                err);
        atomic_fetch_add(&n_errors, 1);
        opt.sched = NULL;
        if (be_open("sim", &opt, &dev, err, sizeof err) != BE_OK) {
            fprintf(stderr, "mgpusim: error: %s\n", err);
            fflush(NULL);
            _exit(1);
        }
    }
    atexit(finish);
}

/* mgpu_bind: a host that runs lowered code itself (the interpreter) lends its device (and its
 * kernel engine host) and names the call, so the process-wide device is never opened. One host
 * thread, as backend.h. */
static Backend *bound;
static KHost *bound_host;
static const char *bound_loc;

void mgpu_bind(KHost *host, const char *loc)
{
    bound_host = host;
    bound = host ? host->be : NULL;
    bound_loc = loc;
}

/* The device, opened on the first call; NULL once finish() closed it (a call from a later exit
 * handler then does nothing). */
static Backend *be(void)
{
    if (bound)
        return bound;
    pthread_once(&once, start);
    return dev;
}

static bool dim(intptr_t v, uint32_t *out)
{
    if (v < 0 || (uintmax_t)v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* ---- PTX modules: run on the kernel engine ---- */

/* A module of PTX (be_blob_kind) on the sim is not the backend's: its text is compiled for the
 * kernel engine (kernel/kernel.h), a kernel at its first mgpuModuleGetFunction, and a launch runs it on the
 * stream as gpuinterp runs a gpu.binary's kernel: bounds checks against the device's memory
 * table, race recording, the first error of a launch reported (located in the PTX, named
 * "@mgpuModuleLoadJIT#1.ptx" after the load) and the launch failed, which is sticky. Modules and
 * functions of PTX are told apart from the backend's by address: lists of them are kept, and a
 * handle is never dereferenced before it is found there. The process-wide device gets an engine
 * host of its own (its context holds the texts and kernels until exit); a host that binds its
 * own (mgpu_bind, the interpreter) lends that, so its kernels count among its errors. `ptx_lock`
 * guards the lists; a host thread at a time calls the ABI (backend.h). */
typedef struct PtxFn PtxFn;
typedef struct PtxMod {
    struct PtxMod *next;
    KHost *host;
    char *text;
    size_t len;
    const char *bufname;
    bool unloaded;
    PtxFn *fns;
} PtxMod;
struct PtxFn {
    PtxFn *next;
    PtxMod *m;
    char *name;
    Kernel *k;
    uint32_t nparams;
    uint32_t *bytes;  /* of each parameter */
    PtxFn *all_next;  /* ptx_fns */
};

static pthread_mutex_t ptx_lock = PTHREAD_MUTEX_INITIALIZER;
static PtxMod *ptx_mods;
static PtxFn *ptx_fns;
static KHost *own_host; /* the process-wide device's, made at the first PTX load */

static KHost *engine_host(Backend *b)
{
    if (bound_host)
        return bound_host;
    if (!own_host) {
        KHost *h = calloc(1, sizeof *h);
        IrCtx *ctx = h ? ir_ctx_create() : NULL;
        if (!ctx) {
            free(h);
            return NULL;
        }
        h->ctx = ctx;
        h->be = b;
        h->out = stdout;
        h->no_race_check = no_race_check;
        kernel_budget_init(&h->budget, 0, 0);
        atomic_init(&h->credit, kernel_budget_credit(&h->budget));
        own_host = h;
    }
    return own_host;
}

static PtxMod *ptx_module_of(void *h)
{
    pthread_mutex_lock(&ptx_lock);
    PtxMod *m = ptx_mods;
    while (m && (void *)m != h)
        m = m->next;
    pthread_mutex_unlock(&ptx_lock);
    return m;
}

static PtxFn *ptx_function_of(void *h)
{
    pthread_mutex_lock(&ptx_lock);
    PtxFn *f = ptx_fns;
    while (f && (void *)f != h)
        f = f->all_next;
    pthread_mutex_unlock(&ptx_lock);
    return f;
}

/* Whether a module of data (size bytes) is the engine's: PTX, on the sim (a GPU's driver loads
 * PTX itself). */
static bool ptx_for_engine(Backend *b, const void *data, size_t size)
{
    const char *dev_name = be_name(b);
    return data && dev_name && strcmp(dev_name, "sim") == 0 && be_blob_kind(data, size) == BE_BLOB_PTX;
}

/* The text is copied: the caller's data need not outlive the call. NULL after a located error.
 * The text is named `name` ("@mgpuModuleLoadJIT#2.ptx", ptx_name), which keys the module's
 * .global variables. */
static void *ptx_load(Backend *b, const char *data, size_t size, const char *name, const char *loc)
{
    KHost *h = engine_host(b);
    PtxMod *m = h ? calloc(1, sizeof *m) : NULL;
    char *text = m ? malloc(size + 1) : NULL;
    if (!text) {
        free(m);
        be_report(b, true, "other", loc, "out of memory loading a PTX module");
        return NULL;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    m->host = h;
    m->text = text;
    m->len = size;
    m->bufname = ir_intern_cstr(h->ctx, name).s;
    if (!kernel_ptx_load(h, m->bufname, text, size)) {
        free(text);
        free(m);
        return NULL;
    }
    pthread_mutex_lock(&ptx_lock);
    m->next = ptx_mods;
    ptx_mods = m;
    pthread_mutex_unlock(&ptx_lock);
    return m;
}

/* A module's name after the call that loads it, "@mgpuModuleLoadJIT#2.ptx" (numbered also when a
 * host bound the ABI and names the calls itself). */
static const char *ptx_name(int fn, const char *loc, char *buf, size_t cap)
{
    if (bound)
        snprintf(buf, cap, "@%s#%llu.ptx", names[fn],
                 (unsigned long long)atomic_fetch_add_explicit(&calls[fn], 1, memory_order_relaxed) + 1);
    else
        snprintf(buf, cap, "@%s.ptx", loc);
    return buf;
}

static void *ptx_function(Backend *b, PtxMod *m, const char *name, const char *loc)
{
    if (m->unloaded) {
        be_report(b, true, "misuse", loc, "module was unloaded");
        return NULL;
    }
    if (!name) {
        be_report(b, true, "misuse", loc, "the kernel's name is NULL");
        return NULL;
    }
    for (PtxFn *f = m->fns; f; f = f->next)
        if (strcmp(f->name, name) == 0)
            return f;
    Kernel *k = kernel_of_ptx(m->host, NULL, m->bufname, m->text, m->len, (Str){name, strlen(name)});
    if (!k)
        return NULL;
    PtxFn *f = calloc(1, sizeof *f);
    char *nm = f ? strdup(name) : NULL;
    uint32_t n = kernel_ptx_params(k, NULL, 0);
    uint32_t *bytes = nm ? calloc(n + 1, sizeof *bytes) : NULL;
    if (!bytes) {
        free(nm);
        free(f);
        be_report(b, true, "other", loc, "out of memory");
        return NULL;
    }
    kernel_ptx_params(k, bytes, n);
    *f = (PtxFn){.m = m, .name = nm, .k = k, .nparams = n, .bytes = bytes};
    pthread_mutex_lock(&ptx_lock);
    f->next = m->fns;
    m->fns = f;
    f->all_next = ptx_fns;
    ptx_fns = f;
    pthread_mutex_unlock(&ptx_lock);
    return f;
}

/* params[i] points at argument i, of the bytes its .param declares (upstream's callers pack them
 * so); each becomes one word of the kernel's inputs. */
static void ptx_launch(Backend *b, PtxFn *f, const intptr_t grid[3], const intptr_t block[3], int32_t smem,
                       void *stream, void **params, size_t nparams, const char *loc)
{
    char msg[300];
    if (f->m->unloaded) {
        snprintf(msg, sizeof msg, "kernel '%s' is launched after its module was unloaded", f->name);
        be_report(b, true, "misuse", loc, msg);
        return;
    }
    if (nparams != f->nparams || (nparams && !params)) {
        snprintf(msg, sizeof msg, "kernel '%s' (%s) takes %u parameters, and the launch passes %zu%s", f->name,
                 f->m->bufname, f->nparams, nparams, nparams && !params ? " with no params array" : "");
        be_report(b, true, "misuse", loc, msg);
        return;
    }
    Slot *in = calloc(nparams + 1, sizeof *in);
    if (!in) {
        be_report(b, true, "other", loc, "out of memory for a launch");
        return;
    }
    for (size_t i = 0; i < nparams; i++) {
        if (!params[i]) {
            snprintf(msg, sizeof msg, "parameter %zu of kernel '%s' is a NULL pointer (params[%zu] must point at "
                     "the argument)", i, f->name, i);
            be_report(b, true, "misuse", loc, msg);
            free(in);
            return;
        }
        memcpy(&in[i], params[i], f->bytes[i]);
    }
    KHost *h = f->m->host;
    int64_t g[3] = {grid[0], grid[1], grid[2]}, bl[3] = {block[0], block[1], block[2]};
    BeStream s = stream;
    BeToken tok = NULL;
    kernel_launch(h, NULL, f->k, g, bl, smem, in, NULL, 0, &tok, &s, loc);
    free(in);
    /* the launch's token stands for the stream's work so far: kept with the host's tokens until
       its end, as the engine waits for its launches there */
    GpuState *gs = tok ? kernel_gpu(h) : NULL;
    if (gs && gs->ntoks == gs->captoks) {
        size_t cap = gs->captoks ? gs->captoks * 2 : 64;
        BeToken *p = realloc(gs->toks, cap * sizeof *p);
        if (!p) {
            be_token_wait(h->be, &tok, 1, loc);
            be_token_release(h->be, tok);
            return;
        }
        gs->toks = p;
        gs->captoks = cap;
    }
    if (gs)
        gs->toks[gs->ntoks++] = tok;
}

static void ptx_free_module(PtxMod *m)
{
    for (PtxFn *f = m->fns, *fn; f; f = fn) {
        fn = f->next;
        free(f->name);
        free(f->bytes);
        free(f);
    }
    free(m->text);
    free(m);
}

void mgpu_host_gone(KHost *host)
{
    pthread_mutex_lock(&ptx_lock);
    for (PtxFn **pp = &ptx_fns; *pp;)
        if ((*pp)->m->host == host)
            *pp = (*pp)->all_next;
        else
            pp = &(*pp)->all_next;
    for (PtxMod **pp = &ptx_mods; *pp;) {
        PtxMod *m = *pp;
        if (m->host == host) {
            *pp = m->next;
            ptx_free_module(m);
        } else {
            pp = &m->next;
        }
    }
    pthread_mutex_unlock(&ptx_lock);
}

/* At exit, before the device closes: waits for the launches, counts their errors, and gives back
 * what the process-wide engine host holds. */
static void ptx_finish(void)
{
    KHost *h = own_host;
    if (h) {
        kernel_wait_all(h);
        GpuState *gs = h->gpu;
        atomic_fetch_add(&n_errors, ir_error_count(h->ctx)); /* what the engine wrote (the device counts its own) */
        if (gs) {
            for (size_t i = gs->nregs; i-- > 0;)
                be_mem_unregister(h->be, gs->regs[i].ptr, "exit");
            for (size_t i = 0; i < gs->ntoks; i++)
                be_token_release(h->be, gs->toks[i]);
        }
        kernel_free_all(h);
        if (gs) {
            free(gs->regs);
            free(gs->toks);
            free(gs->kernels);
            pthread_mutex_destroy(&gs->mu);
            free(gs);
        }
        ir_ctx_destroy(h->ctx);
        free(h);
        own_host = NULL;
    }
    for (PtxMod *m = ptx_mods, *next; m; m = next) {
        next = m->next;
        ptx_free_module(m);
    }
    ptx_mods = NULL;
    ptx_fns = NULL;
}

/* ---- the ABI ---- */

/* Every function starts with BE(name): the device (or return when it is closed) and this call's
 * location. */
#define BE(name, ...)                                                                            \
    Backend *b = be();                                                                           \
    if (!b)                                                                                      \
        return __VA_ARGS__;                                                                      \
    const char *loc = bound ? (bound_loc ? bound_loc : #name) : call_loc(F_##name);              \
    if (!bound)                                                                                  \
        be_trace_label(#name) /* the interpreter names its own calls (llvm.call @...) */

void *mgpuStreamCreate(void)
{
    BE(mgpuStreamCreate, NULL);
    BeStream s = NULL;
    be_stream_create(b, &s, loc);
    return s;
}

void mgpuStreamDestroy(void *stream)
{
    BE(mgpuStreamDestroy);
    be_stream_destroy(b, stream, loc);
}

/* After a synchronization: a failed launch is sticky (backend.h), so the program ends here, exit
 * status 1, without leak reports (it never got to free anything). A host that runs lowered code
 * itself stops there on its own. */
static void sync_point(Backend *b, const char *loc)
{
    const char *failed = be_failure(b);
    if (!failed || bound)
        return;
    fprintf(stderr,
            "mgpusim: %s: note: the program ends at this synchronization: the kernel launched at %s "
            "failed, and a failed launch is sticky\n",
            loc, failed);
    be_quiet_leaks(b);
    fflush(NULL);
    exit(1); /* finish() closes the device and exits 1 */
}

void mgpuStreamSynchronize(void *stream)
{
    BE(mgpuStreamSynchronize);
    be_stream_sync(b, stream, loc);
    sync_point(b, loc);
}

void mgpuStreamWaitEvent(void *stream, void *event)
{
    BE(mgpuStreamWaitEvent);
    be_stream_wait_event(b, stream, event, loc);
}

void *mgpuEventCreate(void)
{
    BE(mgpuEventCreate, NULL);
    BeEvent e = NULL;
    be_event_create(b, &e, loc);
    return e;
}

void mgpuEventDestroy(void *event)
{
    BE(mgpuEventDestroy);
    be_event_destroy(b, event, loc);
}

void mgpuEventSynchronize(void *event)
{
    BE(mgpuEventSynchronize);
    be_event_sync(b, event, loc);
    sync_point(b, loc);
}

void mgpuEventRecord(void *event, void *stream)
{
    BE(mgpuEventRecord);
    be_event_record(b, event, stream, loc);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared)
{
    BE(mgpuMemAlloc, NULL);
    void *p = NULL;
    be_mem_alloc(b, (size_t)sizeBytes, isHostShared, stream, &p, loc);
    return p;
}

void mgpuMemFree(void *ptr, void *stream)
{
    BE(mgpuMemFree);
    be_mem_free(b, ptr, stream, loc);
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream)
{
    BE(mgpuMemcpy);
    be_memcpy(b, dst, src, sizeBytes, stream, loc);
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream)
{
    BE(mgpuMemset32);
    be_memset(b, dst, value, 4, count, stream, loc);
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream)
{
    BE(mgpuMemset16);
    be_memset(b, dst, value, 2, count, stream, loc);
}

void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes)
{
    BE(mgpuMemHostRegister);
    be_mem_register(b, ptr, (size_t)sizeBytes, loc);
}

void mgpuMemHostUnregister(void *ptr)
{
    BE(mgpuMemHostUnregister);
    be_mem_unregister(b, ptr, loc);
}

/* The bytes a dense memref spans, or -1 (after a diagnostic) when it is not dense: upstream only
 * asserts that, here it is reported. */
static int64_t memref_bytes(Backend *b, int64_t rank, const BeMemRef *d, int64_t elem, const char *loc)
{
    const int64_t *sizes = d->sizes_strides, *strides = d->sizes_strides + rank;
    int64_t bytes = elem, stride = 1;
    for (int64_t i = rank - 1; i >= 0; i--) {
        if (sizes[i] > 0 && strides[i] != stride) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "memref of rank %lld is not densely packed (stride %lld of dimension %lld, "
                     "expected %lld); only dense memrefs can be registered",
                     (long long)rank, (long long)strides[i], (long long)i, (long long)stride);
            be_report(b, true, "misuse", loc, msg);
            return -1;
        }
        if (__builtin_mul_overflow(stride, sizes[i], &stride) ||
            __builtin_mul_overflow(bytes, sizes[i], &bytes)) {
            be_report(b, true, "misuse", loc, "the size of the memref to register overflows");
            return -1;
        }
    }
    return bytes;
}

void mgpuMemHostRegisterMemRef(int64_t rank, BeMemRef *descriptor, int64_t elementSizeBytes)
{
    BE(mgpuMemHostRegisterMemRef);
    int64_t bytes = memref_bytes(b, rank, descriptor, elementSizeBytes, loc);
    if (bytes < 0)
        return;
    be_mem_register(b, descriptor->data + descriptor->offset * elementSizeBytes, (size_t)bytes, loc);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, BeMemRef *descriptor, int64_t elementSizeBytes)
{
    BE(mgpuMemHostUnregisterMemRef);
    be_mem_unregister(b, descriptor->data + descriptor->offset * elementSizeBytes, loc);
}

void mgpuSetDefaultDevice(int32_t device)
{
    BE(mgpuSetDefaultDevice);
    be_device_set(b, device, loc);
}

void *mgpuModuleLoad(void *data, size_t gpuBlobSize)
{
    BE(mgpuModuleLoad, NULL);
    char name[256];
    if (ptx_for_engine(b, data, gpuBlobSize))
        return ptx_load(b, data, gpuBlobSize, ptx_name(F_mgpuModuleLoad, loc, name, sizeof name), loc);
    BeModule m = NULL;
    be_module_load(b, data, gpuBlobSize, &m, loc);
    return m;
}

/* PTX text to be JIT-compiled by the driver; the size is the string's. */
void *mgpuModuleLoadJIT(void *data, int optLevel)
{
    BE(mgpuModuleLoadJIT, NULL);
    size_t size = data ? strlen(data) : 0;
    char name[256];
    if (ptx_for_engine(b, data, size))
        return ptx_load(b, data, size, ptx_name(F_mgpuModuleLoadJIT, loc, name, sizeof name), loc);
    BeModule m = NULL;
    be_module_load(b, data, size, &m, loc);
    return m;
}

void mgpuModuleUnload(void *module)
{
    BE(mgpuModuleUnload);
    PtxMod *pm = ptx_module_of(module);
    if (pm) {
        if (pm->unloaded)
            be_report(b, true, "misuse", loc, "module was already unloaded");
        pm->unloaded = true;
        return;
    }
    be_module_unload(b, module, loc);
}

void *mgpuModuleGetFunction(void *module, const char *name)
{
    BE(mgpuModuleGetFunction, NULL);
    PtxMod *pm = ptx_module_of(module);
    if (pm)
        return ptx_function(b, pm, name, loc);
    BeFunction f = NULL;
    be_module_function(b, module, name, &f, loc);
    return f;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                      intptr_t blockX, intptr_t blockY, intptr_t blockZ, int32_t smem,
                      void *stream, void **params, void **extra, size_t paramsCount)
{
    BE(mgpuLaunchKernel);
    BeLaunch l = {.params = params, .n_params = paramsCount};
    bool ok = smem >= 0 && dim(gridX, &l.grid[0]) && dim(gridY, &l.grid[1]) && dim(gridZ, &l.grid[2]) &&
              dim(blockX, &l.block[0]) && dim(blockY, &l.block[1]) && dim(blockZ, &l.block[2]);
    if (!ok) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "launch dimensions out of range (grid %lld x %lld x %lld, block %lld x %lld x %lld, "
                 "shared memory %d bytes)",
                 (long long)gridX, (long long)gridY, (long long)gridZ, (long long)blockX,
                 (long long)blockY, (long long)blockZ, smem);
        be_report(b, true, "misuse", loc, msg);
        return;
    }
    PtxFn *pf = ptx_function_of(function);
    if (pf) {
        const intptr_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
        ptx_launch(b, pf, grid, block, smem, stream, params, paramsCount, loc);
        return;
    }
    l.smem = (uint32_t)smem;
    be_launch(b, function, &l, stream, loc);
}

void *mgpu_ptx_load(const void *text, size_t size, const char *name)
{
    Backend *b = bound;
    if (!b || !ptx_for_engine(b, text, size)) {
        if (b)
            be_report(b, true, "misuse", bound_loc ? bound_loc : "mgpu_ptx_load", "not PTX for the kernel engine");
        return NULL;
    }
    return ptx_load(b, text, size, name, bound_loc ? bound_loc : "mgpu_ptx_load");
}

uint32_t mgpu_ptx_params(void *function)
{
    PtxFn *f = ptx_function_of(function);
    return f ? f->nparams : 0;
}
