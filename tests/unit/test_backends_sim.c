/* test_backends_sim.c — backend.h on the sim: memory, streams and events, every misuse the
 * adapter must pass through by name, races, stream-ordered free, modules, host kernels, traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"

#include "tests/unit/be_capture.h"

static int open_with(void **state, const char *sched, bool trace)
{
    Fixture *fx = calloc(1, sizeof *fx);
    pthread_mutex_init(&fx->lock, NULL);
    if (trace)
        fx->trace = trace_recorder_create();
    BeOptions opt = {.sched = sched, .workers = 2, .sink = capture, .sink_user = fx, .trace = fx->trace};
    if (be_open("sim", &opt, &fx->be, NULL, 0) != BE_OK)
        return -1;
    *state = fx;
    return 0;
}

static int setup_serial(void **state)
{
    return open_with(state, "serial", false);
}

static int setup_threads(void **state)
{
    return open_with(state, "threads", false);
}

static int setup_traced(void **state)
{
    return open_with(state, "serial", true);
}

static int setup_traced_threads(void **state)
{
    return open_with(state, "threads", true);
}

static int teardown(void **state)
{
    Fixture *fx = *state;
    be_close(fx->be, NULL);
    trace_recorder_destroy(fx->trace);
    pthread_mutex_destroy(&fx->lock);
    free(fx);
    return 0;
}

/* ---- memory ---- */

static void test_be_memcpy_round_trips_through_device(void **state)
{
    Fixture *fx = *state;
    float in[4] = {1, 2, 3, 4}, out[4] = {0};
    BeStream s;
    void *d;
    assert_int_equal(be_stream_create(fx->be, &s, "create"), BE_OK);
    assert_int_equal(be_mem_alloc(fx->be, sizeof in, false, s, &d, "alloc"), BE_OK);
    assert_non_null(d);
    assert_int_equal(be_memcpy(fx->be, d, in, sizeof in, s, "h2d"), BE_OK);
    assert_int_equal(be_memcpy(fx->be, out, d, sizeof out, s, "d2h"), BE_OK);
    assert_int_equal(be_stream_sync(fx->be, s, "sync"), BE_OK);
    assert_memory_equal(in, out, sizeof in);
    assert_int_equal(be_mem_free(fx->be, d, s, "free"), BE_OK);
    assert_int_equal(be_stream_destroy(fx->be, s, "destroy"), BE_OK);
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_memset_fills_16_and_32_bit_elements(void **state)
{
    Fixture *fx = *state;
    uint16_t h16[6] = {0};
    uint32_t h32[3] = {0};
    void *d;
    assert_int_equal(be_mem_alloc(fx->be, 12, false, NULL, &d, "alloc"), BE_OK);
    assert_int_equal(be_memset(fx->be, d, 0xabcd, 2, 6, NULL, "set16"), BE_OK);
    assert_int_equal(be_memcpy(fx->be, h16, d, 12, NULL, "d2h"), BE_OK);
    assert_int_equal(be_memset(fx->be, d, 0x12345678u, 4, 3, NULL, "set32"), BE_OK);
    assert_int_equal(be_memcpy(fx->be, h32, d, 12, NULL, "d2h"), BE_OK);
    assert_int_equal(be_stream_sync(fx->be, NULL, "sync"), BE_OK);
    for (int i = 0; i < 6; i++)
        assert_int_equal(h16[i], 0xabcd);
    for (int i = 0; i < 3; i++)
        assert_int_equal(h32[i], 0x12345678u);
    be_mem_free(fx->be, d, NULL, "free");
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_memset_rejects_bad_width(void **state)
{
    Fixture *fx = *state;
    void *d;
    assert_int_equal(be_mem_alloc(fx->be, 12, false, NULL, &d, "alloc"), BE_OK);
    assert_int_equal(be_memset(fx->be, d, 0, 3, 4, NULL, "set24"), BE_ERR_ARG);
    assert_int_equal(n_diags(fx), 1);
    assert_string_equal(diag(fx, 0).loc, "set24");
    assert_non_null(strstr(diag(fx, 0).message, "1, 2 or 4 bytes, not 3"));
    be_mem_free(fx->be, d, NULL, "free");
}

static void test_be_mem_alloc_of_zero_bytes_gives_null(void **state)
{
    Fixture *fx = *state;
    void *d = (void *)1;
    assert_int_equal(be_mem_alloc(fx->be, 0, false, NULL, &d, "alloc0"), BE_OK);
    assert_null(d);
    assert_int_equal(be_mem_free(fx->be, NULL, NULL, "free0"), BE_OK);
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_mem_alloc_host_shared_is_visible_to_the_host(void **state)
{
    Fixture *fx = *state;
    void *p;
    assert_int_equal(be_mem_alloc(fx->be, 16, true, NULL, &p, "alloc"), BE_OK);
    assert_int_equal(be_memset(fx->be, p, 7, 4, 4, NULL, "set"), BE_OK);
    assert_int_equal(be_stream_sync(fx->be, NULL, "sync"), BE_OK);
    assert_int_equal(be_host_access(fx->be, p, 16, false, "load"), BE_OK);
    assert_int_equal(((uint32_t *)p)[3], 7);
    be_mem_free(fx->be, p, NULL, "free");
    assert_int_equal(be_device_sync(fx->be, "sync all"), BE_OK);
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_host_access_to_device_memory_is_refused(void **state)
{
    Fixture *fx = *state;
    void *d;
    assert_int_equal(be_mem_alloc(fx->be, 16, false, NULL, &d, "alloc"), BE_OK);
    assert_int_equal(be_host_access(fx->be, d, 4, true, "store"), BE_ERR_MEMORY);
    assert_int_equal(n_diags(fx), 1);
    assert_string_equal(diag(fx, 0).loc, "store");
    be_mem_free(fx->be, d, NULL, "free");
}

static void test_be_mem_register_makes_host_memory_known(void **state)
{
    Fixture *fx = *state;
    int32_t host[8] = {0};
    void *d;
    assert_int_equal(be_mem_register(fx->be, host, sizeof host, "register"), BE_OK);
    assert_int_equal(be_mem_alloc(fx->be, sizeof host, false, NULL, &d, "alloc"), BE_OK);
    assert_int_equal(be_memset(fx->be, d, 5, 4, 8, NULL, "set"), BE_OK);
    assert_int_equal(be_memcpy(fx->be, host, d, sizeof host, NULL, "d2h"), BE_OK);
    assert_int_equal(be_stream_sync(fx->be, NULL, "sync"), BE_OK);
    assert_int_equal(host[7], 5);
    assert_int_equal(be_mem_unregister(fx->be, host, "unregister"), BE_OK);
    be_mem_free(fx->be, d, NULL, "free");
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_host_add_tracks_interpreter_memory(void **state)
{
    Fixture *fx = *state;
    char buf[32];
    assert_int_equal(be_host_add(fx->be, buf, sizeof buf, "alloca"), BE_OK);
    assert_int_equal(be_host_access(fx->be, buf, 4, true, "store"), BE_OK);
    assert_int_equal(be_host_remove(fx->be, buf, "dealloca"), BE_OK);
    assert_int_equal(n_diags(fx), 0);
}

/* ---- streams and events ---- */

static void test_be_event_record_orders_two_streams(void **state)
{
    Fixture *fx = *state;
    uint32_t out[4] = {0};
    BeStream a, b;
    BeEvent e;
    void *d;
    be_stream_create(fx->be, &a, "create a");
    be_stream_create(fx->be, &b, "create b");
    be_event_create(fx->be, &e, "create e");
    be_mem_alloc(fx->be, sizeof out, false, a, &d, "alloc");
    assert_int_equal(be_memset(fx->be, d, 9, 4, 4, a, "set on a"), BE_OK);
    assert_int_equal(be_event_record(fx->be, e, a, "record"), BE_OK);
    assert_int_equal(be_stream_wait_event(fx->be, b, e, "wait"), BE_OK);
    assert_int_equal(be_memcpy(fx->be, out, d, sizeof out, b, "copy on b"), BE_OK);
    assert_int_equal(be_event_sync(fx->be, e, "event sync"), BE_OK);
    assert_int_equal(be_stream_sync(fx->be, b, "sync b"), BE_OK);
    assert_int_equal(out[0], 9);
    assert_int_equal(be_event_query(fx->be, e, "query"), BE_OK);
    be_mem_free(fx->be, d, b, "free");
    be_event_destroy(fx->be, e, "destroy e");
    be_stream_destroy(fx->be, a, "destroy a");
    be_stream_destroy(fx->be, b, "destroy b");
    be_stream_sync(fx->be, NULL, "drain");
    assert_int_equal(be_device_sync(fx->be, "device sync"), BE_OK);
    assert_int_equal(n_diags(fx), 0);
}

/* What MLIR 22's gpu-to-llvm does to a token passed to a function: the caller passes a stream, the
 * callee waits on it as an event. */
static void test_be_stream_wait_event_given_a_stream_is_misuse(void **state)
{
    Fixture *fx = *state;
    BeStream s, t;
    be_stream_create(fx->be, &s, "mgpuStreamCreate#1");
    be_stream_create(fx->be, &t, "mgpuStreamCreate#2");
    assert_int_equal(be_stream_wait_event(fx->be, t, (BeEvent)s, "mgpuStreamWaitEvent#1"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 1);
    Seen d = diag(fx, 0);
    assert_true(d.error);
    assert_string_equal(d.loc, "mgpuStreamWaitEvent#1");
    assert_non_null(strstr(d.message, "stream"));
    assert_int_equal(be_error_count(fx->be), 1);
    be_stream_destroy(fx->be, s, "d1");
    be_stream_destroy(fx->be, t, "d2");
}

static void test_be_event_sync_given_a_stream_is_misuse(void **state)
{
    Fixture *fx = *state;
    BeStream s;
    be_stream_create(fx->be, &s, "mgpuStreamCreate#1");
    assert_int_equal(be_event_sync(fx->be, (BeEvent)s, "mgpuEventSynchronize#1"), BE_ERR_HANDLE);
    assert_int_equal(be_event_destroy(fx->be, (BeEvent)s, "mgpuEventDestroy#1"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 2);
    assert_string_equal(diag(fx, 0).loc, "mgpuEventSynchronize#1");
    assert_string_equal(diag(fx, 1).loc, "mgpuEventDestroy#1");
    be_stream_destroy(fx->be, s, "destroy");
}

static void test_be_stream_destroy_twice_is_misuse(void **state)
{
    Fixture *fx = *state;
    BeStream s;
    be_stream_create(fx->be, &s, "create");
    assert_int_equal(be_stream_destroy(fx->be, s, "destroy 1"), BE_OK);
    assert_int_equal(be_stream_destroy(fx->be, s, "destroy 2"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 1);
    assert_string_equal(diag(fx, 0).loc, "destroy 2");
    assert_string_equal(diag(fx, 0).kind, "misuse");
}

static void test_be_memcpy_on_unordered_streams_is_a_race(void **state)
{
    Fixture *fx = *state;
    uint32_t h1[4] = {1, 1, 1, 1}, h2[4] = {2, 2, 2, 2};
    BeStream a, b;
    void *d;
    be_stream_create(fx->be, &a, "create a");
    be_stream_create(fx->be, &b, "create b");
    be_mem_alloc(fx->be, 16, false, NULL, &d, "alloc");
    assert_int_equal(be_memcpy(fx->be, d, h1, 16, a, "copy 1"), BE_OK);
    assert_int_equal(be_memcpy(fx->be, d, h2, 16, b, "copy 2"), BE_OK);
    be_stream_sync(fx->be, a, "sync a");
    be_stream_sync(fx->be, b, "sync b");
    assert_true(n_diags(fx) >= 1);
    Seen r = diag(fx, 0);
    assert_string_equal(r.kind, "race");
    assert_true((strcmp(r.loc, "copy 2") == 0 && strcmp(r.loc2, "copy 1") == 0) ||
                (strcmp(r.loc, "copy 1") == 0 && strcmp(r.loc2, "copy 2") == 0));
    be_mem_free(fx->be, d, NULL, "free");
    be_stream_destroy(fx->be, a, "destroy a");
    be_stream_destroy(fx->be, b, "destroy b");
}

static void test_be_mem_free_waits_for_its_stream(void **state)
{
    Fixture *fx = *state;
    uint32_t h[1024];
    BeStream s;
    void *d;
    be_stream_create(fx->be, &s, "create");
    be_mem_alloc(fx->be, sizeof h, false, s, &d, "alloc");
    be_memset(fx->be, d, 3, 4, 1024, s, "set");
    be_memcpy(fx->be, h, d, sizeof h, s, "d2h");
    assert_int_equal(be_mem_free(fx->be, d, s, "free"), BE_OK); /* no sync before: stream-ordered */
    be_stream_sync(fx->be, s, "sync");
    assert_int_equal(h[1023], 3);
    be_stream_destroy(fx->be, s, "destroy");
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_mem_free_unordered_with_another_stream_is_a_race(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4];
    BeStream a, b;
    void *d;
    be_stream_create(fx->be, &a, "create a");
    be_stream_create(fx->be, &b, "create b");
    be_mem_alloc(fx->be, sizeof h, false, NULL, &d, "alloc");
    be_memset(fx->be, d, 1, 4, 4, NULL, "set");
    be_stream_sync(fx->be, NULL, "sync");
    be_memcpy(fx->be, h, d, sizeof h, b, "read on b");
    be_mem_free(fx->be, d, a, "free on a");
    be_stream_sync(fx->be, a, "sync a");
    be_stream_sync(fx->be, b, "sync b");
    assert_true(n_diags(fx) >= 1);
    Seen r = diag(fx, 0);
    assert_string_equal(r.kind, "race");
    assert_true(strcmp(r.loc, "free on a") == 0 || strcmp(r.loc2, "free on a") == 0);
    be_stream_destroy(fx->be, a, "destroy a");
    be_stream_destroy(fx->be, b, "destroy b");
}

/* The free waits for its stream, but the host did not: a copy on another stream, submitted later
 * and ordered after nothing, still races with the write the free waited for. */
static void test_be_mem_free_does_not_order_the_host_after_its_stream(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4];
    BeStream a, b;
    void *d, *e;
    be_stream_create(fx->be, &a, "create a");
    be_stream_create(fx->be, &b, "create b");
    be_mem_alloc(fx->be, sizeof h, false, NULL, &d, "alloc d");
    be_mem_alloc(fx->be, sizeof h, false, NULL, &e, "alloc e");
    be_memset(fx->be, d, 1, 4, 4, a, "set d on a");
    assert_int_equal(be_mem_free(fx->be, e, a, "free e on a"), BE_OK);
    be_memcpy(fx->be, h, d, sizeof h, b, "read d on b");
    be_stream_sync(fx->be, a, "sync a");
    be_stream_sync(fx->be, b, "sync b");
    assert_int_equal(n_diags(fx), 1);
    Seen r = diag(fx, 0);
    assert_string_equal(r.kind, "race");
    assert_string_equal(r.loc, "read d on b");
    assert_string_equal(r.loc2, "set d on a");
    be_mem_free(fx->be, d, NULL, "free d");
    be_stream_destroy(fx->be, a, "destroy a");
    be_stream_destroy(fx->be, b, "destroy b");
}

static void test_be_close_reports_leaks_as_warnings(void **state)
{
    Fixture *fx = *state;
    BeStream s;
    BeEvent e;
    void *d;
    be_stream_create(fx->be, &s, "leaked stream");
    be_event_create(fx->be, &e, "leaked event");
    be_mem_alloc(fx->be, 64, false, NULL, &d, "leaked memory");
    BeSummary sum;
    be_close(fx->be, &sum);
    fx->be = NULL;
    assert_int_equal(sum.errors, 0);
    assert_int_equal(sum.warnings, 3);
    for (size_t i = 0; i < n_diags(fx); i++)
        assert_string_equal(diag(fx, i).kind, "leak");
}

static void test_be_device_set_other_than_zero_warns(void **state)
{
    Fixture *fx = *state;
    assert_int_equal(be_device_set(fx->be, 0, "set 0"), BE_OK);
    assert_int_equal(n_diags(fx), 0);
    assert_int_equal(be_device_set(fx->be, 3, "set 3"), BE_OK);
    assert_int_equal(n_diags(fx), 1);
    assert_false(diag(fx, 0).error);
    assert_int_equal(be_warning_count(fx->be), 1);
}

/* ---- modules and launches ---- */

static void test_be_module_load_of_a_cubin_says_what_it_is_and_how_to_get_ptx(void **state)
{
    Fixture *fx = *state;
    /* an ELF header up to e_machine = EM_CUDA (190), then not really a cubin */
    static const char cubin[] = "\x7f" "ELF\x02\x01\x01\x33\x07\0\0\0\0\0\0\0\x02\0\xbe\0 no more";
    BeModule m;
    BeFunction f;
    assert_int_equal(be_module_load(fx->be, cubin, sizeof cubin, &m, "mgpuModuleLoad#1"), BE_ERR_UNSUPPORTED);
    assert_non_null(m);
    assert_int_equal(n_diags(fx), 1);
    assert_string_equal(diag(fx, 0).loc, "mgpuModuleLoad#1");
    assert_non_null(strstr(diag(fx, 0).message, "cubin (SASS)) on the sim: the sim cannot run SASS"));
    assert_non_null(strstr(diag(fx, 0).message, "cubin-format=isa"));

    assert_int_equal(be_module_function(fx->be, m, "add_kernel", &f, "get"), BE_OK);
    assert_non_null(f);
    BeLaunch l = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
    assert_int_equal(be_launch(fx->be, f, &l, NULL, "launch 1"), BE_ERR_UNSUPPORTED);
    assert_int_equal(n_diags(fx), 2);
    assert_non_null(strstr(diag(fx, 1).message, "kernel 'add_kernel' was not run"));
    assert_non_null(strstr(diag(fx, 1).message, "mgpuModuleLoad#1"));
    assert_int_equal(be_launch(fx->be, f, &l, NULL, "launch 2"), BE_ERR_UNSUPPORTED);
    assert_int_equal(n_diags(fx), 2); /* once per kernel */
    assert_int_equal(be_stream_sync(fx->be, NULL, "sync"), BE_OK);

    /* Lowered code looks the kernel up before each launch: the same kernel, reported once. */
    BeFunction again;
    assert_int_equal(be_module_function(fx->be, m, "add_kernel", &again, "get again"), BE_OK);
    assert_ptr_equal(again, f);
    assert_int_equal(be_launch(fx->be, again, &l, NULL, "launch 3"), BE_ERR_UNSUPPORTED);
    assert_int_equal(n_diags(fx), 2);

    assert_int_equal(be_module_unload(fx->be, m, "unload"), BE_OK);
    assert_int_equal(be_module_unload(fx->be, m, "unload again"), BE_ERR_HANDLE);
    assert_int_equal(be_module_function(fx->be, m, "k", &f, "get after unload"), BE_ERR_HANDLE);
    assert_int_equal(be_launch(fx->be, again, &l, NULL, "launch after unload"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 5);
    assert_non_null(strstr(diag(fx, 4).message, "after its module was unloaded"));
}

static void test_be_module_load_recognizes_ptx(void **state)
{
    Fixture *fx = *state;
    static const char ptx[] = "//\n.version 8.0\n.target sm_80\n";
    BeModule m;
    be_module_load(fx->be, ptx, sizeof ptx - 1, &m, "jit");
    assert_non_null(strstr(diag(fx, 0).message, "PTX"));
    be_module_unload(fx->be, m, "unload");
}

static void test_be_module_function_of_a_non_module_is_misuse(void **state)
{
    Fixture *fx = *state;
    int x;
    BeFunction f;
    assert_int_equal(be_module_function(fx->be, (BeModule)&x, "k", &f, "get"), BE_ERR_HANDLE);
    assert_null(f);
    BeLaunch l = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    assert_int_equal(be_launch(fx->be, (BeFunction)&x, &l, NULL, "launch"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 2);
    assert_string_equal(diag(fx, 1).kind, "misuse");
}

static void test_be_module_leak_is_reported_at_close(void **state)
{
    Fixture *fx = *state;
    BeModule m;
    be_module_load(fx->be, "x", 1, &m, "load");
    BeSummary sum;
    be_close(fx->be, &sum);
    fx->be = NULL;
    assert_int_equal(sum.errors, 1);   /* the load itself */
    assert_int_equal(sum.warnings, 1); /* the leak */
    assert_string_equal(diag(fx, 1).kind, "leak");
    assert_string_equal(diag(fx, 1).loc, "load");
}

static void test_be_launch_rejects_an_empty_grid(void **state)
{
    Fixture *fx = *state;
    BeLaunch l = {.grid = {0, 1, 1}, .block = {1, 1, 1}};
    assert_int_equal(be_launch(fx->be, NULL, &l, NULL, "launch"), BE_ERR_ARG);
    assert_non_null(strstr(diag(fx, 0).message, "empty grid"));
}

typedef struct Fill {
    uint32_t *dst;
    uint32_t value;
} Fill;

static void fill_block(BeKernelCtx *ctx, size_t i, void *user)
{
    Fill *f = user;
    if (be_kernel_access(ctx, &f->dst[i], sizeof *f->dst, true, "kernel store") == BE_OK)
        f->dst[i] = f->value + (uint32_t)i;
}

static void fill_kernel(BeKernelCtx *ctx, const BeLaunch *launch, void *user)
{
    be_kernel_parallel_for(ctx, launch->grid[0], fill_block, user);
}

static void test_be_launch_host_runs_a_kernel_callback(void **state)
{
    Fixture *fx = *state;
    uint32_t out[16];
    void *d;
    be_mem_alloc(fx->be, sizeof out, false, NULL, &d, "alloc");
    Fill fill = {.dst = d, .value = 100};
    BeLaunch l = {.grid = {16, 1, 1}, .block = {1, 1, 1}};
    assert_int_equal(be_launch_host(fx->be, fill_kernel, &fill, &l, NULL, "launch"), BE_OK);
    be_memcpy(fx->be, out, d, sizeof out, NULL, "d2h");
    be_stream_sync(fx->be, NULL, "sync");
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(out[i], 100 + i);
    be_mem_free(fx->be, d, NULL, "free");
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_kernel_access_outside_memory_is_refused(void **state)
{
    Fixture *fx = *state;
    void *d;
    be_mem_alloc(fx->be, 4 * sizeof(uint32_t), false, NULL, &d, "alloc");
    Fill fill = {.dst = d, .value = 1};
    BeLaunch l = {.grid = {5, 1, 1}, .block = {1, 1, 1}}; /* one block too many */
    be_launch_host(fx->be, fill_kernel, &fill, &l, NULL, "launch");
    be_stream_sync(fx->be, NULL, "sync");
    assert_int_equal(n_diags(fx), 1);
    assert_true(diag(fx, 0).error);
    be_mem_free(fx->be, d, NULL, "free");
}

/* ---- traces ---- */

/* Not inlined: GCC 12 otherwise takes pointers into the rendered text for pointers to the local
 * that open_memstream fills, and warns about a dangling pointer. */
__attribute__((noinline)) static char *render(TraceRecorder *rec)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    trace_write_text(rec, f);
    fclose(f);
    return buf;
}

static void test_be_trace_names_buffers_by_id_and_calls_by_loc(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4] = {0};
    BeStream s;
    void *d;
    be_stream_create(fx->be, &s, "mgpuStreamCreate#1");
    be_mem_alloc(fx->be, 16, false, s, &d, "mgpuMemAlloc#1");
    be_memset(fx->be, d, 1, 4, 4, s, "mgpuMemset32#1");
    be_memcpy(fx->be, h, d, 16, s, "mgpuMemcpy#1");
    be_stream_sync(fx->be, s, "mgpuStreamSynchronize#1");
    be_stream_destroy(fx->be, s, "mgpuStreamDestroy#1");
    char *text = render(fx->trace);
    assert_non_null(strstr(text, "  call stream_create at mgpuStreamCreate#1: stream "));
    assert_non_null(strstr(text, "  call mem_alloc at mgpuMemAlloc#1: 16 bytes -> b1\n"));
    assert_non_null(strstr(text, "  call memset at mgpuMemset32#1: 4 x 4 bytes to b1 on stream "));
    assert_non_null(strstr(text, " memset on stream "));
    assert_non_null(strstr(text, " at mgpuMemset32#1 write b1[0,16)\n"));
    assert_non_null(strstr(text, " at mgpuMemcpy#1 write untracked(16 bytes) read b1[0,16)\n"));
    assert_non_null(strstr(text, "(mgpuMemcpy#1) -> host\n"));
    assert_non_null(strstr(text, "  call memcpy at mgpuMemcpy#1: 16 bytes to untracked from b1 on stream "));
    assert_null(strstr(text, "0x"));
    free(text);
}

static void test_be_trace_names_buffers_in_memory_calls(void **state)
{
    Fixture *fx = *state;
    char host[64], mine[32];
    void *d;
    be_mem_register(fx->be, host, sizeof host, "register");
    be_host_add(fx->be, mine, sizeof mine, "alloca");
    be_mem_alloc(fx->be, 16, true, NULL, &d, "alloc");
    be_memcpy(fx->be, (char *)d + 8, host + 8, 8, NULL, "copy");
    be_mem_free(fx->be, d, NULL, "free");
    be_host_remove(fx->be, mine, "dealloca");
    be_mem_unregister(fx->be, host, "unregister");
    char *text = render(fx->trace);
    assert_non_null(strstr(text, "  call mem_register at register: 64 bytes -> b1\n"));
    assert_non_null(strstr(text, "  call host_add at alloca: 32 bytes -> b2\n"));
    assert_non_null(strstr(text, "  call mem_alloc at alloc: 16 bytes host_shared -> b3\n"));
    assert_non_null(strstr(text, "  call memcpy at copy: 8 bytes to b3+8 from b1+8 on stream 1\n"));
    assert_non_null(strstr(text, "  call mem_free at free: b3 after stream 1\n"));
    assert_non_null(strstr(text, "  call host_remove at dealloca: b2\n"));
    assert_non_null(strstr(text, "  call mem_unregister at unregister: b1\n"));
    free(text);
}

static void test_be_trace_records_misuse_as_violation(void **state)
{
    Fixture *fx = *state;
    BeStream s, t;
    be_stream_create(fx->be, &s, "mgpuStreamCreate#1");
    be_stream_create(fx->be, &t, "mgpuStreamCreate#2");
    be_stream_wait_event(fx->be, t, (BeEvent)s, "mgpuStreamWaitEvent#1");
    char *text = render(fx->trace);
    assert_non_null(strstr(text, "violations:\n  misuse host: mgpuStreamWaitEvent#1: "));
    assert_non_null(strstr(text, "call stream_wait_event at mgpuStreamWaitEvent#1: stream 3 waits for stream 2 given as an event -> invalid handle\n"));
    free(text);
    be_stream_destroy(fx->be, s, "d1");
    be_stream_destroy(fx->be, t, "d2");
}

static void test_be_trace_hides_addresses_in_violations(void **state)
{
    Fixture *fx = *state;
    int not_device_memory;
    assert_int_equal(be_mem_free(fx->be, &not_device_memory, NULL, "free"), BE_ERR_MEMORY);
    assert_non_null(strstr(diag(fx, 0).message, "0x"));
    char *text = render(fx->trace);
    assert_null(strstr(text, "0x"));
    assert_non_null(strstr(text, "<address>"));
    free(text);
}

/* Workers record op starts and ends while the host records calls: the same text comes out. */
static void test_be_trace_from_workers_matches_serial_text(void **state)
{
    Fixture *fx = *state;
    enum { STREAMS = 4, ROUNDS = 50 };
    BeStream s[STREAMS];
    void *d[STREAMS];
    static uint32_t h[STREAMS][256];
    for (int i = 0; i < STREAMS; i++) {
        be_stream_create(fx->be, &s[i], "create");
        be_mem_alloc(fx->be, sizeof h[i], false, NULL, &d[i], "alloc");
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < STREAMS; i++) {
            be_memset(fx->be, d[i], (uint32_t)r, 4, 256, s[i], "set");
            be_memcpy(fx->be, h[i], d[i], sizeof h[i], s[i], "d2h");
        }
    for (int i = 0; i < STREAMS; i++) {
        be_stream_sync(fx->be, s[i], "sync");
        be_mem_free(fx->be, d[i], s[i], "free");
        be_stream_destroy(fx->be, s[i], "destroy");
    }
    assert_int_equal(n_diags(fx), 0);
    for (int i = 0; i < STREAMS; i++)
        assert_int_equal(h[i][255], ROUNDS - 1);
    char *text = render(fx->trace);
    /* Every op started and ended on its own stream's section, in order. */
    size_t starts = 0;
    for (char *p = strstr(text, "  start op "); p; p = strstr(p + 1, "  start op "))
        starts++;
    assert_int_equal(starts, STREAMS * ROUNDS * 2);
    free(text);
}

int main(void)
{
#define T(name, setup) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_be_memcpy_round_trips_through_device, setup_serial),
        T(test_be_memcpy_round_trips_through_device, setup_threads),
        T(test_be_memset_fills_16_and_32_bit_elements, setup_serial),
        T(test_be_memset_fills_16_and_32_bit_elements, setup_threads),
        T(test_be_memset_rejects_bad_width, setup_serial),
        T(test_be_mem_alloc_of_zero_bytes_gives_null, setup_serial),
        T(test_be_mem_alloc_host_shared_is_visible_to_the_host, setup_threads),
        T(test_be_host_access_to_device_memory_is_refused, setup_serial),
        T(test_be_mem_register_makes_host_memory_known, setup_threads),
        T(test_be_host_add_tracks_interpreter_memory, setup_serial),
        T(test_be_event_record_orders_two_streams, setup_serial),
        T(test_be_event_record_orders_two_streams, setup_threads),
        T(test_be_stream_wait_event_given_a_stream_is_misuse, setup_serial),
        T(test_be_event_sync_given_a_stream_is_misuse, setup_serial),
        T(test_be_stream_destroy_twice_is_misuse, setup_serial),
        T(test_be_memcpy_on_unordered_streams_is_a_race, setup_serial),
        T(test_be_memcpy_on_unordered_streams_is_a_race, setup_threads),
        T(test_be_mem_free_waits_for_its_stream, setup_serial),
        T(test_be_mem_free_waits_for_its_stream, setup_threads),
        T(test_be_mem_free_unordered_with_another_stream_is_a_race, setup_serial),
        T(test_be_mem_free_does_not_order_the_host_after_its_stream, setup_serial),
        T(test_be_mem_free_does_not_order_the_host_after_its_stream, setup_threads),
        T(test_be_close_reports_leaks_as_warnings, setup_serial),
        T(test_be_device_set_other_than_zero_warns, setup_serial),
        T(test_be_module_load_of_a_cubin_says_what_it_is_and_how_to_get_ptx, setup_serial),
        T(test_be_module_load_recognizes_ptx, setup_serial),
        T(test_be_module_function_of_a_non_module_is_misuse, setup_serial),
        T(test_be_module_leak_is_reported_at_close, setup_serial),
        T(test_be_launch_rejects_an_empty_grid, setup_serial),
        T(test_be_launch_host_runs_a_kernel_callback, setup_serial),
        T(test_be_launch_host_runs_a_kernel_callback, setup_threads),
        T(test_be_kernel_access_outside_memory_is_refused, setup_serial),
        T(test_be_trace_names_buffers_by_id_and_calls_by_loc, setup_traced),
        T(test_be_trace_names_buffers_in_memory_calls, setup_traced),
        T(test_be_trace_records_misuse_as_violation, setup_traced),
        T(test_be_trace_from_workers_matches_serial_text, setup_traced_threads),
        T(test_be_trace_hides_addresses_in_violations, setup_traced),
    };
    return cmocka_run_group_tests_name("backends_sim", tests, NULL, NULL);
}
