/* test_traces_text.c — the text writer: grouping by track, stable order, no times or addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Renders rec as text into a malloc'ed string. */
static char *render(TraceRecorder *rec, TraceFormat format)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(trace_write(rec, format, f), 0);
    fclose(f);
    return buf;
}

/* Two streams, a memset then a copy ordered by an event, and a host sync. */
static void record_example(TraceRecorder *rec, int workers_swapped)
{
    TraceAccess set = {.buffer = 1, .offset = 0, .size = 16, .mode = TRACE_WRITE};
    TraceAccess cpy[2] = {{.buffer = 2, .offset = 0, .size = 16, .mode = TRACE_WRITE},
                          {.buffer = 1, .offset = 0, .size = 16, .mode = TRACE_READ}};
    trace_call(rec, "mgpuStreamCreate", "mgpuStreamCreate#1", 0, "stream 1");
    trace_call(rec, "mgpuStreamCreate", "mgpuStreamCreate#2", 0, "stream 2");
    trace_op_enqueue(rec, 1, 1, "memset32", "mgpuMemset32#1", &set, 1);
    trace_call(rec, "mgpuMemset32", "mgpuMemset32#1", 0, "stream 1");
    if (workers_swapped) {
        /* Worker events may interleave with host events in any order. */
        trace_op_start(rec, 1, 1, 3);
    }
    trace_op_enqueue(rec, 2, 2, "memcpy", "mgpuMemcpy#1", cpy, 2);
    trace_edge(rec, TRACE_EDGE_EVENT, 1, 2);
    if (!workers_swapped)
        trace_op_start(rec, 1, 1, 0);
    trace_op_end(rec, 1, 1, NULL, 0);
    trace_op_start(rec, 2, 2, 1);
    trace_op_end(rec, 2, 2, NULL, 0);
    trace_edge(rec, TRACE_EDGE_SYNC, 2, TRACE_HOST);
    trace_call(rec, "mgpuStreamSynchronize", "mgpuStreamSynchronize#1", 0, "stream 2");
}

static const char example[] =
    "trace v1\n"
    "host:\n"
    "  call mgpuStreamCreate at mgpuStreamCreate#1: stream 1\n"
    "  call mgpuStreamCreate at mgpuStreamCreate#2: stream 2\n"
    "  enqueue op 1 memset32 on stream 1 at mgpuMemset32#1 write b1[0,16)\n"
    "  call mgpuMemset32 at mgpuMemset32#1: stream 1\n"
    "  enqueue op 2 memcpy on stream 2 at mgpuMemcpy#1 write b2[0,16) read b1[0,16)\n"
    "  edge event op 1 (mgpuMemset32#1) -> op 2 (mgpuMemcpy#1)\n"
    "  edge sync op 2 (mgpuMemcpy#1) -> host\n"
    "  call mgpuStreamSynchronize at mgpuStreamSynchronize#1: stream 2\n"
    "stream 1:\n"
    "  start op 1 memset32\n"
    "  end op 1\n"
    "stream 2:\n"
    "  start op 2 memcpy\n"
    "  end op 2\n";

static void test_trace_write_text_groups_by_track(void **state)
{
    record_example(*state, 0);
    char *s = render(*state, TRACE_FORMAT_TEXT);
    assert_string_equal(s, example);
    free(s);
}

static void test_trace_write_text_ignores_worker_interleaving(void **state)
{
    record_example(*state, 1);
    char *s = render(*state, TRACE_FORMAT_TEXT);
    assert_string_equal(s, example);
    free(s);
}

static void test_trace_write_text_sorts_violations(void **state)
{
    TraceRecorder *rec = *state;
    trace_op_enqueue(rec, 1, 1, "memcpy", "mgpuMemcpy#1", NULL, 0);
    trace_op_enqueue(rec, 2, 2, "memcpy", "mgpuMemcpy#2", NULL, 0);
    trace_violation(rec, "race", 1, 2, "write-write on b1[0,16)");
    trace_violation(rec, "misuse", TRACE_HOST, TRACE_HOST,
                    "mgpuStreamWaitEvent: argument 2 is stream 1, not an event");
    char *s = render(rec, TRACE_FORMAT_TEXT);
    assert_string_equal(s, "trace v1\n"
                           "host:\n"
                           "  enqueue op 1 memcpy on stream 1 at mgpuMemcpy#1\n"
                           "  enqueue op 2 memcpy on stream 2 at mgpuMemcpy#2\n"
                           "violations:\n"
                           "  misuse host: mgpuStreamWaitEvent: argument 2 is stream 1, not an event\n"
                           "  race op 1 (mgpuMemcpy#1) and op 2 (mgpuMemcpy#2): write-write on b1[0,16)\n");
    free(s);
}

static void test_trace_write_text_prints_accesses_at_end(void **state)
{
    TraceRecorder *rec = *state;
    TraceAccess acc[] = {{.buffer = 3, .offset = 8, .size = 4, .mode = TRACE_READ | TRACE_WRITE},
                         {.buffer = 3, .offset = 16, .size = 8, .mode = TRACE_READ},
                         {.buffer = 4, .offset = 0, .size = 4, .mode = TRACE_READ | TRACE_WRITE | TRACE_ATOMIC}};
    trace_op_enqueue(rec, 1, 0, "kernel k", "prog.mlir:4:3", NULL, 0);
    trace_op_start(rec, 1, 0, 2);
    trace_op_end(rec, 1, 0, acc, 3);
    char *s = render(rec, TRACE_FORMAT_TEXT);
    assert_string_equal(s, "trace v1\n"
                           "host:\n"
                           "  enqueue op 1 kernel k at prog.mlir:4:3\n"
                           "chain 1:\n"
                           "  start op 1 kernel k\n"
                           "  end op 1 readwrite b3[8,12) read b3[16,24) atomic b4[0,4)\n");
    free(s);
}

static void test_trace_write_text_prints_untracked_memory_by_size(void **state)
{
    TraceRecorder *rec = *state;
    TraceAccess acc[2] = {{.buffer = 0, .offset = 0, .size = 64, .mode = TRACE_WRITE},
                          {.buffer = 2, .offset = 0, .size = 64, .mode = TRACE_READ}};
    trace_op_enqueue(rec, 1, 2, "memcpy", "mgpuMemcpy#1", acc, 2);
    char *s = render(rec, TRACE_FORMAT_TEXT);
    assert_string_equal(s, "trace v1\n"
                           "host:\n"
                           "  enqueue op 1 memcpy on stream 2 at mgpuMemcpy#1 write untracked(64 bytes) read b2[0,64)\n");
    free(s);
}

static void test_trace_write_path_writes_file(void **state)
{
    TraceRecorder *rec = *state;
    record_example(rec, 0);
    char path[] = "/tmp/test_traces_text_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(trace_write_path(rec, TRACE_FORMAT_TEXT, path), 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[2048] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    unlink(path);
    assert_int_equal(n, strlen(example));
    assert_string_equal(buf, example);
}

static void test_trace_write_path_fails_on_bad_path(void **state)
{
    assert_int_equal(trace_write_path(*state, TRACE_FORMAT_TEXT, "/nonexistent/dir/t.txt"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_write_text_groups_by_track, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_text_ignores_worker_interleaving, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_text_sorts_violations, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_text_prints_accesses_at_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_text_prints_untracked_memory_by_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_path_writes_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_path_fails_on_bad_path, setup, teardown),
    };
    return cmocka_run_group_tests_name("traces_text", tests, NULL, NULL);
}
