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
 *   MGPUSIM_BACKEND       backend name (default "sim")
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
 * be_mgpu_bind(its device, the call's location): then no process-wide device is opened, nothing is
 * read from the environment, and diagnostics name the call by that location.
 */
#include "backends/backend.h"
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

static void finish(void)
{
    BeSummary sum;
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
        opt.no_race_check = true;
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

/* be_mgpu_bind: a host that runs lowered code itself (the interpreter) lends its device and
 * names the call, so the process-wide device is never opened. One host thread, as backend.h. */
static Backend *bound;
static const char *bound_loc;

void be_mgpu_bind(Backend *b, const char *loc)
{
    bound = b;
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
    BeModule m = NULL;
    be_module_load(b, data, gpuBlobSize, &m, loc);
    return m;
}

/* PTX text to be JIT-compiled by the driver; the size is the string's. */
void *mgpuModuleLoadJIT(void *data, int optLevel)
{
    BE(mgpuModuleLoadJIT, NULL);
    BeModule m = NULL;
    be_module_load(b, data, data ? strlen(data) : 0, &m, loc);
    return m;
}

void mgpuModuleUnload(void *module)
{
    BE(mgpuModuleUnload);
    be_module_unload(b, module, loc);
}

void *mgpuModuleGetFunction(void *module, const char *name)
{
    BE(mgpuModuleGetFunction, NULL);
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
    l.smem = (uint32_t)smem;
    be_launch(b, function, &l, stream, loc);
}
