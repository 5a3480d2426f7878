/* sim.h - the CPU device: an op graph executor with streams, events, memory and checks.
 *
 * The simulator runs "device work" on the host's CPUs. Everything is an op in one graph:
 * a memcpy, a memset, a kernel (a callback that runs the grid), a host callback, a marker (does
 * nothing, only orders), or a gate (completes when the host opens it). An op lists the ops it must
 * wait for and runs once they completed. Two front doors build that graph:
 *
 *   tokens   sim_submit(dev, &desc, deps, ndeps, &op)   the op is the token; sim_host_wait()
 *            blocks the host on tokens. This is what the interpreter uses for gpu.* async ops.
 *   streams  sim_stream_submit(dev, stream, &desc)       a stream remembers its last op and each new
 *            op depends on it; events snapshot a stream's last op (CUDA semantics, see below).
 *            This is what the mgpu* ABI uses.
 *
 * The host is a chain of segments: every submit and every wait is an edge of the graph. The sim
 * keeps vector clocks over that graph and records the bytes each op and each host access touched;
 * two conflicting accesses that no path of the graph orders are a data race, whatever schedule ran.
 *
 * Handles. Streams and events are small tagged values (SimStream, SimEvent), not pointers: the sim
 * decodes the tag before it looks anything up, so a stream passed where an event is expected, an
 * event used after destroy, a double destroy or a random pointer each give a diagnostic that says
 * what the handle was, and never crash. A NULL stream is the device's default stream. Ops (SimOp *)
 * are pointers owned by the device; the token front door holds one reference per returned op
 * until sim_op_release().
 *
 * Locations. Every call takes `loc`, a string that names the caller in diagnostics and traces:
 * "prog.mlir:12:5", or the ABI function name ("mgpuStreamWaitEvent"). The sim keeps the pointer,
 * not a copy: loc strings must live until sim_destroy() (string literals and IR-arena strings do).
 * A NULL loc reads as "?".
 *
 * Errors are values. Bad input returns a SimStatus other than SIM_OK and delivers a SimDiag to the
 * sink; the sim never aborts on it and goes on where it safely can (a copy outside any allocation
 * becomes a no-op that still orders like the copy would have). A diagnostic repeated word for word
 * (a race inside a loop) reaches the sink once. The sink and the observer are called
 * one at a time (never concurrently), from any thread, with the device's lock held: they must not
 * call back into the sim.
 *
 * Threads. The host API may be called from one host thread at a time (the interpreter's host), and
 * from callbacks running inside ops (sim_host_wait from a callback helps run other ops while it
 * waits). sim_access() is called from inside a kernel callback with that kernel's ctx.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct SimDevice SimDevice;
typedef struct SimOp SimOp;
typedef struct SimCtx SimCtx;                /* what a kernel / host callback gets while it runs */
typedef struct SimStreamTag *SimStream;      /* tagged handle value, never dereferenced */
typedef struct SimEventTag *SimEvent;        /* tagged handle value, never dereferenced */

typedef enum SimStatus {
  SIM_OK = 0,
  SIM_NOT_READY,        /* sim_event_query / sim_op_query: the work has not completed yet */
  SIM_ERR_HANDLE,       /* wrong kind, unknown, destroyed or double-destroyed handle */
  SIM_ERR_MEMORY,       /* pointer outside any allocation, overlapping copy, bad free, host access to
                           device memory, out of memory */
  SIM_ERR_DEADLOCK,     /* a wait that can never complete; the wait returned without it */
  SIM_ERR_ARG,          /* NULL device, bad size or width, ... */
} SimStatus;

typedef enum SimSched {
  SIM_SCHED_THREADS = 0, /* worker pool, ops run in parallel (default) */
  SIM_SCHED_SERIAL,      /* no workers; a ready op runs at once on the submitting thread, in submit
                            order, one at a time (like CUDA_LAUNCH_BLOCKING=1): deterministic */
  SIM_SCHED_RANDOM,      /* no workers; ready ops wait and run in a seeded random order when the host
                            waits (and now and then at a submit): deterministic for one seed */
} SimSched;

/* ---- diagnostics ----------------------------------------------------------------------------- */

typedef enum SimSeverity { SIM_SEV_ERROR, SIM_SEV_WARNING } SimSeverity;

typedef enum SimDiagKind {
  SIM_DIAG_RACE,        /* conflicting accesses not ordered by happens-before (incl. use-after-free) */
  SIM_DIAG_MISUSE,      /* bad handle, bad free, host access to device memory, overlapping copy, ... */
  SIM_DIAG_OOB,         /* access outside any allocation */
  SIM_DIAG_UNINIT,      /* device memory read before anything wrote it */
  SIM_DIAG_DEADLOCK,    /* a wait that can never complete */
  SIM_DIAG_LEAK,        /* stream, event, allocation or registration still alive at sim_destroy */
  SIM_DIAG_OTHER,       /* reported by a layer above through sim_diag_report */
} SimDiagKind;

typedef enum SimRaceKind { SIM_RACE_NONE, SIM_RACE_WRITE_WRITE, SIM_RACE_READ_WRITE,
                           SIM_RACE_USE_AFTER_FREE } SimRaceKind;

typedef struct SimDiag {
  SimSeverity severity;
  SimDiagKind kind;
  SimRaceKind race;      /* races only */
  const char *loc;       /* the call or op the diagnostic is about */
  const char *loc2;      /* the other party: the other op of a race, where a handle was created or
                            destroyed, the free of a use-after-free, the gate of a deadlock; or NULL */
  const char *alloc_loc; /* where the allocation involved was made, or NULL */
  uint64_t op, op2;      /* op ids of loc and loc2 (0: the host, or no op) */
  size_t offset, bytes;  /* byte range involved, as an offset into the allocation */
  const char *message;   /* full sentence, without the loc prefix; valid during the sink call only */
} SimDiag;

typedef void (*SimSinkFn)(const SimDiag *diag, void *user);

/* ---- observer (traces) ------------------------------------------------------------------------ */

typedef enum SimOpKind {
  SIM_OP_MARKER,    /* nothing; orders only */
  SIM_OP_MEMCPY,    /* dst <- src, bytes */
  SIM_OP_MEMSET,    /* dst <- value repeated, width 1, 2 or 4 bytes, `bytes` in total */
  SIM_OP_KERNEL,    /* fn(ctx, user) runs the grid; it reports touched bytes with sim_access */
  SIM_OP_HOST,      /* fn(ctx, user): a host function in the stream (cuLaunchHostFunc) */
  SIM_OP_GATE,      /* completes when sim_gate_open() is called */
} SimOpKind;

typedef enum SimObsKind {
  SIM_OBS_API,      /* a host API call: name, loc, stream/event ids in stream and other */
  SIM_OBS_ENQUEUE,  /* op submitted: op, stream, opkind, loc, dst/src/bytes */
  SIM_OBS_DEP,      /* edge other -> op (other is the op waited for); name says why:
                       "dep", "stream", "event" */
  SIM_OBS_START,    /* op started on worker `worker` */
  SIM_OBS_END,      /* op completed */
  SIM_OBS_HOST_WAIT,/* edge op -> host: the host waited for `op` (name: "wait", "stream", "event",
                       "device") */
  SIM_OBS_DIAG,     /* a diagnostic was reported (diag) */
} SimObsKind;

typedef struct SimObsAccess {
  uintptr_t addr;
  size_t bytes;
  bool write;
  bool atomic;          /* an atomic read-modify-write (write is set too) */
} SimObsAccess;

typedef struct SimObs {
  SimObsKind kind;
  uint64_t op;          /* op id (1, 2, ...), 0 for none */
  uint64_t other;       /* second op id for edges, or an event id for SIM_OBS_API */
  uint64_t stream;      /* stream id (1 = default stream), 0 for token ops */
  SimOpKind opkind;
  const char *name;     /* API name ("stream_create", "event_record", ...) or edge reason */
  const char *loc;
  uintptr_t dst, src;   /* enqueue: addresses */
  size_t bytes;
  int worker;           /* start/end: worker index, -1 for the host thread */
  uint64_t time_ns;     /* CLOCK_MONOTONIC, since sim_create */
  const SimDiag *diag;  /* SIM_OBS_DIAG */
  const SimObsAccess *acc; /* SIM_OBS_END of a kernel or host op: the byte ranges it touched
                              (merged; valid during the call only) */
  size_t nacc;
} SimObs;

typedef void (*SimObserverFn)(const SimObs *ev, void *user);

/* ---- device ---------------------------------------------------------------------------------- */

typedef struct SimConfig {
  int workers;             /* threads scheduler: worker threads; 0 = number of CPUs - 1 (the host
                              thread runs ops too while it waits), at least 1 */
  SimSched sched;
  uint64_t seed;           /* SIM_SCHED_RANDOM */
  bool no_race_check;      /* turn happens-before and race detection off */
  bool strict_host;        /* copies from/to host memory the sim was not told about are errors;
                              otherwise such memory is untracked and unchecked */
  size_t inline_bytes;     /* threads scheduler: a ready marker, memcpy or memset of up to this many
                              bytes runs on the submitting thread (0: default 4096) */
  bool no_inline;          /* threads scheduler: every op goes to a worker */
  size_t device_bytes;     /* device + host-shared memory size (0: 64 GiB of address space, only
                              touched pages cost memory) */
  SimSinkFn sink;          /* NULL: print "LOC: error: MESSAGE" to stderr */
  void *sink_user;
  SimObserverFn observer;  /* NULL: none */
  void *observer_user;
} SimConfig;

/* Parse a scheduler spec "threads", "serial", "random:SEED" into cfg; SIM_ERR_ARG if malformed. */
SimStatus sim_sched_parse(const char *spec, SimConfig *cfg);

/* cfg may be NULL (defaults). Returns NULL only when out of memory or threads can't start. */
SimDevice *sim_create(const SimConfig *cfg);
/* Waits for all work (reporting a deadlock if some can never run, then running it anyway),
   reports leaked streams, events, allocations and registrations as warnings, frees everything. */
void sim_destroy(SimDevice *dev);

size_t sim_error_count(const SimDevice *dev);
size_t sim_warning_count(const SimDevice *dev);

/* Report a diagnostic from a layer above (interp: divergent barrier, ...) through the same sink,
   counted like the sim's own. */
void sim_diag_report(SimDevice *dev, SimSeverity sev, SimDiagKind kind, const char *loc,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- ops -------------------------------------------------------------------------------------- */

typedef void (*SimOpFn)(SimCtx *ctx, void *user);

/* What to run. Designated initializers read well:
     (SimOpDesc){.kind = SIM_OP_MEMCPY, .dst = d, .src = s, .bytes = n, .loc = "prog.mlir:3:7"} */
typedef struct SimOpDesc {
  SimOpKind kind;
  const char *loc;
  void *dst;                /* memcpy, memset */
  const void *src;          /* memcpy */
  size_t bytes;             /* memcpy, memset: total bytes (a multiple of width for memset) */
  uint32_t value;           /* memset: the pattern, low `width` bytes */
  unsigned width;           /* memset: 1, 2 or 4 (0 reads as 1) */
  SimOpFn fn;               /* kernel, host */
  void *user;               /* kernel, host: passed to fn */
  void (*release)(void *user); /* optional: called once the op is done with user (after fn ran,
                                  or when the op was dropped) */
  bool bounded;             /* kernel: fn ends without waiting for other work (no loop that could
                               spin on memory), so the threads scheduler may run it on the thread
                               that submits it when nothing else runs */
} SimOpDesc;

/* Token front door: submit an op that runs after every op in deps (NULL entries are skipped).
   *out gets the op (one reference, drop it with sim_op_release) even when the op was refused:
   then it is a marker ordered like the op would have been, and the status says why. */
SimStatus sim_submit(SimDevice *dev, const SimOpDesc *desc, SimOp *const *deps, size_t ndeps,
                     SimOp **out);
void sim_op_release(SimDevice *dev, SimOp *op);
SimOp *sim_op_retain(SimDevice *dev, SimOp *op);
uint64_t sim_op_id(const SimOp *op);
/* SIM_OK when op completed, SIM_NOT_READY otherwise (may run a ready op to make progress). */
SimStatus sim_op_query(SimDevice *dev, SimOp *op);
/* Block the host until every op in ops completed (NULL entries skipped). Adds the edges op -> host.
   SIM_ERR_DEADLOCK (and a diagnostic naming the gate) when some op can never complete. */
SimStatus sim_host_wait(SimDevice *dev, SimOp *const *ops, size_t n, const char *loc);
/* Complete a SIM_OP_GATE op. */
SimStatus sim_gate_open(SimDevice *dev, SimOp *gate, const char *loc);
/* Block the host until everything submitted so far completed (cuCtxSynchronize). */
SimStatus sim_device_sync(SimDevice *dev, const char *loc);

/* ---- streams and events (CUDA semantics) ------------------------------------------------------ */

SimStatus sim_stream_create(SimDevice *dev, SimStream *out, const char *loc);
/* Work already on the stream still runs; the handle is dead at once. */
SimStatus sim_stream_destroy(SimDevice *dev, SimStream s, const char *loc);
/* Submit desc as the stream's next op: it depends on the stream's last op and on every event
   snapshot waited for since. op, when not NULL, gets a new reference to the op. */
SimStatus sim_stream_submit(SimDevice *dev, SimStream s, const SimOpDesc *desc, SimOp **op);
SimStatus sim_stream_sync(SimDevice *dev, SimStream s, const char *loc);
/* SIM_OK when all work on s completed, SIM_NOT_READY otherwise. */
SimStatus sim_stream_query(SimDevice *dev, SimStream s, const char *loc);
/* Make every later op on s wait for e's current snapshot (no-op if e was never recorded). */
SimStatus sim_stream_wait_event(SimDevice *dev, SimStream s, SimEvent e, const char *loc);
/* Ops of the token front door can join a stream too: the stream's next op waits for op. */
SimStatus sim_stream_wait_op(SimDevice *dev, SimStream s, SimOp *op, const char *loc);
/* The stream's current last op (with its pending waits folded in), with a new reference; NULL if
   the stream has never had work. Lets a token stand for "everything on s so far". */
SimStatus sim_stream_last_op(SimDevice *dev, SimStream s, SimOp **out, const char *loc);

SimStatus sim_event_create(SimDevice *dev, SimEvent *out, const char *loc);
SimStatus sim_event_destroy(SimDevice *dev, SimEvent e, const char *loc);
/* Snapshot s's current work into e (a new generation; earlier waits keep the old snapshot). */
SimStatus sim_event_record(SimDevice *dev, SimEvent e, SimStream s, const char *loc);
SimStatus sim_event_sync(SimDevice *dev, SimEvent e, const char *loc);
/* SIM_OK when e's snapshot completed or e was never recorded, SIM_NOT_READY otherwise. */
SimStatus sim_event_query(SimDevice *dev, SimEvent e, const char *loc);

uint64_t sim_stream_id(SimStream s);  /* 1 = default stream, 0 if s is not a stream handle */
uint64_t sim_event_id(SimEvent e);    /* 0 if e is not an event handle */

/* ---- memory ----------------------------------------------------------------------------------- */

typedef enum SimMemKind {
  SIM_MEM_DEVICE = 1,      /* device-only: host loads/stores are errors; starts undefined */
  SIM_MEM_HOST_SHARED = 2, /* managed / host-shared: host and device; starts undefined */
  SIM_MEM_HOST_REGISTERED = 3, /* user memory made visible with sim_mem_register */
  SIM_MEM_HOST_PAGEABLE = 4,   /* ordinary host memory the interpreter tells about (memcpy ok,
                                  kernels may not touch it) */
} SimMemKind;

/* Allocate bytes of device or host-shared memory. *out = NULL for 0 bytes (as mgpuMemAlloc). */
SimStatus sim_mem_alloc(SimDevice *dev, size_t bytes, SimMemKind kind, void **out, const char *loc);
/* Free now (host-ordered). An op that may still use the memory (not ordered before this free) is
   a use-after-free race; the memory stays mapped until such ops are done, so nothing crashes. */
SimStatus sim_mem_free(SimDevice *dev, void *ptr, const char *loc);
/* Free now, ordered after op as well (NULL: as sim_mem_free), as a free that waits for op (a token;
   a stream's last op): ordered after op and after the host's calls so far, but the host is not
   ordered after op. Blocks until op completed, yet that wait is no happens-before edge: the host
   and later ops are ordered after op only by waiting for it. Returns SIM_ERR_DEADLOCK, after
   freeing, when op can never complete. */
SimStatus sim_mem_free_after(SimDevice *dev, void *ptr, SimOp *op, const char *loc);
SimStatus sim_mem_register(SimDevice *dev, void *ptr, size_t bytes, const char *loc);
SimStatus sim_mem_unregister(SimDevice *dev, void *ptr, const char *loc);
/* Tell the sim about host memory the interpreter allocated (checked, race-tracked, never leaks). */
SimStatus sim_mem_host_add(SimDevice *dev, void *ptr, size_t bytes, const char *loc);
SimStatus sim_mem_host_remove(SimDevice *dev, void *ptr, const char *loc);
/* A host load (is_write false) or store of [addr, addr+bytes): checked against the table (host
   access to SIM_MEM_DEVICE is an error; untracked memory is accepted) and recorded for races.
   Returns SIM_ERR_MEMORY when the access must not be performed. */
SimStatus sim_host_access(SimDevice *dev, const void *addr, size_t bytes, bool is_write,
                          const char *loc);

/* Why a host that stopped without waiting (gpuinterp --max-steps, --timeout) may have been stuck.
   Under the lazy schedulers (serial, random) device work runs only on the host's thread, when the
   host submits, waits or queries: a host that polls memory instead can never see it done. */
typedef struct SimStall {
  SimSched sched;
  size_t pending;         /* lazy schedulers: ops submitted and not done; 0 under threads */
  const char *first_loc;  /* the oldest of them */
  bool polled;            /* the host loaded tracked memory since its last submit, wait or query */
} SimStall;
void sim_host_stall(SimDevice *dev, SimStall *out);

/* ---- inside a running kernel or host callback ------------------------------------------------ */

/* Record that the running op read or wrote [addr, addr+bytes). Returns SIM_ERR_MEMORY (after a
   diagnostic) when the access is outside any allocation the device may touch: the caller must then
   not perform it. Cheap: consecutive accesses to one allocation take no lock. */
SimStatus sim_access(SimCtx *ctx, const void *addr, size_t bytes, bool is_write, const char *loc);
/* What an access does to the bytes it touches. An atomic read-modify-write (memref.atomic_rmw,
   llvm.atomicrmw, llvm.cmpxchg) reads and writes, but atomics do not race with each other. */
typedef enum SimAccess { SIM_ACC_READ, SIM_ACC_WRITE, SIM_ACC_ATOMIC } SimAccess;
/* The race rule: do two accesses of the same bytes that nothing orders race? Yes when at least one
   of them writes, unless both are atomic (as on a GPU). A free counts as a plain write. */
bool sim_access_conflict(SimAccess a, SimAccess b);
/* sim_access with the access's kind: SIM_ACC_ATOMIC for an atomic (recorded as a write that does
   not race with other atomics). */
SimStatus sim_access_kind(SimCtx *ctx, const void *addr, size_t bytes, SimAccess kind, const char *loc);
/* Whether [addr, addr+bytes) lies in an allocation the device knows (host memory it was not told
   about does not count here, whatever strict_host says) that the running op may touch: SIM_OK;
   SIM_ERR_MEMORY after a diagnostic when the access is outside or past an allocation the device
   knows, or one the op may not touch; SIM_ERR_ARG, reporting nothing, when no allocation is near
   (the caller reports). Records nothing (sim_access records). */
SimStatus sim_access_check(SimCtx *ctx, const void *addr, size_t bytes, bool is_write, const char *loc);
/* Whether [addr, addr+bytes) lies in one allocation the running op may touch, as sim_access_check
 * would let it pass; reports and records nothing (a kernel asks it of a span of many accesses
 * before checking them one by one). */
bool sim_access_probe(SimCtx *ctx, const void *addr, size_t bytes);
SimDevice *sim_ctx_device(SimCtx *ctx);
uint64_t sim_ctx_op_id(const SimCtx *ctx);
int sim_ctx_worker(const SimCtx *ctx);   /* worker index, -1 on the host thread */
/* Run fn(ctx_i, i, user) for i in [0, n) (e.g. the blocks of a grid), possibly on several workers;
   returns when all ran. Accesses through each ctx_i count as the running op's. */
typedef void (*SimForFn)(SimCtx *ctx, size_t i, void *user);
SimStatus sim_ctx_parallel_for(SimCtx *ctx, size_t n, SimForFn fn, void *user);

#endif
