/* bench/sim - how fast the CPU device is, each figure as a ratio against a peer measured in the
 * same run (machines differ; ratios travel). Every figure is the median of RUNS runs.
 *
 *   tiny ops       memsets of 4 bytes on two streams joined by an event every 8 ops, per op;
 *                  once on the fast path (ready ops run on the submitting thread) and once forced
 *                  through the worker pool. Peer: one atomic handoff between two threads (the
 *                  floor for giving work to another core; best of 5 tries in each run). Target:
 *                  <= 250 ns/op.
 *   host calls     StreamSynchronize on an idle stream, EventRecord, StreamWaitEvent, per call.
 *                  Peer: the same atomic handoff. Target: <= 100 ns each.
 *   memcpy         256 MiB device-to-device copy through a stream vs host memcpy of the same size
 *                  (both buffers touched beforehand). Target: >= 0.9x host bandwidth.
 *   race check     a copy-heavy workload (8 streams, 64 KiB copies, event joins, host syncs) with
 *                  race detection on vs off. Target: <= 1.5x.
 *
 * Usage: bench/sim [workers]   (default: the CPUs but one, as sim_create picks)
 */
#include "bench/bench.h"
#include "sim/sim.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { RUNS = 5 };

static void quiet_sink(const SimDiag *d, void *user) {
  (void)user;
  fprintf(stderr, "bench: unexpected diagnostic: %s: %s\n", d->loc ? d->loc : "?", d->message);
}

static int workers;

static SimDevice *device(bool race, bool no_inline) {
  SimConfig cfg = {.workers = workers, .no_race_check = !race, .no_inline = no_inline,
                   .sink = quiet_sink};
  SimDevice *dev = sim_create(&cfg);
  if (!dev) {
    fprintf(stderr, "bench: sim_create failed\n");
    exit(1);
  }
  return dev;
}

/* ---- peer: an atomic handoff between two threads, ns per one-way handoff ---- */

static atomic_long ball;
enum { PINGS = 50000 };

static void *pong(void *arg) {
  (void)arg;
  for (long i = 0; i < PINGS; i++) {
    while (atomic_load_explicit(&ball, memory_order_acquire) != 2 * i + 1)
      ;
    atomic_store_explicit(&ball, 2 * i + 2, memory_order_release);
  }
  return NULL;
}

static double handoff_once(void) {
  atomic_store(&ball, 0);
  pthread_t t;
  pthread_create(&t, NULL, pong, NULL);
  double t0 = bench_wall_s();
  for (long i = 0; i < PINGS; i++) {
    atomic_store_explicit(&ball, 2 * i + 1, memory_order_release);
    while (atomic_load_explicit(&ball, memory_order_acquire) != 2 * i + 2)
      ;
  }
  double t1 = bench_wall_s();
  pthread_join(t, NULL);
  return (t1 - t0) * 1e9 / (2.0 * PINGS);
}

/* The floor is what the hardware can do: the best of a few tries, so a try that shared its core
   with another process does not count. */
static double handoff_ns(void) {
  double best = handoff_once();
  for (int i = 0; i < 4; i++) {
    double t = handoff_once();
    if (t < best)
      best = t;
  }
  return best;
}

/* ---- tiny ops through streams with event joins ---- */

static double tiny_ops_ns(bool no_inline, long nops) {
  SimDevice *dev = device(true, no_inline);
  SimStream a, b;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_event_create(dev, &e, "e");
  void *buf;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, &buf, "buf");
  char *p = buf;
  SimOpDesc da = {.kind = SIM_OP_MEMSET, .dst = p, .bytes = 4, .width = 4, .loc = "set-a"};
  SimOpDesc db = {.kind = SIM_OP_MEMSET, .dst = p + 32, .bytes = 4, .width = 4, .loc = "set-b"};
  double t0 = bench_wall_s();
  for (long i = 0; i < nops; i += 2) {
    sim_stream_submit(dev, a, &da, NULL);
    sim_stream_submit(dev, b, &db, NULL);
    if ((i & 7) == 6) {
      sim_event_record(dev, e, a, "rec");
      sim_stream_wait_event(dev, b, e, "wait");
    }
  }
  sim_device_sync(dev, "sync");
  double t1 = bench_wall_s();
  sim_mem_free(dev, buf, "free");
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
  return (t1 - t0) * 1e9 / (double)nops;
}

/* ---- idle host calls ---- */

static void host_calls_ns(double out[3]) {
  enum { N = 1000000 };
  SimDevice *dev = device(true, false);
  SimStream a, b;
  SimEvent e;
  sim_stream_create(dev, &a, "a");
  sim_stream_create(dev, &b, "b");
  sim_event_create(dev, &e, "e");
  SimOpDesc m = {.kind = SIM_OP_MARKER, .loc = "m"};
  sim_stream_submit(dev, a, &m, NULL);
  sim_stream_sync(dev, a, "sync");
  double t0 = bench_wall_s();
  for (int i = 0; i < N; i++)
    sim_stream_sync(dev, a, "sync");
  double t1 = bench_wall_s();
  for (int i = 0; i < N; i++)
    sim_event_record(dev, e, a, "rec");
  double t2 = bench_wall_s();
  for (int i = 0; i < N; i++)
    sim_stream_wait_event(dev, b, e, "wait");
  double t3 = bench_wall_s();
  out[0] = (t1 - t0) * 1e9 / N;
  out[1] = (t2 - t1) * 1e9 / N;
  out[2] = (t3 - t2) * 1e9 / N;
  sim_event_destroy(dev, e, "d");
  sim_stream_destroy(dev, a, "d");
  sim_stream_destroy(dev, b, "d");
  sim_destroy(dev);
}

/* ---- 256 MiB memcpy ---- */

static void memcpy_s(double *sim_s, double *host_s) {
  size_t n = (size_t)256 << 20;
  SimDevice *dev = device(true, false);
  void *d1, *d2;
  sim_mem_alloc(dev, n, SIM_MEM_DEVICE, &d1, "d1");
  sim_mem_alloc(dev, n, SIM_MEM_DEVICE, &d2, "d2");
  SimOpDesc f1 = {.kind = SIM_OP_MEMSET, .dst = d1, .bytes = n, .value = 1, .loc = "fill1"};
  SimOpDesc f2 = {.kind = SIM_OP_MEMSET, .dst = d2, .bytes = n, .value = 2, .loc = "fill2"};
  sim_stream_submit(dev, NULL, &f1, NULL);
  sim_stream_submit(dev, NULL, &f2, NULL);
  sim_stream_sync(dev, NULL, "sync");
  SimOpDesc c = {.kind = SIM_OP_MEMCPY, .dst = d2, .src = d1, .bytes = n, .loc = "copy"};
  double t0 = bench_wall_s();
  sim_stream_submit(dev, NULL, &c, NULL);
  sim_stream_sync(dev, NULL, "sync");
  *sim_s = bench_wall_s() - t0;
  sim_mem_free(dev, d1, "free");
  sim_mem_free(dev, d2, "free");
  sim_destroy(dev);

  char *h1 = malloc(n), *h2 = malloc(n);
  memset(h1, 1, n);
  memset(h2, 2, n);
  /* through a volatile pointer, so the compiler cannot see (and drop) the copy */
  void *(*volatile copy)(void *, const void *, size_t) = memcpy;
  t0 = bench_wall_s();
  copy(h2, h1, n);
  *host_s = bench_wall_s() - t0;
  if (h2[n / 2] != 1)
    fprintf(stderr, "bench: memcpy went wrong\n");
  free(h1);
  free(h2);
}

/* ---- copy-heavy workload ---- */

static double copy_heavy_s(bool race) {
  enum { STREAMS = 8, BUFS = 32, CHUNK = 64 << 10, ROUNDS = 800 };
  SimDevice *dev = device(race, false);
  SimStream s[STREAMS];
  SimEvent e[STREAMS];
  void *buf[BUFS];
  for (int i = 0; i < STREAMS; i++) {
    sim_stream_create(dev, &s[i], "s");
    sim_event_create(dev, &e[i], "e");
  }
  for (int i = 0; i < BUFS; i++) {
    sim_mem_alloc(dev, CHUNK, SIM_MEM_DEVICE, &buf[i], "buf");
    SimOpDesc f = {.kind = SIM_OP_MEMSET, .dst = buf[i], .bytes = CHUNK, .loc = "fill"};
    sim_stream_submit(dev, s[0], &f, NULL);
  }
  sim_device_sync(dev, "sync");
  double t0 = bench_wall_s();
  for (int r = 0; r < ROUNDS; r++) {
    /* stream k copies buffer (4k+r)%BUFS... into its own half; neighbours join through events */
    for (int k = 0; k < STREAMS; k++) {
      int src = (k * 2 + r) % (BUFS / 2), dst = BUFS / 2 + (k * 2 + r) % (BUFS / 2);
      SimOpDesc c = {.kind = SIM_OP_MEMCPY, .dst = buf[dst], .src = buf[src], .bytes = CHUNK,
                     .loc = "copy"};
      sim_stream_submit(dev, s[k], &c, NULL);
      sim_event_record(dev, e[k], s[k], "rec");
    }
    for (int k = 0; k < STREAMS; k++)
      for (int j = 0; j < STREAMS; j++)
        if (j != k)
          sim_stream_wait_event(dev, s[k], e[j], "wait");
    if (r % 16 == 15)
      sim_device_sync(dev, "sync");
  }
  sim_device_sync(dev, "sync");
  double t = bench_wall_s() - t0;
  for (int i = 0; i < BUFS; i++)
    sim_mem_free(dev, buf[i], "free");
  for (int i = 0; i < STREAMS; i++) {
    sim_stream_destroy(dev, s[i], "d");
    sim_event_destroy(dev, e[i], "d");
  }
  if (sim_error_count(dev))
    fprintf(stderr, "bench: the copy-heavy workload reported errors\n");
  sim_destroy(dev);
  return t;
}

int main(int argc, char **argv) {
  workers = argc > 1 ? atoi(argv[1]) : 0;
  double h[RUNS], fast[RUNS], pool[RUNS], sync[RUNS], rec[RUNS], wait[RUNS], cs[RUNS], ch[RUNS],
      on[RUNS], off[RUNS];
  for (int i = 0; i < RUNS; i++) {
    h[i] = handoff_ns();
    fast[i] = tiny_ops_ns(false, 2000000);
    pool[i] = tiny_ops_ns(true, 400000);
    double c3[3];
    host_calls_ns(c3);
    sync[i] = c3[0];
    rec[i] = c3[1];
    wait[i] = c3[2];
    memcpy_s(&cs[i], &ch[i]);
    off[i] = copy_heavy_s(false);
    on[i] = copy_heavy_s(true);
  }
  double hm = bench_median(h, RUNS);
  printf("bench/sim: median of %d runs, workers %s\n", RUNS, workers ? argv[1] : "= CPUs - 1");
  printf("  atomic handoff (peer)             %8.1f ns\n", hm);
  double f = bench_median(fast, RUNS), p = bench_median(pool, RUNS);
  printf("  tiny ops, streams + event joins   %8.1f ns/op  %6.2fx handoff  %5.1f M ops/s  "
         "(target <= 250 ns)\n", f, f / hm, 1e3 / f);
  printf("  tiny ops, all through workers     %8.1f ns/op  %6.2fx handoff  %5.1f M ops/s\n", p,
         p / hm, 1e3 / p);
  double sy = bench_median(sync, RUNS), re = bench_median(rec, RUNS), wa = bench_median(wait, RUNS);
  printf("  idle StreamSynchronize            %8.1f ns     %6.2fx handoff  (target <= 100 ns)\n",
         sy, sy / hm);
  printf("  EventRecord                       %8.1f ns     %6.2fx handoff  (target <= 100 ns)\n",
         re, re / hm);
  printf("  StreamWaitEvent                   %8.1f ns     %6.2fx handoff  (target <= 100 ns)\n",
         wa, wa / hm);
  double s = bench_median(cs, RUNS), hs = bench_median(ch, RUNS);
  printf("  256 MiB memcpy                    %8.2f GB/s   %6.2fx host memcpy (%.2f GB/s; "
         "target >= 0.9x)\n", 0.268435456 / s, hs / s, 0.268435456 / hs);
  double a = bench_median(on, RUNS), b = bench_median(off, RUNS);
  printf("  race check, copy-heavy workload   %8.1f ms     %6.2fx check off (%.1f ms; "
         "target <= 1.5x)\n", a * 1e3, a / b, b * 1e3);
  return 0;
}
