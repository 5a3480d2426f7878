/* A race-free program with many streams, events both ways, kernels that use helper workers and
   copies, under every scheduler: it must compute the right bytes and report nothing. Under TSan
   this is what shows the simulator itself is race-free. */
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

enum { N = 4, BYTES = 256, ROUNDS = 120 };

typedef struct Inc { unsigned char *src, *dst; } Inc;

static void inc_block(SimCtx *ctx, size_t i, void *user) {
  Inc *k = user;
  unsigned char *s = k->src + i * 32, *d = k->dst + i * 32;
  if (sim_access(ctx, s, 32, false, "inc.load") != SIM_OK ||
      sim_access(ctx, d, 32, true, "inc.store") != SIM_OK)
    return;
  for (int j = 0; j < 32; j++)
    d[j] = (unsigned char)(s[j] + 1);
}

static void inc_kernel(SimCtx *ctx, void *user) {
  sim_ctx_parallel_for(ctx, BYTES / 32, inc_block, user);
}

static void run_ring(SimSched sched) {
  Sink s;
  SimDevice *dev = make(&s, sched);
  SimStream st[N];
  SimEvent made[N], taken[N];
  unsigned char *src[N], *tmp[N], *out[N];
  Inc inc[N];
  for (int k = 0; k < N; k++) {
    sim_stream_create(dev, &st[k], "stream");
    sim_event_create(dev, &made[k], "made");
    sim_event_create(dev, &taken[k], "taken");
    sim_mem_alloc(dev, BYTES, SIM_MEM_DEVICE, (void **)&src[k], "src");
    sim_mem_alloc(dev, BYTES, SIM_MEM_DEVICE, (void **)&tmp[k], "tmp");
    sim_mem_alloc(dev, BYTES, SIM_MEM_HOST_SHARED, (void **)&out[k], "out");
    inc[k] = (Inc){src[k], tmp[k]};
  }
  for (int r = 0; r < ROUNDS; r++) {
    for (int k = 0; k < N; k++) {
      int next = (k + 1) % N;
      /* before overwriting tmp[k], wait until the neighbour took last round's copy */
      sim_stream_wait_event(dev, st[k], taken[next], "wait-taken");
      SimOpDesc set = {.kind = SIM_OP_MEMSET, .dst = src[k], .bytes = BYTES,
                       .value = (uint32_t)(r + k) & 0xff, .loc = "set"};
      SimOpDesc kern = {.kind = SIM_OP_KERNEL, .fn = inc_kernel, .user = &inc[k], .loc = "inc"};
      sim_stream_submit(dev, st[k], &set, NULL);
      sim_stream_submit(dev, st[k], &kern, NULL);
      sim_event_record(dev, made[k], st[k], "record-made");
    }
    for (int k = 0; k < N; k++) {
      int next = (k + 1) % N;
      sim_stream_wait_event(dev, st[next], made[k], "wait-made");
      SimOpDesc cp = {.kind = SIM_OP_MEMCPY, .dst = out[next], .src = tmp[k], .bytes = BYTES,
                      .loc = "copy"};
      sim_stream_submit(dev, st[next], &cp, NULL);
      sim_event_record(dev, taken[next], st[next], "record-taken");
    }
    if (r % 10 == 9) {
      sim_device_sync(dev, "sync");
      for (int k = 0; k < N; k++) {
        int next = (k + 1) % N;
        assert_int_equal(sim_host_access(dev, out[next], BYTES, false, "check"), SIM_OK);
        assert_int_equal(out[next][BYTES - 1], (unsigned char)(((r + k) & 0xff) + 1));
      }
    }
  }
  sim_device_sync(dev, "sync");
  for (int k = 0; k < N; k++) {
    sim_mem_free(dev, src[k], "free");
    sim_mem_free(dev, tmp[k], "free");
    sim_mem_free(dev, out[k], "free");
    sim_event_destroy(dev, made[k], "d");
    sim_event_destroy(dev, taken[k], "d");
    sim_stream_destroy(dev, st[k], "d");
  }
  sim_destroy(dev);
  for (int i = 0; i < s.n && i < 64; i++)
    print_message("unexpected: %s\n", s.got[i].msg);
  assert_int_equal(s.n, 0);
}

static void test_ring_race_free_threads_reports_nothing(void **state) {
  (void)state;
  run_ring(SIM_SCHED_THREADS);
}

static void test_ring_race_free_serial_reports_nothing(void **state) {
  (void)state;
  run_ring(SIM_SCHED_SERIAL);
}

static void test_ring_race_free_random_reports_nothing(void **state) {
  (void)state;
  run_ring(SIM_SCHED_RANDOM);
}

/* Without the taken events the neighbour's copy races with the next round's kernel. */
static void test_ring_missing_event_reports_race(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  SimStream a, b;
  SimEvent made;
  unsigned char *src, *tmp, *out;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_event_create(dev, &made, "made");
  sim_mem_alloc(dev, BYTES, SIM_MEM_DEVICE, (void **)&src, "src");
  sim_mem_alloc(dev, BYTES, SIM_MEM_DEVICE, (void **)&tmp, "tmp");
  sim_mem_alloc(dev, BYTES, SIM_MEM_DEVICE, (void **)&out, "out");
  Inc inc = {src, tmp};
  for (int r = 0; r < 2; r++) {
    SimOpDesc set = {.kind = SIM_OP_MEMSET, .dst = src, .bytes = BYTES, .loc = "set"};
    SimOpDesc kern = {.kind = SIM_OP_KERNEL, .fn = inc_kernel, .user = &inc, .loc = "inc"};
    SimOpDesc cp = {.kind = SIM_OP_MEMCPY, .dst = out, .src = tmp, .bytes = BYTES, .loc = "copy"};
    sim_stream_submit(dev, a, &set, NULL);
    sim_stream_submit(dev, a, &kern, NULL);
    sim_event_record(dev, made, a, "rec");
    sim_stream_wait_event(dev, b, made, "wait");
    sim_stream_submit(dev, b, &cp, NULL);
  }
  sim_device_sync(dev, "sync");
  assert_true(count(&s, SIM_DIAG_RACE) >= 1);
  assert_true(has(&s, "'inc'") && has(&s, "'copy'"));
  sim_mem_free(dev, src, "f");
  sim_mem_free(dev, tmp, "f");
  sim_mem_free(dev, out, "f");
  sim_event_destroy(dev, made, "d");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ring_race_free_threads_reports_nothing),
    cmocka_unit_test(test_ring_race_free_serial_reports_nothing),
    cmocka_unit_test(test_ring_race_free_random_reports_nothing),
    cmocka_unit_test(test_ring_missing_event_reports_race),
  };
  return cmocka_run_group_tests_name("sim_ring", tests, NULL, NULL);
}
