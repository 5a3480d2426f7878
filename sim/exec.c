/* exec.c - the op graph executor: submit, ready queue, workers, schedulers, waits, deadlock.
 *
 * An op is submitted with the ops it waits for. Each dep that is not done yet gets the new op in
 * its `succ` list and bumps the new op's `npending`; when a dep completes it walks its succ list,
 * and an op whose npending reaches 0 is ready. Gates are the exception: a gate becomes ready only
 * once its deps are done AND sim_gate_open was called.
 *
 * Who runs ready ops depends on the scheduler:
 *   threads  a pool of workers pops the ready ring (FIFO). A worker with nothing to do spins for a
 *            while watching the atomic `nready` (a handoff through a cache line costs ~100 ns, a
 *            condition-variable wake costs ~10 us), then sleeps on work_cv; it does not spin on the
 *            CPU the host runs on (on a busy machine a woken worker lands there), where it could
 *            only keep the host from running. The submitter signals work_cv only when a worker
 *            sleeps and no spinner is there to take the op. A ready marker or small memcpy/memset
 *            runs right away on the submitting thread: that is a schedule like any other, and it is
 *            the fast path for tiny ops (any handoff costs more than they do). A bounded kernel
 *            (SimOpDesc.bounded) that the host submits ready runs on the host's thread too, unless
 *            it can overlap with the host's own work and a worker spins for it (hand_over): it is
 *            not the host's first submit since it last waited (the host waits for it next), and it
 *            does not depend on the op the host ran itself last (the host's chain goes on where it
 *            is), or it is of a lane (lane_of: a chain of ops each waiting for the one before) that
 *            takes turns with the lane the host keeps and whose last two timed kernels ran
 *            LANE_MIN_NS or more.
 *            Not while the kernels the host timed of late ran shorter than LANE_MIN_NS, or before
 *            it timed two (worth_handing): then it runs them itself, as `serial` would, unless
 *            its lane is apart. Then the spinning worker takes it, and the ops submitted after it
 *            in its chain find it in flight and wait in the graph: one handoff per chain, not one
 *            per op, and
 *            two independent chains of kernels run on two threads. Such a kernel, of a lane
 *            whose kernels run LANE_MIN_NS or more, also goes to a sleeping worker, woken for it,
 *            when none spins (wake_for: the wake costs less than the kernel), and the host does
 *            not take it back at its next submit. A worker that ran a bounded
 *            kernel does not take the lock again to complete it: it pushes it on dev->finished
 *            and spins on, and whoever holds the lock next completes it (drain_finished: the
 *            host's next submit or wait, mostly), running there the small ops that it makes ready
 *            too, so the graph's and the race check's state stay in the host's cache and a
 *            worker takes the lock once per kernel; but while the host runs an op's body without
 *            the lock (host_busy), the worker completes it itself and goes on with its chain.
 *            A kernel that would have gone to a worker had
 *            one spun wakes a sleeping one to spin for the next (kick_worker), at most once a
 *            kick_gap_ns, a gap that doubles while woken workers find nothing. A kernel's blocks
 *            spread over the pool either way. When the host submits an op after a bounded op it handed over that no
 *            worker has started while no worker spins for it (the worker sleeps, or is busy), it
 *            takes that op back and runs it: queued behind it, the new op would wait for a worker
 *            too (a large copy too, which is otherwise never run at its submit); not a kernel it
 *            woke a worker for. The host runs at
 *            most AHEAD_MAX ops ahead of the device while every op in flight is bounded; past that
 *            it helps, and else waits, until AHEAD_RESUME are left (host_throttle), so a chain
 *            handed to the pool does not leave thousands of kernels in flight, each of them a late
 *            op that later accesses are checked against (race.c).
 *   serial   no workers: a ready op runs at once on the submitting thread, in submit order.
 *   random   no workers: ready ops accumulate; when the host waits it runs them in an order drawn
 *            from a seeded generator (and at a submit it runs one with probability 1/2, and more
 *            while over RANDOM_WINDOW ops are in flight), so one seed gives one order.
 * A thread that waits (the host, or an op's callback) helps: it runs ready ops, and indices of a
 * kernel's sim_ctx_parallel_for, while its target is not done. That keeps a callback that waits
 * from starving the pool, and puts the host's CPU to work (the default pool leaves it one).
 *
 * Deadlock. Ops only depend on ops submitted before them, so the graph has no cycle; what can
 * block forever is a gate nobody will open, or a callback waiting for its own op. A waiter reports
 * a deadlock, instead of sleeping, when nothing can make progress: no ready op, no op running
 * whose callback is not itself waiting, and (if the waiter is a callback) the host waiting too.
 * The host counts as waiting for its whole wait, also while it runs a callback by helping; and it
 * lets blocked callbacks report first, since once their waits fail they (and it) may go on.
 *
 * Locking: everything here runs with dev->mu held except the bodies of ops (run_op drops the lock
 * around a kernel, a host callback and a large copy; run_deferred runs a kernel and pushes it on
 * dev->finished without it) and the spin loops, which read only atomics. A kernel on dev->finished
 * still counts as running, so a waiter does not take it for a deadlock; it is completed by the next
 * holder of the lock, and at once by the worker when a thread blocks on done_cv (nblocking: the
 * blocker counts itself, then drains; the worker pushes, then looks at the count), so no waiter
 * sleeps on a kernel nobody will complete; a worker drains before it sleeps, and as soon as it
 * sees host_busy (a hint, read without the lock: the worst a stale value does is a drain that
 * comes early or late).
 * Reference counts: an op has one reference for the executor (until it completes), one per holder
 * (the token's owner, a stream's last op, an event's snapshot, a later op's deps list).
 */
#include "sim/simint.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Thread_local SimCtx *sim_tls_ctx;

enum { OP_MAGIC = 0x51d0c0de, OP_FREED = 0xdeadc0de };
enum { SPIN_NS = 50000 };
/* threads: the least and the most time between two wakes of a worker to spin (kick_worker) */
enum { KICK_GAP_MIN = 1000000, KICK_GAP_MAX = 32000000 };
/* threads: the host notes its CPU once every this many submits (note_host_cpu) */
enum { NOTE_EVERY = 16 };
/* random: the most ops in flight after a host submit (the window the order is drawn from) */
enum { RANDOM_WINDOW = 32 };
/* threads: the host may run this many ops ahead of the device, while all of them are bounded */
enum { AHEAD_MAX = 32, AHEAD_RESUME = 16 };
/* threads: the least time the last kernel of a lane must have run for the lane to go to a worker
   while the host keeps another (lane_of): handing it over costs the host a few microseconds, the
   op's data and bookkeeping changing caches */
enum { LANE_MIN_NS = 20000 };
/* threads: the most a worker spins on for a lane's next kernel, past SPIN_NS */
enum { LANE_SPIN_MAX = 1000000 };
/* threads: a lane of kernels shorter than LANE_MIN_NS is timed once in this many of its turns */
enum { TIME_EVERY = 16 };

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static uint64_t rng_next(SimDevice *dev) {
  uint64_t x = dev->rng;  /* xorshift64* */
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  dev->rng = x;
  return x * 0x2545f4914f6cdd1dull;
}

static bool lazy(const SimDevice *dev) { return dev->cfg.sched != SIM_SCHED_THREADS; }

/* ---- ready ring ---- */

static bool rq_reserve(SimDevice *dev, size_t need) {
  if (need <= dev->rq_cap)
    return true;
  size_t ncap = dev->rq_cap ? dev->rq_cap * 2 : 64;
  while (ncap < need)
    ncap *= 2;
  Op **q = malloc(ncap * sizeof *q);
  if (!q)
    return false;
  for (size_t i = 0; i < dev->rq_n; i++)
    q[i] = dev->rq[(dev->rq_head + i) % dev->rq_cap];
  free(dev->rq);
  dev->rq = q;
  dev->rq_head = 0;
  dev->rq_cap = ncap;
  return true;
}

static void rq_push(SimDevice *dev, Op *op) {
  dev->rq[(dev->rq_head + dev->rq_n) % dev->rq_cap] = op;
  dev->rq_n++;
  atomic_store_explicit(&dev->nready, dev->rq_n, memory_order_release);
}

/* Wake every thread on done_cv, counting the broadcast for the waiters that spin without the lock
   (wait_one). mu held. */
static void wake_waiters(SimDevice *dev) {
  dev->done_gen++;
  pthread_cond_broadcast(&dev->done_cv);
}

/* Take op, which is READY, out of the ring (threads: the ring is short, and order is no promise). */
static void rq_take(SimDevice *dev, Op *op) {
  for (size_t k = 0; k < dev->rq_n; k++) {
    size_t i = (dev->rq_head + k) % dev->rq_cap;
    if (dev->rq[i] == op) {
      dev->rq[i] = dev->rq[dev->rq_head];
      dev->rq_head = (dev->rq_head + 1) % dev->rq_cap;
      dev->rq_n--;
      atomic_store_explicit(&dev->nready, dev->rq_n, memory_order_release);
      return;
    }
  }
}

static Op *rq_pop(SimDevice *dev) {
  if (dev->cfg.sched == SIM_SCHED_RANDOM && dev->rq_n > 1) {
    size_t k = (size_t)(rng_next(dev) % dev->rq_n);
    size_t i = (dev->rq_head + k) % dev->rq_cap;
    Op *t = dev->rq[i];
    dev->rq[i] = dev->rq[dev->rq_head];
    dev->rq[dev->rq_head] = t;
  }
  Op *op = dev->rq[dev->rq_head];
  dev->rq_head = (dev->rq_head + 1) % dev->rq_cap;
  dev->rq_n--;
  atomic_store_explicit(&dev->nready, dev->rq_n, memory_order_release);
  return op;
}

/* ---- ops ---- */

static Op *op_alloc(SimDevice *dev) {
  Op *op = dev->free_ops;
  if (op) {
    dev->free_ops = op->next;
  } else {
    op = calloc(1, sizeof *op);
    if (!op)
      return NULL;
    op->allnext = dev->all_ops;
    dev->all_ops = op;
  }
  op->magic = OP_MAGIC;
  op->dev = dev;
  op->next = NULL;
  op->ndeps = op->nsucc = 0;
  op->npending = 0;
  op->late_access = op->opened = op->unbounded = false;
  op->a_dst = op->a_src = NULL;
  op->vc = NULL;
  op->ctx = NULL;
  op->chain = op->seq = 0;
  op->lidx = 0;
  op->lane = op->lane_k = op->lane_ns = op->lane_last = 0;
  op->extended = op->timed = op->lane_timed = op->woke = false;
  op->mark = 0;
  atomic_store_explicit(&op->state, OP_PENDING, memory_order_relaxed);
  return op;
}

void op_unref(SimDevice *dev, Op *op) {
  if (--op->refs > 0)
    return;
  if (op->vc)
    vc_unref(dev, op->vc);
  op->vc = NULL;
  op->magic = OP_FREED;
  op->next = dev->free_ops;
  dev->free_ops = op;
}

/* Would op run at once where it is submitted, ready: a marker, a small copy or memset? */
static bool tiny(const SimDevice *dev, const Op *op) {
  if (dev->cfg.no_inline || op->d.release)
    return false;
  return op->d.kind == SIM_OP_MARKER ||
         ((op->d.kind == SIM_OP_MEMCPY || op->d.kind == SIM_OP_MEMSET) && op->d.bytes <= dev->cfg.inline_bytes);
}

static void make_ready(SimDevice *dev, Op *op) {
  if (op->d.kind == SIM_OP_GATE && !op->opened)
    return;  /* stays pending until sim_gate_open */
  atomic_store_explicit(&op->state, OP_READY, memory_order_relaxed);
  if (dev->holding && tiny(dev, op)) {  /* the drainer runs it next (drain_finished) */
    op->qnext = NULL;
    if (dev->held_tail)
      dev->held_tail->qnext = op;
    else
      dev->held = op;
    dev->held_tail = op;
    return;
  }
  rq_push(dev, op);
  if (dev->nsleeping > 0 && (size_t)atomic_load(&dev->nspinning) < dev->rq_n)
    pthread_cond_signal(&dev->work_cv);
}

static void complete(SimDevice *dev, Op *op, int worker) {
  bool late = op->late_access;
  dev->noacc = 0;
  mem_op_done(dev, op);
  atomic_store_explicit(&op->state, OP_DONE, memory_order_release);
  SimObs ev = {.kind = SIM_OBS_END, .op = op->id, .stream = op->stream, .opkind = op->d.kind,
               .loc = op->d.loc, .worker = worker, .acc = late ? dev->oacc : NULL,
               .nacc = late ? dev->noacc : 0};
  obs_emit(dev, &ev);
  for (size_t i = 0; i < op->nsucc; i++) {
    Op *s = op->succ[i];
    if (--s->npending == 0)
      make_ready(dev, s);
  }
  op->nsucc = 0;
  for (size_t i = 0; i < op->ndeps; i++)
    op_unref(dev, op->deps[i]);
  op->ndeps = 0;
  dev->nrunning--;
  dev->nincomplete--;
  if (op->unbounded)
    dev->nunbounded--;
  atomic_fetch_add_explicit(&dev->ndone, 1, memory_order_release);
  if (dev->nwaiters)
    wake_waiters(dev);
  op_unref(dev, op);
}

static void do_memset(const SimOpDesc *d) {
  unsigned w = d->width ? d->width : 1;
  if (w == 1) {
    memset(d->dst, (int)(d->value & 0xff), d->bytes);
  } else if (w == 2) {
    uint16_t v = (uint16_t)d->value;
    for (size_t i = 0; i < d->bytes; i += 2)
      memcpy((char *)d->dst + i, &v, 2);
  } else {
    uint32_t v = d->value;
    for (size_t i = 0; i < d->bytes; i += 4)
      memcpy((char *)d->dst + i, &v, 4);
  }
}

static void op_begin(SimDevice *dev, Op *op, int worker) {
  atomic_store_explicit(&op->state, OP_RUNNING, memory_order_relaxed);
  dev->nrunning++;
  SimObs ev = {.kind = SIM_OBS_START, .op = op->id, .stream = op->stream, .opkind = op->d.kind,
               .loc = op->d.loc, .worker = worker};
  obs_emit(dev, &ev);
  mem_op_start(dev, op);
}

/* A timed kernel's body ran ns: its lane's time is the shorter of its last two kernels', so that
   one kernel preempted or interrupted while it ran (on a loaded machine, or under a profiler)
   does not make a lane of short kernels look long enough to hand over, and wake a worker for.
   The device's time (kern_ns), the same over the timed kernels the host ran itself (host), says
   whether the kernels of late are short (worth_handing); not over a worker's: its kernel's data
   crossed caches, and under a sanitizer such kernels timed there looked long and kept the
   handoffs of short ones going. mu held. */
static void lane_note(SimDevice *dev, Op *op, uint64_t ns, bool host) {
  if (!ns)
    ns = 1;
  if (op->lane_timed) {
    op->lane_ns = !op->lane_last ? 0 : ns < op->lane_last ? ns : op->lane_last;
    op->lane_last = ns;
  }
  if (!host)
    return;
  dev->kern_ns = !dev->kern_last ? 0 : ns < dev->kern_last ? ns : dev->kern_last;
  dev->kern_last = ns;
}

/* Runs a kernel's or host callback's function (then its release) as its ctx's thread, with mu
   dropped: mu held on entry, not on return. Returns the time it took when op is timed, else 0. */
static uint64_t run_unlocked(SimDevice *dev, Op *op, int worker) {
  SimOpDesc *d = &op->d;
  SimCtx *ctx = op->ctx, *prev = sim_tls_ctx;
  ctx->worker = worker;
  sim_tls_ctx = ctx;
  pthread_mutex_unlock(&dev->mu);
  uint64_t t0 = op->timed ? now_ns() : 0;
  if (d->fn)
    d->fn(ctx, d->user);
  if (d->release)
    d->release(d->user);
  uint64_t ns = op->timed ? now_ns() - t0 : 0;
  sim_tls_ctx = prev;
  return ns;
}

/* Run a popped (or inline) op on this thread and complete it. Called and returns with mu held. */
static void run_op(SimDevice *dev, Op *op, int worker) {
  op_begin(dev, op, worker);
  SimOpDesc *d = &op->d;
  /* the host runs a body without the lock while a worker may leave a kernel on dev->finished:
     the worker completes it itself then, or its chain would wait for the host to be done
     (worker_main). Only then: the flag is on the line spinners watch. */
  bool busy = worker < 0 && !sim_tls_ctx && dev->nthreads && (dev->nrunning > 1 || dev->rq_n);
  switch (d->kind) {
  case SIM_OP_MEMCPY:
  case SIM_OP_MEMSET:
    if (d->bytes > dev->cfg.inline_bytes) {
      if (busy)
        atomic_store_explicit(&dev->host_busy, true, memory_order_relaxed);
      pthread_mutex_unlock(&dev->mu);
    }
    if (d->kind == SIM_OP_MEMCPY)
      memmove(d->dst, d->src, d->bytes);
    else
      do_memset(d);
    if (d->bytes > dev->cfg.inline_bytes) {
      if (busy)
        atomic_store_explicit(&dev->host_busy, false, memory_order_relaxed);
      pthread_mutex_lock(&dev->mu);
    }
    break;
  case SIM_OP_KERNEL:
  case SIM_OP_HOST: {
    if (busy)
      atomic_store_explicit(&dev->host_busy, true, memory_order_relaxed);
    uint64_t ns = run_unlocked(dev, op, worker);
    if (busy)
      atomic_store_explicit(&dev->host_busy, false, memory_order_relaxed);
    pthread_mutex_lock(&dev->mu);
    d->release = NULL;
    if (op->timed)
      lane_note(dev, op, ns, worker < 0 && !sim_tls_ctx);
    break;
  }
  default:
    break;
  }
  if (d->release) {  /* a refused kernel/host op: give its user data back */
    void (*rel)(void *) = d->release;
    d->release = NULL;
    pthread_mutex_unlock(&dev->mu);
    rel(d->user);
    pthread_mutex_lock(&dev->mu);
  }
  complete(dev, op, worker);
}

/* ---- finished kernels ---- */

/* Does a worker leave op's completion to the next holder of the lock? A bounded kernel: its
   completion (checking and recording its accesses, readying the ops after it) runs where the rest
   of the graph's bookkeeping does, mostly on the host's thread, at its next submit or wait; the
   worker takes the lock once per kernel (to pop it), not twice, and the race and graph state stay
   in one CPU's cache. */
static bool defers(const Op *op) { return op->d.kind == SIM_OP_KERNEL && op->d.bounded; }

/* Complete the kernels on dev->finished, oldest first, and run the small ops that become ready
   (they would run inline at a submit: held while draining, see make_ready) here too, so a chain's
   copy after its kernel costs no handoff. Returns whether there was any. mu held. */
static bool drain_finished(SimDevice *dev, int worker) {
  if (!atomic_load(&dev->finished))  /* seq_cst: block_on_done's count, then this, against run_deferred's */
    return false;
  Op *list = atomic_exchange_explicit(&dev->finished, NULL, memory_order_acquire), *fifo = NULL;
  while (list) {
    Op *n = list->qnext;
    list->qnext = fifo;
    fifo = list;
    list = n;
  }
  bool was = dev->holding;
  dev->holding = true;
  while (fifo) {
    Op *op = fifo, *n = op->qnext;
    op->d.release = NULL;
    if (op->timed)
      lane_note(dev, op, op->ctx->ns, false);
    complete(dev, op, op->ctx ? op->ctx->worker : worker);
    fifo = n;
  }
  while (dev->held) {
    Op *op = dev->held;
    dev->held = op->qnext;
    if (!dev->held)
      dev->held_tail = NULL;
    if (worker < 0 && !sim_tls_ctx)
      dev->host_last = op->id;  /* the host ran it: a kernel after it continues the host's chain */
    run_op(dev, op, worker);
  }
  dev->holding = was;
  return true;
}

/* A worker runs the kernel op it popped (defers) and publishes it on dev->finished. Called with mu
   held, returns without it. Who holds the lock next completes it (drain_finished): the host's next
   submit or wait, the worker itself when its spin ends, or at once when someone blocks. */
static void run_deferred(SimDevice *dev, Op *op, int worker) {
  op_begin(dev, op, worker);
  op->ctx->ns = run_unlocked(dev, op, worker);
  Op *head = atomic_load_explicit(&dev->finished, memory_order_relaxed);
  do
    op->qnext = head;
  while (!atomic_compare_exchange_weak_explicit(&dev->finished, &head, op, memory_order_seq_cst,
                                                memory_order_relaxed));
  if (atomic_load(&dev->nblocking)) {  /* a thread blocks (or is about to): it would not drain */
    pthread_mutex_lock(&dev->mu);
    drain_finished(dev, worker);
    pthread_mutex_unlock(&dev->mu);
  }
}

/* Does a worker spin with no ready op to take? Then a handoff costs a cache line, not a wake. */
static bool spinner_free(const SimDevice *dev) {
  return (size_t)atomic_load_explicit(&dev->nspinning, memory_order_relaxed) > dev->rq_n;
}

/* Is a kernel of a lane apart from the host's (lane_of: its last two timed kernels ran LANE_MIN_NS
   or more) worth waking a sleeping worker for, when none spins? The wake costs the host a system
   call (a few microseconds) and the worker some tens of microseconds before it starts, against the
   kernel's own time that the host would spend: it is, when no ready op waits for a worker already
   (the woken one takes that first). The host goes on with its own lane meanwhile; it does not take
   such a kernel back at the next submit (op_submit), only when it would wait. */
static bool wake_for(const SimDevice *dev, bool apart) {
  return apart && dev->nsleeping > 0 && dev->rq_n == 0;
}

/* Did the kernels the host timed of late run shorter than LANE_MIN_NS (kern_ns, lane_note), or
   has it not timed two yet? Then the host runs its first kernels, and times them, itself: one
   handed over first, before anything was known, took its chain along to the worker for good
   where the worker was slow (a sanitizer build), as the ops after it found it in flight. */
static bool kernels_short(const SimDevice *dev) { return dev->kern_ns < LANE_MIN_NS; }

/* Would a bounded kernel ready at the host's submit be worth a worker, were one spinning? Not on
   the host's first submit since it waited, not when it continues the host's chain (follows) but
   for a lane apart (lane_of), and not when the kernels timed of late ran shorter than LANE_MIN_NS
   (kern_ns) but for a lane apart: a handoff costs the host more than such a kernel does (the op,
   its context and its buffers change caches, and the graph's bookkeeping with them), and the
   host then runs it itself as `serial` would, waking nobody. A lane of short kernels that takes
   turns with the host's is timed once in TIME_EVERY turns, and a kernel the host runs once in
   TIME_EVERY kernels, so the figure follows the program. */
static bool worth_handing(const SimDevice *dev, bool follows, bool apart) {
  return dev->host_submits && (apart || (!follows && !kernels_short(dev)));
}

/* Should the host hand a bounded op that is ready at its submit to a worker, and go on? Only when
   it can overlap with something: not on the host's first submit since it waited (it waits for
   this op next), not when the op continues the chain the host runs (nothing was submitted in
   between to overlap with) unless that chain is a lane apart from the host's (lane_of), and only
   to a worker that spins (a woken one may start long after the host could have). An op that
   starts another chain goes; its successors then find it in flight and wait in the graph, so the
   worker that runs it runs them too: one handoff a chain, not one an op. */
static bool hand_over(const SimDevice *dev, bool follows, bool apart) {
  return worth_handing(dev, follows, apart) && (spinner_free(dev) || wake_for(dev, apart));
}

static bool runs_inline(const SimDevice *dev, const Op *op, bool follows, bool apart) {
  if (dev->cfg.no_inline)
    return false;
  switch (op->d.kind) {
  case SIM_OP_MARKER:
    return true;
  case SIM_OP_MEMCPY:
  case SIM_OP_MEMSET:
    /* a small copy costs less than any handoff: it runs here, and its chain with it */
    return op->d.bytes <= dev->cfg.inline_bytes;
  case SIM_OP_KERNEL:
    /* its sim_ctx_parallel_for still spreads its blocks over the pool. A kernel that may wait
     * (for another kernel, for the host) must not hold up the host, and a callback's kernels go
     * to the pool. */
    return op->d.bounded && !sim_tls_ctx && !hand_over(dev, follows, apart);
  default:
    return false;
  }
}

static bool pjob_help(SimDevice *dev, int worker);

/* The host notes the CPU it runs on (when it changed: the line is the spinners'), so that a
   spinning worker can tell it shares the host's CPU: every NOTE_EVERY submits (sched_getcpu costs
   ~20 ns, 1-2% of a small op; the host seldom moves) and whenever it wakes a worker. */
static void note_host_cpu(SimDevice *dev) {
  int c = sched_getcpu();
  if (atomic_load_explicit(&dev->host_cpu, memory_order_relaxed) != c)
    atomic_store_explicit(&dev->host_cpu, c, memory_order_relaxed);
}

/* The host runs a kernel itself that it would have handed to a spinning worker, but none spins: it
   wakes a sleeping one to spin for the host's next ops, at most once a kick_gap_ns (a wake costs
   the host a system call). An op is handed only to a worker that spins, never queued for one that
   sleeps: under load a woken worker may start it long after the host could have. The gap doubles
   (to KICK_GAP_MAX) each time a woken worker's spin finds nothing, and is back to KICK_GAP_MIN
   once one finds work (worker_main): on a machine whose other CPUs are busy the woken worker
   lands on the host's CPU, where it can only take turns with the host. */
static void kick_worker(SimDevice *dev) {
  uint64_t t = now_ns();
  if (t - dev->kicked_ns < dev->kick_gap_ns)
    return;
  dev->kicked_ns = t;
  note_host_cpu(dev);
  pthread_cond_signal(&dev->work_cv);
}

/* Does this thread run on the CPU the host runs on? (-1: unknown, or the host sleeps) */
static bool on_host_cpu(SimDevice *dev) {
  int c = sched_getcpu();
  return c >= 0 && c == atomic_load_explicit(&dev->host_cpu, memory_order_relaxed);
}

/* Sleep on done_cv, unless a kernel a worker ran waits to be completed: a worker that finishes one
   while a thread blocks here completes it itself (run_deferred), and one that finished before
   is completed here. mu held. */
static void block_on_done(SimDevice *dev, int worker) {
  atomic_fetch_add(&dev->nblocking, 1);
  if (!drain_finished(dev, worker))
    pthread_cond_wait(&dev->done_cv, &dev->mu);
  atomic_fetch_sub(&dev->nblocking, 1);
}

/* The host ran AHEAD_MAX ops ahead of the device: it helps, and else waits, until AHEAD_RESUME
   are left. Only while every op in flight is bounded (no gate, host op or kernel that may wait),
   so the wait always ends: the ops need nothing from the host. The host learns no clock here. */
static void host_throttle(SimDevice *dev) {
  while (dev->nincomplete > AHEAD_RESUME && !dev->nunbounded) {
    if (drain_finished(dev, -1))
      continue;
    if (dev->rq_n) {
      run_op(dev, rq_pop(dev), -1);
      continue;
    }
    if (dev->pjobs && pjob_help(dev, -1))
      continue;
    if (!dev->nrunning)
      break;  /* nothing ready or running: nothing to wait for */
    uint64_t done = atomic_load_explicit(&dev->ndone, memory_order_acquire);
    pthread_mutex_unlock(&dev->mu);
    uint64_t t0 = now_ns();
    bool moved = false;
    for (unsigned i = 1; !moved; i++) {
      cpu_relax();
      moved = atomic_load_explicit(&dev->ndone, memory_order_relaxed) != done ||
              atomic_load_explicit(&dev->nready, memory_order_relaxed) ||
              atomic_load_explicit(&dev->npjobs, memory_order_relaxed) ||
              atomic_load_explicit(&dev->finished, memory_order_relaxed);
      if (!(i & 63) && now_ns() - t0 > SPIN_NS)
        break;
    }
    pthread_mutex_lock(&dev->mu);
    if (moved || atomic_load(&dev->ndone) != done || dev->rq_n || atomic_load(&dev->npjobs))
      continue;
    dev->nwaiters++;
    atomic_store_explicit(&dev->host_cpu, -1, memory_order_relaxed);
    block_on_done(dev, -1);
    dev->nwaiters--;
  }
}

static SimStatus submit(SimDevice *dev, const SimOpDesc *desc, Op *const *deps, size_t ndeps, Stream *s,
                        Op **out);

/* What every front door calls, with mu held. deps may hold NULLs; they were validated. s is the
   stream the op goes on (deps already hold its last op and waits), or NULL. *out (if out) gets a
   reference. Returns the op's validation status; the op exists whenever *out is set. */
SimStatus op_submit(SimDevice *dev, const SimOpDesc *desc, Op *const *deps, size_t ndeps,
                    Stream *s, Op **out) {
  enum { TOOK_MAX = 4 };
  Op *took[TOOK_MAX];
  size_t ntook = 0;
  if (dev->nthreads && !sim_tls_ctx && !(dev->host_notes++ % NOTE_EVERY))
    note_host_cpu(dev);
  drain_finished(dev, sim_tls_ctx ? sim_tls_ctx->worker : -1);
  if (dev->cfg.sched == SIM_SCHED_THREADS && !sim_tls_ctx && !dev->cfg.no_inline)
    for (size_t i = 0; i < ndeps && ntook < TOOK_MAX; i++)
      if (deps[i] && atomic_load_explicit(&deps[i]->state, memory_order_relaxed) == OP_READY &&
          !deps[i]->unbounded && !deps[i]->woke &&
          (size_t)atomic_load_explicit(&dev->nspinning, memory_order_relaxed) < dev->rq_n) {
        /* handed to the pool and not taken yet, and more ready ops than spinning workers (they
           sleep, or are busy): the new op would only queue behind it, so the host runs it. The
           lock drops while it runs: a reference keeps deps[i] what it is until the new op has
           read it. */
        Op *d = deps[i];
        d->refs++;
        took[ntook++] = d;
        rq_take(dev, d);
        run_op(dev, d, -1);
      }
  SimStatus st = submit(dev, desc, deps, ndeps, s, out);
  for (size_t i = 0; i < ntook; i++)
    op_unref(dev, took[i]);
  return st;
}

/* threads: the lane of a new op, which the scheduler keeps on one thread. An op continues the lane
   of its first dep that no other op continues yet, or starts a lane of its own (a chain of ops
   each waiting for the one before is one lane; a fork starts new lanes). A kernel the host submits
   notes the host's count of kernels on its lane. *turns: whether its lane takes turns with the one
   the host keeps (the host kept a kernel of its own lane for itself since this lane's last
   kernel); then the kernel is timed (run_op, run_deferred: lane_ns). Returns whether it goes to a
   spinning worker: it takes turns, and the lane's last two timed kernels ran LANE_MIN_NS or more
   (lane_note). Its lane goes with it (the ops after it find it in flight and wait in the graph),
   while the host runs its own lane: two chains of kernels on two threads. */
static bool lane_of(SimDevice *dev, Op *op, Op *const *deps, size_t ndeps, bool *turns) {
  op->lane = op->id;
  for (size_t i = 0; i < ndeps; i++) {
    Op *d = deps[i];
    if (d && d != op && !d->extended) {
      d->extended = true;
      op->lane = d->lane;
      op->lane_k = d->lane_k;
      op->lane_ns = d->lane_ns;
      op->lane_last = d->lane_last;
      break;
    }
  }
  *turns = false;
  if (op->d.kind != SIM_OP_KERNEL || sim_tls_ctx)
    return false;
  *turns = op->lane != dev->host_lane && op->lane_k && dev->host_k > op->lane_k;
  op->lane_k = ++dev->nkernels;
  /* a lane of short kernels is timed once in TIME_EVERY of its turns (now_ns twice costs ~50 ns) */
  op->lane_timed = *turns && (op->lane_ns >= LANE_MIN_NS || !op->lane_ns || !(++dev->nturns % TIME_EVERY));
  /* and the host's first two kernels, then one in TIME_EVERY, whatever their lane, for the
     device's figure alone (worth_handing) */
  op->timed = op->lane_timed || dev->nkernels <= 2 || !(dev->nkernels % TIME_EVERY);
  if (!*turns || op->lane_ns < LANE_MIN_NS)
    return false;
  /* a worker that runs this one, or spins for it, waits for the lane's next kernel a little
     longer than the host's lane takes between two of them */
  uint64_t spin = 2 * op->lane_ns < LANE_SPIN_MAX ? 2 * op->lane_ns : LANE_SPIN_MAX;
  atomic_store_explicit(&dev->lane_until, now_ns() + spin, memory_order_relaxed);
  return true;
}

static SimStatus submit(SimDevice *dev, const SimOpDesc *desc, Op *const *deps, size_t ndeps, Stream *s,
                        Op **out) {
  if (out)
    *out = NULL;
  Op *op = NULL;
  if (!rq_reserve(dev, dev->nincomplete + 1) || !(op = op_alloc(dev))) {
    SimDiag dg = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = desc->loc};
    diag_emit(dev, &dg, "out of memory submitting an op");
    return SIM_ERR_MEMORY;
  }
  SimStatus st = SIM_OK;
  op->d = *desc;
  op->id = ++dev->next_op_id;
  op->stream = s ? s->id : 0;
  op->refs = 1 + (out != NULL);
  if ((unsigned)desc->kind > SIM_OP_GATE) {
    SimDiag dg = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = desc->loc, .op = op->id};
    diag_emit(dev, &dg, "unknown op kind %d", (int)desc->kind);
    op->d.kind = SIM_OP_MARKER;
    st = SIM_ERR_ARG;
  }
  SimObs ev = {.kind = SIM_OBS_ENQUEUE, .op = op->id, .stream = op->stream, .opkind = op->d.kind,
               .loc = desc->loc, .dst = (uintptr_t)desc->dst, .src = (uintptr_t)desc->src,
               .bytes = desc->bytes, .worker = -1, .name = "enqueue"};
  obs_emit(dev, &ev);
  for (size_t i = 0; i < ndeps; i++) {
    Op *dep = deps[i];
    if (!dep || dep == op)
      continue;
    SimObs e2 = {.kind = SIM_OBS_DEP, .op = op->id, .other = dep->id, .stream = op->stream,
                 .name = !s ? "dep" : i == 0 ? "stream" : "event", .loc = desc->loc,
                 .worker = -1};
    obs_emit(dev, &e2);
    if (op_done(dep))
      continue;
    void *p = xrealloc_array(op->deps, &op->capdeps, op->ndeps + 1, sizeof *op->deps);
    void *q = p ? xrealloc_array(dep->succ, &dep->capsucc, dep->nsucc + 1, sizeof *dep->succ) : NULL;
    if (p)
      op->deps = p;
    if (!q)
      continue;  /* out of memory: lose this edge rather than crash */
    dep->succ = q;
    op->deps[op->ndeps++] = dep;
    dep->refs++;
    dep->succ[dep->nsucc++] = op;
    op->npending++;
  }
  bool turns = false, apart = dev->cfg.sched == SIM_SCHED_THREADS && lane_of(dev, op, deps, ndeps, &turns);
  if (dev->race)
    race_op_begin(dev, op, deps, ndeps);
  if (op->d.kind != SIM_OP_MARKER && op->d.kind != SIM_OP_GATE) {
    SimStatus ms = mem_check_op(dev, op);
    if (ms != SIM_OK && st == SIM_OK)
      st = ms;
  }
  if (op->d.kind == SIM_OP_KERNEL || op->d.kind == SIM_OP_HOST) {
    op->ctx = calloc(1, sizeof *op->ctx);
    if (!op->ctx) {
      op->d.kind = SIM_OP_MARKER;
    } else {
      op->ctx->dev = dev;
      op->ctx->op = op;
      op->late_access = true;
      dev->late_inflight++;
      if (dev->race)
        race_late_begin(dev, op);
    }
  }
  if (op->d.kind == SIM_OP_GATE) {
    op->next = dev->gates;
    dev->gates = op;
  }
  if (dev->race)
    race_host_submitted(dev);
  dev->nincomplete++;
  op->unbounded = op->d.kind == SIM_OP_GATE || op->d.kind == SIM_OP_HOST ||
                  (op->d.kind == SIM_OP_KERNEL && !op->d.bounded);
  if (op->unbounded)
    dev->nunbounded++;
  if (out)
    *out = op;
  if (op->npending == 0) {
    /* an op after the one the host just ran itself continues the host's chain: a worker would
       only add its latency, as nothing else was submitted in between to overlap with */
    bool follows = false;
    for (size_t i = 0; i < ndeps && !follows && dev->host_last; i++)
      follows = deps[i] && deps[i]->id == dev->host_last;
    if (dev->cfg.sched == SIM_SCHED_THREADS && runs_inline(dev, op, follows, apart)) {
      if (op->d.kind == SIM_OP_KERNEL && worth_handing(dev, follows, apart) && dev->nsleeping)
        kick_worker(dev);  /* it would have gone to a spinning worker */
      if (op->d.kind == SIM_OP_KERNEL && !turns) {  /* the host keeps this lane */
        dev->host_lane = op->lane;
        dev->host_k = op->lane_k;
      }
      if (!sim_tls_ctx)
        dev->host_last = op->id;
      run_op(dev, op, sim_tls_ctx ? sim_tls_ctx->worker : -1);
    } else {
      op->woke = apart && !sim_tls_ctx && dev->cfg.sched == SIM_SCHED_THREADS && !spinner_free(dev);
      make_ready(dev, op);
    }
  }
  if (!sim_tls_ctx) {
    dev->host_polled = false;
    dev->host_submits++;
    if (dev->cfg.sched == SIM_SCHED_THREADS && dev->nincomplete > AHEAD_MAX && !dev->nunbounded)
      host_throttle(dev);
    else if (dev->cfg.sched == SIM_SCHED_SERIAL)
      ops_progress(dev);
    else if (dev->cfg.sched == SIM_SCHED_RANDOM && dev->rq_n) {
      if (rng_next(dev) >> 33 & 1)
        run_op(dev, rq_pop(dev), -1);
      /* a coin per submit lets half the ops pile up until the host waits, and every queued
         kernel is a late op that each later access is checked against: keep a window */
      while (dev->nincomplete > RANDOM_WINDOW && dev->rq_n)
        run_op(dev, rq_pop(dev), -1);
    }
  }
  return st;
}

/* Lazy schedulers: run what is ready (serial: everything; random: one op). */
void ops_progress(SimDevice *dev) {
  drain_finished(dev, -1);
  if (dev->cfg.sched == SIM_SCHED_SERIAL) {
    while (dev->rq_n)
      run_op(dev, rq_pop(dev), -1);
  } else if (dev->cfg.sched == SIM_SCHED_RANDOM && dev->rq_n) {
    run_op(dev, rq_pop(dev), -1);
  }
}

/* ---- waits and deadlock ---- */

/* Walk the not-done ancestors of op; returns an unopened gate among them (or op itself), or NULL.
   *self is set when `me` (the waiting callback's op) is among them. */
static Op *find_blocker(SimDevice *dev, Op *op, const Op *me, bool *self) {
  Op **stack = NULL;
  size_t n = 0, cap = 0;
  Op *gate = NULL;
  uint64_t epoch = ++dev->walk_epoch;
  *self = false;
  void *p = xrealloc_array(stack, &cap, 1, sizeof *stack);
  if (!p)
    return NULL;
  stack = p;
  stack[n++] = op;
  op->mark = epoch;
  while (n) {
    Op *o = stack[--n];
    if (o == me)
      *self = true;
    if (o->d.kind == SIM_OP_GATE && !o->opened && !gate)
      gate = o;
    for (size_t i = 0; i < o->ndeps; i++) {
      Op *d = o->deps[i];
      if (d->mark == epoch || op_done(d))
        continue;
      p = xrealloc_array(stack, &cap, n + 1, sizeof *stack);
      if (!p)
        break;
      stack = p;
      d->mark = epoch;
      stack[n++] = d;
    }
  }
  free(stack);
  return gate;
}

/* Can nothing make progress for this waiter? A waiting callback must also know the host is stuck
   (the host could still open a gate), unless the scheduler has no threads: then the host is the
   thread running the callback. The host, for its part, lets blocked callbacks find their own
   deadlock first: once their waits fail, they go on, and so may the host's. */
static bool quiescent(const SimDevice *dev, const SimCtx *me) {
  if (dev->rq_n || dev->nrunning - dev->nblocked > 0)
    return false;
  if (me)
    return lazy(dev) || dev->host_waiting;
  return dev->nblocked == 0;
}

static void report_deadlock(SimDevice *dev, Op *op, const char *loc, const char *why) {
  bool self = false;
  Op *gate = op ? find_blocker(dev, op, NULL, &self) : dev->gates;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_DEADLOCK, .loc = loc,
               .loc2 = gate ? gate->d.loc : NULL, .op2 = gate ? gate->id : 0};
  const char *what = op ? LOC(op->d.loc) : "all work";
  if (gate)
    diag_emit(dev, &d, "deadlock: %s wait for '%s' can never complete: it waits for the gate at "
              "'%s', which is not open, and nothing else can run", why, what, LOC(gate->d.loc));
  else
    diag_emit(dev, &d, "deadlock: %s wait for '%s' can never complete: every op it needs is "
              "blocked in a wait", why, what);
}

/* Wait until op is done (op NULL: until nothing is incomplete). mu held. */
static SimStatus wait_one(SimDevice *dev, Op *op, const char *why, const char *loc) {
  SimCtx *me = sim_tls_ctx;
  SimStatus st = SIM_OK;
  if (me && op) {
    bool self = false;
    find_blocker(dev, op, me->op, &self);
    if (self) {
      SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_DEADLOCK, .loc = loc,
                   .op = me->op->id, .loc2 = op->d.loc, .op2 = op->id};
      diag_emit(dev, &d, "deadlock: the callback of '%s' waits for '%s', which waits for it",
                LOC(me->op->d.loc), LOC(op->d.loc));
      return SIM_ERR_DEADLOCK;
    }
  }
  if (me && !op) {
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_DEADLOCK, .loc = loc, .op = me->op->id};
    diag_emit(dev, &d, "deadlock: the callback of '%s' waits for all work, which includes itself",
              LOC(me->op->d.loc));
    return SIM_ERR_DEADLOCK;
  }
  int worker = me ? me->worker : -1;
  bool blocked = false;
  /* The host is stuck from here on, even while it helps: a callback it runs for that reason and
     that waits for the host to open a gate must see that nobody will. */
  bool host_was_waiting = dev->host_waiting;
  if (!me) {
    dev->host_waiting = true;
    dev->host_polled = false;
    dev->host_submits = 0;
  }
  for (;;) {
    if (op ? op_done(op) : dev->nincomplete == 0)
      break;
    if (drain_finished(dev, worker))
      continue;
    if (dev->rq_n) {
      run_op(dev, rq_pop(dev), worker);
      continue;
    }
    if (dev->pjobs && pjob_help(dev, worker))
      continue;
    if (!blocked) {  /* from here on this thread counts as blocked for the deadlock rule */
      blocked = true;
      dev->nwaiters++;
      if (me)
        dev->nblocked++;
      if (dev->nwaiters > 1)
        wake_waiters(dev);  /* let other waiters re-check for deadlock */
      continue;
    }
    if (quiescent(dev, me)) {
      report_deadlock(dev, op, loc, why);
      st = SIM_ERR_DEADLOCK;
      break;
    }
    if (!lazy(dev) && op && dev->nrunning > 0) {  /* spin briefly: a wake costs far more */
      unsigned gen = dev->done_gen;
      pthread_mutex_unlock(&dev->mu);
      uint64_t t0 = now_ns();
      for (unsigned i = 1; !op_done(op) && !atomic_load_explicit(&dev->nready, memory_order_relaxed) &&
                           !atomic_load_explicit(&dev->finished, memory_order_relaxed); i++) {
        cpu_relax();
        if (!(i & 63) && now_ns() - t0 > SPIN_NS)
          break;
      }
      pthread_mutex_lock(&dev->mu);
      /* a broadcast while the lock was free woke nobody: this thread was not on done_cv. It may
         have been another waiter's, after which this one must check for a deadlock again (the
         host that starts waiting lets a blocked callback report first) */
      if (op_done(op) || dev->rq_n || atomic_load(&dev->npjobs) || atomic_load(&dev->finished) ||
          dev->done_gen != gen)
        continue;
    }
    if (!me && dev->nthreads)
      atomic_store_explicit(&dev->host_cpu, -1, memory_order_relaxed);  /* its CPU is free */
    block_on_done(dev, worker);
  }
  if (blocked) {
    dev->nwaiters--;
    if (me)
      dev->nblocked--;
  }
  if (!me)
    dev->host_waiting = host_was_waiting;
  return st;
}

/* Wait for every op (NULL entries skipped; ops NULL with n 0 and why "device": all work). The host
   (not a callback) learns the waited ops' clocks. */
SimStatus ops_wait(SimDevice *dev, Op *const *ops, size_t n, const char *why, const char *loc) {
  SimStatus st = SIM_OK;
  if (!ops) {
    st = wait_one(dev, NULL, why, loc);
    if (st == SIM_OK && dev->race && !sim_tls_ctx)
      race_host_join_all(dev);
    SimObs ev = {.kind = SIM_OBS_HOST_WAIT, .name = why, .loc = loc, .worker = -1};
    obs_emit(dev, &ev);
    return st;
  }
  for (size_t i = 0; i < n; i++) {
    Op *op = ops[i];
    if (!op)
      continue;
    op->refs++;  /* while the lock is dropped, whoever else holds op may let it go */
    SimStatus s1 = wait_one(dev, op, why, loc);
    if (s1 != SIM_OK) {
      st = s1;
      op_unref(dev, op);
      continue;
    }
    if (dev->race && !sim_tls_ctx)
      race_host_join(dev, op);
    SimObs ev = {.kind = SIM_OBS_HOST_WAIT, .op = op->id, .stream = op->stream, .name = why,
                 .loc = loc, .worker = -1};
    obs_emit(dev, &ev);
    op_unref(dev, op);
  }
  return st;
}

/* Block until op is done without ordering the host after it: a wait the program did not ask for,
   such as a free that must not take memory from ops that still use it. Were the host to learn
   op's clock here, every later host action and op would be ordered after op's deps, and a race
   of theirs with those deps would go unseen. mu held. */
SimStatus op_wait_unordered(SimDevice *dev, Op *op, const char *why, const char *loc) {
  op->refs++;  /* while the lock is dropped, whoever else holds op may let it go */
  SimStatus st = wait_one(dev, op, why, loc);
  op_unref(dev, op);
  return st;
}

/* ---- parallel for ---- */

static void pjob_run(SimDevice *dev, PJob *job, SimCtx *ctx) {
  for (;;) {
    size_t i = atomic_fetch_add(&job->next, 1);
    if (i >= job->n) {
      if (!atomic_exchange(&job->exhausted, true))
        atomic_fetch_sub(&dev->npjobs, 1);
      return;
    }
    job->fn(ctx, i, job->user);
  }
}

/* An idle worker joins a parallel-for with indices left; false if there is none. mu held. */
static bool pjob_help(SimDevice *dev, int worker) {
  PJob *job = dev->pjobs;
  while (job && atomic_load(&job->exhausted))
    job = job->next_job;
  if (!job)
    return false;
  SimCtx *sub = calloc(1, sizeof *sub);
  void *p = sub ? xrealloc_array(job->subs, &job->capsubs, job->nsubs + 1, sizeof *job->subs) : NULL;
  if (!p) {
    free(sub);
    return false;
  }
  job->subs = p;
  sub->dev = dev;
  sub->op = job->owner->op;
  sub->worker = worker;
  sub->sub = true;
  job->active++;
  pthread_mutex_unlock(&dev->mu);
  SimCtx *prev = sim_tls_ctx;
  sim_tls_ctx = sub;
  pjob_run(dev, job, sub);
  sim_tls_ctx = prev;
  pthread_mutex_lock(&dev->mu);
  job->subs[job->nsubs++] = sub;
  if (--job->active == 0)
    wake_waiters(dev);
  return true;
}

/* ---- workers ---- */

typedef struct WorkerArg { SimDevice *dev; int idx; } WorkerArg;

static void *worker_main(void *arg) {
  WorkerArg wa = *(WorkerArg *)arg;
  free(arg);
  SimDevice *dev = wa.dev;
  pthread_mutex_lock(&dev->mu);
  for (;;) {
    if (drain_finished(dev, wa.idx))
      continue;
    if (dev->rq_n) {
      Op *op = rq_pop(dev);
      if (!defers(op)) {
        run_op(dev, op, wa.idx);
        continue;
      }
      run_deferred(dev, op, wa.idx);  /* returns without the lock: spin for the next op */
      atomic_fetch_add(&dev->nspinning, 1);
    } else if (pjob_help(dev, wa.idx)) {
      continue;
    } else if (atomic_load(&dev->stop)) {
      break;
    } else {
      atomic_fetch_add(&dev->nspinning, 1);
      pthread_mutex_unlock(&dev->mu);
    }
    /* spin for work, unless this thread shares the host's CPU: there its spinning only keeps the
       host from running, and the host could hand it nothing meanwhile. A kernel it left on
       dev->finished is completed by the host's next submit, or here once the spin ends, or at
       once while the host runs an op's body (host_busy): the host would not complete it before
       that ends, and the ops after it in its chain would wait that long. */
    uint64_t t0 = now_ns();
    for (unsigned i = 1; !atomic_load_explicit(&dev->nready, memory_order_relaxed) &&
                         !atomic_load_explicit(&dev->npjobs, memory_order_relaxed) &&
                         !atomic_load_explicit(&dev->stop, memory_order_relaxed) &&
                         !(atomic_load_explicit(&dev->host_busy, memory_order_relaxed) &&
                           atomic_load_explicit(&dev->finished, memory_order_relaxed)); i++) {
      if (!(i & 63)) {
        uint64_t t = now_ns();
        if ((t - t0 > SPIN_NS && t > atomic_load_explicit(&dev->lane_until, memory_order_relaxed)) ||
            on_host_cpu(dev))
          break;
      }
      cpu_relax();
    }
    pthread_mutex_lock(&dev->mu);
    atomic_fetch_sub(&dev->nspinning, 1);
    if (dev->rq_n) {
      dev->kick_gap_ns = KICK_GAP_MIN;
      continue;
    }
    if (atomic_load(&dev->stop) || atomic_load(&dev->npjobs) || atomic_load(&dev->finished))
      continue;  /* (a kernel left on dev->finished is completed before this worker sleeps) */
    if (dev->kick_gap_ns < KICK_GAP_MAX)
      dev->kick_gap_ns *= 2;
    dev->nsleeping++;
    pthread_cond_wait(&dev->work_cv, &dev->mu);
    dev->nsleeping--;
  }
  pthread_mutex_unlock(&dev->mu);
  return NULL;
}

void exec_start(SimDevice *dev) {
  dev->next_op_id = 0;
  dev->kick_gap_ns = KICK_GAP_MIN;
  atomic_init(&dev->host_cpu, -1);
}

bool exec_start_workers(SimDevice *dev) {
  if (lazy(dev))
    return true;
  int n = dev->cfg.workers;
  if (n <= 0) {  /* one CPU is the host's: it submits, and it runs ops and blocks while it waits */
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c > 1 ? (int)c - 1 : 1;
  }
  if (n > 256)
    n = 256;
  dev->threads = calloc((size_t)n, sizeof *dev->threads);
  if (!dev->threads)
    return false;
  for (int i = 0; i < n; i++) {
    WorkerArg *wa = malloc(sizeof *wa);
    if (!wa)
      return false;
    wa->dev = dev;
    wa->idx = i;
    if (pthread_create(&dev->threads[i], NULL, worker_main, wa)) {
      free(wa);
      return false;
    }
    dev->nthreads++;
  }
  return true;
}

/* Drain all work (a deadlock is reported, then the gates are opened so the work can finish), then
   stop the workers. */
void exec_drain(SimDevice *dev, const char *loc) {
  if (dev->nincomplete && !sim_tls_ctx)
    wait_one(dev, NULL, "device", loc);
}

void exec_finish(SimDevice *dev) {
  pthread_mutex_lock(&dev->mu);
  for (;;) {
    if (wait_one(dev, NULL, "device", "sim_destroy") == SIM_OK)
      break;
    while (dev->gates) {
      Op *g = dev->gates;
      dev->gates = g->next;
      g->opened = true;
      if (g->npending == 0 && !op_done(g))
        make_ready(dev, g);
    }
  }
  atomic_store(&dev->stop, true);
  pthread_cond_broadcast(&dev->work_cv);
  pthread_mutex_unlock(&dev->mu);
  for (int i = 0; i < dev->nthreads; i++)
    pthread_join(dev->threads[i], NULL);
  dev->nthreads = 0;
}

/* ---- the token front door ---- */

/* Is op a live op of dev? Reports a misuse when not. */
bool op_valid(SimDevice *dev, const Op *op, const char *what, const char *loc) {
  if (op && op->magic == OP_MAGIC && op->dev == dev && op->refs > 0)
    return true;
  SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc};
  if (op && op->magic == OP_FREED)
    diag_emit(dev, &d, "%s: token used after it was released", what);
  else if (op && op->magic == OP_MAGIC)
    diag_emit(dev, &d, "%s: token belongs to another device", what);
  else
    diag_emit(dev, &d, "%s: not a token", what);
  return false;
}

SimStatus sim_submit(SimDevice *dev, const SimOpDesc *desc, SimOp *const *deps, size_t ndeps,
                     SimOp **out) {
  if (out)
    *out = NULL;
  if (!dev || !desc || (ndeps && !deps))
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  Op *small[8], **ok = small;
  pthread_mutex_lock(&dev->mu);
  if (ndeps > 8 && !(ok = malloc(ndeps * sizeof *ok))) {
    pthread_mutex_unlock(&dev->mu);
    return SIM_ERR_MEMORY;
  }
  for (size_t i = 0; i < ndeps; i++) {
    ok[i] = NULL;
    if (!deps[i])
      continue;
    if (op_valid(dev, deps[i], "dependency", desc->loc))
      ok[i] = deps[i];
    else
      st = SIM_ERR_HANDLE;
  }
  SimStatus s2 = op_submit(dev, desc, ok, ndeps, NULL, out);
  pthread_mutex_unlock(&dev->mu);
  if (ok != small)
    free(ok);
  return st != SIM_OK ? st : s2;
}

void sim_op_release(SimDevice *dev, SimOp *op) {
  if (!dev || !op)
    return;
  pthread_mutex_lock(&dev->mu);
  if (op_valid(dev, op, "sim_op_release", NULL))
    op_unref(dev, op);
  pthread_mutex_unlock(&dev->mu);
}

SimOp *sim_op_retain(SimDevice *dev, SimOp *op) {
  if (!dev || !op)
    return NULL;
  pthread_mutex_lock(&dev->mu);
  bool ok = op_valid(dev, op, "sim_op_retain", NULL);
  if (ok)
    op->refs++;
  pthread_mutex_unlock(&dev->mu);
  return ok ? op : NULL;
}

uint64_t sim_op_id(const SimOp *op) { return op && op->magic == OP_MAGIC ? op->id : 0; }

SimStatus sim_op_query(SimDevice *dev, SimOp *op) {
  if (!dev || !op)
    return SIM_ERR_ARG;
  pthread_mutex_lock(&dev->mu);
  SimStatus st = SIM_ERR_HANDLE;
  if (op_valid(dev, op, "sim_op_query", NULL)) {
    if (!sim_tls_ctx)
      dev->host_polled = false;
    if (!op_done(op) && !sim_tls_ctx)
      ops_progress(dev);
    st = op_done(op) ? SIM_OK : SIM_NOT_READY;
    if (st == SIM_OK && dev->race && !sim_tls_ctx)  /* observed complete: ordered like a wait */
      race_host_join(dev, op);
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_host_wait(SimDevice *dev, SimOp *const *ops, size_t n, const char *loc) {
  if (!dev || (n && !ops))
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  for (size_t i = 0; i < n; i++) {
    if (!ops[i])
      continue;
    if (!op_valid(dev, ops[i], "wait", loc)) {
      st = SIM_ERR_HANDLE;
      continue;
    }
    SimStatus s1 = ops_wait(dev, &ops[i], 1, "wait", loc);
    if (s1 != SIM_OK)
      st = s1;
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_gate_open(SimDevice *dev, SimOp *gate, const char *loc) {
  if (!dev || !gate)
    return SIM_ERR_ARG;
  SimStatus st = SIM_OK;
  pthread_mutex_lock(&dev->mu);
  if (!op_valid(dev, gate, "sim_gate_open", loc)) {
    st = SIM_ERR_HANDLE;
  } else if (gate->d.kind != SIM_OP_GATE || gate->opened) {
    SimDiag d = {.severity = SIM_SEV_ERROR, .kind = SIM_DIAG_MISUSE, .loc = loc, .op = gate->id,
                 .loc2 = gate->d.loc};
    diag_emit(dev, &d, gate->opened ? "gate '%s' is already open" : "'%s' is not a gate",
              LOC(gate->d.loc));
    st = SIM_ERR_ARG;
  } else {
    gate->opened = true;
    for (Op **p = &dev->gates; *p; p = &(*p)->next)
      if (*p == gate) {
        *p = gate->next;
        break;
      }
    gate->next = NULL;
    if (gate->npending == 0)
      make_ready(dev, gate);
    if (!sim_tls_ctx && dev->cfg.sched == SIM_SCHED_SERIAL)
      ops_progress(dev);
  }
  pthread_mutex_unlock(&dev->mu);
  return st;
}

SimStatus sim_device_sync(SimDevice *dev, const char *loc) {
  if (!dev)
    return SIM_ERR_ARG;
  pthread_mutex_lock(&dev->mu);
  SimStatus st = ops_wait(dev, NULL, 0, "device", loc);
  pthread_mutex_unlock(&dev->mu);
  return st;
}

void sim_host_stall(SimDevice *dev, SimStall *out) {
  *out = (SimStall){.sched = dev ? dev->cfg.sched : SIM_SCHED_THREADS};
  if (!dev)
    return;
  pthread_mutex_lock(&dev->mu);
  out->polled = dev->host_polled;
  uint64_t first = 0;
  for (Op *op = lazy(dev) ? dev->all_ops : NULL; op; op = op->allnext) {
    if (op->magic != OP_MAGIC || op_done(op))
      continue;
    out->pending++;
    if (!first || op->id < first) {
      first = op->id;
      out->first_loc = op->d.loc;
    }
  }
  pthread_mutex_unlock(&dev->mu);
}

/* ---- inside an op ---- */

SimDevice *sim_ctx_device(SimCtx *ctx) { return ctx ? ctx->dev : NULL; }
uint64_t sim_ctx_op_id(const SimCtx *ctx) { return ctx && ctx->op ? ctx->op->id : 0; }
int sim_ctx_worker(const SimCtx *ctx) { return ctx ? ctx->worker : -1; }

/* The owner runs indices itself while idle workers join (pjob_help); then it waits for the
   helpers and takes their recorded accesses into its own ctx, so they count as the op's. */
SimStatus sim_ctx_parallel_for(SimCtx *ctx, size_t n, SimForFn fn, void *user) {
  if (!ctx || !fn)
    return SIM_ERR_ARG;
  SimDevice *dev = ctx->dev;
  if (n < 2 || ctx->sub || dev->nthreads == 0) {
    for (size_t i = 0; i < n; i++)
      fn(ctx, i, user);
    return ctx->failed ? SIM_ERR_MEMORY : SIM_OK;
  }
  PJob job = {.fn = fn, .user = user, .n = n, .owner = ctx};
  atomic_init(&job.next, 0);
  atomic_init(&job.exhausted, false);
  pthread_mutex_lock(&dev->mu);
  job.next_job = dev->pjobs;
  dev->pjobs = &job;
  atomic_fetch_add(&dev->npjobs, 1);
  if (dev->nsleeping)
    pthread_cond_broadcast(&dev->work_cv);
  if (dev->nwaiters)
    wake_waiters(dev);  /* waiters help too */
  pthread_mutex_unlock(&dev->mu);
  pjob_run(dev, &job, ctx);
  pthread_mutex_lock(&dev->mu);
  for (PJob **p = &dev->pjobs; *p; p = &(*p)->next_job)
    if (*p == &job) {
      *p = job.next_job;
      break;
    }
  while (job.active)
    pthread_cond_wait(&dev->done_cv, &dev->mu);
  for (size_t k = 0; k < job.nsubs; k++) {
    SimCtx *sub = job.subs[k];
    void *p = xrealloc_array(ctx->acc, &ctx->capacc, ctx->nacc + sub->nacc, sizeof *ctx->acc);
    if (p && sub->nacc) {
      ctx->acc = p;
      memcpy(ctx->acc + ctx->nacc, sub->acc, sub->nacc * sizeof *ctx->acc);
      ctx->nacc += sub->nacc;
    }
    ctx->failed = ctx->failed || sub->failed;
    free(sub->acc);
    free(sub);
  }
  free(job.subs);
  pthread_mutex_unlock(&dev->mu);
  return ctx->failed ? SIM_ERR_MEMORY : SIM_OK;
}
