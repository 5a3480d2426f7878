/* simint.h - what the files of sim/ share; not part of the public API (that is sim.h).
 *
 * One lock. Every field of SimDevice and of the objects it owns (ops, streams, events, allocations,
 * access records, vector clocks) is guarded by dev->mu unless marked otherwise. The lock is never
 * held while a kernel or host callback runs, nor while a large memcpy/memset runs; it is held while
 * the sink and the observer are called (so they are serialized). Fields marked "atomic" are also
 * read without the lock by spinning threads (workers looking for work, waiters looking at an op's
 * state); they are written under the lock, but for dev->finished, which a worker pushes a kernel it
 * ran onto without the lock (a lock-free stack; the holder of the lock takes it all at once).
 * Kernels read dev->mem_epoch without it. There is no second lock, so there is no lock order.
 *
 * Files:
 *   device.c  create/destroy, config, diagnostics, observer, the handle table, leak report
 *   exec.c    ops, the ready queue, worker pool, schedulers, waits, deadlock, the token front door
 *   stream.c  streams and events on top of exec.c
 *   mem.c     the allocation table, the device arena, init shadow, host and kernel accesses
 *   race.c    chains, vector clocks, access records, race reports
 *   race_set.c  an allocation's live access records: skip lists by length class, with fingers
 *   race_oracle.c  an exact happens-before reference race.c is checked against (tests)
 */
#ifndef SIM_SIMINT_H
#define SIM_SIMINT_H

#include "sim/sim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>

typedef SimOp Op;
typedef struct Alloc Alloc;
typedef struct Stream Stream;
typedef struct Event Event;

/* ---- vector clocks (race.c) ---- */

/* A vector clock over chains. Entries at index >= n are 0. Shared by an op and its access records,
   hence refcounted; dead ones go to a freelist. */
typedef struct Vc {
  struct Vc *next;    /* freelist */
  int refs;
  uint32_t n, cap;
  uint32_t c[];
} Vc;

/* A chain is a totally ordered run of ops, each ordered after the one before: the host (chain 0),
   or ops each extending the chain of a dependency that was the chain's last op. seq grows
   forever. A chain nothing names any more (no access record, no late op in flight: pins == 0)
   is reused by the next op that starts a chain (race.c says why that is exact). */
typedef struct Chain {
  uint32_t seq;        /* last seq given out */
  uint32_t pins;       /* access records (live or stale) and late ops in flight on the chain */
  uint64_t tail;       /* op id of the last op on the chain */
  bool free;           /* on the free list (it may have been pinned again since: checked on reuse) */
} Chain;

/* One recorded access of bytes [lo, hi) of an allocation (offsets), at its op's epoch
   (chain, seq). A live record is a node of one of its allocation's skip lists (race_set.c). */
enum { RACE_SET_LEVELS = 12 };  /* skip list levels (a node is on level i with odds 4^-i) */
typedef struct Rec {
  size_t lo, hi;
  uint64_t ord;        /* the order of recording (1, 2, ...), the key after lo; 0: a free slot */
  uint32_t nx[RACE_SET_LEVELS]; /* race_set.c: the next node on each level (slot + 1, 0: none);
                          nx[0] links the free slots */
  uint8_t height;      /* race_set.c: the levels the node is on */
  uint8_t cls;         /* race_set.c: its length class (floor(log2(hi - lo))): index in a->cls */
  uint32_t chain, seq;
  Vc *vc;              /* the clock of the access (a reference), kept only while a late op that was
                          in flight when it was recorded still is (made); NULL otherwise */
  uint64_t made;       /* dev->late_next when recorded (with vc) */
  uint64_t gone;       /* stale records: dev->late_next when superseded */
  const char *loc;
  uint64_t op;         /* 0: host */
  bool write, isfree;
  bool atomic;         /* an atomic access (write is true too) */
} Rec;

/* The live records of one length class (race_set.c): a skip list by (lo, ord), and a finger, the
   last node before the key last sought on each level. */
typedef struct RecClass {
  uint32_t head[RACE_SET_LEVELS]; /* the first node on each level (slot + 1, 0: none) */
  uint32_t fin[RACE_SET_LEVELS];  /* the finger (0: the head) */
  size_t fin_lo;                  /* the key it is before */
  uint64_t fin_ord;
  uint32_t cur;                   /* a node before the last window queried (0: the head) */
  uint32_t n;                     /* nodes */
  uint8_t top;                    /* levels in use */
  uint8_t cls;
} RecClass;

/* What one access overlaps: a record's ord and slot + 1. */
typedef struct RecHit { uint64_t ord; uint32_t t; } RecHit;

/* ---- memory (mem.c) ---- */

typedef struct Iv { size_t lo, hi; } Iv;

struct Alloc {
  uint64_t id;         /* 1, 2, ... in order of creation: a stable sort key */
  uintptr_t base;
  size_t bytes;
  SimMemKind kind;
  const char *loc, *free_loc;
  struct HostReg { uintptr_t base; size_t bytes; const char *loc; } *regs;
  size_t nregs, capregs; /* host pageable memory: its registered ranges, byte-disjoint, as a
                            driver keeps them (any one lets kernels touch the allocation) */
  bool dead;           /* freed / unregistered / removed */
  bool released;       /* dead and its memory given back */
  int pins;            /* submitted, not completed memcpy/memset ops that use it */
  Rec *recs;           /* access records (race_set.c): node slots, slot + 1 names one */
  size_t nrecs, caprecs;  /* slots in use or freed: [0, nrecs) */
  uint32_t rec_free;   /* freed slots, linked by nx[0] (slot + 1, 0: none) */
  RecClass *cls;       /* the length classes with records now or before, as first used */
  size_t ncls;
  uint64_t clsmask;    /* which classes cls holds */
  size_t nlive;        /* live records */
  size_t sweep_at;     /* nlive at which every record is next checked against the host's clock */
  uint64_t rec_ord;    /* the last ord given out */
  Rec *stale;          /* superseded records a late op in flight may still race with (race.c) */
  size_t stale_lo, nstale, capstale; /* live ones: [stale_lo, nstale) */
  Iv *init;            /* sorted disjoint written ranges (offsets); device and host-shared only */
  size_t ninit, capinit;
  Alloc *next_dead;
};

/* A kernel's accesses, gathered without the lock and merged when it completes. */
typedef struct Acc { Alloc *a; size_t lo, hi; bool write; bool atomic; } Acc;  /* atomic: write too */

struct SimCtx {
  SimDevice *dev;
  Op *op;
  int worker;
  Alloc *cache;        /* last allocation hit (never freed before sim_destroy) */
  Alloc *probed[4];    /* the allocations sim_access_probe found last, most recent first */
  Acc *acc;
  size_t nacc, capacc;
  bool failed;         /* an access was refused */
  bool sub;            /* a helper's ctx inside sim_ctx_parallel_for */
  uint64_t ns;         /* a timed kernel a worker ran: how long its body ran */
};

/* A sim_ctx_parallel_for in progress: idle workers join it. Lives on the owner's stack; fields
   without "atomic" are guarded by dev->mu. */
typedef struct PJob {
  SimForFn fn;
  void *user;
  size_t n;
  atomic_size_t next;  /* atomic: next index to run */
  atomic_bool exhausted;
  int active;          /* helpers running iterations */
  SimCtx **subs;       /* helpers' ctxs, merged into the owner's at the end */
  size_t nsubs, capsubs;
  SimCtx *owner;
  struct PJob *next_job;
} PJob;

/* ---- ops (exec.c) ---- */

enum { OP_PENDING, OP_READY, OP_RUNNING, OP_DONE };

struct SimOp {
  uint32_t magic;
  SimDevice *dev;
  SimOpDesc d;         /* d.kind is what runs: a refused op becomes SIM_OP_MARKER */
  uint64_t id;
  uint64_t stream;     /* stream id, 0 for token ops */
  _Atomic int state;   /* atomic */
  int refs;
  int npending;        /* deps not yet done */
  bool late_access;    /* kernel/host op: records its accesses when it completes */
  bool opened;         /* gate: sim_gate_open was called */
  bool unbounded;      /* gate, host op or kernel that may wait: counted in dev->nunbounded */
  uint64_t mark;       /* graph walks (deadlock) */
  Op **deps;           /* deps that were not done at submit (one reference each, until done) */
  size_t ndeps, capdeps;
  Op **succ;           /* ops waiting for this one */
  size_t nsucc, capsucc;
  Alloc *a_dst, *a_src;/* pinned allocations of a memcpy/memset */
  uint32_t chain, seq;
  Vc *vc;              /* NULL when race checking is off */
  uint64_t lidx;       /* a late op in flight: its index among late ops (race.c), else 0 */
  uint64_t lane;       /* threads: the lane (the id of its first op) it continues (lane_of) */
  uint64_t lane_k;     /* threads: the host's kernel count at the lane's last kernel, 0: none yet */
  uint64_t lane_ns;    /* threads: how long the bodies of the lane's last two timed kernels ran (the
                          shorter), 0: fewer than two yet */
  uint64_t lane_last;  /* threads: how long the body of the lane's last timed kernel ran, 0: none */
  bool extended;       /* threads: a later op continues its lane */
  bool timed;          /* threads: a kernel whose body's time is noted (lane_note) */
  bool lane_timed;     /* threads: ... in lane_ns (else only in the device's kern_ns) */
  bool woke;           /* threads: queued for a worker woken for it (a lane of long kernels) */
  SimCtx *ctx;         /* kernel/host op while it runs */
  Op *next;            /* freelist, list of unopened gates */
  Op *qnext;           /* threads: dev->finished (atomic publication), or dev->held */
  Op *allnext;         /* every op the device ever allocated */
};

/* ---- streams and events (stream.c) ---- */

enum { H_FREE = 0, H_STREAM = 1, H_EVENT = 2 };

typedef struct Slot {
  uint16_t gen;
  uint8_t kind;        /* H_STREAM, H_EVENT, or H_FREE (never used) */
  bool live;
  const char *created, *destroyed;
  void *obj;           /* Stream * or Event *, NULL once destroyed */
  uint32_t next_free;
} Slot;

struct Stream {
  uint64_t id;
  uint32_t slot;
  Op *last;            /* a reference, or NULL */
  Op **waits;          /* ops the next op must also wait for (references) */
  size_t nwaits, capwaits;
};

struct Event {
  uint64_t id;
  uint32_t slot;
  Op *snap;            /* a reference, or NULL: never recorded or recorded on an idle stream */
  bool recorded;
};

/* ---- the device ---- */

struct SimDevice {
  pthread_mutex_t mu;
  pthread_cond_t work_cv;    /* idle workers */
  pthread_cond_t done_cv;    /* waiters */
  SimConfig cfg;
  uint64_t t0_ns;

  /* exec.c */
  Op **rq;                   /* ready ring */
  size_t rq_head, rq_n, rq_cap;
  /* what spinning threads watch, padded to cache lines of its own (the device is calloc'd, so no
     _Alignas): a write nearby (the host counts an op it runs inline) would take the line from
     every spinner, once per op */
  char pad_spin0[64];
  atomic_size_t nready;      /* atomic mirror of rq_n */
  atomic_int nspinning;      /* workers spinning for work */
  atomic_bool stop;
  atomic_int npjobs;         /* parallel-for jobs with indices left */
  atomic_int host_cpu;       /* the CPU the host last submitted from, -1 while it sleeps in a wait */
  _Atomic(Op *) finished;    /* threads: kernels whose bodies workers ran, to complete (drain_finished) */
  atomic_int nblocking;      /* threads that are about to block on done_cv, or block there */
  atomic_uint_fast64_t lane_until; /* threads: now_ns() until which workers spin on for a lane's next
                                      kernel (lane_of) */
  atomic_bool host_busy;     /* threads: the host runs an op's body (a kernel, a callback, a large
                                copy) without the lock: it completes nothing on dev->finished meanwhile */
  char pad_spin1[64];
  bool holding;              /* drain_finished: small ops made ready go to held, run by the drainer */
  Op *held, *held_tail;
  PJob *pjobs;
  int nsleeping;             /* workers blocked on work_cv */
  int nrunning;              /* ops running */
  int nblocked;              /* running ops whose callback is blocked in a wait */
  int nwaiters;              /* threads blocked on done_cv */
  unsigned done_gen;         /* broadcasts of done_cv so far (wake_waiters) */
  bool host_waiting;
  bool host_polled;          /* a host load since the host's last submit, wait or query */
  size_t nincomplete;        /* submitted, not done */
  int nunbounded;            /* of those, ops that may wait for something outside the graph */
  atomic_uint_fast64_t ndone; /* ops completed so far (spinning waiters watch it) */
  unsigned host_submits;     /* threads: host submits since the host last waited */
  uint64_t kicked_ns;        /* threads: when the host last woke a sleeping worker to spin */
  uint64_t kick_gap_ns;      /* threads: the least time between two such wakes (kick_worker) */
  unsigned host_notes;       /* threads: host submits, to note its CPU every so many (note_host_cpu) */
  uint64_t host_last;        /* threads: the id of the op the host last ran itself (0: none) */
  uint64_t host_lane;        /* threads: the lane of the last kernel the host kept for itself */
  uint64_t host_k;           /* threads: the host's kernel count at that kernel */
  uint64_t nkernels;         /* threads: kernels the host submitted */
  uint64_t nturns;           /* threads: kernels of short lanes that took turns with the host's */
  uint64_t kern_ns;          /* threads: the shorter of the last two timed kernels' times (0: not
                                known yet; lane_note), whatever their lane */
  uint64_t kern_last;        /* threads: the last timed kernel's time */
  uint64_t next_op_id;
  Op *free_ops;
  Op *all_ops;
  Op *gates;                 /* gates not opened yet (linked by next) */
  uint64_t walk_epoch;
  pthread_t *threads;
  int nthreads;
  uint64_t rng;

  /* stream.c */
  Slot *slots;
  uint32_t nslots;
  size_t capslots;
  uint32_t free_head, free_tail, nfree; /* FIFO of free slots (index+1, 0 = none) */
  Stream *defstream;

  /* mem.c */
  atomic_uint_fast64_t mem_epoch; /* moves (to a value no device had) whenever an allocation dies or
                                     changes who may touch it: what threads' caches of the table
                                     hold stays true until it moves (mem_access) */
  Alloc **allocs;            /* live allocations sorted by base */
  size_t nallocs, capallocs;
  Alloc *dead;               /* dead allocations (kept until sim_destroy for messages) */
  size_t nunreleased;        /* dead ones whose memory is not given back yet */
  uint64_t next_alloc_id;
  char *arena;
  size_t arena_bytes, arena_used;
  Iv *spans;                 /* given-back arena ranges (offsets), reused once the bump is at the end */
  size_t nspans, capspans;

  /* race.c */
  bool race;                 /* race checking on */
  Chain *chains;
  uint32_t nchains, capchains;
  uint32_t *free_chains;     /* chains nothing pins, to reuse (LIFO) */
  size_t nfree_chains, capfree_chains;
  Vc *host_vc;               /* the host's clock: chain 0 is the host */
  int late_inflight;         /* kernel/host ops submitted and not done (they record late) */
  Op **late;                 /* ring of late ops by lidx, from late_base (NULL: done) */
  size_t late_head, nlate, caplate;
  uint64_t late_base, late_next; /* lidx of late[late_head]; last lidx given out */
  size_t nlate_live;         /* late ops in flight (non-NULL entries of the ring) */
  Vc *free_vcs;
  RecHit *hits;              /* the records one access overlaps (access_at's scratch) */
  size_t caphits;
  struct RaceOracle *oracle; /* GPUINTERP_RACE_ORACLE=1: the exact reference (race_oracle.c) */

  SimObsAccess *oacc;        /* the accesses of the op completing, for its SIM_OBS_END */
  size_t noacc, capoacc;

  /* device.c */
  size_t nerrors, nwarnings;
  uint64_t *seen;            /* hashes of reported diagnostics (open addressing, 0 = empty) */
  size_t nseen, capseen;
  char msg[1024];
};

extern _Thread_local SimCtx *sim_tls_ctx; /* the op callback running on this thread, or NULL */

#define LOC(s) ((s) ? (s) : "?")

/* device.c */
uint64_t now_ns(void);
void diag_emit(SimDevice *dev, SimDiag *d, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void obs_emit(SimDevice *dev, SimObs *ev);
void *xrealloc_array(void *p, size_t *cap, size_t need, size_t elem);

/* exec.c */
SimStatus op_submit(SimDevice *dev, const SimOpDesc *desc, Op *const *deps, size_t ndeps,
                    Stream *s, Op **out);
void op_unref(SimDevice *dev, Op *op);
SimStatus ops_wait(SimDevice *dev, Op *const *ops, size_t n, const char *why, const char *loc);
SimStatus op_wait_unordered(SimDevice *dev, Op *op, const char *why, const char *loc);
bool op_valid(SimDevice *dev, const Op *op, const char *what, const char *loc);
void ops_progress(SimDevice *dev);
void exec_start(SimDevice *dev);
bool exec_start_workers(SimDevice *dev);
void exec_finish(SimDevice *dev);
/* Waits, mu held, until every submitted op completed, adding no happens-before edge: for memory
 * the host is about to free, so that no op still running writes into it. */
void exec_drain(SimDevice *dev, const char *loc);
static inline bool op_done(const Op *op) {
  return atomic_load_explicit(&((Op *)op)->state, memory_order_acquire) == OP_DONE;
}

/* stream.c */
void streams_init(SimDevice *dev);
void streams_leaks(SimDevice *dev);
void streams_free(SimDevice *dev);

/* mem.c */
bool mem_init(SimDevice *dev);
SimStatus mem_check_op(SimDevice *dev, Op *op);
void mem_op_start(SimDevice *dev, Op *op);
void mem_op_done(SimDevice *dev, Op *op);
void mem_late_done(SimDevice *dev);
void mem_leaks(SimDevice *dev);
void mem_free_all(SimDevice *dev);
void init_mark(Alloc *a, size_t lo, size_t hi);
bool init_find_gap(const Alloc *a, size_t lo, size_t hi, size_t *glo, size_t *ghi);

/* race.c */
void race_init(SimDevice *dev);
void race_op_begin(SimDevice *dev, Op *op, Op *const *deps, size_t ndeps);
void race_late_begin(SimDevice *dev, Op *op);
void race_late_end(SimDevice *dev, Op *op);
void race_host_submitted(SimDevice *dev);
void race_host_join(SimDevice *dev, const Op *op);
void race_host_join_all(SimDevice *dev);
void race_access(SimDevice *dev, Alloc *a, size_t lo, size_t hi, bool write, bool isfree,
                 const Op *op, const char *loc);
/* race_access for an op's access of the given kind (SIM_ACC_ATOMIC: an atomic one). */
void race_access_kind(SimDevice *dev, Alloc *a, size_t lo, size_t hi, SimAccess kind, const Op *op,
                      const char *loc);
void race_free_after(SimDevice *dev, Alloc *a, const Op *op, const char *loc);
void race_recs_clear(SimDevice *dev, Alloc *a);
void vc_unref(SimDevice *dev, Vc *vc);
void race_free_all(SimDevice *dev);
/* Do accesses x and y conflict (at least one writes; a free counts as a write)? Ranges aside. */
bool race_conflict(const Rec *x, const Rec *y);

/* race_set.c: an allocation's live records. Nodes are slots of a->recs, named by slot + 1. */
/* Add a record like n (n->hi > n->lo; its ord is given here); its node, 0: out of memory. */
uint32_t race_set_add(Alloc *a, const Rec *n);
/* Take the node t out (its Rec is left as it was until the slot is reused, but for ord = 0). */
void race_set_remove(Alloc *a, uint32_t t);
/* Put the nodes that overlap [lo, hi) in *hits (*cap: its capacity), in the order recorded, and
   their number in *nhits. False: out of memory. */
bool race_set_find(Alloc *a, size_t lo, size_t hi, RecHit **hits, size_t *cap, size_t *nhits);
/* Free the storage of a's records (their clocks and pins are the caller's). */
void race_set_clear(Alloc *a);
static inline Rec *race_set_rec(const Alloc *a, uint32_t t) { return &a->recs[t - 1]; }

/* race_oracle.c: all with mu held; a no-op unless dev->oracle */
void race_oracle_init(SimDevice *dev);
void race_oracle_op_begin(SimDevice *dev, const Op *op, Op *const *deps, size_t ndeps);
void race_oracle_host_submitted(SimDevice *dev);
void race_oracle_host_join(SimDevice *dev, const Op *op);
void race_oracle_host_join_all(SimDevice *dev);
/* Check the access n (its lo, hi, kind, loc, op; by op, NULL: the host, ordered after `with`
   too when not NULL) against every earlier one of a, record it, and abort unless the verdict
   is `raced` (race.c's: does it race with an earlier access?). */
void race_oracle_access(SimDevice *dev, const Alloc *a, const Rec *n, const Op *op,
                        const Op *with, bool raced);
void race_oracle_recs_clear(SimDevice *dev, const Alloc *a);
void race_oracle_free(SimDevice *dev);

#endif
