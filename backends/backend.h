/* backend.h — the device API: what the interpreter and the mgpu* ABI call to run work on a device.
 *
 * One API, several devices behind a vtable (BeOps): "sim", the CPU simulator in sim/ (the default);
 * "cuda", NVIDIA's Driver API loaded at run time (cuda.c), and "hip", AMD's HIP runtime loaded
 * the same way (hip.c), both over driver.c, the layer they share (driver.h).
 *
 * The API follows CUDA's driver model, which is also what MLIR's mgpu* runtime wrappers expose:
 * in-order streams, events that snapshot a stream, device memory (optionally host-shared), host
 * registration, modules that hold kernels, and launches. Beside it, a token door for the
 * interpreter's high-level `gpu.* async` ops (see "tokens" below). Handles (BeStream, BeEvent,
 * BeModule, BeFunction, BeToken) are opaque values that belong to the backend: they are passed
 * through unchanged, so a stream handed in where an event is expected reaches the backend as is,
 * and the backend (the sim) says what it really was. A NULL stream is the device's default stream.
 *
 * Every call takes `loc`, a string that names the caller in diagnostics and traces
 * ("prog.mlir:12:5", "mgpuMemcpy#3"). Backends may keep the pointer: it must live until be_close().
 *
 * Errors are values (BeStatus). A call that fails has already reported a diagnostic through the
 * options' sink (default: printed to stderr); be_error_count() tells the caller how many errors the
 * run had, so only main decides the exit status.
 *
 * Tracing: when BeOptions.trace is set, every be_* call is recorded as a trace call event, and the
 * backend records op enqueue/start/end, happens-before edges and violations (traces/traces.h).
 *
 * Threads: one host thread at a time calls the API, as sim.h requires; kernels run on workers.
 */
#ifndef BACKENDS_BACKEND_H
#define BACKENDS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "traces/traces.h"

typedef struct Backend Backend;
typedef struct BeStreamTag *BeStream;
typedef struct BeEventTag *BeEvent;
typedef struct BeModuleTag *BeModule;
typedef struct BeFunctionTag *BeFunction;
typedef struct BeTokenTag *BeToken;
typedef struct BeKernelCtx BeKernelCtx; /* what a host-kernel callback gets while it runs */
typedef struct BeStall BeStall;         /* be_stall */

typedef enum BeStatus {
    BE_OK = 0,
    BE_NOT_READY,       /* a query: the work has not completed yet */
    BE_ERR_HANDLE,      /* wrong kind, unknown or destroyed handle */
    BE_ERR_MEMORY,      /* pointer outside any allocation, bad free, out of memory */
    BE_ERR_DEADLOCK,    /* a wait that could never complete returned without it */
    BE_ERR_ARG,         /* bad argument (size, width, dimensions, ...) */
    BE_ERR_UNSUPPORTED, /* the backend cannot do this (e.g. run a cubin on the sim) */
    BE_ERR_NO_BACKEND,  /* be_open: unknown or unimplemented backend, or no driver or device */
    BE_ERR_DRIVER,      /* a driver call failed (reported with the driver's name for the error) */
} BeStatus;

typedef struct BeDiag {
    bool error;            /* false: a warning (e.g. a leak at exit) */
    const char *kind;      /* "race", "misuse", "out-of-bounds", "uninitialized", "deadlock", "leak",
                              or "error" for anything else (e.g. a device binary the sim cannot run) */
    const char *loc;       /* the call or op it is about */
    const char *loc2;      /* the other party (the other op of a race, where a handle was made), or NULL */
    const char *alloc_loc; /* where the memory involved was allocated, or NULL */
    const char *message;   /* one sentence; valid during the sink call only */
} BeDiag;

typedef void (*BeDiagFn)(const BeDiag *diag, void *user);

/* What a run found, counted over every diagnostic the sink saw. */
typedef struct BeSummary {
    size_t errors;
    size_t warnings;
} BeSummary;

/* What becomes of streams, events, memory and modules still alive when the device closes. */
typedef enum BeLeakCheck {
    BE_LEAK_WARN = 0, /* each is a warning (the default) */
    BE_LEAK_OFF,      /* nothing is reported */
    BE_LEAK_ERROR,    /* each is an error */
} BeLeakCheck;

typedef struct BeOptions {
    const char *sched;      /* sim: "threads" (default), "serial", "random:SEED" */
    int workers;            /* sim, threads scheduler: 0 = one per CPU */
    bool no_race_check;     /* sim: turn race detection off */
    BeLeakCheck leak_check;
    TraceRecorder *trace;   /* record a trace here (not owned), or NULL */
    BeDiagFn sink;          /* NULL: be_diag_print to stderr */
    void *sink_user;
    const char *driver_lib; /* cuda, hip: the library to dlopen; NULL: $GPUINTERP_CUDA_LIB, else
                               libcuda.so.1 (cuda); $GPUINTERP_HIP_LIB, else libamdhip64.so (hip) */
    /* cuda, hip: what kernels print. A driver writes it to the process's stdout (fd 1) when the
     * host synchronizes. With device_out set, fd 1 is a file of the backend's while the device is
     * open, and what the driver wrote there is handed to device_out after each driver call, with
     * the call's loc ("exit" at close); be_close restores fd 1. NULL: fd 1 stays as it is, and the
     * backend flushes stdout before each driver call, so the host's output comes before what the
     * device prints at that call. */
    void (*device_out)(void *user, const char *loc, const char *text, size_t len);
    void *device_out_user;
} BeOptions;

/* What a launch runs on: the grid, the block, dynamic shared memory and the kernel arguments
 * (params[i] points at argument i, as cuLaunchKernel takes them). */
typedef struct BeLaunch {
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t smem;
    void **params;
    size_t n_params;
    bool bounded; /* host kernels: it ends without waiting for other work (no loop that could spin
                     on memory), so a device may run it on the thread that launches it */
} BeLaunch;

/* A kernel the host runs itself (the interpreter's kernels on the sim): it runs the whole grid and
 * reports every byte it touches with be_kernel_access. */
typedef void (*BeKernelFn)(BeKernelCtx *ctx, const BeLaunch *launch, void *user);

/* The backend table. Each entry takes the backend's own state first; the be_* functions below are
 * the only callers (they add tracing and argument checks common to all backends). */
typedef struct BeOps {
    const char *name;
    void (*close)(void *self, BeSummary *summary);
    size_t (*error_count)(void *self);
    size_t (*warning_count)(void *self);
    uint64_t (*stream_id)(void *self, BeStream s); /* for traces; 0 when not a stream */
    uint64_t (*event_id)(void *self, BeEvent e);
    /* for traces: the id of the buffer holding ptr (as in trace accesses) and ptr's offset in it;
     * 0 when the backend does not know the memory */
    uint64_t (*buffer_id)(void *self, const void *ptr, uint64_t *offset);
    BeStatus (*device_set)(void *self, int device, const char *loc);
    BeStatus (*device_sync)(void *self, const char *loc);
    /* The current device's architecture name (device_arch below); may be NULL. */
    BeStatus (*device_arch)(void *self, char *buf, size_t cap, const char *loc);
    BeStatus (*stream_create)(void *self, BeStream *out, const char *loc);
    BeStatus (*stream_destroy)(void *self, BeStream s, const char *loc);
    BeStatus (*stream_sync)(void *self, BeStream s, const char *loc);
    BeStatus (*stream_wait_event)(void *self, BeStream s, BeEvent e, const char *loc);
    BeStatus (*event_create)(void *self, BeEvent *out, const char *loc);
    BeStatus (*event_destroy)(void *self, BeEvent e, const char *loc);
    BeStatus (*event_record)(void *self, BeEvent e, BeStream s, const char *loc);
    BeStatus (*event_sync)(void *self, BeEvent e, const char *loc);
    BeStatus (*event_query)(void *self, BeEvent e, const char *loc);
    BeStatus (*mem_alloc)(void *self, size_t bytes, bool host_shared, BeStream s, void **out,
                          const char *loc);
    BeStatus (*mem_free)(void *self, void *ptr, BeStream s, const char *loc);
    BeStatus (*memcpy)(void *self, void *dst, const void *src, size_t bytes, BeStream s,
                       const char *loc);
    BeStatus (*memset)(void *self, void *dst, uint32_t value, unsigned width, size_t count,
                       BeStream s, const char *loc);
    BeStatus (*mem_register)(void *self, void *ptr, size_t bytes, const char *loc);
    BeStatus (*mem_unregister)(void *self, void *ptr, const char *loc);
    BeStatus (*host_add)(void *self, void *ptr, size_t bytes, const char *loc);
    BeStatus (*host_remove)(void *self, void *ptr, const char *loc);
    BeStatus (*host_access)(void *self, const void *addr, size_t bytes, bool is_write,
                            const char *loc);
    BeStatus (*module_load)(void *self, const void *data, size_t size, BeModule *out,
                            const char *loc);
    BeStatus (*module_unload)(void *self, BeModule m, const char *loc);
    BeStatus (*module_function)(void *self, BeModule m, const char *name, BeFunction *out,
                                const char *loc);
    BeStatus (*launch)(void *self, BeFunction f, const BeLaunch *launch, BeStream s,
                       const char *loc);
    BeStatus (*launch_host)(void *self, BeKernelFn fn, void *user, const BeLaunch *launch,
                            BeStream s, const char *loc);
    void (*report)(void *self, bool error, const char *kind, const char *loc, const char *message);
    /* From now on, leaks are neither reported nor counted (be_quiet_leaks). */
    void (*quiet_leaks)(void *self);
    /* A launch the device itself says failed (a driver's sticky kernel error, met at any call):
     * its loc, or NULL; may be NULL (be_failure then knows only be_launch_failed's). */
    const char *(*failure)(void *self);
    void (*stall)(void *self, BeStall *out); /* may be NULL: nothing to say */

    /* The token door (see "tokens" below). A driver backend (cuda.c) implements it with streams
     * and events: a token is an event plus the stream it was recorded on, taken from a small pool
     * of streams. An op with deps picks a pool stream (the first dep's, when that stream's last
     * op is that dep, so chains stay on one stream), issues cuStreamWaitEvent for every dep on
     * another stream, enqueues the op and records the token's event after it; a join enqueues
     * nothing but the waits and the record (a join of complete tokens is complete, no event); a
     * wait is cuEventSynchronize on each; alloc is cuMemAlloc plus a joined token; free
     * synchronizes the deps and calls cuMemFree. Release destroys the event (events can be
     * destroyed right after cuStreamWaitEvent). token_from_stream records an event on the
     * stream; stream_wait_token is cuStreamWaitEvent. */
    uint64_t (*token_id)(void *self, BeToken t); /* for traces: the token's op id; 0 when not a
                                                    live token */
    BeStatus (*token_memcpy)(void *self, void *dst, const void *src, size_t bytes,
                             const BeToken *deps, size_t ndeps, BeToken *out, const char *loc);
    BeStatus (*token_memset)(void *self, void *dst, uint32_t value, unsigned width, size_t count,
                             const BeToken *deps, size_t ndeps, BeToken *out, const char *loc);
    BeStatus (*token_alloc)(void *self, size_t bytes, bool host_shared, const BeToken *deps,
                            size_t ndeps, void **ptr, BeToken *out, const char *loc);
    BeStatus (*token_free)(void *self, void *ptr, const BeToken *deps, size_t ndeps, BeToken *out,
                           const char *loc);
    BeStatus (*token_launch_host)(void *self, BeKernelFn fn, void *user, const BeLaunch *launch,
                                  const BeToken *deps, size_t ndeps, BeToken *out, const char *loc);
    /* A kernel of a loaded module after deps (a driver backend: the interpreter's launches of
     * device code). May be NULL: be_token_launch then refuses the launch. */
    BeStatus (*token_launch)(void *self, BeFunction f, const BeLaunch *launch, const BeToken *deps,
                             size_t ndeps, BeToken *out, const char *loc);
    BeStatus (*token_join)(void *self, const BeToken *deps, size_t ndeps, BeToken *out,
                           const char *loc);
    BeStatus (*token_wait)(void *self, const BeToken *toks, size_t n, const char *loc);
    BeStatus (*token_retain)(void *self, BeToken t);
    BeStatus (*token_release)(void *self, BeToken t);
    BeStatus (*token_from_stream)(void *self, BeStream s, BeToken *out, const char *loc);
    BeStatus (*stream_wait_token)(void *self, BeStream s, BeToken t, const char *loc);
} BeOps;

/* ---- opening a device ------------------------------------------------------------------------ */

/* Opens backend `name` ("sim", "cuda" or "hip"; NULL means "sim"). opt may be NULL. On failure *out is
 * NULL and err (when not NULL) holds a message, e.g. that no CUDA driver or device was found. */
BeStatus be_open(const char *name, const BeOptions *opt, Backend **out, char *err, size_t errlen);
/* Waits for all work, reports leaks (warnings), frees the device; *summary (when not NULL) gets the
 * final counts, leaks and any deadlock found while draining included. */
void be_close(Backend *be, BeSummary *summary);
const char *be_name(const Backend *be);
size_t be_error_count(Backend *be);
size_t be_warning_count(Backend *be);
const char *be_status_name(BeStatus st);
/* Prints a diagnostic the way the project does: "LOC: error: MESSAGE [kind]" (no [kind] for a
 * plain "error"), then "LOC2: note: ..." lines for the other party and the allocation. prefix
 * (e.g. "mgpusim") goes first when not NULL. */
void be_diag_print(FILE *out, const char *prefix, const BeDiag *diag);
/* The words of the note at a diagnostic's other site (loc2), by its kind ("race", ...). */
const char *be_diag_other_note(const char *kind);
/* Reports a diagnostic found by a layer above (e.g. the ABI) through the backend's sink, counted
 * like the backend's own. */
void be_report(Backend *be, bool error, const char *kind, const char *loc, const char *message);

/* Sticky launch failures, as CUDA's: a kernel that failed while it ran (its other blocks need
 * not run), or a launch the device could not run at all (a device binary on the sim), fails the
 * device; every synchronization after that (a stream or event sync, a synchronous gpu op, a host
 * wait) ends the program: mgpu.c and interp/ stop there (docs/design.md). be_launch_failed may be
 * called from any thread (a kernel's worker); the first launch's loc is kept. A launch the
 * backend's driver refused (BE_ERR_DRIVER) or cannot run (BE_ERR_UNSUPPORTED) fails the same way,
 * as does a driver's sticky kernel error returned by any later call (BeOps.failure). be_failure:
 * that loc, or NULL while no launch failed. */
void be_launch_failed(Backend *be, const char *loc);
const char *be_failure(Backend *be);
/* The program ended early, on an error, before it could free what it made: be_close then
 * reports no leaks. */
void be_quiet_leaks(Backend *be);

/* ---- devices, streams, events ---------------------------------------------------------------- */

BeStatus be_device_set(Backend *be, int device, const char *loc);
BeStatus be_device_sync(Backend *be, const char *loc);
/* The current device's architecture as its driver names it: HIP's gcnArchName
 * ("gfx90a:sramecc+:xnack-"), what a code object for it is compiled for. BE_ERR_UNSUPPORTED
 * (reporting nothing) where the backend has no such name (sim, cuda); a failed driver call is
 * reported at loc. */
BeStatus be_device_arch(Backend *be, char *buf, size_t cap, const char *loc);
BeStatus be_stream_create(Backend *be, BeStream *out, const char *loc);
BeStatus be_stream_destroy(Backend *be, BeStream s, const char *loc);
BeStatus be_stream_sync(Backend *be, BeStream s, const char *loc);
BeStatus be_stream_wait_event(Backend *be, BeStream s, BeEvent e, const char *loc);
BeStatus be_event_create(Backend *be, BeEvent *out, const char *loc);
BeStatus be_event_destroy(Backend *be, BeEvent e, const char *loc);
BeStatus be_event_record(Backend *be, BeEvent e, BeStream s, const char *loc);
BeStatus be_event_sync(Backend *be, BeEvent e, const char *loc);
BeStatus be_event_query(Backend *be, BeEvent e, const char *loc);

/* ---- memory ---------------------------------------------------------------------------------- */

/* *out = NULL for 0 bytes, as mgpuMemAlloc. host_shared: memory both host and device may touch. */
BeStatus be_mem_alloc(Backend *be, size_t bytes, bool host_shared, BeStream s, void **out,
                      const char *loc);
/* Stream-ordered: frees after the work already on s (NULL is ignored). Work on other streams that
 * nothing orders before the free is a use-after-free race; the host is not ordered after s. */
BeStatus be_mem_free(Backend *be, void *ptr, BeStream s, const char *loc);
BeStatus be_memcpy(Backend *be, void *dst, const void *src, size_t bytes, BeStream s,
                   const char *loc);
/* count elements of width 1, 2 or 4 bytes set to the low bytes of value. */
BeStatus be_memset(Backend *be, void *dst, uint32_t value, unsigned width, size_t count, BeStream s,
                   const char *loc);
BeStatus be_mem_register(Backend *be, void *ptr, size_t bytes, const char *loc);
BeStatus be_mem_unregister(Backend *be, void *ptr, const char *loc);
/* Host memory the interpreter allocated, made known so copies to it are checked and race-tracked. */
BeStatus be_host_add(Backend *be, void *ptr, size_t bytes, const char *loc);
BeStatus be_host_remove(Backend *be, void *ptr, const char *loc);
/* A host load or store the interpreter is about to perform; BE_ERR_MEMORY: do not perform it. */
BeStatus be_host_access(Backend *be, const void *addr, size_t bytes, bool is_write, const char *loc);

/* Why a host stopped by a bound (gpuinterp --max-steps, --timeout) without a wait may have been
 * stuck: under a scheduler that runs device work only when the host submits, waits or queries
 * (the sim's serial and random), the work submitted and not done, and whether the host loaded
 * memory the device can reach since it last did one of those. sched NULL: the device runs work
 * on its own (threads), or cannot say. */
struct BeStall {
    const char *sched;     /* "serial", "random" or NULL */
    size_t pending;
    const char *first_loc; /* the oldest pending op */
    bool polled;
};
void be_stall(Backend *be, BeStall *out);

/* ---- modules and launches -------------------------------------------------------------------- */

/* What a device binary handed to a module load is, told from its first bytes: PTX text (blank
 * space and comments, then `.version`), an ELF file (a cubin when its machine is EM_CUDA, an AMD
 * code object when EM_AMDGPU), a fat binary (its own magic 0xBA55ED50, or the 0x466243B1 of the
 * wrapper nvcc embeds), LLVM bitcode, or none of these. */
typedef enum {
    BE_BLOB_EMPTY,
    BE_BLOB_PTX,
    BE_BLOB_CUBIN,
    BE_BLOB_HSACO,
    BE_BLOB_ELF,
    BE_BLOB_FATBIN,
    BE_BLOB_BITCODE,
    BE_BLOB_OTHER,
} BeBlobKind;
BeBlobKind be_blob_kind(const void *data, size_t size);
/* "PTX", "cubin (SASS)", "fatbinary (SASS)", ... for messages */
const char *be_blob_kind_name(BeBlobKind k);
/* What to do instead of handing the sim SASS (a cubin or fatbinary): the advice every message
 * about one ends with. */
#define BE_BLOB_USE_PTX                                                                          \
    "compile with -gpu-lower-to-nvvm-pipeline=\"cubin-format=isa\" (or gpu-module-to-binary "  \
    "format=isa) to get PTX"

/* What an AMD code object (BE_BLOB_HSACO) says of its kernels (backends/hsaco.c): its chip, each
 * kernel of its metadata note (amdhsa.kernels) with its arguments, the kernel descriptors it
 * defines (`NAME.kd`) and the symbols it leaves undefined. */
typedef struct BeHsacoArg {
    uint32_t offset, size;
    bool hidden;  /* a hidden_* argument: the runtime fills it, a launch does not pass it */
    bool pointer; /* global_buffer (or dynamic_shared_pointer) */
} BeHsacoArg;
typedef struct BeHsacoKernel {
    char name[128], symbol[136];
    uint32_t max_flat; /* .max_flat_workgroup_size; 0 when not given */
    uint32_t nargs;
    BeHsacoArg *args;
} BeHsacoKernel;
typedef struct BeHsaco {
    char target[96]; /* amdhsa.target: "amdgcn-amd-amdhsa--gfx90a" */
    BeHsacoKernel *kernels;
    uint32_t nkernels;
    char **kds, **undefined;
    uint32_t nkds, nundefined;
} BeHsaco;
/* The code object of size bytes at data, or NULL with err saying what it is not. */
BeHsaco *be_hsaco_read(const void *data, size_t size, char *err, size_t errlen);
const BeHsacoKernel *be_hsaco_kernel(const BeHsaco *h, const char *name); /* NULL: no such kernel */
bool be_hsaco_has_kd(const BeHsaco *h, const char *name);                  /* defines `name.kd` */
void be_hsaco_free(BeHsaco *h);
/* The bytes an AMDGPU ELF file's headers say it spans (0 when data is no such ELF): what a runtime
 * given no size (hipModuleLoadData) reads. */
size_t be_hsaco_extent(const void *data);

/* Loads a device binary (cubin, PTX, HSACO). The sim cannot run those: it reports what the binary
 * is (be_blob_kind; for SASS, that only PTX can ever run) and returns BE_ERR_UNSUPPORTED, yet
 * still a module handle, so the
 * program goes on: functions can be looked up, and each launch of one is reported once and skipped
 * (still ordered on its stream like the launch). A skipped launch is a failed launch
 * (be_launch_failed): the program ends at its next synchronization. */
BeStatus be_module_load(Backend *be, const void *data, size_t size, BeModule *out, const char *loc);
BeStatus be_module_unload(Backend *be, BeModule m, const char *loc);
BeStatus be_module_function(Backend *be, BeModule m, const char *name, BeFunction *out,
                            const char *loc);
BeStatus be_launch(Backend *be, BeFunction f, const BeLaunch *launch, BeStream s, const char *loc);
/* Runs fn as a kernel op on stream s (the sim only). */
BeStatus be_launch_host(Backend *be, BeKernelFn fn, void *user, const BeLaunch *launch, BeStream s,
                        const char *loc);

/* ---- tokens: the high-level door (gpu.* async ops) -------------------------------------------
 *
 * What the interpreter runs `gpu.wait`, `gpu.memcpy`, `gpu.memset`, `gpu.alloc`, `gpu.dealloc` and
 * `gpu.launch_func` with, without lowering them to streams: an async op is submitted with the
 * tokens it depends on, and its token is the op. Nothing else orders it: two token ops that no
 * chain of deps (or host wait) orders may run at once, and conflicting accesses between them are
 * races, reported with both ops' locs.
 *
 * A BeToken is a counted reference to an op. Each call that makes one gives the caller one
 * reference; be_token_retain adds one, be_token_release drops one, and the handle is dead once
 * the last is gone (a later use is reported as a use after release). Holding a token costs a
 * table slot, nothing more: the op runs and completes whether or not anyone holds it.
 *
 * deps: ndeps tokens the op waits for; NULL entries are skipped (deps may be NULL when ndeps is
 * 0). A dep that is not a live token (a stream, an event, a released token, ...) is reported by
 * what it is and skipped; the call then returns BE_ERR_HANDLE yet still makes its op.
 *
 * *tok: the new token. As with the sim's ops, a call that fails after its arguments were read
 * (bad dep, copy outside any allocation, bad width) still gives a token that orders like the op
 * would have (a no-op in its place), so the program can go on; release it as usual. *tok is NULL
 * only when no op could be made at all (out of memory).
 *
 * Threads: as for the rest of the API, one host thread; besides, a host kernel's callback may call
 * be_token_wait (it helps run other work while it waits; waiting for a token that depends on the
 * kernel itself is a deadlock, reported). A token must not be released while another thread
 * still uses it.
 *
 * Traces: every call below except retain/release is a call event, named token_*, whose detail
 * names the tokens as "op N" (the op's id in the trace) and the new token after "->"; the op's
 * enqueue/start/end and its "dep" edges follow from the device. Retain and release are not
 * traced: they follow the interpreter's value lifetimes, which the lowered program does not have.
 */

BeStatus be_token_memcpy(Backend *be, void *dst, const void *src, size_t bytes, const BeToken *deps,
                         size_t ndeps, BeToken *tok, const char *loc);
/* count elements of width 1, 2 or 4 bytes, as be_memset. */
BeStatus be_token_memset(Backend *be, void *dst, uint32_t value, unsigned width, size_t count,
                         const BeToken *deps, size_t ndeps, BeToken *tok, const char *loc);
/* The memory exists at once, as with cuMemAlloc (*ptr = NULL for 0 bytes); the token is a no-op
 * ordered after deps, so `gpu.alloc async [%t]` orders what follows it like upstream does. */
BeStatus be_token_alloc(Backend *be, size_t bytes, bool host_shared, const BeToken *deps,
                        size_t ndeps, void **ptr, BeToken *tok, const char *loc);
/* Frees ptr once deps completed (NULL ptr: only the token). A token op that uses the memory and
 * is not ordered before the free is a use-after-free race. The host is not ordered after deps
 * (nor is anything that does not wait for tok): on the sim it waits for deps before it frees,
 * but that wait is no happens-before edge. */
BeStatus be_token_free(Backend *be, void *ptr, const BeToken *deps, size_t ndeps, BeToken *tok,
                       const char *loc);
/* Runs fn as a kernel op after deps (the interpreter's kernels; the sim only). */
BeStatus be_token_launch_host(Backend *be, BeKernelFn fn, void *user, const BeLaunch *launch,
                              const BeToken *deps, size_t ndeps, BeToken *tok, const char *loc);
/* Runs kernel f of a loaded module (be_module_function) after deps, its arguments in
 * launch->params as be_launch takes them: how the interpreter runs its launches on a device that
 * runs device code (cuda). A backend without it (the sim) refuses the launch (a failed launch),
 * and the token orders like the launch would have. */
BeStatus be_token_launch(Backend *be, BeFunction f, const BeLaunch *launch, const BeToken *deps,
                         size_t ndeps, BeToken *tok, const char *loc);
/* Whether the device runs host kernels (be_launch_host): the sim does; a GPU runs device code
 * only (be_module_load, be_launch, be_token_launch). */
bool be_runs_host_kernels(const Backend *be);
/* `gpu.wait async [deps]`: a no-op that completes when every dep did. With no (non-NULL) deps it
 * waits for nothing: a wait for it returns at once. */
BeStatus be_token_join(Backend *be, const BeToken *deps, size_t ndeps, BeToken *tok,
                       const char *loc);
/* `gpu.wait [toks]`: blocks the host until every token's op completed (NULL entries skipped), and
 * orders the host after them. A wait that can never complete (a kernel waiting for a token that
 * waits for that kernel) returns BE_ERR_DEADLOCK after a diagnostic instead of hanging. */
BeStatus be_token_wait(Backend *be, const BeToken *toks, size_t n, const char *loc);
/* One more reference to tok (NULL is ignored); BE_ERR_HANDLE (reported) when tok is not a live
 * token. */
BeStatus be_token_retain(Backend *be, BeToken tok);
/* Drops one reference (NULL is ignored); BE_ERR_HANDLE (reported) when tok is not a live token. */
BeStatus be_token_release(Backend *be, BeToken tok);
/* Interop with the stream door, for `gpu.launch_func <%stream : !llvm.ptr>` mixed with tokens:
 * a token for all the work on s so far (a complete one when s never had work), and making the
 * next op on s wait for tok (NULL tok: nothing to wait for). */
BeStatus be_token_from_stream(Backend *be, BeStream s, BeToken *tok, const char *loc);
BeStatus be_stream_wait_token(Backend *be, BeStream s, BeToken tok, const char *loc);

/* ---- inside a host kernel -------------------------------------------------------------------- */

/* Records that the running kernel reads or writes [addr, addr+bytes); BE_ERR_MEMORY (after a
 * diagnostic) when it must not perform the access. */
BeStatus be_kernel_access(BeKernelCtx *ctx, const void *addr, size_t bytes, bool is_write,
                          const char *loc);
/* What a kernel's access does: an atomic read-modify-write reads and writes, and does not race
 * with other atomics. */
typedef enum BeAccess { BE_ACC_READ, BE_ACC_WRITE, BE_ACC_ATOMIC } BeAccess;
/* be_kernel_access with the access's kind. */
BeStatus be_kernel_access_kind(BeKernelCtx *ctx, const void *addr, size_t bytes, BeAccess kind,
                               const char *loc);
/* The race rule (the simulator's, sim_access_conflict): two accesses of the same bytes that
 * nothing orders race when at least one writes, unless both are atomic. */
bool be_access_conflict(BeAccess a, BeAccess b);
/* Checks an access before the kernel performs it, recording nothing: BE_OK when [addr,
 * addr+bytes) is memory the device knows (allocated, or host memory it was told about) and the
 * kernel may touch; BE_ERR_MEMORY after a diagnostic when it is outside or past such memory;
 * BE_ERR_ARG, reporting nothing, when it is near none. For pointers whose bounds the kernel
 * cannot know. */
BeStatus be_kernel_access_check(BeKernelCtx *ctx, const void *addr, size_t bytes, bool is_write,
                                const char *loc);
/* Whether be_kernel_access_check would pass [addr, addr+bytes) for an access within one allocation;
 * reports nothing. False tells nothing: the caller checks its accesses one by one. */
bool be_kernel_access_probe(BeKernelCtx *ctx, const void *addr, size_t bytes);
/* Runs fn(ctx_i, i, user) for i in [0, n), possibly on several workers (e.g. one per block). */
typedef void (*BeForFn)(BeKernelCtx *ctx, size_t i, void *user);
BeStatus be_kernel_parallel_for(BeKernelCtx *ctx, size_t n, BeForFn fn, void *user);

/* Names, in traces, the calls this thread makes next and the ops they enqueue: `name` is what the
 * caller runs, as MLIR names it ("gpu.memcpy", "gpu.launch_func @kernels::@vadd", "llvm.call
 * @mgpuMemcpy"; libmgpusim.so: the C function, "mgpuMemcpy"), shown instead of the backend's own
 * call names ("memcpy", "token_memcpy") and op kinds ("memcpy", "marker", "kernel"). It holds
 * until the next be_trace_label on this thread; NULL goes back to the backend's names. The string
 * is not copied: it must live until it is replaced. A thread-local store, whether or not a trace
 * is recorded. */
void be_trace_label(const char *name);
/* This thread's label, or NULL. For the adapters' trace observers. */
const char *be_trace_label_now(void);

/* ---- backend constructors (one per adapter file) ------------------------------------------- */

/* Create an adapter's state and table. Only be_open calls them. */
BeStatus be_sim_create(const BeOptions *opt, const BeOps **ops, void **self, char *err, size_t errlen);
BeStatus be_cuda_create(const BeOptions *opt, const BeOps **ops, void **self, char *err, size_t errlen);
BeStatus be_hip_create(const BeOptions *opt, const BeOps **ops, void **self, char *err, size_t errlen);

#endif
