/* Streams and events: in-order streams, event generations, waits, queries, handle misuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sim/sim.h"

/* ---- a sink that keeps what it got ---- */

#include "tests/unit/sim_sink.h"

static void nap(long us) {
  struct timespec ts = {0, us * 1000};
  nanosleep(&ts, NULL);
}

/* A kernel that appends its tag to a shared log (ordered by the graph, so no lock is needed when
   the ops are ordered). */
typedef struct Log { int v[64]; int n; } Log;
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

static void test_stream_submit_in_order(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream st;
  assert_int_equal(sim_stream_create(dev, &st, "create"), SIM_OK);
  Log log = {0};
  Tag tags[16];
  for (int i = 0; i < 16; i++) {
    tags[i] = (Tag){&log, i, i % 3 ? 0 : 200};
    SimOpDesc d = log_op(&tags[i]);
    assert_int_equal(sim_stream_submit(dev, st, &d, NULL), SIM_OK);
  }
  assert_int_equal(sim_stream_sync(dev, st, "sync"), SIM_OK);
  assert_int_equal(log.n, 16);
  for (int i = 0; i < 16; i++)
    assert_int_equal(log.v[i], i);
  assert_int_equal(sim_stream_destroy(dev, st, "destroy"), SIM_OK);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_stream_wait_event_orders_streams(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a, b;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_event_create(dev, &e, "e");
  Log log = {0};
  Tag t1 = {&log, 1, 20000}, t2 = {&log, 2, 0};
  SimOpDesc d1 = log_op(&t1), d2 = log_op(&t2);
  sim_stream_submit(dev, a, &d1, NULL);
  assert_int_equal(sim_event_record(dev, e, a, "record"), SIM_OK);
  assert_int_equal(sim_stream_wait_event(dev, b, e, "wait"), SIM_OK);
  sim_stream_submit(dev, b, &d2, NULL);
  assert_int_equal(sim_stream_sync(dev, b, "sync"), SIM_OK);
  assert_int_equal(log.n, 2);
  assert_int_equal(log.v[0], 1);
  assert_int_equal(log.v[1], 2);
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

/* A gate holds the first generation back: a record after the wait must not change what b waits
   for, so b's op runs while a's later work is still blocked. */
static void test_event_record_new_generation_keeps_earlier_wait(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a, b;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_event_create(dev, &e, "e");
  Log log = {0};
  Tag t1 = {&log, 1, 0}, t2 = {&log, 2, 0};
  SimOpDesc d1 = log_op(&t1), d2 = log_op(&t2);
  sim_stream_submit(dev, a, &d1, NULL);
  sim_event_record(dev, e, a, "record1");
  sim_stream_wait_event(dev, b, e, "wait");  /* takes generation 1 */
  SimOp *gate;
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  sim_stream_submit(dev, a, &g, &gate);
  sim_event_record(dev, e, a, "record2");    /* generation 2: behind the closed gate */
  sim_stream_submit(dev, b, &d2, NULL);
  assert_int_equal(sim_stream_sync(dev, b, "sync b"), SIM_OK);
  assert_int_equal(log.n, 2);
  assert_int_equal(sim_event_query(dev, e, "query"), SIM_NOT_READY);
  assert_int_equal(sim_gate_open(dev, gate, "open"), SIM_OK);
  assert_int_equal(sim_event_sync(dev, e, "esync"), SIM_OK);
  assert_int_equal(sim_event_query(dev, e, "query"), SIM_OK);
  sim_op_release(dev, gate);
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_stream_wait_event_never_recorded_is_noop(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_event_create(dev, &e, "e");
  assert_int_equal(sim_stream_wait_event(dev, a, e, "wait"), SIM_OK);
  assert_int_equal(sim_event_query(dev, e, "q"), SIM_OK);
  assert_int_equal(sim_event_sync(dev, e, "s"), SIM_OK);
  Log log = {0};
  Tag t = {&log, 1, 0};
  SimOpDesc d = log_op(&t);
  sim_stream_submit(dev, a, &d, NULL);
  assert_int_equal(sim_stream_sync(dev, a, "sync"), SIM_OK);
  assert_int_equal(log.n, 1);
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_stream_destroy_pending_work_finishes(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a;
  sim_stream_create(dev, &a, "a");
  Log log = {0};
  Tag t[4];
  for (int i = 0; i < 4; i++) {
    t[i] = (Tag){&log, i, 2000};
    SimOpDesc d = log_op(&t[i]);
    sim_stream_submit(dev, a, &d, NULL);
  }
  assert_int_equal(sim_stream_destroy(dev, a, "destroy"), SIM_OK);
  assert_int_equal(sim_device_sync(dev, "sync"), SIM_OK);
  assert_int_equal(log.n, 4);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_stream_query_reports_pending(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a;
  sim_stream_create(dev, &a, "a");
  SimOp *gate;
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  sim_stream_submit(dev, a, &g, &gate);
  assert_int_equal(sim_stream_query(dev, a, "q"), SIM_NOT_READY);
  sim_gate_open(dev, gate, "open");
  assert_int_equal(sim_stream_sync(dev, a, "s"), SIM_OK);
  assert_int_equal(sim_stream_query(dev, a, "q"), SIM_OK);
  sim_op_release(dev, gate);
  sim_stream_destroy(dev, a, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_stream_wait_event_given_stream_reports_kind(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a, b;
  sim_stream_create(dev, &a, "mgpuStreamCreate");
  sim_stream_create(dev, &b, "prog.mlir:4:3");
  assert_int_equal(sim_stream_wait_event(dev, a, (SimEvent)b, "mgpuStreamWaitEvent"),
                   SIM_ERR_HANDLE);
  assert_int_equal(count(&s, SIM_DIAG_MISUSE), 1);
  assert_true(has(&s, "mgpuStreamWaitEvent: expects an event, got a stream (created at 'prog.mlir:4:3')"));
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
}

static void test_event_record_given_event_as_stream_reports_kind(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimEvent e, f;
  sim_event_create(dev, &e, "e");
  sim_event_create(dev, &f, "f-site");
  assert_int_equal(sim_event_record(dev, e, (SimStream)f, "rec"), SIM_ERR_HANDLE);
  assert_true(has(&s, "rec: expects a stream, got an event (created at 'f-site')"));
  sim_event_destroy(dev, e, "d");
  sim_event_destroy(dev, f, "d");
  sim_destroy(dev);
}

static void test_stream_destroy_twice_reports_double_destroy(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a;
  sim_stream_create(dev, &a, "made");
  assert_int_equal(sim_stream_destroy(dev, a, "first"), SIM_OK);
  assert_int_equal(sim_stream_destroy(dev, a, "second"), SIM_ERR_HANDLE);
  assert_true(has(&s, "second: use of a destroyed stream (created at 'made', destroyed at 'first')"));
  sim_destroy(dev);
}

static void test_event_sync_after_destroy_reports_use_after_destroy(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimEvent e;
  sim_event_create(dev, &e, "made");
  sim_event_destroy(dev, e, "gone");
  assert_int_equal(sim_event_sync(dev, e, "late"), SIM_ERR_HANDLE);
  assert_true(has(&s, "late: use of a destroyed event (created at 'made', destroyed at 'gone')"));
  sim_destroy(dev);
}

static void test_stream_sync_unknown_handle_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  int x;
  assert_int_equal(sim_stream_sync(dev, (SimStream)&x, "bogus"), SIM_ERR_HANDLE);
  assert_true(has(&s, "which is not a stream or event of this device"));
  assert_int_equal(sim_event_record(dev, NULL, NULL, "null"), SIM_ERR_HANDLE);
  assert_int_equal(sim_stream_destroy(dev, NULL, "def"), SIM_ERR_HANDLE);
  assert_int_equal(sim_error_count(dev), 3);
  sim_destroy(dev);
}

static void test_stream_default_null_works(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  Log log = {0};
  Tag t = {&log, 5, 0};
  SimOpDesc d = log_op(&t);
  assert_int_equal(sim_stream_submit(dev, NULL, &d, NULL), SIM_OK);
  assert_int_equal(sim_stream_sync(dev, NULL, "sync"), SIM_OK);
  assert_int_equal(log.n, 1);
  assert_int_equal(sim_stream_id(NULL), 1);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_sim_destroy_reports_leaked_stream_and_event(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a;
  SimEvent e;
  sim_stream_create(dev, &a, "leaky-stream");
  sim_event_create(dev, &e, "leaky-event");
  sim_destroy(dev);
  assert_int_equal(count(&s, SIM_DIAG_LEAK), 2);
  assert_true(has(&s, "leaky-stream: stream created here was never destroyed"));
  assert_true(has(&s, "leaky-event: event created here was never destroyed"));
  assert_int_equal(s.got[0].sev, SIM_SEV_WARNING);
}

static void test_stream_handles_many_reused_slots(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream first;
  sim_stream_create(dev, &first, "first");
  sim_stream_destroy(dev, first, "d");
  for (int i = 0; i < 500; i++) {
    SimEvent e;
    assert_int_equal(sim_event_create(dev, &e, "loop"), SIM_OK);
    assert_int_equal(sim_event_record(dev, e, NULL, "rec"), SIM_OK);
    assert_int_equal(sim_event_destroy(dev, e, "d"), SIM_OK);
  }
  assert_int_equal(s.n, 0);
  /* first's slot was reused since: still reported, never confused with the new owner */
  assert_int_equal(sim_stream_sync(dev, first, "stale"), SIM_ERR_HANDLE);
  sim_destroy(dev);
}

/* Tokens and streams meet: a stream can wait for a token, and its work can become a token. */
static void test_stream_wait_op_and_last_op_join_front_doors(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a;
  sim_stream_create(dev, &a, "a");
  Log log = {0};
  Tag t1 = {&log, 1, 10000}, t2 = {&log, 2, 0}, t3 = {&log, 3, 0};
  SimOpDesc d1 = log_op(&t1), d2 = log_op(&t2), d3 = log_op(&t3);
  SimOp *tok, *last = NULL, *after;
  sim_submit(dev, &d1, NULL, 0, &tok);
  assert_int_equal(sim_stream_wait_op(dev, a, tok, "join"), SIM_OK);
  sim_stream_submit(dev, a, &d2, NULL);
  assert_int_equal(sim_stream_last_op(dev, a, &last, "last"), SIM_OK);
  assert_non_null(last);
  sim_submit(dev, &d3, &last, 1, &after);
  assert_int_equal(sim_host_wait(dev, &after, 1, "wait"), SIM_OK);
  assert_int_equal(log.n, 3);
  assert_int_equal(log.v[0], 1);
  assert_int_equal(log.v[1], 2);
  assert_int_equal(log.v[2], 3);
  sim_op_release(dev, tok);
  sim_op_release(dev, last);
  sim_op_release(dev, after);
  sim_stream_destroy(dev, a, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

/* Under random, nothing runs until the host waits; a host polling EventQuery must still see the
   work finish. */
static void test_event_query_polling_progresses_under_random(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_RANDOM);
  SimStream a;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_event_create(dev, &e, "e");
  Log log = {0};
  Tag t[8];
  for (int i = 0; i < 8; i++) {
    t[i] = (Tag){&log, i, 0};
    SimOpDesc d = log_op(&t[i]);
    sim_stream_submit(dev, a, &d, NULL);
  }
  sim_event_record(dev, e, a, "rec");
  int polls = 0;
  while (sim_event_query(dev, e, "poll") == SIM_NOT_READY)
    polls++;
  assert_true(polls < 100);
  assert_int_equal(log.n, 8);
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

/* A record after a wait covers the waited work too (the record completes after it). */
static void test_event_record_after_wait_covers_waited_event(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a, b;
  SimEvent e1, e2;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_event_create(dev, &e1, "e1");
  sim_event_create(dev, &e2, "e2");
  SimOp *gate;
  SimOpDesc g = {.kind = SIM_OP_GATE, .loc = "gate"};
  sim_stream_submit(dev, a, &g, &gate);
  sim_event_record(dev, e1, a, "rec1");
  sim_stream_wait_event(dev, b, e1, "wait");
  sim_event_record(dev, e2, b, "rec2");  /* b has no op of its own: e2 still waits for e1 */
  assert_int_equal(sim_event_query(dev, e2, "q"), SIM_NOT_READY);
  assert_int_equal(sim_stream_query(dev, b, "q"), SIM_NOT_READY);
  sim_gate_open(dev, gate, "open");
  assert_int_equal(sim_event_sync(dev, e2, "sync"), SIM_OK);
  sim_op_release(dev, gate);
  sim_event_destroy(dev, e1, "d");
  sim_event_destroy(dev, e2, "d");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stream_submit_in_order),
    cmocka_unit_test(test_stream_wait_event_orders_streams),
    cmocka_unit_test(test_event_record_new_generation_keeps_earlier_wait),
    cmocka_unit_test(test_stream_wait_event_never_recorded_is_noop),
    cmocka_unit_test(test_stream_destroy_pending_work_finishes),
    cmocka_unit_test(test_stream_query_reports_pending),
    cmocka_unit_test(test_stream_wait_event_given_stream_reports_kind),
    cmocka_unit_test(test_event_record_given_event_as_stream_reports_kind),
    cmocka_unit_test(test_stream_destroy_twice_reports_double_destroy),
    cmocka_unit_test(test_event_sync_after_destroy_reports_use_after_destroy),
    cmocka_unit_test(test_stream_sync_unknown_handle_reports),
    cmocka_unit_test(test_stream_default_null_works),
    cmocka_unit_test(test_sim_destroy_reports_leaked_stream_and_event),
    cmocka_unit_test(test_stream_handles_many_reused_slots),
    cmocka_unit_test(test_stream_wait_op_and_last_op_join_front_doors),
    cmocka_unit_test(test_event_query_polling_progresses_under_random),
    cmocka_unit_test(test_event_record_after_wait_covers_waited_event),
  };
  return cmocka_run_group_tests_name("sim_stream", tests, NULL, NULL);
}
