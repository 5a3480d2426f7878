/* The executor: token deps, gates, deadlock, schedulers, observer, callbacks that wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"

/* ---- a sink that keeps what it got ---- */

#include "tests/unit/sim_sink.h"

static inline void nap(long us) {
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
}

typedef struct Log { int v[256]; int n; } Log;
typedef struct Tag { Log *log; int tag; long sleep_us; } Tag;

static void log_fn(SimCtx *ctx, void *user) {
  Tag *t = user;
  (void)ctx;
  if (t->sleep_us)
    nap(t->sleep_us);
  t->log->v[t->log->n++] = t->tag;
}

static SimOpDesc log_op(Tag *t) {
  return (SimOpDesc){.kind = SIM_OP_HOST, .fn = log_fn, .user = t, .loc = "log"};
}

static void test_submit_deps_run_in_dependency_order(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  Log log = {0};
  Tag t[3] = {{&log, 1, 3000}, {&log, 2, 1000}, {&log, 3, 0}};
  SimOp *o[3];
  SimOpDesc d0 = log_op(&t[0]), d1 = log_op(&t[1]), d2 = log_op(&t[2]);
  assert_int_equal(sim_submit(dev, &d0, NULL, 0, &o[0]), SIM_OK);
  assert_int_equal(sim_submit(dev, &d1, &o[0], 1, &o[1]), SIM_OK);
  assert_int_equal(sim_submit(dev, &d2, &o[1], 1, &o[2]), SIM_OK);
  assert_int_equal(sim_host_wait(dev, &o[2], 1, "wait"), SIM_OK);
  assert_int_equal(sim_op_query(dev, o[0]), SIM_OK);
  assert_int_equal(log.n, 3);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(log.v[i], i + 1);
    sim_op_release(dev, o[i]);
  }
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

typedef struct Join { atomic_int hits; int seen; } Join;

static void hit_fn(SimCtx *ctx, void *user) {
  (void)ctx;
  Join *j = user;
  nap(200 * (long)(atomic_load(&j->hits) % 3));
  atomic_fetch_add(&j->hits, 1);
}

static void join_fn(SimCtx *ctx, void *user) {
  (void)ctx;
  Join *j = user;
  j->seen = atomic_load(&j->hits);
}

static void test_submit_join_waits_for_all_deps(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  Join jn = {0};
  SimOp *o[10], *j;
  for (int i = 0; i < 10; i++) {
    SimOpDesc d = {.kind = SIM_OP_HOST, .fn = hit_fn, .user = &jn, .loc = "hit"};
    sim_submit(dev, &d, NULL, 0, &o[i]);
  }
  SimOpDesc dj = {.kind = SIM_OP_HOST, .fn = join_fn, .user = &jn, .loc = "join"};
  sim_submit(dev, &dj, o, 10, &j);
  assert_int_equal(sim_host_wait(dev, &j, 1, "wait"), SIM_OK);
  assert_int_equal(jn.seen, 10);
  for (int i = 0; i < 10; i++)
    sim_op_release(dev, o[i]);
  sim_op_release(dev, j);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_host_wait_on_closed_gate_reports_deadlock(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimOp *g, *after;
  SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "prog.mlir:2:1"};
  SimOpDesc md = {.kind = SIM_OP_MARKER, .loc = "prog.mlir:3:1"};
  sim_submit(dev, &gd, NULL, 0, &g);
  sim_submit(dev, &md, &g, 1, &after);
  assert_int_equal(sim_host_wait(dev, &after, 1, "prog.mlir:4:1"), SIM_ERR_DEADLOCK);
  assert_int_equal(count(&s, SIM_DIAG_DEADLOCK), 1);
  assert_true(has(&s, "prog.mlir:4:1: deadlock: wait wait for 'prog.mlir:3:1' can never complete: "
                      "it waits for the gate at 'prog.mlir:2:1'"));
  assert_int_equal(sim_gate_open(dev, g, "open"), SIM_OK);
  assert_int_equal(sim_host_wait(dev, &after, 1, "again"), SIM_OK);
  sim_op_release(dev, g);
  sim_op_release(dev, after);
  sim_destroy(dev);
  assert_int_equal(s.n, 1);
}

/* sim_host_stall: under a lazy scheduler, the ops not done and whether the host loaded tracked
 * memory since its last submit, wait or query; nothing pending under threads. */
static void test_host_stall_counts_pending_ops_and_polls(void **state) {
  (void)state;
  for (int sched = SIM_SCHED_THREADS; sched <= SIM_SCHED_RANDOM; sched++) {
    Sink s;
    SimDevice *dev = make(&s, (SimSched)sched);
    void *p = NULL;
    assert_int_equal(sim_mem_alloc(dev, 4, SIM_MEM_HOST_SHARED, &p, "alloc"), SIM_OK);
    SimOp *g, *after;
    SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "prog.mlir:2:1"};
    SimOpDesc md = {.kind = SIM_OP_MARKER, .loc = "prog.mlir:3:1"};
    sim_submit(dev, &gd, NULL, 0, &g);
    sim_submit(dev, &md, &g, 1, &after);
    SimStall st;
    sim_host_stall(dev, &st);
    assert_int_equal(st.sched, sched);
    assert_false(st.polled);
    uint32_t v = 0;
    assert_int_equal(sim_host_access(dev, p, 4, true, "store"), SIM_OK);
    memcpy(p, &v, 4);
    assert_int_equal(sim_host_access(dev, p, 4, false, "load"), SIM_OK);
    sim_host_stall(dev, &st);
    assert_true(st.polled);
    if (sched == SIM_SCHED_THREADS) {
      assert_int_equal(st.pending, 0);
    } else {
      assert_int_equal(st.pending, 2);
      assert_string_equal(st.first_loc, "prog.mlir:2:1");
    }
    assert_int_equal(sim_op_query(dev, after), SIM_NOT_READY); /* a query: the host asked again */
    sim_host_stall(dev, &st);
    assert_false(st.polled);
    assert_int_equal(sim_gate_open(dev, g, "open"), SIM_OK);
    assert_int_equal(sim_host_wait(dev, &after, 1, "wait"), SIM_OK);
    sim_host_stall(dev, &st);
    assert_int_equal(st.pending, 0);
    sim_op_release(dev, g);
    sim_op_release(dev, after);
    assert_int_equal(sim_mem_free(dev, p, "free"), SIM_OK);
    sim_destroy(dev);
    assert_int_equal(s.n, 0);
  }
}

static void test_stream_sync_behind_closed_gate_reports_deadlock(void **state) {
  (void)state;
  for (int sched = SIM_SCHED_THREADS; sched <= SIM_SCHED_RANDOM; sched++) {
    Sink s;
    SimDevice *dev = make(&s, (SimSched)sched);
    SimStream a, b;
    SimEvent e;
    sim_stream_create(dev, &a, "a");
    sim_stream_create(dev, &b, "b");
    sim_event_create(dev, &e, "e");
    SimOp *g;
    SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"};
    sim_stream_submit(dev, a, &gd, &g);
    sim_event_record(dev, e, a, "rec");
    sim_stream_wait_event(dev, b, e, "wait");
    assert_int_equal(sim_stream_sync(dev, b, "sync-b"), SIM_ERR_DEADLOCK);
    assert_int_equal(sim_device_sync(dev, "dev-sync"), SIM_ERR_DEADLOCK);
    assert_int_equal(count(&s, SIM_DIAG_DEADLOCK), 2);
    sim_gate_open(dev, g, "open");
    assert_int_equal(sim_stream_sync(dev, b, "sync-b"), SIM_OK);
    sim_op_release(dev, g);
    sim_event_destroy(dev, e, "d");
    sim_stream_destroy(dev, a, "d");
    sim_stream_destroy(dev, b, "d");
    sim_destroy(dev);
  }
}

static void test_sim_destroy_with_closed_gate_reports_and_finishes(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  Log log = {0};
  Tag t = {&log, 1, 0};
  SimOp *g, *o;
  SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"}, d = log_op(&t);
  sim_submit(dev, &gd, NULL, 0, &g);
  sim_submit(dev, &d, &g, 1, &o);
  sim_op_release(dev, g);
  sim_op_release(dev, o);
  sim_destroy(dev);
  assert_int_equal(count(&s, SIM_DIAG_DEADLOCK), 1);
  assert_int_equal(log.n, 1);
}

typedef struct SelfWait { SimDevice *dev; SimOp *target; SimStatus got; } SelfWait;

static void self_wait_fn(SimCtx *ctx, void *user) {
  SelfWait *w = user;
  w->got = sim_host_wait(sim_ctx_device(ctx), &w->target, 1, "cb-wait");
}

static void test_callback_waiting_for_its_dependent_reports_deadlock(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimOp *g, *cb, *after;
  SelfWait w = {dev, NULL, SIM_OK};
  SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc cd = {.kind = SIM_OP_HOST, .fn = self_wait_fn, .user = &w, .loc = "callback"};
  SimOpDesc md = {.kind = SIM_OP_MARKER, .loc = "after"};
  sim_submit(dev, &gd, NULL, 0, &g);           /* hold the callback until w.target is set */
  sim_submit(dev, &cd, &g, 1, &cb);
  sim_submit(dev, &md, &cb, 1, &after);
  w.target = after;
  sim_gate_open(dev, g, "open");
  assert_int_equal(sim_host_wait(dev, &after, 1, "host-wait"), SIM_OK);
  assert_int_equal(w.got, SIM_ERR_DEADLOCK);
  assert_true(has(&s, "cb-wait: deadlock: the callback of 'callback' waits for 'after', which waits for it"));
  sim_op_release(dev, g);
  sim_op_release(dev, cb);
  sim_op_release(dev, after);
  sim_destroy(dev);
}

typedef struct Helper { SimDevice *dev; SimOp *target; SimStatus got; Log *log; } Helper;

static void helper_fn(SimCtx *ctx, void *user) {
  Helper *h = user;
  h->got = sim_host_wait(sim_ctx_device(ctx), &h->target, 1, "cb-wait");
  h->log->v[h->log->n++] = 2;
}

/* One worker: the callback waits for an op queued behind it and must run it itself. */
static void test_callback_wait_with_one_worker_helps_instead_of_hanging(void **state) {
  (void)state;
  Sink s = {0};
  SimConfig cfg = {.workers = 1, .sink = sink_fn, .sink_user = &s, .no_inline = true};
  SimDevice *dev = sim_create(&cfg);
  Log log = {0};
  Tag t = {&log, 1, 0};
  Helper h = {dev, NULL, SIM_ERR_ARG, &log};
  SimOp *g, *first, *cb;
  SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc fd = log_op(&t);
  SimOpDesc cd = {.kind = SIM_OP_HOST, .fn = helper_fn, .user = &h, .loc = "callback"};
  sim_submit(dev, &gd, NULL, 0, &g);
  sim_submit(dev, &cd, &g, 1, &cb);
  sim_submit(dev, &fd, &g, 1, &first);
  h.target = first;
  sim_gate_open(dev, g, "open");
  assert_int_equal(sim_host_wait(dev, &cb, 1, "wait"), SIM_OK);
  assert_int_equal(h.got, SIM_OK);
  assert_int_equal(log.n, 2);
  assert_int_equal(log.v[0], 1);
  sim_op_release(dev, g);
  sim_op_release(dev, first);
  sim_op_release(dev, cb);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

typedef struct GateWait { SimOp *gate_after; SimStatus got; } GateWait;

static void gate_wait_fn(SimCtx *ctx, void *user) {
  GateWait *w = user;
  w->got = sim_host_wait(sim_ctx_device(ctx), &w->gate_after, 1, "cb-wait");
}

/* A callback waits for work behind a gate only the host could open, and the host waits for the
   callback: the callback's wait is the one reported, then everything goes on. */
static void test_callback_and_host_both_stuck_report_callback_once(void **state) {
  (void)state;
  for (int sched = SIM_SCHED_THREADS; sched <= SIM_SCHED_RANDOM; sched++) {
    Sink s;
    SimDevice *dev = make(&s, (SimSched)sched);
    SimOp *g, *after, *cb;
    SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"};
    SimOpDesc md = {.kind = SIM_OP_MARKER, .loc = "behind-gate"};
    sim_submit(dev, &gd, NULL, 0, &g);
    sim_submit(dev, &md, &g, 1, &after);
    GateWait w = {after, SIM_OK};
    SimOpDesc cd = {.kind = SIM_OP_HOST, .fn = gate_wait_fn, .user = &w, .loc = "callback"};
    sim_submit(dev, &cd, NULL, 0, &cb);
    assert_int_equal(sim_host_wait(dev, &cb, 1, "host-wait"), SIM_OK);
    assert_int_equal(w.got, SIM_ERR_DEADLOCK);
    assert_int_equal(count(&s, SIM_DIAG_DEADLOCK), 1);
    assert_true(has(&s, "cb-wait: deadlock: wait wait for 'behind-gate' can never complete: it "
                        "waits for the gate at 'gate'"));
    sim_gate_open(dev, g, "open");
    sim_op_release(dev, g);
    sim_op_release(dev, after);
    sim_op_release(dev, cb);
    sim_destroy(dev);
    assert_int_equal(count(&s, SIM_DIAG_DEADLOCK), 1);
  }
}

static void sleep_fn(SimCtx *ctx, void *user) {
  (void)ctx;
  (void)user;
  nap(20000);
}

/* The only worker is busy, so the host, waiting, runs the callback itself: the callback's wait
   must still be seen as stuck (the host is waiting), not sleep forever. */
static void test_callback_run_by_waiting_host_reports_deadlock(void **state) {
  (void)state;
  Sink s = {0};
  SimConfig cfg = {.workers = 1, .sink = sink_fn, .sink_user = &s};
  SimDevice *dev = sim_create(&cfg);
  SimOp *busy, *g, *after, *cb;
  SimOpDesc bd = {.kind = SIM_OP_HOST, .fn = sleep_fn, .loc = "busy"};
  SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc md = {.kind = SIM_OP_MARKER, .loc = "behind-gate"};
  sim_submit(dev, &bd, NULL, 0, &busy);
  nap(2000);  /* let the worker take it */
  sim_submit(dev, &gd, NULL, 0, &g);
  sim_submit(dev, &md, &g, 1, &after);
  GateWait w = {after, SIM_OK};
  SimOpDesc cd = {.kind = SIM_OP_HOST, .fn = gate_wait_fn, .user = &w, .loc = "callback"};
  sim_submit(dev, &cd, NULL, 0, &cb);
  assert_int_equal(sim_host_wait(dev, &cb, 1, "host-wait"), SIM_OK);
  assert_int_equal(w.got, SIM_ERR_DEADLOCK);
  sim_gate_open(dev, g, "open");
  sim_op_release(dev, busy);
  sim_op_release(dev, g);
  sim_op_release(dev, after);
  sim_op_release(dev, cb);
  sim_destroy(dev);
  assert_int_equal(count(&s, SIM_DIAG_DEADLOCK), 1);
}

/* ---- schedulers ---- */

typedef struct Order { uint64_t v[64]; int n; } Order;

static void order_obs(const SimObs *ev, void *user) {
  Order *o = user;
  if (ev->kind == SIM_OBS_START && ev->opkind == SIM_OP_MEMSET && o->n < 64)
    o->v[o->n++] = ev->op;
}

static void run_independent(SimSched sched, uint64_t seed, Order *o) {
  memset(o, 0, sizeof *o);
  SimConfig cfg = {.sched = sched, .seed = seed, .observer = order_obs, .observer_user = o,
                   .no_race_check = true};
  SimDevice *dev = sim_create(&cfg);
  static char buf[32][16];
  for (int i = 0; i < 32; i++) {
    SimOpDesc d = {.kind = SIM_OP_MEMSET, .dst = buf[i], .bytes = 16, .loc = "set"};
    SimOp *op;
    sim_submit(dev, &d, NULL, 0, &op);
    sim_op_release(dev, op);
  }
  sim_device_sync(dev, "sync");
  sim_destroy(dev);
  assert_int_equal(o->n, 32);
}

static void test_sched_random_same_seed_same_order(void **state) {
  (void)state;
  Order a, b, c;
  run_independent(SIM_SCHED_RANDOM, 42, &a);
  run_independent(SIM_SCHED_RANDOM, 42, &b);
  run_independent(SIM_SCHED_RANDOM, 43, &c);
  assert_memory_equal(a.v, b.v, sizeof a.v);
  assert_memory_not_equal(a.v, c.v, sizeof a.v);
  bool sorted = true;
  for (int i = 1; i < 32; i++)
    sorted = sorted && a.v[i] > a.v[i - 1];
  assert_false(sorted);
}

typedef struct Flight { int now, most; } Flight;

static void flight_obs(const SimObs *ev, void *user) {
  Flight *f = user;
  if (ev->kind == SIM_OBS_ENQUEUE && ++f->now > f->most)
    f->most = f->now;
  else if (ev->kind == SIM_OBS_END)
    f->now--;
}

/* A coin per submit would leave half of 2000 independent ops queued until the sync; the random
   scheduler keeps a window of 32 in flight (33 while the next is submitted), and still reorders. */
static void test_sched_random_keeps_a_window_in_flight(void **state) {
  (void)state;
  Flight f = {0};
  SimConfig cfg = {.sched = SIM_SCHED_RANDOM, .seed = 7, .observer = flight_obs, .observer_user = &f};
  SimDevice *dev = sim_create(&cfg);
  static char buf[2000][16];
  for (int i = 0; i < 2000; i++) {
    SimOpDesc d = {.kind = SIM_OP_MEMSET, .dst = buf[i], .bytes = 16, .loc = "set"};
    SimOp *op;
    assert_int_equal(sim_submit(dev, &d, NULL, 0, &op), SIM_OK);
    sim_op_release(dev, op);
  }
  assert_int_equal(sim_device_sync(dev, "sync"), SIM_OK);
  sim_destroy(dev);
  assert_int_equal(f.now, 0);
  assert_true(f.most >= 16);
  assert_true(f.most <= 33);
}

static void test_sched_serial_runs_in_submit_order(void **state) {
  (void)state;
  Order a;
  run_independent(SIM_SCHED_SERIAL, 0, &a);
  for (int i = 0; i < 32; i++)
    assert_int_equal(a.v[i], (uint64_t)i + 1);
}

static void test_sched_parse_accepts_the_three_forms(void **state) {
  (void)state;
  SimConfig cfg = {0};
  assert_int_equal(sim_sched_parse("serial", &cfg), SIM_OK);
  assert_int_equal(cfg.sched, SIM_SCHED_SERIAL);
  assert_int_equal(sim_sched_parse("random:1234", &cfg), SIM_OK);
  assert_int_equal(cfg.sched, SIM_SCHED_RANDOM);
  assert_int_equal(cfg.seed, 1234);
  assert_int_equal(sim_sched_parse("threads", &cfg), SIM_OK);
  assert_int_equal(cfg.sched, SIM_SCHED_THREADS);
  assert_int_equal(sim_sched_parse("random:", &cfg), SIM_ERR_ARG);
  assert_int_equal(sim_sched_parse("random:12x", &cfg), SIM_ERR_ARG);
  assert_int_equal(sim_sched_parse("fast", &cfg), SIM_ERR_ARG);
  /* the seed: no sign, no space, no overflow; the largest 64-bit value is a seed */
  assert_int_equal(sim_sched_parse("random:-1", &cfg), SIM_ERR_ARG);
  assert_int_equal(sim_sched_parse("random: 5", &cfg), SIM_ERR_ARG);
  assert_int_equal(sim_sched_parse("random:18446744073709551616", &cfg), SIM_ERR_ARG);
  assert_int_equal(sim_sched_parse("random:18446744073709551615", &cfg), SIM_OK);
  assert_true(cfg.seed == UINT64_MAX);
}

/* ---- observer, misuse of tokens, callbacks ---- */

typedef struct Seen { int enq, start, end, dep, hostwait, api; size_t acc_bytes; } Seen;

static void seen_obs(const SimObs *ev, void *user) {
  Seen *s = user;
  switch (ev->kind) {
  case SIM_OBS_ENQUEUE: s->enq++; break;
  case SIM_OBS_START: s->start++; break;
  case SIM_OBS_END:
    s->end++;
    for (size_t i = 0; i < ev->nacc; i++)
      s->acc_bytes += ev->acc[i].write ? ev->acc[i].bytes : 0;
    break;
  case SIM_OBS_DEP: s->dep++; break;
  case SIM_OBS_HOST_WAIT: s->hostwait++; break;
  case SIM_OBS_API: s->api++; break;
  default: break;
  }
}

static void touch_kernel(SimCtx *ctx, void *user) {
  char *p = user;
  for (int i = 0; i < 16; i++)
    sim_access(ctx, p + i, 1, true, "store");
}

static void test_observer_sees_ops_edges_and_waits(void **state) {
  (void)state;
  Seen seen = {0};
  SimConfig cfg = {.observer = seen_obs, .observer_user = &seen, .workers = 2};
  SimDevice *dev = sim_create(&cfg);
  SimStream a;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_event_create(dev, &e, "e");
  static char buf[64];
  SimOpDesc d = {.kind = SIM_OP_MEMSET, .dst = buf, .bytes = 64, .loc = "set"};
  sim_stream_submit(dev, a, &d, NULL);
  sim_stream_submit(dev, a, &d, NULL);
  void *dbuf;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, &dbuf, "dbuf");
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = touch_kernel, .user = dbuf, .loc = "touch"};
  sim_stream_submit(dev, a, &k, NULL);
  sim_event_record(dev, e, a, "rec");
  sim_event_sync(dev, e, "esync");
  sim_mem_free(dev, dbuf, "free");
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_destroy(dev);
  assert_int_equal(seen.enq, 3);
  assert_int_equal(seen.start, 3);
  assert_int_equal(seen.end, 3);
  assert_int_equal(seen.dep, 2);  /* the first op, on an empty stream, has no dep */
  assert_int_equal(seen.acc_bytes, 16);  /* the kernel's store, merged into one range */
  assert_int_equal(seen.hostwait, 1);
  assert_int_equal(seen.api, 8);  /* with mem_alloc and mem_free */
}

static void test_op_release_twice_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimOp *o;
  SimOpDesc d = {.kind = SIM_OP_MARKER, .loc = "m"};
  sim_submit(dev, &d, NULL, 0, &o);
  sim_host_wait(dev, &o, 1, "w");
  sim_op_release(dev, o);
  sim_op_release(dev, o);
  assert_true(has(&s, "token used after it was released"));
  SimOp *o2;
  assert_int_equal(sim_submit(dev, &d, &o, 1, &o2), SIM_ERR_HANDLE);
  assert_non_null(o2);  /* the op exists anyway and orders like one */
  sim_op_release(dev, o2);
  sim_destroy(dev);
}

static void test_gate_open_twice_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimOp *g, *m;
  SimOpDesc gd = {.kind = SIM_OP_GATE, .loc = "gate"}, md = {.kind = SIM_OP_MARKER, .loc = "m"};
  sim_submit(dev, &gd, NULL, 0, &g);
  sim_submit(dev, &md, NULL, 0, &m);
  assert_int_equal(sim_gate_open(dev, g, "open"), SIM_OK);
  assert_int_equal(sim_gate_open(dev, g, "open2"), SIM_ERR_ARG);
  assert_int_equal(sim_gate_open(dev, m, "open3"), SIM_ERR_ARG);
  assert_int_equal(count(&s, SIM_DIAG_MISUSE), 2);
  sim_op_release(dev, g);
  sim_op_release(dev, m);
  sim_destroy(dev);
}

static void count_fn(SimCtx *ctx, size_t i, void *user) {
  (void)ctx;
  int *hits = user;
  hits[i]++;
}

static void par_kernel(SimCtx *ctx, void *user) {
  assert_int_equal(sim_ctx_parallel_for(ctx, 100, count_fn, user), SIM_OK);
  assert_true(sim_ctx_op_id(ctx) > 0);
}

static void test_ctx_parallel_for_runs_every_index_once(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  int hits[100] = {0};
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = par_kernel, .user = hits, .loc = "k"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "s");
  for (int i = 0; i < 100; i++)
    assert_int_equal(hits[i], 1);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void release_fn(void *user) { (*(int *)user)++; }

static void test_op_release_callback_called_once(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  int released = 0;
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = NULL, .user = &released, .release = release_fn,
                 .loc = "k"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "s");
  assert_int_equal(released, 1);
  sim_destroy(dev);
}

static void test_diag_report_counts_errors_and_warnings(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  sim_diag_report(dev, SIM_SEV_ERROR, SIM_DIAG_OTHER, "k.mlir:3:4", "divergent barrier: %d of %d",
                  3, 32);
  sim_diag_report(dev, SIM_SEV_WARNING, SIM_DIAG_OTHER, "k.mlir:5:4", "note this");
  assert_int_equal(sim_error_count(dev), 1);
  assert_int_equal(sim_warning_count(dev), 1);
  assert_true(has(&s, "k.mlir:3:4: divergent barrier: 3 of 32"));
  sim_destroy(dev);
}

/* A bounded kernel submitted to an idle device under threads runs on the submitting thread,
 * before the submit returns; one that is not bounded goes to the pool, so that it may wait for
 * what the host does after submitting it (here: a flag it sets). */
typedef struct Where { int worker; bool ran; atomic_int flag; bool saw; } Where;

static void where_kernel(SimCtx *ctx, void *user) {
  Where *w = user;
  w->worker = sim_ctx_worker(ctx);
  w->ran = true;
}

static void flag_kernel(SimCtx *ctx, void *user) {
  (void)ctx;
  Where *w = user;
  for (int i = 0; i < 20000 && !atomic_load(&w->flag); i++)
    nap(100);
  w->saw = atomic_load(&w->flag);
}

static void test_bounded_kernel_on_idle_device_runs_on_submitter(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  Where w = {.worker = 99};
  atomic_init(&w.flag, 0);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = where_kernel, .user = &w, .loc = "k", .bounded = true};
  SimOp *op;
  assert_int_equal(sim_submit(dev, &k, NULL, 0, &op), SIM_OK);
  assert_true(w.ran);
  assert_int_equal(w.worker, -1);
  sim_op_release(dev, op);
  SimOpDesc spin = {.kind = SIM_OP_KERNEL, .fn = flag_kernel, .user = &w, .loc = "spin"};
  assert_int_equal(sim_submit(dev, &spin, NULL, 0, &op), SIM_OK);
  atomic_store(&w.flag, 1);
  assert_int_equal(sim_host_wait(dev, &op, 1, "wait"), SIM_OK);
  assert_true(w.saw);
  sim_op_release(dev, op);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void slow_kernel(SimCtx *ctx, void *user) {
  (void)ctx;
  (void)user;
  nap(20);
}

/* A chain of 300 bounded kernels that a worker runs while the host submits: the host keeps at
   most 32 ops in flight (33 while it submits the next), helping and waiting as it goes. */
static void test_host_runs_at_most_32_ops_ahead(void **state) {
  (void)state;
  Flight f = {0};
  SimConfig cfg = {.sched = SIM_SCHED_THREADS, .workers = 1, .observer = flight_obs, .observer_user = &f};
  SimDevice *dev = sim_create(&cfg);
  SimOpDesc mk = {.kind = SIM_OP_MARKER, .loc = "first"};
  SimOp *prev = NULL;
  assert_int_equal(sim_submit(dev, &mk, NULL, 0, &prev), SIM_OK);
  for (int i = 0; i < 300; i++) {
    SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = slow_kernel, .loc = "k", .bounded = true};
    SimOp *op;
    assert_int_equal(sim_submit(dev, &k, &prev, 1, &op), SIM_OK);
    sim_op_release(dev, prev);
    prev = op;
  }
  assert_int_equal(sim_device_sync(dev, "sync"), SIM_OK);
  sim_op_release(dev, prev);
  sim_destroy(dev);
  assert_int_equal(f.now, 0);
  assert_true(f.most <= 33);
}

typedef struct Placed { int ops, on_workers; } Placed;

static void placed_obs(const SimObs *ev, void *user) {
  Placed *p = user;
  if (ev->kind != SIM_OBS_START)
    return;
  p->ops++;
  p->on_workers += ev->worker >= 0;
}

static void nop_kernel(SimCtx *ctx, void *user) {
  (void)ctx;
  (void)user;
}

/* One chain of small copies, memsets and bounded kernels, each waiting for the one before, with a
   worker idle: each op continues what the host ran last, so the host runs every one of them (a
   handoff would only add its latency), and wakes no worker for them. */
static void test_chain_of_bounded_ops_stays_on_host(void **state) {
  (void)state;
  Placed p = {0};
  SimConfig cfg = {.sched = SIM_SCHED_THREADS, .workers = 1, .observer = placed_obs, .observer_user = &p};
  SimDevice *dev = sim_create(&cfg);
  static char a[64], b[64];
  SimOpDesc mk = {.kind = SIM_OP_MARKER, .loc = "first"};
  SimOp *prev = NULL;
  assert_int_equal(sim_submit(dev, &mk, NULL, 0, &prev), SIM_OK);
  for (int i = 0; i < 300; i++) {
    SimOpDesc d[3] = {{.kind = SIM_OP_MEMSET, .dst = a, .bytes = sizeof a, .value = (uint32_t)i, .loc = "set"},
                      {.kind = SIM_OP_KERNEL, .fn = nop_kernel, .loc = "k", .bounded = true},
                      {.kind = SIM_OP_MEMCPY, .dst = b, .src = a, .bytes = sizeof a, .loc = "copy"}};
    for (int j = 0; j < 3; j++) {
      SimOp *op;
      assert_int_equal(sim_submit(dev, &d[j], &prev, 1, &op), SIM_OK);
      sim_op_release(dev, prev);
      prev = op;
    }
  }
  assert_int_equal(sim_host_wait(dev, &prev, 1, "wait"), SIM_OK);
  sim_op_release(dev, prev);
  sim_destroy(dev);
  assert_int_equal(p.ops, 901);
  assert_int_equal(p.on_workers, 0);
}

/* Two chains, one a stream, of memset, bounded kernel and copy, each op waiting for the one before:
   under `threads` a worker may take one chain's kernels (they run long enough to pay a handoff)
   and leave their completion to the host, which runs the small ops they make ready. */
typedef struct Lane {
  int *a, *b, *d; /* 16 ints each: device memory */
  int *shared;    /* both lanes' kernels touch it; only the racy lane writes it */
  bool racy;
  long nap_us;    /* how long each kernel runs */
} Lane;

static void lane_kernel(SimCtx *ctx, void *user) {
  Lane *l = user;
  if (sim_access(ctx, l->a, 64, false, "lane.k") != SIM_OK || sim_access(ctx, l->b, 64, false, "lane.k") != SIM_OK ||
      sim_access(ctx, l->a, 64, true, "lane.k") != SIM_OK ||
      sim_access(ctx, l->shared, 4, l->racy, l->racy ? "lane.racy" : "lane.k") != SIM_OK)
    return;
  for (int i = 0; i < 16; i++)
    l->a[i] += l->b[i] + i;
  if (l->racy)
    l->shared[0]++;
  nap(l->nap_us); /* longer than a handoff costs */
}

typedef struct Run { int d[2][16]; int races, errors, on_workers; } Run;

static void run_obs(const SimObs *ev, void *user) {
  Run *r = user;
  if (ev->kind == SIM_OBS_START && ev->opkind == SIM_OP_KERNEL && ev->worker >= 0)
    r->on_workers++;
}

static void two_lanes(SimSched sched, bool racy, long nap_us, Run *r) {
  Sink s;
  memset(&s, 0, sizeof s);
  memset(r, 0, sizeof *r);
  SimConfig cfg = {.sched = sched, .workers = 1, .sink = sink_fn, .sink_user = &s, .observer = run_obs,
                   .observer_user = r};
  SimDevice *dev = sim_create(&cfg);
  assert_non_null(dev);
  Lane l[2];
  int *shared;
  assert_int_equal(sim_mem_alloc(dev, 4, SIM_MEM_DEVICE, (void **)&shared, "shared"), SIM_OK);
  SimOpDesc z = {.kind = SIM_OP_MEMSET, .dst = shared, .bytes = 4, .loc = "zero"};
  assert_int_equal(sim_stream_submit(dev, NULL, &z, NULL), SIM_OK);
  assert_int_equal(sim_stream_sync(dev, NULL, "sync"), SIM_OK);
  SimStream st[2];
  for (int c = 0; c < 2; c++) {
    l[c] = (Lane){.shared = shared, .racy = racy && c == 1, .nap_us = nap_us};
    assert_int_equal(sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&l[c].a, "a"), SIM_OK);
    assert_int_equal(sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&l[c].b, "b"), SIM_OK);
    assert_int_equal(sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&l[c].d, "d"), SIM_OK);
    assert_int_equal(sim_stream_create(dev, &st[c], "stream"), SIM_OK);
    SimOpDesc set = {.kind = SIM_OP_MEMSET, .dst = l[c].b, .bytes = 64, .width = 4, .value = (uint32_t)c + 1,
                     .loc = "set.b"};
    assert_int_equal(sim_stream_submit(dev, st[c], &set, NULL), SIM_OK);
  }
  for (int i = 0; i < 60; i++)
    for (int c = 0; c < 2; c++) {
      SimOpDesc d[3] = {{.kind = SIM_OP_MEMSET, .dst = l[c].a, .bytes = 64, .width = 4, .value = (uint32_t)i,
                         .loc = "set.a"},
                        {.kind = SIM_OP_KERNEL, .fn = lane_kernel, .user = &l[c], .loc = "lane.k", .bounded = true},
                        {.kind = SIM_OP_MEMCPY, .dst = l[c].d, .src = l[c].a, .bytes = 64, .loc = "copy"}};
      for (int j = 0; j < 3; j++)
        assert_int_equal(sim_stream_submit(dev, st[c], &d[j], NULL), SIM_OK);
    }
  for (int c = 0; c < 2; c++) {
    assert_int_equal(sim_stream_sync(dev, st[c], "sync"), SIM_OK);
    memcpy(r->d[c], l[c].d, sizeof r->d[c]);
    assert_int_equal(sim_stream_destroy(dev, st[c], "destroy"), SIM_OK);
    sim_mem_free(dev, l[c].a, "free");
    sim_mem_free(dev, l[c].b, "free");
    sim_mem_free(dev, l[c].d, "free");
  }
  sim_mem_free(dev, shared, "free");
  sim_destroy(dev);
  r->races = count(&s, SIM_DIAG_RACE);
  r->errors = s.n;
}

static void test_two_independent_lanes_match_serial(void **state) {
  (void)state;
  for (int racy = 0; racy < 2; racy++) {
    Run ser, thr;
    two_lanes(SIM_SCHED_SERIAL, racy, 30, &ser);
    two_lanes(SIM_SCHED_THREADS, racy, 30, &thr);
    for (int c = 0; c < 2; c++)
      for (int i = 0; i < 16; i++) {
        assert_int_equal(ser.d[c][i], 59 + c + 1 + i);
        assert_int_equal(thr.d[c][i], ser.d[c][i]);
      }
    assert_int_equal(ser.on_workers, 0);
    assert_true(racy ? ser.races > 0 : ser.races == 0);
    assert_int_equal(thr.races, ser.races);
    assert_int_equal(thr.errors, ser.errors);
  }
}

/* Two lanes of kernels of 300 us: the host keeps one, and the other's kernels go to the worker,
   which is woken for them when it sleeps (a wake costs less than such a kernel), so some run
   there however loaded the machine; the results, races and diagnostics are serial's. */
static void test_two_lanes_of_long_kernels_run_on_two_threads(void **state) {
  (void)state;
  Run ser, thr;
  two_lanes(SIM_SCHED_SERIAL, false, 300, &ser);
  two_lanes(SIM_SCHED_THREADS, false, 300, &thr);
  for (int c = 0; c < 2; c++)
    for (int i = 0; i < 16; i++)
      assert_int_equal(thr.d[c][i], ser.d[c][i]);
  assert_int_equal(ser.on_workers, 0);
  assert_true(thr.on_workers > 0);
  assert_int_equal(thr.races, 0);
  assert_int_equal(thr.errors, ser.errors);
}

/* A kernel the host runs itself that waits for a flag, and a chain on the worker that sets it:
   gate, kernel, then a kernel that sets the flag. The worker ran the first kernel of that chain
   and must complete it itself, as the host, busy in its own kernel, completes nothing, and run
   the next: the host's kernel sees the flag before its deadline. */
typedef struct Flag { atomic_int set; atomic_int seen; } Flag;

static void flag_set_kernel(SimCtx *ctx, void *user) {
  (void)ctx;
  atomic_store(&((Flag *)user)->set, 1);
}

static void flag_nap_kernel(SimCtx *ctx, void *user) {
  (void)ctx;
  (void)user;
  nap(1000);
}

static void flag_wait_kernel(SimCtx *ctx, void *user) {
  (void)ctx;
  Flag *f = user;
  for (int i = 0; i < 5000 && !atomic_load(&f->set); i++)  /* at most about 5 s */
    nap(1000);
  atomic_store(&f->seen, atomic_load(&f->set));
}

static void test_worker_goes_on_with_its_chain_while_the_host_runs_a_kernel(void **state) {
  (void)state;
  Sink s;
  memset(&s, 0, sizeof s);
  SimConfig cfg = {.sched = SIM_SCHED_THREADS, .workers = 1, .sink = sink_fn, .sink_user = &s};
  SimDevice *dev = sim_create(&cfg);
  assert_non_null(dev);
  Flag f;
  atomic_init(&f.set, 0);
  atomic_init(&f.seen, 0);
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc k1 = {.kind = SIM_OP_KERNEL, .fn = flag_nap_kernel, .user = &f, .loc = "nap.k", .bounded = true};
  SimOpDesc k2 = {.kind = SIM_OP_KERNEL, .fn = flag_set_kernel, .user = &f, .loc = "set.k", .bounded = true};
  SimOp *gate, *a, *b, *m, *h;
  assert_int_equal(sim_submit(dev, &g, NULL, 0, &gate), SIM_OK);
  assert_int_equal(sim_submit(dev, &k1, &gate, 1, &a), SIM_OK);
  assert_int_equal(sim_submit(dev, &k2, &a, 1, &b), SIM_OK);
  assert_int_equal(sim_gate_open(dev, gate, "open"), SIM_OK);
  SimOpDesc mk = {.kind = SIM_OP_MARKER, .loc = "mark"};
  assert_int_equal(sim_submit(dev, &mk, NULL, 0, &m), SIM_OK);
  assert_int_equal(sim_host_wait(dev, &m, 1, "wait"), SIM_OK);  /* the next kernel is the host's */
  SimOpDesc hk = {.kind = SIM_OP_KERNEL, .fn = flag_wait_kernel, .user = &f, .loc = "wait.k", .bounded = true};
  assert_int_equal(sim_submit(dev, &hk, NULL, 0, &h), SIM_OK);
  assert_int_equal(sim_host_wait(dev, &h, 1, "wait"), SIM_OK);
  assert_int_equal(sim_host_wait(dev, &b, 1, "wait"), SIM_OK);
  assert_int_equal(atomic_load(&f.seen), 1);
  SimOp *all[] = {gate, a, b, m, h};
  for (int i = 0; i < 5; i++)
    sim_op_release(dev, all[i]);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

typedef struct Slow { int *src, *dst; } Slow;

static void slow_copy_kernel(SimCtx *ctx, void *user) {
  Slow *k = user;
  if (sim_access(ctx, k->src, 64, false, "slow.k") != SIM_OK || sim_access(ctx, k->dst, 64, true, "slow.k") != SIM_OK)
    return;
  for (int i = 0; i < 16; i++)
    k->dst[i] = k->src[i] * 2;
  nap(100000);
}

/* Two bounded kernels made ready at once (behind a gate) while the host waits: the host runs one,
   the worker the other, and the worker leaves its kernel's completion, and the copy after it, to
   the next holder of the lock (drain_finished). The copies see what the kernels wrote, the
   kernels' accesses are checked (none race), and nothing is left in flight. */
static void test_kernel_a_worker_ran_is_completed_by_the_host(void **state) {
  (void)state;
  Sink s;
  memset(&s, 0, sizeof s);
  Run r = {0};
  SimConfig cfg = {.sched = SIM_SCHED_THREADS, .workers = 1, .sink = sink_fn, .sink_user = &s, .observer = run_obs,
                   .observer_user = &r};
  SimDevice *dev = sim_create(&cfg);
  int *m[2][3];
  for (int c = 0; c < 2; c++)
    for (int j = 0; j < 3; j++)
      assert_int_equal(sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&m[c][j], "m"), SIM_OK);
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOp *gate, *done[2];
  assert_int_equal(sim_submit(dev, &g, NULL, 0, &gate), SIM_OK);
  Slow k[2];
  for (int c = 0; c < 2; c++) {
    SimOpDesc set = {.kind = SIM_OP_MEMSET, .dst = m[c][0], .bytes = 64, .width = 4, .value = (uint32_t)c + 3,
                     .loc = "set"};
    SimOp *a, *b;
    assert_int_equal(sim_submit(dev, &set, &gate, 1, &a), SIM_OK);
    k[c] = (Slow){m[c][0], m[c][1]};
    SimOpDesc kd = {.kind = SIM_OP_KERNEL, .fn = slow_copy_kernel, .user = &k[c], .loc = "slow.k", .bounded = true};
    assert_int_equal(sim_submit(dev, &kd, &a, 1, &b), SIM_OK);
    SimOpDesc cp = {.kind = SIM_OP_MEMCPY, .dst = m[c][2], .src = m[c][1], .bytes = 64, .loc = "copy"};
    assert_int_equal(sim_submit(dev, &cp, &b, 1, &done[c]), SIM_OK);
    sim_op_release(dev, a);
    sim_op_release(dev, b);
  }
  assert_int_equal(sim_gate_open(dev, gate, "open"), SIM_OK);
  assert_int_equal(sim_host_wait(dev, done, 2, "wait"), SIM_OK);
  for (int c = 0; c < 2; c++)
    for (int i = 0; i < 16; i++)
      assert_int_equal(m[c][2][i], 2 * (c + 3));
  /* one kernel on the worker when it woke within the host's kernel (almost always); on a machine
     too loaded for that the host ran both, and the results above are checked either way */
  assert_true(r.on_workers <= 1);
  sim_op_release(dev, gate);
  for (int c = 0; c < 2; c++) {
    sim_op_release(dev, done[c]);
    for (int j = 0; j < 3; j++)
      sim_mem_free(dev, m[c][j], "free");
  }
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

/* A random DAG of small copies, memsets and bounded kernels over a few buffers, each op waiting
   for the last writer of what it reads and for the last writer and the readers since of what it
   writes (as bench/gen_dag.py's programs), so ops fork and join all the time; `racy` adds one
   kernel that reads a buffer without waiting for its writer. The kernels are a few hundred
   nanoseconds: under `threads` the host runs them itself once it has timed two (worth_handing),
   however long a worker spins, and the results, race verdicts and diagnostics are serial's. */
enum { DAG_BUFS = 6, DAG_OPS = 10000, DAG_READERS = 8 };

typedef struct DagK { unsigned *dst, *src; } DagK;

static void dag_kernel(SimCtx *ctx, void *user) {
  DagK *k = user;
  if (sim_access(ctx, k->dst, 64, false, "dag.k") != SIM_OK || sim_access(ctx, k->src, 64, false, "dag.k") != SIM_OK ||
      sim_access(ctx, k->dst, 64, true, "dag.k") != SIM_OK)
    return;
  for (int i = 0; i < 16; i++)
    k->dst[i] = k->dst[i] * 3 + k->src[i] + 1; /* wraps */
}

typedef struct DagRun { unsigned d[DAG_BUFS][16]; int races, errors, kernels, on_workers; char first[512]; } DagRun;

static void dag_obs(const SimObs *ev, void *user) {
  DagRun *r = user;
  if (ev->kind == SIM_OBS_START && ev->opkind == SIM_OP_KERNEL) {
    r->kernels++;
    r->on_workers += ev->worker >= 0;
  }
}

static void dag_run(SimSched sched, bool racy, DagRun *r) {
  Sink s;
  memset(&s, 0, sizeof s);
  memset(r, 0, sizeof *r);
  SimConfig cfg = {.sched = sched, .workers = 1, .sink = sink_fn, .sink_user = &s, .observer = dag_obs,
                   .observer_user = r};
  SimDevice *dev = sim_create(&cfg);
  assert_non_null(dev);
  unsigned *buf[DAG_BUFS + 1]; /* the last one only the racy kernel writes */
  SimOp *writer[DAG_BUFS + 1] = {0}, *readers[DAG_BUFS][DAG_READERS];
  int nreaders[DAG_BUFS] = {0};
  for (int b = 0; b <= DAG_BUFS; b++)
    assert_int_equal(sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&buf[b], "buf"), SIM_OK);
  static DagK args[DAG_OPS];
  static SimOp *ops[DAG_OPS];
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < DAG_OPS; i++) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    unsigned x = (unsigned)(rng >> 33);
    int dst = (int)(x % DAG_BUFS), src = (int)(x / DAG_BUFS % DAG_BUFS), kind = (int)(x / 36 % 4);
    for (int b = 0; b < DAG_BUFS; b++)
      if (nreaders[b] == DAG_READERS)
        dst = b, kind = 0; /* a memset of it waits for its readers */
    if (src == dst)
      src = (dst + 1) % DAG_BUFS;
    SimOpDesc d;
    if (kind == 0)
      d = (SimOpDesc){.kind = SIM_OP_MEMSET, .dst = buf[dst], .bytes = 64, .width = 4, .value = (uint32_t)i,
                      .loc = "dag.set"};
    else if (kind == 1)
      d = (SimOpDesc){.kind = SIM_OP_MEMCPY, .dst = buf[dst], .src = buf[src], .bytes = 64, .loc = "dag.copy"};
    else
      d = (SimOpDesc){.kind = SIM_OP_KERNEL, .fn = dag_kernel, .user = &args[i], .loc = "dag.k", .bounded = true};
    args[i] = (DagK){buf[dst], buf[src]};
    bool race = racy && i == DAG_OPS / 2;
    if (race) { /* reads buf[src] without waiting for its writer; writes its own buffer */
      args[i].dst = buf[DAG_BUFS];
      dst = DAG_BUFS;
      d = (SimOpDesc){.kind = SIM_OP_KERNEL, .fn = dag_kernel, .user = &args[i], .loc = "dag.racy", .bounded = true};
    }
    SimOp *deps[2 + DAG_READERS];
    size_t n = 0;
    if (kind != 0 && !race)
      deps[n++] = writer[src];
    deps[n++] = writer[dst];
    if (dst < DAG_BUFS)
      for (int k = 0; k < nreaders[dst]; k++)
        deps[n++] = readers[dst][k];
    assert_int_equal(sim_submit(dev, &d, deps, n, &ops[i]), SIM_OK);
    if (kind != 0 && !race)
      readers[src][nreaders[src]++] = ops[i];
    writer[dst] = ops[i];
    if (dst < DAG_BUFS)
      nreaders[dst] = 0;
  }
  assert_int_equal(sim_device_sync(dev, "sync"), SIM_OK);
  for (int b = 0; b < DAG_BUFS; b++)
    memcpy(r->d[b], buf[b], sizeof r->d[b]);
  for (int i = 0; i < DAG_OPS; i++)
    sim_op_release(dev, ops[i]);
  for (int b = 0; b <= DAG_BUFS; b++)
    sim_mem_free(dev, buf[b], "free");
  sim_destroy(dev);
  r->races = count(&s, SIM_DIAG_RACE);
  r->errors = s.n;
  if (s.n)
    snprintf(r->first, sizeof r->first, "%s", s.got[0].msg);
}

static void test_dag_of_small_ops_runs_on_host_as_serial(void **state) {
  (void)state;
  for (int racy = 0; racy < 2; racy++) {
    DagRun ser, thr;
    dag_run(SIM_SCHED_SERIAL, racy, &ser);
    dag_run(SIM_SCHED_THREADS, racy, &thr);
    for (int b = 0; b < DAG_BUFS; b++)
      for (int i = 0; i < 16; i++)
        assert_int_equal(thr.d[b][i], ser.d[b][i]);
    assert_true(racy ? ser.races > 0 : ser.races == 0);
    assert_int_equal(thr.races, ser.races);
    assert_int_equal(thr.errors, ser.errors);
    assert_string_equal(thr.first, ser.first);
    assert_int_equal(thr.kernels, ser.kernels);
    assert_int_equal(ser.on_workers, 0);
    /* a worker that spins on a quiet machine took a quarter of them before (handing one over
       costs the host more than the kernel); a timed kernel preempted twice in a row on a loaded
       one may let a few through */
    assert_true(thr.on_workers * 50 <= thr.kernels);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bounded_kernel_on_idle_device_runs_on_submitter),
    cmocka_unit_test(test_host_runs_at_most_32_ops_ahead),
    cmocka_unit_test(test_chain_of_bounded_ops_stays_on_host),
    cmocka_unit_test(test_two_independent_lanes_match_serial),
    cmocka_unit_test(test_two_lanes_of_long_kernels_run_on_two_threads),
    cmocka_unit_test(test_worker_goes_on_with_its_chain_while_the_host_runs_a_kernel),
    cmocka_unit_test(test_kernel_a_worker_ran_is_completed_by_the_host),
    cmocka_unit_test(test_dag_of_small_ops_runs_on_host_as_serial),
    cmocka_unit_test(test_submit_deps_run_in_dependency_order),
    cmocka_unit_test(test_submit_join_waits_for_all_deps),
    cmocka_unit_test(test_host_wait_on_closed_gate_reports_deadlock),
    cmocka_unit_test(test_stream_sync_behind_closed_gate_reports_deadlock),
    cmocka_unit_test(test_sim_destroy_with_closed_gate_reports_and_finishes),
    cmocka_unit_test(test_callback_waiting_for_its_dependent_reports_deadlock),
    cmocka_unit_test(test_callback_wait_with_one_worker_helps_instead_of_hanging),
    cmocka_unit_test(test_callback_and_host_both_stuck_report_callback_once),
    cmocka_unit_test(test_callback_run_by_waiting_host_reports_deadlock),
    cmocka_unit_test(test_sched_random_same_seed_same_order),
    cmocka_unit_test(test_sched_random_keeps_a_window_in_flight),
    cmocka_unit_test(test_sched_serial_runs_in_submit_order),
    cmocka_unit_test(test_sched_parse_accepts_the_three_forms),
    cmocka_unit_test(test_observer_sees_ops_edges_and_waits),
    cmocka_unit_test(test_op_release_twice_reports),
    cmocka_unit_test(test_gate_open_twice_reports),
    cmocka_unit_test(test_ctx_parallel_for_runs_every_index_once),
    cmocka_unit_test(test_op_release_callback_called_once),
    cmocka_unit_test(test_diag_report_counts_errors_and_warnings),
    cmocka_unit_test(test_host_stall_counts_pending_ops_and_polls),
  };
  return cmocka_run_group_tests_name("sim_exec", tests, NULL, NULL);
}
