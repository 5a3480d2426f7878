/* Races: happens-before over streams, events, tokens and the host; each race kind; pruning. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

static SimOpDesc memset_op(void *dst, size_t n, const char *loc) {
  return (SimOpDesc){.kind = SIM_OP_MEMSET, .dst = dst, .bytes = n, .width = 1, .value = 1, .loc = loc};
}

static SimOpDesc memcpy_op(void *dst, const void *src, size_t n, const char *loc) {
  return (SimOpDesc){.kind = SIM_OP_MEMCPY, .dst = dst, .src = src, .bytes = n, .loc = loc};
}

typedef struct Fixture {
  Sink s;
  SimDevice *dev;
  SimStream a, b;
  char *buf, *buf2;
} Fixture;

static void fixture_open(Fixture *f, SimSched sched) {
  f->dev = make(&f->s, sched);
  sim_stream_create(f->dev, &f->a, "stream-a");
  sim_stream_create(f->dev, &f->b, "stream-b");
  sim_mem_alloc(f->dev, 256, SIM_MEM_HOST_SHARED, (void **)&f->buf, "buf-alloc");
  sim_mem_alloc(f->dev, 256, SIM_MEM_HOST_SHARED, (void **)&f->buf2, "buf2-alloc");
  SimOpDesc z = memset_op(f->buf, 256, "init"), z2 = memset_op(f->buf2, 256, "init2");
  sim_stream_submit(f->dev, f->a, &z, NULL);
  sim_stream_submit(f->dev, f->a, &z2, NULL);
  sim_device_sync(f->dev, "init-sync");
}

static void fixture_close(Fixture *f) {
  sim_device_sync(f->dev, "close-sync");
  sim_mem_free(f->dev, f->buf, "free");
  sim_mem_free(f->dev, f->buf2, "free2");
  sim_stream_destroy(f->dev, f->a, "d");
  sim_stream_destroy(f->dev, f->b, "d");
  sim_destroy(f->dev);
}

static void test_race_write_write_on_two_streams_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc w1 = memset_op(f.buf, 64, "prog.mlir:3:5"), w2 = memset_op(f.buf + 32, 64, "prog.mlir:4:5");
  sim_stream_submit(f.dev, f.a, &w1, NULL);
  sim_stream_submit(f.dev, f.b, &w2, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_int_equal(f.s.got[0].race, SIM_RACE_WRITE_WRITE);
  assert_true(has(&f.s, "prog.mlir:4:5: data race (write-write): 'prog.mlir:4:5' writes and "
                        "'prog.mlir:3:5' writes bytes [32, 64) of the host-shared memory allocated "
                        "at 'buf-alloc'; nothing orders the two"));
}

static void test_race_read_write_on_two_streams_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc r = memcpy_op(f.buf2, f.buf, 16, "reader"), w = memset_op(f.buf + 8, 4, "writer");
  sim_stream_submit(f.dev, f.a, &r, NULL);
  sim_stream_submit(f.dev, f.b, &w, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_int_equal(f.s.got[0].race, SIM_RACE_READ_WRITE);
  assert_true(has(&f.s, "'writer' writes and 'reader' reads bytes [8, 12)"));
}

static void test_race_read_read_not_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc r1 = memcpy_op(f.buf2, f.buf, 16, "r1"), r2 = memcpy_op(f.buf2 + 100, f.buf, 16, "r2");
  sim_stream_submit(f.dev, f.a, &r1, NULL);
  sim_stream_submit(f.dev, f.b, &r2, NULL);
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

static void test_race_ordered_by_event_not_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimEvent e;
  sim_event_create(f.dev, &e, "e");
  SimOpDesc w1 = memset_op(f.buf, 64, "w1"), w2 = memset_op(f.buf, 64, "w2");
  sim_stream_submit(f.dev, f.a, &w1, NULL);
  sim_event_record(f.dev, e, f.a, "rec");
  sim_stream_wait_event(f.dev, f.b, e, "wait");
  sim_stream_submit(f.dev, f.b, &w2, NULL);
  sim_event_destroy(f.dev, e, "d");
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

/* The wait takes the first generation; a write recorded after it is not ordered with b's read. */
static void test_race_event_generation_later_record_not_ordering(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimEvent e;
  sim_event_create(f.dev, &e, "e");
  SimOpDesc w1 = memset_op(f.buf, 8, "gen1-write"), w2 = memset_op(f.buf + 8, 8, "gen2-write");
  SimOpDesc r = memcpy_op(f.buf2, f.buf, 16, "b-read");
  sim_stream_submit(f.dev, f.a, &w1, NULL);
  sim_event_record(f.dev, e, f.a, "rec1");
  sim_stream_wait_event(f.dev, f.b, e, "wait");
  sim_stream_submit(f.dev, f.a, &w2, NULL);
  sim_event_record(f.dev, e, f.a, "rec2");
  sim_stream_submit(f.dev, f.b, &r, NULL);
  sim_event_destroy(f.dev, e, "d");
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_true(has(&f.s, "'b-read' reads and 'gen2-write' writes bytes [8, 16)"));
}

static void test_race_ordered_by_host_sync_not_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc w1 = memset_op(f.buf, 64, "w1"), w2 = memset_op(f.buf, 64, "w2");
  sim_stream_submit(f.dev, f.a, &w1, NULL);
  sim_stream_sync(f.dev, f.a, "sync");
  sim_stream_submit(f.dev, f.b, &w2, NULL);
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

static void test_race_host_store_vs_op_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc r = memcpy_op(f.buf2, f.buf, 64, "copy-out");
  sim_stream_submit(f.dev, f.a, &r, NULL);
  sim_host_access(f.dev, f.buf + 4, 4, true, "prog.mlir:9:1");  /* no sync before the store */
  sim_stream_sync(f.dev, f.a, "sync");
  sim_host_access(f.dev, f.buf + 4, 4, true, "prog.mlir:11:1");  /* ordered: fine */
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_true(has(&f.s, "'prog.mlir:9:1' (host) writes and 'copy-out' reads bytes [4, 8)"));
}

static void test_race_host_store_before_submit_not_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  sim_host_access(f.dev, f.buf, 64, true, "host-store");
  SimOpDesc r = memcpy_op(f.buf2, f.buf, 64, "copy");
  sim_stream_submit(f.dev, f.a, &r, NULL);
  sim_stream_sync(f.dev, f.a, "sync");
  sim_host_access(f.dev, f.buf2, 64, false, "host-load");
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

/* Reports plain writes to the sim; the stores themselves are atomic so that the racy programs the
   tests build do not race in this process (TSan), only in the sim's model. */
static void write_kernel(SimCtx *ctx, void *user) {
  char *p = user;
  for (int i = 0; i < 32; i++)
    if (sim_access(ctx, p + i, 1, true, NULL) == SIM_OK)
      __atomic_store_n(&p[i], 7, __ATOMIC_RELAXED);
}

static void test_race_kernel_vs_copy_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = write_kernel, .user = f.buf, .loc = "kernel.mlir:2"};
  SimOpDesc c = memcpy_op(f.buf2, f.buf + 16, 32, "copy.mlir:5");
  sim_stream_submit(f.dev, f.a, &k, NULL);
  sim_stream_submit(f.dev, f.b, &c, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_true(has(&f.s, "bytes [16, 32) of the host-shared memory allocated at 'buf-alloc'"));
  assert_true(has(&f.s, "'kernel.mlir:2'"));
  assert_true(has(&f.s, "'copy.mlir:5'"));
}

/* The race rule in one place: unordered accesses race when one writes, unless both are atomic. */
static void test_race_conflict_predicate(void **state) {
  (void)state;
  assert_false(sim_access_conflict(SIM_ACC_READ, SIM_ACC_READ));
  assert_true(sim_access_conflict(SIM_ACC_READ, SIM_ACC_WRITE));
  assert_true(sim_access_conflict(SIM_ACC_WRITE, SIM_ACC_READ));
  assert_true(sim_access_conflict(SIM_ACC_WRITE, SIM_ACC_WRITE));
  assert_false(sim_access_conflict(SIM_ACC_ATOMIC, SIM_ACC_ATOMIC));
  assert_true(sim_access_conflict(SIM_ACC_ATOMIC, SIM_ACC_READ));
  assert_true(sim_access_conflict(SIM_ACC_READ, SIM_ACC_ATOMIC));
  assert_true(sim_access_conflict(SIM_ACC_ATOMIC, SIM_ACC_WRITE));
  assert_true(sim_access_conflict(SIM_ACC_WRITE, SIM_ACC_ATOMIC));
}

static void atomic_kernel(SimCtx *ctx, void *user) {
  int *p = user;
  for (int i = 0; i < 8; i++)
    if (sim_access_kind(ctx, p, sizeof *p, SIM_ACC_ATOMIC, NULL) == SIM_OK)
      __atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
}

/* Two kernels on two streams update one counter atomically: no race; the counter then read by a
   third kernel and written by a copy, both unordered with an atomic kernel: two races. */
static void test_race_atomics_race_only_with_plain_accesses(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc k1 = {.kind = SIM_OP_KERNEL, .fn = atomic_kernel, .user = f.buf, .loc = "atomic-1"};
  SimOpDesc k2 = {.kind = SIM_OP_KERNEL, .fn = atomic_kernel, .user = f.buf, .loc = "atomic-2"};
  sim_stream_submit(f.dev, f.a, &k1, NULL);
  sim_stream_submit(f.dev, f.b, &k2, NULL);
  sim_device_sync(f.dev, "sync");
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 0);
  int v;
  memcpy(&v, f.buf, sizeof v);
  assert_int_equal(v, 16 + 0x01010101);
  SimOpDesc k3 = {.kind = SIM_OP_KERNEL, .fn = atomic_kernel, .user = f.buf, .loc = "atomic-3"};
  SimOpDesc r = {.kind = SIM_OP_KERNEL, .fn = write_kernel, .user = f.buf, .loc = "plain-write"};
  sim_stream_submit(f.dev, f.a, &k3, NULL);
  sim_stream_submit(f.dev, f.b, &r, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_int_equal(f.s.got[0].race, SIM_RACE_WRITE_WRITE);
  assert_true(has(&f.s, "bytes [0, 4) of the host-shared memory allocated at 'buf-alloc'"));
  assert_true(has(&f.s, "'atomic-3' atomically updates") || has(&f.s, "'plain-write' writes and 'atomic-3' atomically updates"));
}

/* The kernel records its accesses when it completes, after the copy that follows it on the same
   stream was checked: the check must see that the kernel comes first. */
static void test_race_kernel_then_copy_same_stream_not_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOp *gate;
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = write_kernel, .user = f.buf, .loc = "kernel"};
  SimOpDesc c = memcpy_op(f.buf2, f.buf, 32, "copy");
  sim_stream_submit(f.dev, f.a, &g, &gate);
  sim_stream_submit(f.dev, f.a, &k, NULL);
  sim_stream_submit(f.dev, f.a, &c, NULL);
  sim_gate_open(f.dev, gate, "open");
  sim_op_release(f.dev, gate);
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

static void test_race_free_while_op_pending_reports_use_after_free(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  char *tmp;
  sim_mem_alloc(f.dev, 64, SIM_MEM_DEVICE, (void **)&tmp, "tmp-alloc");
  SimOp *gate;
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc w = memset_op(tmp, 64, "prog.mlir:6:3");
  sim_stream_submit(f.dev, f.a, &g, &gate);
  sim_stream_submit(f.dev, f.a, &w, NULL);
  assert_int_equal(sim_mem_free(f.dev, tmp, "prog.mlir:7:3"), SIM_OK);
  sim_gate_open(f.dev, gate, "open");  /* the memset still runs, on memory kept mapped */
  sim_op_release(f.dev, gate);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_int_equal(f.s.got[0].race, SIM_RACE_USE_AFTER_FREE);
  assert_true(has(&f.s, "prog.mlir:7:3: use after free: 'prog.mlir:7:3' frees the device memory "
                        "allocated at 'tmp-alloc' while 'prog.mlir:6:3' may still write bytes [0, 64)"));
}

static void late_kernel(SimCtx *ctx, void *user) {
  nap(5000);
  write_kernel(ctx, user);
}

static void test_race_kernel_touching_memory_freed_meanwhile_reports(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  char *tmp;
  sim_mem_alloc(f.dev, 64, SIM_MEM_DEVICE, (void **)&tmp, "tmp-alloc");
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = late_kernel, .user = tmp, .loc = "kernel"};
  sim_stream_submit(f.dev, f.a, &k, NULL);
  sim_mem_free(f.dev, tmp, "free-site");
  fixture_close(&f);
  assert_true(count(&f.s, SIM_DIAG_RACE) + count(&f.s, SIM_DIAG_MISUSE) >= 1);
  assert_true(has(&f.s, "free-site"));
}

/* A kernel that begins only after the host freed its memory (nothing orders the two): its
   accesses are refused, as uses of freed memory, and still checked against the free. */
static void test_race_kernel_starting_after_free_reports_use_after_free(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  char *tmp;
  sim_mem_alloc(f.dev, 64, SIM_MEM_DEVICE, (void **)&tmp, "tmp-alloc");
  SimOp *gate;
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = write_kernel, .user = tmp, .loc = "kernel"};
  sim_stream_submit(f.dev, f.a, &g, &gate);
  sim_stream_submit(f.dev, f.a, &k, NULL);
  sim_mem_free(f.dev, tmp, "free-site");
  sim_gate_open(f.dev, gate, "open");
  sim_op_release(f.dev, gate);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_true(has(&f.s, "use after free: 'free-site' frees the device memory allocated at "
                        "'tmp-alloc' while 'kernel' may still write bytes [0, 32)"));
}

/* A free that waits for a token (gpu.dealloc async [%t]) must not order the host after it: the
   copy submitted later, with no deps, still races with the memset the free waited for. */
static void test_race_free_after_op_leaves_the_host_unordered(void **state) {
  (void)state;
  for (int sched = SIM_SCHED_THREADS; sched <= SIM_SCHED_RANDOM; sched++) {
    Fixture f;
    fixture_open(&f, (SimSched)sched);
    char *tmp;
    sim_mem_alloc(f.dev, 64, SIM_MEM_DEVICE, (void **)&tmp, "tmp-alloc");
    SimOp *w, *m, *r;
    SimOpDesc wd = memset_op(f.buf, 64, "writer"), md = {.kind = SIM_OP_MARKER, .loc = "join"};
    SimOpDesc rd = memcpy_op(f.buf2, f.buf, 64, "reader");
    sim_submit(f.dev, &wd, NULL, 0, &w);
    sim_submit(f.dev, &md, &w, 1, &m);
    assert_int_equal(sim_mem_free_after(f.dev, tmp, m, "free-tmp"), SIM_OK);
    sim_submit(f.dev, &rd, NULL, 0, &r);
    sim_op_release(f.dev, w);
    sim_op_release(f.dev, m);
    sim_op_release(f.dev, r);
    fixture_close(&f);
    assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
    assert_true(has(&f.s, "'reader' reads and 'writer' writes bytes [0, 64)"));
  }
}

/* ... nor order the free after more than the token: a write the token does not wait for is a
   use-after-free race, whichever ran first. */
static void test_race_free_after_op_races_with_a_write_it_does_not_wait_for(void **state) {
  (void)state;
  for (int sched = SIM_SCHED_THREADS; sched <= SIM_SCHED_RANDOM; sched++) {
    Fixture f;
    fixture_open(&f, (SimSched)sched);
    char *tmp;
    sim_mem_alloc(f.dev, 64, SIM_MEM_DEVICE, (void **)&tmp, "tmp-alloc");
    SimOp *w, *w2, *m, *m2;
    SimOpDesc wd = memset_op(tmp, 64, "writer"), w2d = memset_op(f.buf, 64, "other");
    SimOpDesc md = {.kind = SIM_OP_MARKER, .loc = "join"};
    sim_submit(f.dev, &wd, NULL, 0, &w);
    sim_submit(f.dev, &md, &w, 1, &m);
    sim_mem_free_after(f.dev, f.buf2, m, "free-buf2");  /* waits for writer, orders nothing */
    f.buf2 = NULL;
    sim_submit(f.dev, &w2d, NULL, 0, &w2);
    sim_submit(f.dev, &md, &w2, 1, &m2);
    sim_mem_free_after(f.dev, tmp, m2, "free-tmp");
    sim_op_release(f.dev, w);
    sim_op_release(f.dev, w2);
    sim_op_release(f.dev, m);
    sim_op_release(f.dev, m2);
    fixture_close(&f);
    assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
    assert_true(has(&f.s, "use after free: 'free-tmp' frees the device memory allocated at "
                          "'tmp-alloc' while 'writer' may still write bytes [0, 64)"));
  }
}

/* A free after a stream's last op is still ordered after what the host did before it. */
static void test_race_free_after_op_is_ordered_after_the_host(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  char *tmp;
  sim_mem_alloc(f.dev, 64, SIM_MEM_HOST_SHARED, (void **)&tmp, "tmp-alloc");
  SimOpDesc w = memset_op(tmp, 64, "writer");
  sim_stream_submit(f.dev, f.a, &w, NULL);
  sim_stream_sync(f.dev, f.a, "sync");
  sim_host_access(f.dev, tmp, 64, false, "host-read");
  sim_host_access(f.dev, tmp, 8, true, "host-write");
  SimOp *last;
  sim_stream_last_op(f.dev, f.a, &last, "last");
  assert_int_equal(sim_mem_free_after(f.dev, tmp, last, "free-tmp"), SIM_OK);
  sim_op_release(f.dev, last);
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

static void test_race_token_chain_not_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOp *t1, *t2, *t3;
  SimOpDesc w1 = memset_op(f.buf, 64, "t1"), w2 = memset_op(f.buf, 64, "t2");
  SimOpDesc w3 = memcpy_op(f.buf2, f.buf, 64, "t3");
  sim_submit(f.dev, &w1, NULL, 0, &t1);
  sim_submit(f.dev, &w2, &t1, 1, &t2);
  sim_submit(f.dev, &w3, &t2, 1, &t3);
  sim_host_wait(f.dev, &t3, 1, "wait");
  sim_host_access(f.dev, f.buf2, 64, false, "host-read");
  sim_op_release(f.dev, t1);
  sim_op_release(f.dev, t2);
  sim_op_release(f.dev, t3);
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

static void test_race_token_fork_reported(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOp *t0, *t1, *t2;
  SimOpDesc w0 = memset_op(f.buf, 64, "t0"), w1 = memset_op(f.buf, 8, "t1"),
            w2 = memset_op(f.buf + 4, 8, "t2");
  sim_submit(f.dev, &w0, NULL, 0, &t0);
  sim_submit(f.dev, &w1, &t0, 1, &t1);
  sim_submit(f.dev, &w2, &t0, 1, &t2);  /* sibling of t1: concurrent */
  SimOp *both[2] = {t1, t2};
  sim_host_wait(f.dev, both, 2, "wait");
  sim_op_release(f.dev, t0);
  sim_op_release(f.dev, t1);
  sim_op_release(f.dev, t2);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  assert_true(has(&f.s, "'t2' writes and 't1' writes bytes [4, 8)"));
}

/* Detection does not depend on the schedule: serial runs each op at submit, the race is there. */
static void test_race_reported_under_serial_and_random(void **state) {
  (void)state;
  for (int sched = SIM_SCHED_SERIAL; sched <= SIM_SCHED_RANDOM; sched++) {
    Fixture f;
    fixture_open(&f, (SimSched)sched);
    SimOpDesc w1 = memset_op(f.buf, 64, "w1"), w2 = memset_op(f.buf, 64, "w2");
    sim_stream_submit(f.dev, f.a, &w1, NULL);
    sim_stream_submit(f.dev, f.b, &w2, NULL);
    fixture_close(&f);
    assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
  }
}

static void test_race_in_loop_reported_once(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  for (int i = 0; i < 100; i++) {
    SimOpDesc w1 = memset_op(f.buf, 64, "loop-w1"), w2 = memset_op(f.buf, 64, "loop-w2");
    sim_stream_submit(f.dev, f.a, &w1, NULL);
    sim_stream_submit(f.dev, f.b, &w2, NULL);
    sim_device_sync(f.dev, "sync");
  }
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
}

static void test_race_check_off_reports_nothing(void **state) {
  (void)state;
  Sink s = {0};
  SimConfig cfg = {.workers = 2, .no_race_check = true, .sink = sink_fn, .sink_user = &s};
  SimDevice *dev = sim_create(&cfg);
  SimStream a, b;
  char *buf;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&buf, "buf");
  SimOpDesc w1 = memset_op(buf, 64, "w1"), w2 = memset_op(buf, 64, "w2");
  sim_stream_submit(dev, a, &w1, NULL);
  sim_stream_submit(dev, b, &w2, NULL);
  sim_device_sync(dev, "sync");
  sim_mem_free(dev, buf, "free");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

/* Many streams come and go (as lowered code does); chains are reused and stay correct. */
static void test_race_many_short_lived_streams_stay_precise(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  for (int i = 0; i < 200; i++) {
    SimStream s;
    sim_stream_create(f.dev, &s, "tmp-stream");
    SimOpDesc w = memset_op(f.buf, 64, "tmp-write");
    sim_stream_submit(f.dev, s, &w, NULL);
    sim_stream_sync(f.dev, s, "tmp-sync");
    sim_stream_destroy(f.dev, s, "tmp-destroy");
  }
  assert_int_equal(f.s.n, 0);
  SimOpDesc w1 = memset_op(f.buf, 64, "late-a");
  SimOpDesc w2 = memset_op(f.buf, 64, "late-b");
  sim_stream_submit(f.dev, f.a, &w1, NULL);
  sim_stream_submit(f.dev, f.b, &w2, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 1);
}

static void par_store(SimCtx *ctx, size_t i, void *user) {
  char *p = user;
  if (sim_access(ctx, p + i * 8, 8, true, "k.mlir:4:7") == SIM_OK)
    memset(p + i * 8, 3, 8);
}

static void par_kernel(SimCtx *ctx, void *user) {
  assert_int_equal(sim_ctx_parallel_for(ctx, 32, par_store, user), SIM_OK);
}

/* Blocks run by helper workers still count as the kernel's accesses. */
static void test_race_parallel_kernel_accesses_count(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = par_kernel, .user = f.buf, .loc = "launch"};
  SimOpDesc c1 = memcpy_op(f.buf2, f.buf, 256, "same-stream-copy");
  SimOpDesc c2 = memcpy_op(f.buf2, f.buf + 200, 8, "other-stream-copy");
  sim_stream_submit(f.dev, f.a, &k, NULL);
  sim_stream_submit(f.dev, f.a, &c1, NULL);
  sim_stream_submit(f.dev, f.b, &c2, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 2);  /* b's copy vs the kernel, and vs c1 */
  assert_true(has(&f.s, "'launch' writes and 'other-stream-copy' reads bytes [200, 208)") ||
              has(&f.s, "'other-stream-copy' reads and 'launch' writes bytes [200, 208)"));
}

typedef struct HostCb { SimDevice *dev; char *p; } HostCb;

static void host_cb_store(SimCtx *ctx, void *user) {
  (void)ctx;
  HostCb *h = user;
  if (sim_host_access(h->dev, h->p, 4, true, "cb-store") == SIM_OK)
    memset(h->p, 9, 4);
}

/* A store made by a host callback belongs to its op: ordered on its stream, racing on another. */
static void test_race_host_callback_store_counts_as_its_op(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  HostCb h = {f.dev, f.buf};
  SimOpDesc cb = {.kind = SIM_OP_HOST, .fn = host_cb_store, .user = &h, .loc = "launch-host-fn"};
  SimOpDesc same = memcpy_op(f.buf2, f.buf, 4, "same-stream");
  SimOpDesc other = memset_op(f.buf, 2, "other-stream");
  sim_stream_submit(f.dev, f.a, &cb, NULL);
  sim_stream_submit(f.dev, f.a, &same, NULL);
  sim_stream_submit(f.dev, f.b, &other, NULL);
  fixture_close(&f);
  assert_int_equal(count(&f.s, SIM_DIAG_RACE), 2);  /* other vs the callback and vs same */
  assert_true(has(&f.s, "'launch-host-fn' writes") || has(&f.s, "'launch-host-fn' (host) writes"));
}

static void scatter_kernel(SimCtx *ctx, void *user) {
  char *p = user;
  for (int rep = 0; rep < 50; rep++)  /* 12800 one-byte accesses, no two in a row adjacent */
    for (int i = 0; i < 256; i += 2)
      sim_access(ctx, p + (i * 37) % 256, 1, (rep & 1) != 0, NULL);
}

/* Many scattered accesses are merged while the kernel runs and still report the race. */
static void test_race_scattered_kernel_accesses_merge_and_report(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = scatter_kernel, .user = f.buf, .loc = "scatter"};
  SimOpDesc w = memset_op(f.buf + 254, 1, "late-write");
  sim_stream_submit(f.dev, f.a, &k, NULL);
  sim_stream_submit(f.dev, f.b, &w, NULL);
  fixture_close(&f);
  assert_true(count(&f.s, SIM_DIAG_RACE) >= 1);
  assert_true(has(&f.s, "'scatter'") && has(&f.s, "'late-write'"));
}

/* A host that polls an event until it completes is ordered after the work, as after a sync. */
static void test_race_event_query_complete_orders_host(void **state) {
  (void)state;
  Fixture f;
  fixture_open(&f, SIM_SCHED_THREADS);
  SimEvent e;
  sim_event_create(f.dev, &e, "e");
  SimOpDesc w = memset_op(f.buf, 64, "device-write");
  sim_stream_submit(f.dev, f.a, &w, NULL);
  sim_event_record(f.dev, e, f.a, "rec");
  while (sim_event_query(f.dev, e, "poll") != SIM_OK)
    ;
  sim_host_access(f.dev, f.buf, 64, false, "host-read");
  sim_event_destroy(f.dev, e, "d");
  fixture_close(&f);
  assert_int_equal(f.s.n, 0);
}

/* ---- random programs against the exact reference -------------------------------------------- */

/* With GPUINTERP_RACE_ORACLE=1 the sim runs an exact vector-clock detector alongside its own and
   aborts at the first access on which their verdicts differ. These programs mix every way of
   ordering (streams, events, tokens, host waits and syncs) with the cases that make the detector
   keep or drop state: kernels and host callbacks that record their accesses late, gates that
   keep such ops in flight while copies are checked at submit, partial and covering ranges,
   frees that wait for an op, and enough forks that chains are reused; and strided kernels, each
   touching up to 32 separate ranges of a buffer, so that an allocation holds many records at
   once (race.c's interval treap, and its sweep against the host's clock). */

typedef struct Kacc { char *p; size_t n; bool write; } Kacc;
typedef struct Kjob { Kacc acc[32]; int nacc; long nap_us; } Kjob;

static void kjob_run(SimCtx *ctx, void *user) {
  Kjob *k = user;
  if (k->nap_us)
    nap(k->nap_us);
  for (int i = 0; i < k->nacc; i++)
    sim_access(ctx, k->acc[i].p, k->acc[i].n, k->acc[i].write, NULL);
}

static void kjob_free(void *user) { free(user); }

typedef struct Rng { uint64_t x; } Rng;

static unsigned rnd(Rng *r, unsigned n) {
  r->x ^= r->x >> 12;
  r->x ^= r->x << 25;
  r->x ^= r->x >> 27;
  return (unsigned)((r->x * 0x2545f4914f6cdd1dull) >> 33) % n;
}

enum { NBUF = 4, BUFSZ = 64, NTOK = 12, NSTREAM = 3 };

typedef struct Prog {
  Rng r;
  SimDevice *dev;
  SimSched sched;
  SimStream s[NSTREAM];
  SimEvent e[2];
  char *buf[NBUF];
  SimOp *tok[NTOK];
  SimOp *gate;
} Prog;

static void prog_range(Prog *g, char **p, size_t *n) {
  char *b = g->buf[rnd(&g->r, NBUF)];
  if (rnd(&g->r, 3) == 0) {
    *p = b;
    *n = BUFSZ;
    return;
  }
  size_t lo = rnd(&g->r, BUFSZ);
  *p = b + lo;
  *n = 1 + rnd(&g->r, (unsigned)(BUFSZ - lo));
}

static void prog_tok_put(Prog *g, SimOp *op) {
  unsigned i = rnd(&g->r, NTOK);
  if (g->tok[i])
    sim_op_release(g->dev, g->tok[i]);
  g->tok[i] = op;
}

/* Up to three recent tokens (NULLs allowed). */
static size_t prog_deps(Prog *g, SimOp **deps) {
  size_t n = rnd(&g->r, 4);
  for (size_t i = 0; i < n; i++)
    deps[i] = g->tok[rnd(&g->r, NTOK)];
  return n;
}

static void prog_open_gate(Prog *g) {
  if (!g->gate)
    return;
  sim_gate_open(g->dev, g->gate, "gate-open");
  sim_op_release(g->dev, g->gate);
  g->gate = NULL;
}

/* Submit d on a random stream or as a token with random deps. */
static void prog_submit(Prog *g, const SimOpDesc *d) {
  if (rnd(&g->r, 2)) {
    sim_stream_submit(g->dev, g->s[rnd(&g->r, NSTREAM)], d, NULL);
  } else {
    SimOp *deps[3], *op = NULL;
    size_t n = prog_deps(g, deps);
    sim_submit(g->dev, d, deps, n, &op);
    if (op)
      prog_tok_put(g, op);
  }
}

static void prog_step(Prog *g) {
  SimDevice *dev = g->dev;
  char *p, *q;
  size_t n, m;
  unsigned what = rnd(&g->r, 100);
  if (what < 30) {  /* a copy or a memset */
    prog_range(g, &p, &n);
    SimOpDesc d = memset_op(p, n, "op-memset");
    if (what < 15) {
      prog_range(g, &q, &m);
      d = memcpy_op(p, q, n < m ? n : m, "op-memcpy");
      if (p < q + d.bytes && q < p + d.bytes)
        d = memset_op(p, n, "op-memset");
    }
    prog_submit(g, &d);
  } else if (what < 48) {  /* a kernel or host callback: its accesses are recorded late */
    Kjob *k = calloc(1, sizeof *k);
    assert_non_null(k);
    if (rnd(&g->r, 3) == 0) {  /* strided: every stride bytes from off, len of them */
      char *b = g->buf[rnd(&g->r, NBUF)];
      size_t stride = 2 + rnd(&g->r, 7), off = rnd(&g->r, (unsigned)stride);
      size_t len = 1 + rnd(&g->r, (unsigned)(stride - 1));
      bool write = rnd(&g->r, 3) == 0;
      for (size_t lo = off; lo + len <= BUFSZ && k->nacc < 32; lo += stride)
        k->acc[k->nacc++] = (Kacc){b + lo, len, write};
    } else {
      k->nacc = 1 + (int)rnd(&g->r, 3);
      for (int i = 0; i < k->nacc; i++) {
        prog_range(g, &k->acc[i].p, &k->acc[i].n);
        k->acc[i].write = rnd(&g->r, 2);
      }
    }
    if (g->sched == SIM_SCHED_THREADS && rnd(&g->r, 8) == 0)
      k->nap_us = 50 + rnd(&g->r, 300);
    SimOpDesc d = {.kind = rnd(&g->r, 4) ? SIM_OP_KERNEL : SIM_OP_HOST, .fn = kjob_run, .user = k,
                   .release = kjob_free, .loc = "op-kernel"};
    prog_submit(g, &d);
  } else if (what < 56) {  /* the host touches memory */
    prog_range(g, &p, &n);
    sim_host_access(dev, p, n, rnd(&g->r, 2), "host-access");
  } else if (what < 62) {
    sim_event_record(dev, g->e[rnd(&g->r, 2)], g->s[rnd(&g->r, NSTREAM)], "event-record");
  } else if (what < 68) {
    sim_stream_wait_event(dev, g->s[rnd(&g->r, NSTREAM)], g->e[rnd(&g->r, 2)], "event-wait");
  } else if (what < 74) {  /* a join */
    SimOpDesc d = {.kind = SIM_OP_MARKER, .loc = "op-join"};
    prog_submit(g, &d);
  } else if (what < 80) {  /* hold work back: later ops wait for the gate */
    if (g->gate) {
      prog_open_gate(g);
    } else {
      SimOpDesc d = {.kind = SIM_OP_GATE, .loc = "gate"};
      sim_stream_submit(dev, g->s[rnd(&g->r, NSTREAM)], &d, &g->gate);
    }
  } else if (what < 84) {
    prog_open_gate(g);
    sim_stream_sync(dev, g->s[rnd(&g->r, NSTREAM)], "stream-sync");
  } else if (what < 88) {
    prog_open_gate(g);
    SimOp *t = g->tok[rnd(&g->r, NTOK)];
    if (t)
      sim_host_wait(dev, &t, 1, "host-wait");
  } else if (what < 89) {
    prog_open_gate(g);
    sim_device_sync(dev, "device-sync");
  } else if (what < 93) {  /* free a buffer (after an op, or at the host's point) and make another */
    unsigned b = rnd(&g->r, NBUF);
    SimOp *t = g->tok[rnd(&g->r, NTOK)];
    if (t && rnd(&g->r, 2)) {
      prog_open_gate(g);  /* the free waits for t */
      sim_mem_free_after(dev, g->buf[b], t, "free-after");
    } else {
      sim_mem_free(dev, g->buf[b], "free");
    }
    assert_int_equal(sim_mem_alloc(dev, BUFSZ, SIM_MEM_HOST_SHARED, (void **)&g->buf[b], "realloc"),
                     SIM_OK);
  }
}

/* Runs one random program; returns the races it reported. */
static int prog_run(uint64_t seed, SimSched sched, int steps) {
  Sink sink;
  Prog g = {.r = {seed * 0x9e3779b97f4a7c15ull + 1}, .sched = sched};
  g.dev = make(&sink, sched);
  for (int i = 0; i < NSTREAM; i++)
    sim_stream_create(g.dev, &g.s[i], "stream");
  for (int i = 0; i < 2; i++)
    sim_event_create(g.dev, &g.e[i], "event");
  for (int i = 0; i < NBUF; i++)
    sim_mem_alloc(g.dev, BUFSZ, SIM_MEM_HOST_SHARED, (void **)&g.buf[i], "alloc");
  for (int i = 0; i < steps; i++)
    prog_step(&g);
  prog_open_gate(&g);
  sim_device_sync(g.dev, "end-sync");
  for (int i = 0; i < NTOK; i++)
    if (g.tok[i])
      sim_op_release(g.dev, g.tok[i]);
  for (int i = 0; i < NBUF; i++)
    sim_mem_free(g.dev, g.buf[i], "end-free");
  for (int i = 0; i < NSTREAM; i++)
    sim_stream_destroy(g.dev, g.s[i], "d");
  for (int i = 0; i < 2; i++)
    sim_event_destroy(g.dev, g.e[i], "d");
  sim_destroy(g.dev);
  return count(&sink, SIM_DIAG_RACE);
}

static void test_race_random_programs_agree_with_exact_oracle(void **state) {
  (void)state;
  setenv("GPUINTERP_RACE_ORACLE", "1", 1);
  int races = 0;
  for (int sched = SIM_SCHED_THREADS; sched <= SIM_SCHED_RANDOM; sched++)
    for (uint64_t seed = 1; seed <= 40; seed++)
      races += prog_run(seed, (SimSched)sched, seed % 4 ? 150 : 600);
  unsetenv("GPUINTERP_RACE_ORACLE");
  assert_true(races > 0);  /* the programs do race: both verdicts were compared */
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_race_write_write_on_two_streams_reported),
    cmocka_unit_test(test_race_read_write_on_two_streams_reported),
    cmocka_unit_test(test_race_read_read_not_reported),
    cmocka_unit_test(test_race_ordered_by_event_not_reported),
    cmocka_unit_test(test_race_event_generation_later_record_not_ordering),
    cmocka_unit_test(test_race_ordered_by_host_sync_not_reported),
    cmocka_unit_test(test_race_host_store_vs_op_reported),
    cmocka_unit_test(test_race_host_store_before_submit_not_reported),
    cmocka_unit_test(test_race_kernel_vs_copy_reported),
    cmocka_unit_test(test_race_kernel_then_copy_same_stream_not_reported),
    cmocka_unit_test(test_race_free_while_op_pending_reports_use_after_free),
    cmocka_unit_test(test_race_kernel_touching_memory_freed_meanwhile_reports),
    cmocka_unit_test(test_race_kernel_starting_after_free_reports_use_after_free),
    cmocka_unit_test(test_race_free_after_op_leaves_the_host_unordered),
    cmocka_unit_test(test_race_free_after_op_races_with_a_write_it_does_not_wait_for),
    cmocka_unit_test(test_race_free_after_op_is_ordered_after_the_host),
    cmocka_unit_test(test_race_token_chain_not_reported),
    cmocka_unit_test(test_race_token_fork_reported),
    cmocka_unit_test(test_race_reported_under_serial_and_random),
    cmocka_unit_test(test_race_in_loop_reported_once),
    cmocka_unit_test(test_race_check_off_reports_nothing),
    cmocka_unit_test(test_race_many_short_lived_streams_stay_precise),
    cmocka_unit_test(test_race_parallel_kernel_accesses_count),
    cmocka_unit_test(test_race_host_callback_store_counts_as_its_op),
    cmocka_unit_test(test_race_scattered_kernel_accesses_merge_and_report),
    cmocka_unit_test(test_race_event_query_complete_orders_host),
    cmocka_unit_test(test_race_random_programs_agree_with_exact_oracle),
    cmocka_unit_test(test_race_conflict_predicate),
    cmocka_unit_test(test_race_atomics_race_only_with_plain_accesses),
  };
  return cmocka_run_group_tests_name("sim_race", tests, NULL, NULL);
}
