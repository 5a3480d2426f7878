/* Memory: the allocation table, bounds, frees, init shadow, host and kernel access rules, leaks. */
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

static SimDevice *make_strict(Sink *s) {
  memset(s, 0, sizeof *s);
  SimConfig cfg = {.workers = 2, .strict_host = true, .sink = sink_fn, .sink_user = s};
  SimDevice *dev = sim_create(&cfg);
  assert_non_null(dev);
  return dev;
}

static SimStatus copy(SimDevice *dev, void *dst, const void *src, size_t n, const char *loc) {
  SimOpDesc d = {.kind = SIM_OP_MEMCPY, .dst = dst, .src = src, .bytes = n, .loc = loc};
  SimStatus st = sim_stream_submit(dev, NULL, &d, NULL);
  sim_stream_sync(dev, NULL, "sync");
  return st;
}

static SimStatus fill(SimDevice *dev, void *dst, uint32_t v, unsigned w, size_t n, const char *loc) {
  SimOpDesc d = {.kind = SIM_OP_MEMSET, .dst = dst, .value = v, .width = w, .bytes = n, .loc = loc};
  SimStatus st = sim_stream_submit(dev, NULL, &d, NULL);
  sim_stream_sync(dev, NULL, "sync");
  return st;
}

static void test_mem_alloc_zero_bytes_returns_null(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  void *p = (void *)1;
  assert_int_equal(sim_mem_alloc(dev, 0, SIM_MEM_DEVICE, &p, "a"), SIM_OK);
  assert_null(p);
  assert_int_equal(sim_mem_free(dev, NULL, "f"), SIM_OK);
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_memcpy_roundtrip_copies_bytes(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  enum { N = 1 << 20 };  /* large: runs outside the lock on a worker */
  unsigned char *h = malloc(N), *back = calloc(1, N);
  for (int i = 0; i < N; i++)
    h[i] = (unsigned char)(i * 7);
  void *d;
  assert_int_equal(sim_mem_alloc(dev, N, SIM_MEM_DEVICE, &d, "alloc"), SIM_OK);
  assert_int_equal(copy(dev, d, h, N, "h2d"), SIM_OK);
  assert_int_equal(copy(dev, back, d, N, "d2h"), SIM_OK);
  assert_memory_equal(h, back, N);
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
  free(h);
  free(back);
  assert_int_equal(s.n, 0);
}

static void test_memset_widths_fill_pattern(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  uint8_t *d;
  assert_int_equal(sim_mem_alloc(dev, 64, SIM_MEM_HOST_SHARED, (void **)&d, "alloc"), SIM_OK);
  fill(dev, d, 0xab, 1, 8, "m8");
  fill(dev, d + 8, 0x1234, 2, 8, "m16");
  fill(dev, d + 16, 0xdeadbeef, 4, 16, "m32");
  assert_int_equal(sim_host_access(dev, d, 32, false, "read"), SIM_OK);
  assert_int_equal(d[0], 0xab);
  uint16_t v16;
  memcpy(&v16, d + 10, 2);
  assert_int_equal(v16, 0x1234);
  uint32_t v32;
  memcpy(&v32, d + 28, 4);
  assert_int_equal(v32, 0xdeadbeef);
  assert_int_equal(fill(dev, d, 0, 4, 6, "bad"), SIM_ERR_ARG);
  assert_int_equal(fill(dev, d, 0, 3, 6, "bad3"), SIM_ERR_ARG);
  assert_int_equal(count(&s, SIM_DIAG_MISUSE), 2);
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void test_mem_free_unknown_pointer_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  int x;
  assert_int_equal(sim_mem_free(dev, &x, "free"), SIM_ERR_MEMORY);
  assert_int_equal(count(&s, SIM_DIAG_MISUSE), 1);
  assert_true(has(&s, "which is not an allocation the device knows"));
  sim_destroy(dev);
}

static void test_mem_free_twice_reports_double_free(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  void *d;
  sim_mem_alloc(dev, 32, SIM_MEM_DEVICE, &d, "alloc-site");
  assert_int_equal(sim_mem_free(dev, d, "free1"), SIM_OK);
  assert_int_equal(sim_mem_free(dev, d, "free2"), SIM_ERR_MEMORY);
  assert_true(has(&s, "free2: free twice: device memory allocated at 'alloc-site' was already "
                      "released at 'free1'"));
  sim_destroy(dev);
}

static void test_mem_free_interior_pointer_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d;
  sim_mem_alloc(dev, 32, SIM_MEM_DEVICE, (void **)&d, "alloc-site");
  assert_int_equal(sim_mem_free(dev, d + 4, "free"), SIM_ERR_MEMORY);
  assert_true(has(&s, "free of a pointer 4 bytes into the device memory allocated at 'alloc-site'"));
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void test_memcpy_past_end_reports_oob_and_does_nothing(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d, h[64];
  memset(h, 1, sizeof h);
  sim_mem_alloc(dev, 32, SIM_MEM_HOST_SHARED, (void **)&d, "alloc-site");
  fill(dev, d, 0, 1, 32, "zero");
  assert_int_equal(copy(dev, d + 16, h, 20, "copy"), SIM_ERR_MEMORY);
  assert_int_equal(count(&s, SIM_DIAG_OOB), 1);
  assert_true(has(&s, "copy: memcpy destination: bytes [16, 36) are out of bounds of the 32-byte "
                      "host-shared memory allocated at 'alloc-site'"));
  sim_host_access(dev, d, 32, false, "read");
  assert_int_equal(d[16], 0);  /* refused: nothing copied */
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void test_memcpy_into_freed_reports_use_after_free(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d, h[16] = {0};
  sim_mem_alloc(dev, 16, SIM_MEM_DEVICE, (void **)&d, "alloc-site");
  sim_mem_free(dev, d, "free-site");
  assert_int_equal(copy(dev, d, h, 16, "late-copy"), SIM_ERR_MEMORY);
  assert_true(has(&s, "late-copy: memcpy destination: use after free: bytes [0, 16) of the device "
                      "memory allocated at 'alloc-site' and freed at 'free-site'"));
  sim_destroy(dev);
}

static void test_memcpy_overlapping_self_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d, "alloc");
  fill(dev, d, 0, 1, 64, "zero");
  assert_int_equal(copy(dev, d + 8, d, 32, "overlap"), SIM_ERR_MEMORY);
  assert_true(has(&s, "overlap: memcpy: source and destination overlap"));
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void test_memcpy_from_unwritten_device_memory_reports_uninit(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d, h[64];
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d, "alloc-site");
  fill(dev, d, 0, 1, 16, "part");
  copy(dev, h, d, 64, "readback");
  assert_int_equal(count(&s, SIM_DIAG_UNINIT), 1);
  assert_true(has(&s, "readback: 'readback' reads bytes [16, 64) of the device memory allocated at "
                      "'alloc-site' before anything wrote them"));
  s.n = 0;
  copy(dev, h, d, 16, "written-part");
  assert_int_equal(s.n, 0);
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void read_kernel(SimCtx *ctx, void *user) {
  char *p = user;
  if (sim_access(ctx, p, 8, false, "k.mlir:2:3") == SIM_OK)
    (void)p[0];
}

static void test_kernel_read_of_unwritten_memory_reports_uninit(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d, "alloc-site");
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = read_kernel, .user = d + 8, .loc = "launch"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(count(&s, SIM_DIAG_UNINIT), 1);
  assert_true(has(&s, "reads bytes [8, 16) of the device memory"));
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void oob_kernel(SimCtx *ctx, void *user) {
  char *p = user;
  assert_int_equal(sim_access(ctx, p + 60, 8, true, "k.mlir:9:1"), SIM_ERR_MEMORY);
}

static void test_kernel_access_past_end_reports_oob(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d, "alloc-site");
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = oob_kernel, .user = d, .loc = "launch"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(count(&s, SIM_DIAG_OOB), 1);
  assert_true(has(&s, "k.mlir:9:1: kernel store: bytes [60, 68) are out of bounds of the 64-byte "
                      "device memory allocated at 'alloc-site'"));
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

/* user: two allocations of 64 bytes, the second's pointer after the first's */
static void probe_kernel(SimCtx *ctx, void *user) {
  char **p = user;
  assert_true(sim_access_probe(ctx, p[0], 64));
  assert_true(sim_access_probe(ctx, p[0] + 8, 16));
  assert_false(sim_access_probe(ctx, p[0] + 60, 8));
  assert_false(sim_access_probe(ctx, p[0], 0));
  assert_true(sim_access_probe(ctx, p[1], 64)); /* another allocation than the cached one */
  assert_false(sim_access_probe(ctx, p[0], (size_t)(p[1] - p[0]) + 8)); /* spans both */
}

static void test_kernel_access_probe_admits_one_allocation_and_reports_nothing(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d[2];
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d[0], "alloc-a");
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d[1], "alloc-b");
  if (d[1] < d[0]) {
    char *t = d[0];
    d[0] = d[1], d[1] = t;
  }
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = probe_kernel, .user = d, .loc = "launch"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(s.n, 0);
  sim_mem_free(dev, d[0], "free");
  sim_mem_free(dev, d[1], "free");
  sim_destroy(dev);
}

static void pageable_kernel(SimCtx *ctx, void *user) {
  assert_int_equal(sim_access(ctx, user, 4, false, "k"), SIM_ERR_MEMORY);
}

static void test_kernel_access_pageable_host_memory_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char h[32] = {0};
  assert_int_equal(sim_mem_host_add(dev, h, sizeof h, "host-alloc"), SIM_OK);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = pageable_kernel, .user = h, .loc = "launch"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_true(has(&s, "kernel access of host memory allocated at 'host-alloc', which it cannot access"));
  sim_mem_host_remove(dev, h, "rm");
  sim_destroy(dev);
}

static void test_host_access_device_memory_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d, "alloc-site");
  assert_int_equal(sim_host_access(dev, d + 4, 4, true, "prog.mlir:7:2"), SIM_ERR_MEMORY);
  assert_true(has(&s, "prog.mlir:7:2: host store of device memory allocated at 'alloc-site' (bytes "
                      "[4, 8))"));
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void test_host_access_shared_memory_is_checked_not_refused(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *d;
  sim_mem_alloc(dev, 64, SIM_MEM_HOST_SHARED, (void **)&d, "alloc-site");
  assert_int_equal(sim_host_access(dev, d, 8, true, "store"), SIM_OK);
  assert_int_equal(sim_host_access(dev, d, 8, false, "load"), SIM_OK);
  assert_int_equal(s.n, 0);
  assert_int_equal(sim_host_access(dev, d + 8, 8, false, "load2"), SIM_OK);
  assert_int_equal(count(&s, SIM_DIAG_UNINIT), 1);
  assert_int_equal(sim_host_access(dev, d + 60, 8, false, "load3"), SIM_ERR_MEMORY);
  assert_int_equal(count(&s, SIM_DIAG_OOB), 1);
  int x;
  assert_int_equal(sim_host_access(dev, &x, sizeof x, true, "untracked"), SIM_OK);
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
}

static void test_memcpy_untracked_host_with_strict_reports(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make_strict(&s);
  char *d, h[16] = {0};
  sim_mem_alloc(dev, 16, SIM_MEM_DEVICE, (void **)&d, "alloc");
  assert_int_equal(copy(dev, d, h, 16, "copy"), SIM_ERR_MEMORY);
  assert_true(has(&s, "memcpy source: "));
  assert_true(has(&s, "is not in any allocation the device knows"));
  s.n = 0;
  assert_int_equal(sim_mem_register(dev, h, sizeof h, "reg"), SIM_OK);
  assert_int_equal(copy(dev, d, h, 16, "copy2"), SIM_OK);
  assert_int_equal(s.n, 0);
  assert_int_equal(sim_mem_unregister(dev, h, "unreg"), SIM_OK);
  sim_mem_free(dev, d, "free");
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

static void test_mem_register_overlap_and_unknown_unregister_report(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char h[64];
  assert_int_equal(sim_mem_register(dev, h, 32, "reg1"), SIM_OK);
  assert_int_equal(sim_mem_register(dev, h + 16, 32, "reg2"), SIM_ERR_MEMORY);
  assert_true(has(&s, "reg2: host register of 32 bytes overlaps the registered host memory "
                      "allocated at 'reg1'"));
  assert_int_equal(sim_mem_unregister(dev, h + 40, "unreg"), SIM_ERR_MEMORY);
  assert_int_equal(sim_mem_unregister(dev, h, "unreg"), SIM_OK);
  assert_int_equal(count(&s, SIM_DIAG_MISUSE), 2);
  sim_destroy(dev);
}

static void test_sim_destroy_reports_leaked_memory(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  void *d, *m;
  char h[16], pg[16];
  sim_mem_alloc(dev, 100, SIM_MEM_DEVICE, &d, "dev-alloc");
  sim_mem_alloc(dev, 50, SIM_MEM_HOST_SHARED, &m, "shared-alloc");
  sim_mem_register(dev, h, sizeof h, "reg");
  sim_mem_host_add(dev, pg, sizeof pg, "pageable");  /* the interpreter's own: not a leak */
  sim_destroy(dev);
  assert_int_equal(count(&s, SIM_DIAG_LEAK), 3);
  assert_true(has(&s, "dev-alloc: device memory (100 bytes) allocated here was never freed"));
  assert_true(has(&s, "shared-alloc: host-shared memory (50 bytes) allocated here was never freed"));
  assert_true(has(&s, "reg: host memory (16 bytes) registered here was never unregistered"));
}

static void test_mem_alloc_many_small_stay_distinct(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  char *p[100];
  for (int i = 0; i < 100; i++) {
    assert_int_equal(sim_mem_alloc(dev, 1 + i, SIM_MEM_HOST_SHARED, (void **)&p[i], "a"), SIM_OK);
    fill(dev, p[i], (uint32_t)i, 1, 1 + (size_t)i, "fill");
  }
  for (int i = 0; i < 100; i++) {
    sim_host_access(dev, p[i], 1 + (size_t)i, false, "read");
    assert_int_equal((unsigned char)p[i][i], i);
    assert_int_equal(sim_mem_free(dev, p[i], "free"), SIM_OK);
  }
  sim_destroy(dev);
  assert_int_equal(s.n, 0);
}

/* A small device: once the address space is used up, freed ranges are reused; a device full of
   live allocations says so. */
static void test_mem_alloc_reuses_freed_ranges_when_full(void **state) {
  (void)state;
  Sink s = {0};
  SimConfig cfg = {.workers = 2, .device_bytes = 1 << 20, .sink = sink_fn, .sink_user = &s};
  SimDevice *dev = sim_create(&cfg);
  for (int i = 0; i < 100; i++) {
    char *p;
    assert_int_equal(sim_mem_alloc(dev, 100000, SIM_MEM_DEVICE, (void **)&p, "loop"), SIM_OK);
    fill(dev, p, (uint32_t)i, 1, 100000, "fill");
    assert_int_equal(sim_mem_free(dev, p, "free"), SIM_OK);
  }
  assert_int_equal(s.n, 0);
  void *big[20];
  int n = 0;
  while (n < 20 && sim_mem_alloc(dev, 100000, SIM_MEM_DEVICE, &big[n], "big") == SIM_OK)
    n++;
  assert_true(n >= 9 && n < 20);
  assert_true(has(&s, "out of device memory allocating 100000 bytes"));
  for (int i = 0; i < n; i++)
    sim_mem_free(dev, big[i], "free");
  sim_destroy(dev);
}

static void touch4(SimCtx *ctx, void *user) {
  int *ok = user;
  *ok = sim_access(ctx, (char *)user + 8, 4, true, "k") == SIM_OK;
}

/* The interpreter's host memory, registered by the program (gpu.host_register), becomes
   kernel-visible; unregistered, it is not any more. */
static void test_mem_register_of_interpreter_memory_lets_kernels_touch_it(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_THREADS);
  int h[16] = {0};
  assert_int_equal(sim_mem_host_add(dev, h, sizeof h, "memref.alloc"), SIM_OK);
  assert_int_equal(sim_mem_register(dev, h, sizeof h, "gpu.host_register"), SIM_OK);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = touch4, .user = h, .loc = "launch"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(h[0], 1);
  assert_int_equal(s.n, 0);
  assert_int_equal(sim_mem_register(dev, h, sizeof h, "again"), SIM_ERR_MEMORY);
  assert_true(has(&s, "already registered at 'gpu.host_register'"));
  assert_int_equal(sim_mem_unregister(dev, h, "gpu.host_unregister"), SIM_OK);
  h[0] = 0;
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(h[0], 0);
  assert_int_equal(sim_mem_register(dev, h, sizeof h, "leaky-register"), SIM_OK);
  sim_destroy(dev);
  assert_true(has(&s, "leaky-register: host memory allocated at 'memref.alloc' and registered "
                      "here was never unregistered"));
}

/* Ranges of one piece of the interpreter's memory register in place each on its own, as on a
   driver: side by side (one page) they do, overlapping they do not; kernels may touch the memory
   while any range is registered. */
static void test_mem_register_of_interpreter_memory_keeps_each_range(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_SERIAL);
  int h[16] = {0};
  assert_int_equal(sim_mem_host_add(dev, h, sizeof h, "memref.alloc"), SIM_OK);
  assert_int_equal(sim_mem_register(dev, h, 32, "low"), SIM_OK);
  assert_int_equal(sim_mem_register(dev, h + 8, 32, "high"), SIM_OK);
  assert_int_equal(s.n, 0);
  assert_int_equal(sim_mem_register(dev, h + 4, 32, "middle"), SIM_ERR_MEMORY);
  assert_true(has(&s, "middle: host register of 32 bytes: the host memory allocated at "
                      "'memref.alloc' is already registered at 'low' (32 bytes at offset 0)"));
  assert_int_equal(sim_mem_unregister(dev, h, "unlow"), SIM_OK);
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = touch4, .user = h, .loc = "launch"};
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(h[0], 1); /* "high" is still registered */
  assert_int_equal(sim_mem_register(dev, h + 4, 16, "middle again"), SIM_OK);
  assert_int_equal(sim_mem_unregister(dev, h + 4, "unmiddle"), SIM_OK);
  assert_int_equal(sim_mem_unregister(dev, h + 8, "unhigh"), SIM_OK);
  h[0] = 0;
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(h[0], 0);
  int n = s.n;
  assert_int_equal(sim_mem_unregister(dev, h + 8, "unhigh again"), SIM_ERR_MEMORY);
  assert_true(s.n > n);
  assert_int_equal(sim_mem_host_remove(dev, h, "memref.dealloc"), SIM_OK);
  sim_destroy(dev);
}

typedef struct Probe { char *p; SimStatus st; } Probe;

static void store8(SimCtx *ctx, void *user) {
  Probe *q = user;
  q->st = sim_access(ctx, q->p, 8, true, "k.mlir:4:2");
}

typedef struct Span { char *p; size_t n; SimStatus st; } Span;

static void load_span(SimCtx *ctx, void *user) {
  Span *q = user;
  q->st = sim_access(ctx, q->p, q->n, false, "k.mlir:5:2");
}

/* Host memory registered range by range: the ranges are allocations side by side with no gap, and
   a kernel's range across them (its accesses of both, merged) is checked allocation by
   allocation; a range that runs past the last of them is still out of bounds, of that one. */
static void test_kernel_range_across_registrations_side_by_side_is_checked_by_each(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_SERIAL);
  static char h[96];
  assert_int_equal(sim_mem_register(dev, h, 32, "reg-a"), SIM_OK);
  assert_int_equal(sim_mem_register(dev, h + 32, 32, "reg-b"), SIM_OK);
  assert_int_equal(sim_mem_register(dev, h + 64, 32, "reg-c"), SIM_OK);
  Span q = {h + 16, 72, SIM_ERR_ARG};
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = load_span, .user = &q, .loc = "launch", .bounded = true};
  assert_int_equal(sim_stream_submit(dev, NULL, &k, NULL), SIM_OK);
  assert_int_equal(sim_stream_sync(dev, NULL, "sync"), SIM_OK);
  assert_int_equal(q.st, SIM_OK);
  assert_int_equal(s.n, 0);
  assert_int_equal(sim_mem_unregister(dev, h + 64, "unreg-c"), SIM_OK);
  q.st = SIM_ERR_ARG;
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(q.st, SIM_ERR_MEMORY);
  assert_true(has(&s, "k.mlir:5:2: kernel load: bytes [0, 56) are out of bounds of the 32-byte "
                      "registered host memory allocated at 'reg-b'"));
  sim_mem_unregister(dev, h, "unreg-a");
  sim_mem_unregister(dev, h + 32, "unreg-b");
  sim_destroy(dev);
}

/* A kernel's thread remembers the allocations its kernels found (no lock for the next kernel's
   first access); a free moves the table's epoch, so a kernel after the free is refused. Serial:
   every kernel runs on the host's thread, whose cache held the allocation. */
static void test_kernel_access_after_free_is_refused_though_its_thread_knew_it(void **state) {
  (void)state;
  Sink s;
  SimDevice *dev = make(&s, SIM_SCHED_SERIAL);
  char *d, *e;
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&d, "alloc-d");
  sim_mem_alloc(dev, 64, SIM_MEM_DEVICE, (void **)&e, "alloc-e");
  Probe q = {d, SIM_ERR_ARG};
  SimOpDesc k = {.kind = SIM_OP_KERNEL, .fn = store8, .user = &q, .loc = "launch", .bounded = true};
  for (int i = 0; i < 2; i++) {  /* the second one finds d in the thread's cache */
    q.st = SIM_ERR_ARG;
    assert_int_equal(sim_stream_submit(dev, NULL, &k, NULL), SIM_OK);
    assert_int_equal(sim_stream_sync(dev, NULL, "sync"), SIM_OK);
    assert_int_equal(q.st, SIM_OK);
  }
  sim_mem_free(dev, d, "free-d");
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(q.st, SIM_ERR_MEMORY);
  assert_true(has(&s, "k.mlir:4:2: kernel store: use after free: bytes [0, 8) of the device memory "
                      "allocated at 'alloc-d' and freed at 'free-d'"));
  q.p = e;  /* another allocation is still found */
  sim_stream_submit(dev, NULL, &k, NULL);
  sim_stream_sync(dev, NULL, "sync");
  assert_int_equal(q.st, SIM_OK);
  sim_mem_free(dev, e, "free-e");
  sim_destroy(dev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mem_alloc_zero_bytes_returns_null),
    cmocka_unit_test(test_memcpy_roundtrip_copies_bytes),
    cmocka_unit_test(test_memset_widths_fill_pattern),
    cmocka_unit_test(test_mem_free_unknown_pointer_reports),
    cmocka_unit_test(test_mem_free_twice_reports_double_free),
    cmocka_unit_test(test_mem_free_interior_pointer_reports),
    cmocka_unit_test(test_memcpy_past_end_reports_oob_and_does_nothing),
    cmocka_unit_test(test_memcpy_into_freed_reports_use_after_free),
    cmocka_unit_test(test_memcpy_overlapping_self_reports),
    cmocka_unit_test(test_memcpy_from_unwritten_device_memory_reports_uninit),
    cmocka_unit_test(test_kernel_read_of_unwritten_memory_reports_uninit),
    cmocka_unit_test(test_kernel_access_past_end_reports_oob),
    cmocka_unit_test(test_kernel_access_probe_admits_one_allocation_and_reports_nothing),
    cmocka_unit_test(test_kernel_access_pageable_host_memory_reports),
    cmocka_unit_test(test_kernel_access_after_free_is_refused_though_its_thread_knew_it),
    cmocka_unit_test(test_host_access_device_memory_reports),
    cmocka_unit_test(test_host_access_shared_memory_is_checked_not_refused),
    cmocka_unit_test(test_memcpy_untracked_host_with_strict_reports),
    cmocka_unit_test(test_mem_register_overlap_and_unknown_unregister_report),
    cmocka_unit_test(test_sim_destroy_reports_leaked_memory),
    cmocka_unit_test(test_mem_alloc_many_small_stay_distinct),
    cmocka_unit_test(test_mem_alloc_reuses_freed_ranges_when_full),
    cmocka_unit_test(test_mem_register_of_interpreter_memory_lets_kernels_touch_it),
    cmocka_unit_test(test_mem_register_of_interpreter_memory_keeps_each_range),
    cmocka_unit_test(test_kernel_range_across_registrations_side_by_side_is_checked_by_each),
  };
  return cmocka_run_group_tests_name("sim_mem", tests, NULL, NULL);
}
