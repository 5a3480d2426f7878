/* test_backends_token.c — the token door of backend.h on the sim (what the interpreter runs
 * gpu.* async ops with): ordering through deps, joins, host waits, races between unordered token
 * ops, token-ordered free, deadlocks found instead of hung, handles of the wrong kind, interop
 * with streams, and the trace of token ops and their edges. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"

#include "tests/unit/be_capture.h"

/* The first diagnostic of kind, or fails the test. */
static Seen find_diag(Fixture *fx, const char *kind)
{
    size_t n = n_diags(fx);
    for (size_t i = 0; i < n && i < MAX_DIAGS; i++) {
        Seen s = diag(fx, i);
        if (strcmp(s.kind, kind) == 0)
            return s;
    }
    fail_msg("no '%s' diagnostic among %zu", kind, n);
    return (Seen){0};
}

static int open_with(void **state, const char *sched, bool trace)
{
    Fixture *fx = calloc(1, sizeof *fx);
    pthread_mutex_init(&fx->lock, NULL);
    if (trace)
        fx->trace = trace_recorder_create();
    BeOptions opt = {.sched = sched, .workers = 2, .sink = capture, .sink_user = fx,
                     .trace = fx->trace};
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

static int setup_random(void **state)
{
    return open_with(state, "random:7", false);
}

static int setup_traced(void **state)
{
    return open_with(state, "serial", true);
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

/* ---- ordering ---- */

static void test_be_token_memcpy_round_trips_through_deps(void **state)
{
    Fixture *fx = *state;
    float in[256], out[256] = {0};
    for (int i = 0; i < 256; i++)
        in[i] = (float)i * 0.5f;
    void *d;
    BeToken ta, t1, t2, tf;
    assert_int_equal(be_token_alloc(fx->be, sizeof in, false, NULL, 0, &d, &ta, "alloc"), BE_OK);
    assert_non_null(d);
    assert_non_null(ta);
    assert_int_equal(be_token_memcpy(fx->be, d, in, sizeof in, &ta, 1, &t1, "h2d"), BE_OK);
    assert_int_equal(be_token_memcpy(fx->be, out, d, sizeof out, &t1, 1, &t2, "d2h"), BE_OK);
    assert_int_equal(be_token_wait(fx->be, &t2, 1, "wait"), BE_OK);
    assert_memory_equal(in, out, sizeof in);
    assert_int_equal(be_token_free(fx->be, d, &t2, 1, &tf, "free"), BE_OK);
    assert_int_equal(be_token_wait(fx->be, &tf, 1, "wait free"), BE_OK);
    BeToken all[] = {ta, t1, t2, tf};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(be_token_release(fx->be, all[i]), BE_OK);
    assert_int_equal(n_diags(fx), 0);
}

typedef struct Step {
    uint32_t *cell;
    uint32_t mul, add;
} Step;

static void step_kernel(BeKernelCtx *ctx, const BeLaunch *l, void *user)
{
    Step *s = user;
    if (be_kernel_access(ctx, s->cell, sizeof *s->cell, false, "step") != BE_OK ||
        be_kernel_access(ctx, s->cell, sizeof *s->cell, true, "step") != BE_OK)
        return;
    *s->cell = *s->cell * s->mul + s->add;
}

/* Kernels chained by deps run in that order: ((1*2+1)*3+2)*5+3 = 58, any other order differs. */
static void test_be_token_launch_host_chain_runs_in_dep_order(void **state)
{
    Fixture *fx = *state;
    static const BeLaunch one = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    uint32_t *cell, result = 0;
    BeToken ta, ts, t[3], tc;
    be_token_alloc(fx->be, sizeof *cell, false, NULL, 0, (void **)&cell, &ta, "alloc");
    assert_int_equal(be_token_memset(fx->be, cell, 1, 4, 1, &ta, 1, &ts, "set"), BE_OK);
    Step steps[3] = {{cell, 2, 1}, {cell, 3, 2}, {cell, 5, 3}};
    BeToken prev = ts;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(be_token_launch_host(fx->be, step_kernel, &steps[i], &one, &prev, 1, &t[i],
                                              "step"),
                         BE_OK);
        prev = t[i];
    }
    be_token_memcpy(fx->be, &result, cell, sizeof result, &prev, 1, &tc, "d2h");
    assert_int_equal(be_token_wait(fx->be, &tc, 1, "wait"), BE_OK);
    assert_int_equal(result, 58);
    BeToken tf;
    be_token_free(fx->be, cell, &tc, 1, &tf, "free");
    BeToken all[] = {ta, ts, t[0], t[1], t[2], tc, tf};
    for (size_t i = 0; i < 7; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

/* ---- joins and waits ---- */

static void test_be_token_join_completes_after_all_deps(void **state)
{
    Fixture *fx = *state;
    uint32_t h[64];
    uint32_t *d;
    BeToken ta, lo, hi, j, tc, tf;
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, (void **)&d, &ta, "alloc");
    be_token_memset(fx->be, d, 7, 4, 32, &ta, 1, &lo, "set lo");
    be_token_memset(fx->be, d + 32, 9, 4, 32, &ta, 1, &hi, "set hi");
    BeToken both[] = {lo, NULL, hi}; /* a NULL dep is ignored */
    assert_int_equal(be_token_join(fx->be, both, 3, &j, "join"), BE_OK);
    be_token_memcpy(fx->be, h, d, sizeof h, &j, 1, &tc, "d2h");
    assert_int_equal(be_token_wait(fx->be, &tc, 1, "wait"), BE_OK);
    for (int i = 0; i < 64; i++)
        assert_int_equal(h[i], i < 32 ? 7 : 9);
    be_token_free(fx->be, d, &tc, 1, &tf, "free");
    BeToken all[] = {ta, lo, hi, j, tc, tf};
    for (size_t i = 0; i < 6; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0); /* the two halves do not overlap: no race */
}

static void test_be_token_join_without_deps_is_complete(void **state)
{
    Fixture *fx = *state;
    BeToken t, u, nulls[2] = {NULL, NULL};
    assert_int_equal(be_token_join(fx->be, NULL, 0, &t, "wait async"), BE_OK);
    assert_non_null(t);
    assert_int_equal(be_token_join(fx->be, nulls, 2, &u, "wait async nulls"), BE_OK);
    BeToken both[] = {t, NULL, u};
    assert_int_equal(be_token_wait(fx->be, both, 3, "wait"), BE_OK);
    assert_int_equal(be_token_wait(fx->be, NULL, 0, "wait none"), BE_OK);
    be_token_release(fx->be, t);
    be_token_release(fx->be, u);
    assert_int_equal(n_diags(fx), 0);
}

/* More deps than the adapter keeps on its stack. */
static void test_be_token_join_of_many_deps(void **state)
{
    Fixture *fx = *state;
    enum { N = 40 };
    uint8_t h[N];
    uint8_t *d;
    BeToken ta, t[N], j, tc, tf;
    be_token_alloc(fx->be, N, false, NULL, 0, (void **)&d, &ta, "alloc");
    for (int i = 0; i < N; i++)
        be_token_memset(fx->be, d + i, (uint32_t)i, 1, 1, &ta, 1, &t[i], "set");
    assert_int_equal(be_token_join(fx->be, t, N, &j, "join"), BE_OK);
    be_token_memcpy(fx->be, h, d, N, &j, 1, &tc, "d2h");
    assert_int_equal(be_token_wait(fx->be, &tc, 1, "wait"), BE_OK);
    for (int i = 0; i < N; i++)
        assert_int_equal(h[i], i);
    be_token_free(fx->be, d, &tc, 1, &tf, "free");
    for (int i = 0; i < N; i++)
        be_token_release(fx->be, t[i]);
    BeToken all[] = {ta, j, tc, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_token_wait_orders_the_host_after_the_op(void **state)
{
    Fixture *fx = *state;
    uint32_t h[16];
    void *d;
    BeToken ta, ts, tc, tf;
    be_host_add(fx->be, h, sizeof h, "host");
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "alloc");
    be_token_memset(fx->be, d, 5, 4, 16, &ta, 1, &ts, "set");
    be_token_memcpy(fx->be, h, d, sizeof h, &ts, 1, &tc, "d2h");
    assert_int_equal(be_token_wait(fx->be, &tc, 1, "wait"), BE_OK);
    assert_int_equal(be_host_access(fx->be, h, sizeof h, false, "host read"), BE_OK);
    assert_int_equal(h[15], 5);
    be_token_free(fx->be, d, &tc, 1, &tf, "free");
    be_host_remove(fx->be, h, "host remove");
    BeToken all[] = {ta, ts, tc, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_token_host_read_without_wait_is_a_race(void **state)
{
    Fixture *fx = *state;
    uint32_t h[16];
    void *d;
    BeToken ta, ts, tc, tf;
    be_host_add(fx->be, h, sizeof h, "host");
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "alloc");
    be_token_memset(fx->be, d, 5, 4, 16, &ta, 1, &ts, "set");
    be_token_memcpy(fx->be, h, d, sizeof h, &ts, 1, &tc, "d2h");
    be_host_access(fx->be, h, sizeof h, false, "host read too early");
    Seen r = find_diag(fx, "race");
    assert_true(strcmp(r.loc, "host read too early") == 0 ||
                strcmp(r.loc2, "host read too early") == 0);
    assert_true(strcmp(r.loc, "d2h") == 0 || strcmp(r.loc2, "d2h") == 0);
    be_token_wait(fx->be, &tc, 1, "wait");
    be_token_free(fx->be, d, &tc, 1, &tf, "free");
    be_host_remove(fx->be, h, "host remove");
    BeToken all[] = {ta, ts, tc, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
}

/* ---- races ---- */

static void test_be_token_unordered_writes_race_with_both_locs(void **state)
{
    Fixture *fx = *state;
    uint32_t h1[8] = {1}, h2[8] = {2};
    void *d;
    BeToken ta, t1, t2;
    be_token_alloc(fx->be, 32, false, NULL, 0, &d, &ta, "alloc");
    assert_int_equal(be_token_memcpy(fx->be, d, h1, 32, &ta, 1, &t1, "prog.mlir:4:3"), BE_OK);
    assert_int_equal(be_token_memcpy(fx->be, d, h2, 32, &ta, 1, &t2, "prog.mlir:5:3"), BE_OK);
    BeToken both[] = {t1, t2};
    assert_int_equal(be_token_wait(fx->be, both, 2, "wait"), BE_OK);
    Seen r = find_diag(fx, "race");
    assert_true(r.error);
    assert_true((strcmp(r.loc, "prog.mlir:5:3") == 0 && strcmp(r.loc2, "prog.mlir:4:3") == 0) ||
                (strcmp(r.loc, "prog.mlir:4:3") == 0 && strcmp(r.loc2, "prog.mlir:5:3") == 0));
    BeToken tf;
    be_token_free(fx->be, d, both, 2, &tf, "free");
    BeToken all[] = {ta, t1, t2, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
}

static void test_be_token_writes_ordered_by_a_dep_do_not_race(void **state)
{
    Fixture *fx = *state;
    uint32_t h1[8] = {1}, h2[8] = {2}, out[8];
    void *d;
    BeToken ta, t1, t2, tc, tf;
    be_token_alloc(fx->be, 32, false, NULL, 0, &d, &ta, "alloc");
    be_token_memcpy(fx->be, d, h1, 32, &ta, 1, &t1, "prog.mlir:4:3");
    be_token_memcpy(fx->be, d, h2, 32, &t1, 1, &t2, "prog.mlir:5:3");
    be_token_memcpy(fx->be, out, d, 32, &t2, 1, &tc, "d2h");
    be_token_wait(fx->be, &tc, 1, "wait");
    assert_memory_equal(out, h2, sizeof out);
    be_token_free(fx->be, d, &tc, 1, &tf, "free");
    BeToken all[] = {ta, t1, t2, tc, tf};
    for (size_t i = 0; i < 5; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

/* ---- token-ordered free ---- */

static void test_be_token_free_unordered_with_a_use_is_a_race(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4];
    void *d;
    BeToken ta, ts, tc, tf;
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "alloc");
    be_token_memset(fx->be, d, 1, 4, 4, &ta, 1, &ts, "set");
    be_token_memcpy(fx->be, h, d, sizeof h, &ts, 1, &tc, "read");
    be_token_free(fx->be, d, &ts, 1, &tf, "dealloc"); /* after the set, not after the read */
    be_token_wait(fx->be, &tc, 1, "wait");
    Seen r = find_diag(fx, "race");
    assert_true(strcmp(r.loc, "dealloc") == 0 || strcmp(r.loc2, "dealloc") == 0);
    assert_true(strcmp(r.loc, "read") == 0 || strcmp(r.loc2, "read") == 0);
    assert_non_null(strstr(r.message, "free"));
    BeToken all[] = {ta, ts, tc, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
}

static void test_be_token_free_after_its_deps_is_clean(void **state)
{
    Fixture *fx = *state;
    uint32_t h[1024];
    void *d;
    BeToken ta, ts, tc, tf;
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "alloc");
    be_token_memset(fx->be, d, 3, 4, 1024, &ta, 1, &ts, "set");
    be_token_memcpy(fx->be, h, d, sizeof h, &ts, 1, &tc, "read");
    assert_int_equal(be_token_free(fx->be, d, &tc, 1, &tf, "dealloc"), BE_OK);
    assert_int_equal(be_token_wait(fx->be, &tf, 1, "wait"), BE_OK);
    assert_int_equal(h[1023], 3); /* the free's token completes after its deps */
    BeToken none;
    assert_int_equal(be_token_free(fx->be, NULL, &tf, 1, &none, "dealloc null"), BE_OK);
    assert_non_null(none);
    BeToken all[] = {ta, ts, tc, tf, none};
    for (size_t i = 0; i < 5; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

static void test_be_token_use_after_token_free_is_reported(void **state)
{
    Fixture *fx = *state;
    void *d;
    BeToken ta, tf, ts;
    be_token_alloc(fx->be, 16, false, NULL, 0, &d, &ta, "alloc");
    be_token_free(fx->be, d, &ta, 1, &tf, "dealloc");
    assert_int_not_equal(be_token_memset(fx->be, d, 0, 4, 4, &tf, 1, &ts, "set after free"), BE_OK);
    assert_non_null(ts); /* still a token, ordered like the set */
    assert_true(n_diags(fx) >= 1);
    assert_string_equal(diag(fx, 0).loc, "set after free");
    assert_true(diag(fx, 0).error);
    assert_int_equal(be_token_wait(fx->be, &ts, 1, "wait"), BE_OK);
    BeToken all[] = {ta, tf, ts};
    for (size_t i = 0; i < 3; i++)
        be_token_release(fx->be, all[i]);
}

/* ---- deadlocks ---- */

typedef struct Waiter {
    Backend *be;
    _Atomic(BeToken) on; /* published by the host once it exists */
    BeToken independent; /* or NULL */
    _Atomic int status;
} Waiter;

static void waiting_kernel(BeKernelCtx *ctx, const BeLaunch *l, void *user)
{
    Waiter *w = user;
    BeToken t = w->independent;
    if (!t)
        while (!(t = atomic_load(&w->on)))
            ;
    atomic_store(&w->status, (int)be_token_wait(w->be, &t, 1, "inner wait"));
}

/* A kernel that waits for a token that waits for the kernel: reported, not hung. */
static void test_be_token_wait_on_own_successor_is_a_deadlock(void **state)
{
    Fixture *fx = *state;
    static const BeLaunch one = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    Waiter w = {.be = fx->be};
    atomic_init(&w.on, NULL);
    atomic_init(&w.status, -1);
    BeToken tk, tj;
    assert_int_equal(be_token_launch_host(fx->be, waiting_kernel, &w, &one, NULL, 0, &tk, "kernel"),
                     BE_OK);
    be_token_join(fx->be, &tk, 1, &tj, "after kernel");
    atomic_store(&w.on, tj);
    BeStatus st = be_token_wait(fx->be, &tj, 1, "outer wait");
    assert_true(st == BE_OK || st == BE_ERR_DEADLOCK);
    assert_int_equal(atomic_load(&w.status), BE_ERR_DEADLOCK);
    Seen d = find_diag(fx, "deadlock");
    assert_string_equal(d.loc, "inner wait");
    be_token_release(fx->be, tk);
    be_token_release(fx->be, tj);
}

/* A kernel that waits for unrelated work just waits (and helps run it). */
static void test_be_token_wait_in_kernel_on_independent_work_completes(void **state)
{
    Fixture *fx = *state;
    static const BeLaunch one = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    uint32_t h[256];
    void *d;
    BeToken ta, ts, tk, tf;
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "alloc");
    be_token_memset(fx->be, d, 2, 4, 256, &ta, 1, &ts, "set");
    Waiter w = {.be = fx->be, .independent = ts};
    atomic_init(&w.on, NULL);
    atomic_init(&w.status, -1);
    be_token_launch_host(fx->be, waiting_kernel, &w, &one, NULL, 0, &tk, "kernel");
    assert_int_equal(be_token_wait(fx->be, &tk, 1, "wait"), BE_OK);
    assert_int_equal(atomic_load(&w.status), BE_OK);
    be_token_free(fx->be, d, &ts, 1, &tf, "free");
    BeToken all[] = {ta, ts, tk, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

/* ---- handles ---- */

static void test_be_token_dep_of_the_wrong_kind_is_named(void **state)
{
    Fixture *fx = *state;
    BeStream s;
    BeEvent e;
    BeToken t;
    be_stream_create(fx->be, &s, "create stream");
    be_event_create(fx->be, &e, "create event");
    BeToken bad[] = {(BeToken)s};
    assert_int_equal(be_token_join(fx->be, bad, 1, &t, "join stream"), BE_ERR_HANDLE);
    assert_non_null(t); /* the op is still made, without the bad dep */
    assert_int_equal(n_diags(fx), 1);
    assert_string_equal(diag(fx, 0).kind, "misuse");
    assert_string_equal(diag(fx, 0).loc, "join stream");
    assert_non_null(strstr(diag(fx, 0).message, "expects a token, got a stream"));
    BeToken ev = (BeToken)e;
    assert_int_equal(be_token_wait(fx->be, &ev, 1, "wait event"), BE_ERR_HANDLE);
    assert_non_null(strstr(diag(fx, 1).message, "expects a token, got an event"));
    int local;
    BeToken junk = (BeToken)&local;
    assert_int_equal(be_token_wait(fx->be, &junk, 1, "wait junk"), BE_ERR_HANDLE);
    assert_non_null(strstr(diag(fx, 2).message, "no handle of this device"));
    assert_int_equal(be_token_release(fx->be, (BeToken)s), BE_ERR_HANDLE);
    assert_non_null(strstr(diag(fx, 3).message, "got a stream"));
    assert_int_equal(n_diags(fx), 4);
    be_token_release(fx->be, t);
    be_event_destroy(fx->be, e, "destroy event");
    be_stream_destroy(fx->be, s, "destroy stream");
}

static void test_be_token_given_to_the_stream_door_is_named(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4] = {0};
    void *d;
    BeToken ta;
    BeEvent e;
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "gpu.alloc");
    be_event_create(fx->be, &e, "create event");
    assert_int_equal(be_memcpy(fx->be, d, h, sizeof h, (BeStream)ta, "copy on token"),
                     BE_ERR_HANDLE);
    assert_int_equal(be_stream_wait_event(fx->be, NULL, (BeEvent)ta, "wait token as event"),
                     BE_ERR_HANDLE);
    assert_int_equal(be_stream_sync(fx->be, (BeStream)ta, "sync token"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 3);
    assert_non_null(
        strstr(diag(fx, 0).message, "expects a stream, got a token (made at 'gpu.alloc')"));
    assert_non_null(strstr(diag(fx, 1).message, "expects an event, got a token"));
    assert_string_equal(diag(fx, 2).loc, "sync token");
    be_event_destroy(fx->be, e, "destroy event");
    BeToken tf;
    be_token_free(fx->be, d, &ta, 1, &tf, "free");
    be_token_release(fx->be, ta);
    be_token_release(fx->be, tf);
}

static void test_be_token_use_after_release_is_named(void **state)
{
    Fixture *fx = *state;
    BeToken t, u;
    be_token_join(fx->be, NULL, 0, &t, "prog.mlir:9:1");
    assert_int_equal(be_token_retain(fx->be, t), BE_OK);
    assert_int_equal(be_token_release(fx->be, t), BE_OK);
    assert_int_equal(be_token_wait(fx->be, &t, 1, "still held"), BE_OK);
    assert_int_equal(be_token_release(fx->be, t), BE_OK);
    assert_int_equal(n_diags(fx), 0);
    assert_int_equal(be_token_wait(fx->be, &t, 1, "wait released"), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 1);
    assert_string_equal(diag(fx, 0).loc, "wait released");
    assert_non_null(
        strstr(diag(fx, 0).message, "after it was released (it was made at 'prog.mlir:9:1')"));
    assert_int_equal(be_token_join(fx->be, &t, 1, &u, "join released"), BE_ERR_HANDLE);
    assert_int_equal(be_token_release(fx->be, t), BE_ERR_HANDLE);
    assert_int_equal(be_token_retain(fx->be, t), BE_ERR_HANDLE);
    assert_int_equal(n_diags(fx), 4);
    assert_int_equal(be_token_release(fx->be, NULL), BE_OK);
    be_token_release(fx->be, u);
}

/* Released slots are reused only after a while, and then with a new generation: an old handle
 * never reaches the token that took its slot. */
static void test_be_token_released_handle_stays_dead_after_slot_reuse(void **state)
{
    Fixture *fx = *state;
    BeToken first;
    be_token_join(fx->be, NULL, 0, &first, "first");
    be_token_release(fx->be, first);
    for (int i = 0; i < 500; i++) {
        BeToken t;
        be_token_join(fx->be, NULL, 0, &t, "churn");
        assert_true(t != first);
        be_token_release(fx->be, t);
    }
    assert_int_equal(n_diags(fx), 0);
    assert_int_equal(be_token_wait(fx->be, &first, 1, "late"), BE_ERR_HANDLE);
    assert_non_null(strstr(diag(fx, 0).message, "after it was released"));
}

static void test_be_token_memset_bad_width_still_orders(void **state)
{
    Fixture *fx = *state;
    void *d;
    BeToken ta, ts;
    be_token_alloc(fx->be, 12, false, NULL, 0, &d, &ta, "alloc");
    assert_int_equal(be_token_memset(fx->be, d, 0, 3, 4, &ta, 1, &ts, "set3"), BE_ERR_ARG);
    assert_non_null(ts);
    assert_string_equal(diag(fx, 0).kind, "misuse");
    assert_int_equal(be_token_wait(fx->be, &ts, 1, "wait"), BE_OK);
    BeLaunch empty = {.grid = {0, 1, 1}, .block = {1, 1, 1}};
    BeToken tk;
    assert_int_equal(be_token_launch_host(fx->be, step_kernel, NULL, &empty, &ts, 1, &tk, "empty"),
                     BE_ERR_ARG);
    assert_non_null(tk);
    BeToken tf;
    be_token_free(fx->be, d, &tk, 1, &tf, "free");
    BeToken all[] = {ta, ts, tk, tf};
    for (size_t i = 0; i < 4; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 2);
}

/* ---- interop with streams ---- */

static void test_be_token_from_stream_and_stream_wait_token(void **state)
{
    Fixture *fx = *state;
    uint32_t h[64], h2[64];
    BeStream s;
    void *d;
    BeToken ts, tset, tc, tf, idle;
    be_stream_create(fx->be, &s, "create");
    assert_int_equal(be_token_from_stream(fx->be, s, &idle, "idle stream"), BE_OK);
    assert_non_null(idle);
    assert_int_equal(be_token_wait(fx->be, &idle, 1, "wait idle"), BE_OK);
    /* stream work, then token work after it */
    be_mem_alloc(fx->be, sizeof h, false, s, &d, "alloc");
    be_memset(fx->be, d, 4, 4, 64, s, "stream set");
    assert_int_equal(be_token_from_stream(fx->be, s, &ts, "token of stream"), BE_OK);
    be_token_memcpy(fx->be, h, d, sizeof h, &ts, 1, &tc, "token read");
    be_token_wait(fx->be, &tc, 1, "wait");
    assert_int_equal(h[63], 4);
    /* token work, then stream work after it */
    be_token_memset(fx->be, d, 6, 4, 64, &tc, 1, &tset, "token set");
    assert_int_equal(be_stream_wait_token(fx->be, s, tset, "stream waits"), BE_OK);
    be_memcpy(fx->be, h2, d, sizeof h2, s, "stream read");
    be_stream_sync(fx->be, s, "sync");
    assert_int_equal(h2[63], 6);
    assert_int_equal(be_stream_wait_token(fx->be, s, NULL, "wait nothing"), BE_OK);
    be_token_free(fx->be, d, NULL, 0, &tf, "free");
    be_stream_destroy(fx->be, s, "destroy");
    BeToken all[] = {idle, ts, tset, tc, tf};
    for (size_t i = 0; i < 5; i++)
        be_token_release(fx->be, all[i]);
    assert_int_equal(n_diags(fx), 0);
}

/* A device that runs host kernels (the sim) has no be_token_launch of module code: the launch
 * is refused by name and fails (sticky), and its token still orders after its deps. */
static void test_be_token_launch_on_the_sim_is_refused_and_orders(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4] = {0};
    void *d;
    BeToken ta, tset, tl, tc;
    assert_true(be_runs_host_kernels(fx->be));
    be_token_alloc(fx->be, sizeof h, false, NULL, 0, &d, &ta, "alloc");
    be_token_memset(fx->be, d, 3, 4, 4, &ta, 1, &tset, "set");
    void *params[1] = {&d};
    BeLaunch l = {{1, 1, 1}, {32, 1, 1}, 0, params, 1, true};
    assert_int_equal(be_token_launch(fx->be, NULL, &l, &tset, 1, &tl, "prog.mlir:4:5"), BE_ERR_UNSUPPORTED);
    assert_non_null(tl);
    Seen e = find_diag(fx, "error");
    assert_string_equal(e.loc, "prog.mlir:4:5");
    assert_non_null(strstr(e.message, "cannot launch a kernel of a loaded module"));
    assert_string_equal(be_failure(fx->be), "prog.mlir:4:5");
    be_token_memcpy(fx->be, h, d, sizeof h, &tl, 1, &tc, "read");
    be_token_wait(fx->be, &tc, 1, "wait");
    assert_int_equal(h[3], 3); /* the refused launch's token came after the memset */
    BeLaunch empty = {{0, 1, 1}, {32, 1, 1}, 0, params, 1, true};
    BeToken te;
    assert_int_equal(be_token_launch(fx->be, NULL, &empty, NULL, 0, &te, "prog.mlir:6:5"), BE_ERR_ARG);
    assert_non_null(te);
    BeToken tf;
    be_token_free(fx->be, d, &tc, 1, &tf, "free");
    BeToken all[] = {ta, tset, tl, tc, te, tf};
    for (size_t i = 0; i < 6; i++)
        be_token_release(fx->be, all[i]);
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

static void test_be_token_trace_shows_token_ops_and_edges(void **state)
{
    Fixture *fx = *state;
    uint32_t h[4] = {0};
    void *d;
    BeToken ta, t1, t2, j, tc, tf;
    be_token_alloc(fx->be, 16, false, NULL, 0, &d, &ta, "prog.mlir:2:8");
    be_token_memset(fx->be, d, 1, 4, 2, &ta, 1, &t1, "prog.mlir:3:8");
    be_token_memset(fx->be, (char *)d + 8, 2, 4, 2, &ta, 1, &t2, "prog.mlir:4:8");
    BeToken both[] = {t1, t2};
    be_token_join(fx->be, both, 2, &j, "prog.mlir:5:8");
    be_token_memcpy(fx->be, h, d, 16, &j, 1, &tc, "prog.mlir:6:8");
    be_token_wait(fx->be, &tc, 1, "prog.mlir:7:3");
    be_token_free(fx->be, d, &tc, 1, &tf, "prog.mlir:8:8");
    BeToken bad = (BeToken)(uintptr_t)0x1234;
    be_token_wait(fx->be, &bad, 1, "prog.mlir:9:3");
    char *text = render(fx->trace);
    assert_non_null(strstr(text, "  call token_alloc at prog.mlir:2:8: 16 bytes -> b1 -> op 1\n"));
    assert_non_null(strstr(text, "  call token_memset at prog.mlir:3:8: 2 x 4 bytes to b1 "
                                 "after op 1 -> op 2\n"));
    assert_non_null(strstr(text, "  call token_memset at prog.mlir:4:8: 2 x 4 bytes to b1+8 "
                                 "after op 1 -> op 3\n"));
    assert_non_null(strstr(text, "  call token_join at prog.mlir:5:8: after op 2 op 3 -> op 4\n"));
    assert_non_null(strstr(text, "  call token_memcpy at prog.mlir:6:8: 16 bytes to untracked "
                                 "from b1 after op 4 -> op 5\n"));
    assert_non_null(strstr(text, "  call token_wait at prog.mlir:7:3: for op 5\n"));
    assert_non_null(strstr(text, "  call token_free at prog.mlir:8:8: b1 after op 5 -> op 6\n"));
    assert_non_null(
        strstr(text, "  call token_wait at prog.mlir:9:3: for token ? -> invalid handle\n"));
    assert_non_null(strstr(text, "  enqueue op 2 memset at prog.mlir:3:8 write b1[0,8)\n"));
    assert_non_null(strstr(text, "  enqueue op 3 memset at prog.mlir:4:8 write b1[8,16)\n"));
    assert_non_null(strstr(text, "  edge dep op 2 (prog.mlir:3:8) -> op 4 (prog.mlir:5:8)\n"));
    assert_non_null(strstr(text, "  edge dep op 3 (prog.mlir:4:8) -> op 4 (prog.mlir:5:8)\n"));
    assert_non_null(strstr(text, "  edge dep op 4 (prog.mlir:5:8) -> op 5 (prog.mlir:6:8)\n"));
    assert_non_null(strstr(text, "  edge sync op 5 (prog.mlir:6:8) -> host\n"));
    assert_non_null(strstr(text, "chain 1:\n  start op 1 marker\n")); /* alloc, memset, join, ... */
    assert_non_null(strstr(text, "chain 2:\n  start op 3 memset\n")); /* the second memset forks */
    assert_non_null(strstr(text, "misuse"));
    assert_null(strstr(text, "0x"));
    free(text);
    BeToken all[] = {ta, t1, t2, j, tc, tf};
    for (size_t i = 0; i < 6; i++)
        be_token_release(fx->be, all[i]);
}

static void test_be_token_trace_names_calls_and_ops_by_the_label(void **state)
{
    Fixture *fx = *state;
    void *d;
    BeToken ta, t1;
    be_trace_label("gpu.alloc");
    be_token_alloc(fx->be, 16, false, NULL, 0, &d, &ta, "prog.mlir:2:8");
    be_trace_label("gpu.memset");
    be_token_memset(fx->be, d, 1, 4, 2, &ta, 1, &t1, "prog.mlir:3:8");
    be_trace_label(NULL);
    be_token_wait(fx->be, &t1, 1, "prog.mlir:4:3");
    char *text = render(fx->trace);
    assert_non_null(strstr(text, "  call gpu.alloc at prog.mlir:2:8: 16 bytes -> b1 -> op 1\n"));
    assert_non_null(strstr(text, "  enqueue op 2 gpu.memset at prog.mlir:3:8 write b1[0,8)\n"));
    assert_non_null(strstr(text, "  call gpu.memset at prog.mlir:3:8: 2 x 4 bytes to b1 after op 1"));
    assert_non_null(strstr(text, "  start op 2 gpu.memset\n"));
    /* without a label, the backend's own names */
    assert_non_null(strstr(text, "  call token_wait at prog.mlir:4:3: for op 2\n"));
    free(text);
    BeToken tf;
    be_token_free(fx->be, d, &t1, 1, &tf, "prog.mlir:5:3");
    be_token_wait(fx->be, &tf, 1, "prog.mlir:6:3");
    be_token_release(fx->be, ta);
    be_token_release(fx->be, t1);
    be_token_release(fx->be, tf);
}

static void test_be_token_trace_names_a_token_given_as_a_stream(void **state)
{
    Fixture *fx = *state;
    BeToken t;
    be_token_join(fx->be, NULL, 0, &t, "gpu.wait");
    be_stream_sync(fx->be, (BeStream)t, "sync");
    char *text = render(fx->trace);
    assert_non_null(strstr(text, "  call stream_sync at sync: token op 1 given as a stream "
                                 "-> invalid handle\n"));
    free(text);
    be_token_release(fx->be, t);
}

#define T(fn, setup) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_be_token_memcpy_round_trips_through_deps, setup_serial),
        T(test_be_token_memcpy_round_trips_through_deps, setup_threads),
        T(test_be_token_memcpy_round_trips_through_deps, setup_random),
        T(test_be_token_launch_host_chain_runs_in_dep_order, setup_serial),
        T(test_be_token_launch_host_chain_runs_in_dep_order, setup_threads),
        T(test_be_token_launch_host_chain_runs_in_dep_order, setup_random),
        T(test_be_token_join_completes_after_all_deps, setup_serial),
        T(test_be_token_join_completes_after_all_deps, setup_threads),
        T(test_be_token_join_completes_after_all_deps, setup_random),
        T(test_be_token_join_without_deps_is_complete, setup_serial),
        T(test_be_token_join_without_deps_is_complete, setup_random),
        T(test_be_token_join_of_many_deps, setup_threads),
        T(test_be_token_wait_orders_the_host_after_the_op, setup_serial),
        T(test_be_token_wait_orders_the_host_after_the_op, setup_threads),
        T(test_be_token_host_read_without_wait_is_a_race, setup_serial),
        T(test_be_token_unordered_writes_race_with_both_locs, setup_serial),
        T(test_be_token_unordered_writes_race_with_both_locs, setup_threads),
        T(test_be_token_unordered_writes_race_with_both_locs, setup_random),
        T(test_be_token_writes_ordered_by_a_dep_do_not_race, setup_threads),
        T(test_be_token_free_unordered_with_a_use_is_a_race, setup_serial),
        T(test_be_token_free_unordered_with_a_use_is_a_race, setup_threads),
        T(test_be_token_free_after_its_deps_is_clean, setup_serial),
        T(test_be_token_free_after_its_deps_is_clean, setup_threads),
        T(test_be_token_use_after_token_free_is_reported, setup_serial),
        T(test_be_token_wait_on_own_successor_is_a_deadlock, setup_threads),
        T(test_be_token_wait_in_kernel_on_independent_work_completes, setup_serial),
        T(test_be_token_wait_in_kernel_on_independent_work_completes, setup_threads),
        T(test_be_token_wait_in_kernel_on_independent_work_completes, setup_random),
        T(test_be_token_dep_of_the_wrong_kind_is_named, setup_serial),
        T(test_be_token_given_to_the_stream_door_is_named, setup_serial),
        T(test_be_token_use_after_release_is_named, setup_serial),
        T(test_be_token_released_handle_stays_dead_after_slot_reuse, setup_serial),
        T(test_be_token_memset_bad_width_still_orders, setup_serial),
        T(test_be_token_from_stream_and_stream_wait_token, setup_serial),
        T(test_be_token_from_stream_and_stream_wait_token, setup_threads),
        T(test_be_token_launch_on_the_sim_is_refused_and_orders, setup_serial),
        T(test_be_token_launch_on_the_sim_is_refused_and_orders, setup_threads),
        T(test_be_token_trace_shows_token_ops_and_edges, setup_traced),
        T(test_be_token_trace_names_calls_and_ops_by_the_label, setup_traced),
        T(test_be_token_trace_names_a_token_given_as_a_stream, setup_traced),
    };
    return cmocka_run_group_tests_name("backends_token", tests, NULL, NULL);
}
