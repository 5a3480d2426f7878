/* test_traces_recorder.c — the trace recorder: copies, ordering, stable pointers, threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <string.h>

#include "traces/traces.h"

static int setup(void **state)
{
    *state = trace_recorder_create();
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    trace_recorder_destroy(*state);
    return 0;
}

static void test_trace_recorder_add_copies_strings_and_accesses(void **state)
{
    TraceRecorder *rec = *state;
    char loc[16] = "mgpuMemcpy#1";
    TraceAccess acc[2] = {{.buffer = 1, .offset = 0, .size = 16, .mode = TRACE_WRITE},
                          {.buffer = 2, .offset = 4, .size = 8, .mode = TRACE_READ}};
    assert_int_equal(trace_op_enqueue(rec, 7, 1, "memcpy", loc, acc, 2), 0);
    memset(loc, 'x', sizeof loc - 1);
    memset(acc, 0, sizeof acc);
    const TraceEvent *e = trace_recorder_event(rec, 0);
    assert_non_null(e);
    assert_int_equal(e->kind, TRACE_ENQUEUE);
    assert_string_equal(e->loc, "mgpuMemcpy#1");
    assert_string_equal(e->name, "memcpy");
    assert_null(e->detail);
    assert_int_equal(e->n_accesses, 2);
    assert_int_equal(e->accesses[1].buffer, 2);
    assert_int_equal(e->accesses[1].offset, 4);
    assert_int_equal(e->accesses[0].mode, TRACE_WRITE);
}

static void test_trace_recorder_add_assigns_seq_and_time(void **state)
{
    TraceRecorder *rec = *state;
    assert_int_equal(trace_op_start(rec, 1, 1, 0), 0);
    TraceEvent ev = {.kind = TRACE_END, .op = 1, .stream = 1, .t_ns = 12345};
    assert_int_equal(trace_recorder_add(rec, &ev), 0);
    assert_int_equal(trace_recorder_count(rec), 2);
    assert_int_equal(trace_recorder_event(rec, 0)->seq, 0);
    assert_int_equal(trace_recorder_event(rec, 1)->seq, 1);
    assert_true(trace_recorder_event(rec, 0)->t_ns > 0);
    assert_int_equal(trace_recorder_event(rec, 1)->t_ns, 12345);
    assert_null(trace_recorder_event(rec, 2));
}

static void test_trace_recorder_event_pointer_survives_growth(void **state)
{
    TraceRecorder *rec = *state;
    trace_call(rec, "mgpuStreamCreate", "mgpuStreamCreate#1", 0, "stream 1");
    const TraceEvent *first = trace_recorder_event(rec, 0);
    for (int i = 0; i < 5000; i++)
        assert_int_equal(trace_edge(rec, TRACE_EDGE_STREAM, (uint64_t)i + 1, (uint64_t)i + 2), 0);
    assert_ptr_equal(trace_recorder_event(rec, 0), first);
    assert_string_equal(first->detail, "stream 1");
    assert_int_equal(trace_recorder_count(rec), 5001);
    assert_int_equal(trace_recorder_event(rec, 5000)->op2, 5001);
    assert_int_equal(trace_recorder_dropped(rec), 0);
}

static void test_trace_call_measures_duration(void **state)
{
    TraceRecorder *rec = *state;
    uint64_t t0 = trace_recorder_now(rec);
    for (volatile int i = 0; i < 100000; i++)
        ;
    trace_call(rec, "mgpuStreamSynchronize", NULL, t0, NULL);
    const TraceEvent *e = trace_recorder_event(rec, 0);
    assert_int_equal(e->t_ns, t0);
    assert_true(e->dur_ns > 0);
    assert_null(e->loc);
}

enum { THREADS = 4, PER_THREAD = 2000 };

static void *adder(void *arg)
{
    TraceRecorder *rec = arg;
    for (int i = 0; i < PER_THREAD; i++) {
        char loc[32];
        snprintf(loc, sizeof loc, "op#%d", i);
        trace_op_enqueue(rec, (uint64_t)i + 1, 1, "memset", loc, NULL, 0);
    }
    return NULL;
}

static void test_trace_recorder_add_from_threads_keeps_every_event(void **state)
{
    TraceRecorder *rec = *state;
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, adder, rec);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(trace_recorder_count(rec), THREADS * PER_THREAD);
    for (size_t i = 0; i < THREADS * PER_THREAD; i++) {
        const TraceEvent *e = trace_recorder_event(rec, i);
        assert_int_equal(e->seq, i);
        assert_memory_equal(e->loc, "op#", 3);
    }
}

static void test_trace_kind_name_names_every_kind(void **state)
{
    (void)state;
    assert_string_equal(trace_kind_name(TRACE_VIOLATION), "violation");
    assert_string_equal(trace_kind_name(TRACE_CALL), "call");
    assert_string_equal(trace_edge_kind_name(TRACE_EDGE_EVENT), "event");
    assert_string_equal(trace_edge_kind_name(TRACE_EDGE_SYNC), "sync");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_recorder_add_copies_strings_and_accesses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_recorder_add_assigns_seq_and_time, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_recorder_event_pointer_survives_growth, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_call_measures_duration, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_recorder_add_from_threads_keeps_every_event, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_kind_name_names_every_kind, setup, teardown),
    };
    return cmocka_run_group_tests_name("traces_recorder", tests, NULL, NULL);
}
