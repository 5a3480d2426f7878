/* test_traces_chrome.c — the Chrome Trace Event JSON writer: valid JSON, tracks, flows, violations.
 *
 * A small recursive-descent checker (RFC 8259 grammar, no semantic values) proves the output parses;
 * the lit tests additionally run it through python3's json module. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
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

static char *render(TraceRecorder *rec)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(trace_write_chrome(rec, f), 0);
    fclose(f);
    return buf;
}

/* ---- a JSON checker: each function consumes one production or returns NULL ---- */

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

static const char *value(const char *p, int depth);

static const char *string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20)
            return NULL;
        if (c == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 5;
                continue;
            }
            if (!*p || !strchr("\"\\/bfnrt", *p))
                return NULL;
        }
        p++;
    }
    return p + 1;
}

static const char *number(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p;
}

static const char *members(const char *p, int depth, char open, char close)
{
    if (*p++ != open)
        return NULL;
    p = ws(p);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (open == '{') {
            p = string(p);
            if (!p)
                return NULL;
            p = ws(p);
            if (*p++ != ':')
                return NULL;
        }
        p = value(ws(p), depth + 1);
        if (!p)
            return NULL;
        p = ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
        p = ws(p);
    }
}

static const char *value(const char *p, int depth)
{
    if (depth > 64)
        return NULL;
    switch (*p) {
    case '{': return members(p, depth, '{', '}');
    case '[': return members(p, depth, '[', ']');
    case '"': return string(p);
    case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
    default: return number(p);
    }
}

static int json_valid(const char *s)
{
    const char *p = value(ws(s), 0);
    return p && *ws(p) == '\0';
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ---- tests ---- */

static void test_json_valid_checker_rejects_bad_json(void **state)
{
    (void)state;
    assert_true(json_valid("{\"a\":[1,2.5,-3e2,true,null,\"x\\n\\u00e9\"]}"));
    assert_false(json_valid("{\"a\":[1,]}"));
    assert_false(json_valid("{\"a\":\"\x01\"}"));
    assert_false(json_valid("{\"a\":01}"));
    assert_false(json_valid("{} x"));
}

static void record_example(TraceRecorder *rec)
{
    TraceAccess w = {.buffer = 1, .offset = 0, .size = 16, .mode = TRACE_WRITE};
    uint64_t t = 1000;
    TraceEvent ev;
    ev = (TraceEvent){.kind = TRACE_CALL, .name = "mgpuStreamCreate", .loc = "mgpuStreamCreate#1",
                      .t_ns = t, .dur_ns = 100, .detail = "stream 1"};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_ENQUEUE, .op = 1, .stream = 1, .name = "memset32",
                      .loc = "mgpuMemset32#1", .t_ns = t + 200, .accesses = &w, .n_accesses = 1};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_ENQUEUE, .op = 2, .stream = 2, .name = "memcpy",
                      .loc = "mgpuMemcpy#1", .t_ns = t + 300, .accesses = &w, .n_accesses = 1};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_EDGE, .edge = TRACE_EDGE_EVENT, .op = 1, .op2 = 2, .t_ns = t + 300};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_START, .op = 1, .stream = 1, .t_ns = t + 400};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_END, .op = 1, .stream = 1, .t_ns = t + 500};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_START, .op = 2, .stream = 2, .t_ns = t + 600};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_END, .op = 2, .stream = 2, .t_ns = t + 700};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_EDGE, .edge = TRACE_EDGE_SYNC, .op = 2, .op2 = TRACE_HOST, .t_ns = t + 800};
    trace_recorder_add(rec, &ev);
    ev = (TraceEvent){.kind = TRACE_CALL, .name = "mgpuStreamSynchronize", .loc = "mgpuStreamSynchronize#1",
                      .t_ns = t + 550, .dur_ns = 300};
    trace_recorder_add(rec, &ev);
}

static void test_trace_write_chrome_emits_valid_json(void **state)
{
    record_example(*state);
    char *s = render(*state);
    assert_true(json_valid(s));
    free(s);
}

static void test_trace_write_chrome_names_a_track_per_stream(void **state)
{
    record_example(*state);
    char *s = render(*state);
    assert_non_null(strstr(s, "\"tid\":0,\"name\":\"thread_name\",\"args\":{\"name\":\"host\"}"));
    assert_non_null(strstr(s, "\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"stream 1\"}"));
    assert_non_null(strstr(s, "\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"stream 2\"}"));
    /* Ops are complete events on their stream's track, with microsecond timestamps. */
    assert_non_null(strstr(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"name\":\"memcpy\",\"cat\":\"op\",\"ts\":1.600,\"dur\":0.100"));
    assert_non_null(strstr(s, "\"loc\":\"mgpuMemcpy#1\""));
    assert_non_null(strstr(s, "\"accesses\":\"write b1[0,16)\""));
    free(s);
}

static void test_trace_write_chrome_draws_a_flow_per_edge(void **state)
{
    record_example(*state);
    char *s = render(*state);
    assert_int_equal(count(s, "\"ph\":\"s\""), 2);
    assert_int_equal(count(s, "\"ph\":\"f\""), 2);
    /* record -> wait: leaves op 1 on stream 1 just before it ends, lands just before op 2 starts. */
    assert_non_null(strstr(s, "{\"ph\":\"s\",\"pid\":1,\"tid\":1,\"name\":\"event\",\"cat\":\"happens-before\",\"id\":1,\"ts\":1.499}"));
    assert_non_null(strstr(s, "{\"ph\":\"f\",\"pid\":1,\"tid\":2,\"name\":\"event\",\"cat\":\"happens-before\",\"id\":1,\"ts\":1.599}"));
    /* op -> host: binds to the enclosing synchronization call on the host track. */
    assert_non_null(strstr(s, "{\"ph\":\"f\",\"pid\":1,\"tid\":0,\"name\":\"sync\",\"cat\":\"happens-before\",\"id\":2,\"bp\":\"e\",\"ts\":1.800}"));
    free(s);
}

static void test_trace_write_chrome_links_violation_to_both_ops(void **state)
{
    TraceRecorder *rec = *state;
    record_example(rec);
    TraceEvent ev = {.kind = TRACE_VIOLATION, .name = "race", .op = 1, .op2 = 2, .t_ns = 1650,
                     .detail = "write-write on b1[0,16)"};
    trace_recorder_add(rec, &ev);
    char *s = render(rec);
    assert_true(json_valid(s));
    assert_non_null(strstr(s, "\"name\":\"violations\""));
    assert_non_null(strstr(s, "{\"ph\":\"i\",\"pid\":1,\"tid\":2000000,\"name\":\"race\",\"cat\":\"violation\",\"s\":\"t\",\"ts\":1.702"));
    assert_non_null(strstr(s, "\"loc\":\"mgpuMemset32#1\",\"loc2\":\"mgpuMemcpy#1\""));
    assert_int_equal(count(s, "\"name\":\"violation\",\"cat\":\"happens-before\""), 4);
    free(s);
}

static void test_trace_write_chrome_escapes_strings(void **state)
{
    TraceRecorder *rec = *state;
    trace_call(rec, "call", "a \"quoted\"\\path\n\x01 caf\xc3\xa9 bad\xff\xc0\xaf", 0, NULL);
    char *s = render(rec);
    assert_true(json_valid(s));
    assert_non_null(strstr(s, "a \\\"quoted\\\"\\\\path\\u000a\\u0001 caf\xc3\xa9 bad\\ufffd\\ufffd\\ufffd"));
    free(s);
}

static void test_trace_write_chrome_skips_ops_that_never_ran(void **state)
{
    TraceRecorder *rec = *state;
    trace_op_enqueue(rec, 1, 1, "memcpy", "mgpuMemcpy#1", NULL, 0);
    trace_op_enqueue(rec, 2, 1, "memcpy", "mgpuMemcpy#2", NULL, 0);
    trace_edge(rec, TRACE_EDGE_STREAM, 1, 2);
    trace_violation(rec, "deadlock", 2, TRACE_HOST, "never ran");
    char *s = render(rec);
    assert_true(json_valid(s));
    assert_null(strstr(s, "\"ph\":\"X\""));
    assert_null(strstr(s, "\"ph\":\"s\""));
    assert_non_null(strstr(s, "\"name\":\"deadlock\""));
    free(s);
}

static void test_trace_write_chrome_puts_token_chains_on_one_track_each(void **state)
{
    TraceRecorder *rec = *state;
    /* 1 -> 2 is a chain; 3 also waits for 1, after 2 went on from it: a fork, a second chain */
    TraceEvent ev[] = {
        {.kind = TRACE_ENQUEUE, .op = 1, .name = "kernel", .detail = "gpu.launch_func @m::@k",
         .loc = "prog.mlir:3:5", .t_ns = 10},
        {.kind = TRACE_ENQUEUE, .op = 2, .name = "kernel", .loc = "prog.mlir:4:5", .t_ns = 20},
        {.kind = TRACE_EDGE, .edge = TRACE_EDGE_DEP, .op = 1, .op2 = 2, .t_ns = 20},
        {.kind = TRACE_ENQUEUE, .op = 3, .name = "memcpy", .loc = "prog.mlir:5:5", .t_ns = 30},
        {.kind = TRACE_EDGE, .edge = TRACE_EDGE_DEP, .op = 1, .op2 = 3, .t_ns = 30},
        {.kind = TRACE_START, .op = 1, .worker = 3, .t_ns = 100},
        {.kind = TRACE_END, .op = 1, .t_ns = 200},
        {.kind = TRACE_START, .op = 2, .worker = 1, .t_ns = 300},
        {.kind = TRACE_START, .op = 3, .worker = 3, .t_ns = 300},
        {.kind = TRACE_END, .op = 2, .t_ns = 400},
        {.kind = TRACE_END, .op = 3, .t_ns = 400},
    };
    for (size_t i = 0; i < sizeof ev / sizeof *ev; i++)
        trace_recorder_add(rec, &ev[i]);
    char *s = render(rec);
    assert_true(json_valid(s));
    assert_non_null(strstr(s, "\"pid\":1,\"tid\":1000001,\"name\":\"thread_name\",\"args\":{\"name\":\"chain 1\"}"));
    assert_non_null(strstr(s, "\"pid\":1,\"tid\":1000002,\"name\":\"thread_name\",\"args\":{\"name\":\"chain 2\"}"));
    assert_null(strstr(s, "chain 3"));
    /* named by what the host ran, else by kind; the edges stay on the chains' tracks */
    assert_non_null(strstr(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":1000001,\"name\":\"gpu.launch_func @m::@k\""));
    assert_non_null(strstr(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":1000001,\"name\":\"kernel\""));
    assert_non_null(strstr(s, "{\"ph\":\"X\",\"pid\":1,\"tid\":1000002,\"name\":\"memcpy\""));
    assert_non_null(strstr(s, "{\"ph\":\"s\",\"pid\":1,\"tid\":1000001,\"name\":\"dep\""));
    assert_non_null(strstr(s, "{\"ph\":\"f\",\"pid\":1,\"tid\":1000002,\"name\":\"dep\""));
    /* the workers view: a process of its own, a track per worker, no flows */
    assert_non_null(strstr(s, "\"pid\":2,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"workers\"}"));
    assert_non_null(strstr(s, "\"pid\":2,\"tid\":3,\"name\":\"thread_name\",\"args\":{\"name\":\"worker 3\"}"));
    assert_non_null(strstr(s, "{\"ph\":\"X\",\"pid\":2,\"tid\":1,\"name\":\"kernel\",\"cat\":\"worker\""));
    assert_null(strstr(s, "\"ph\":\"s\",\"pid\":2"));
    free(s);
}

static void test_trace_write_chrome_of_empty_recording_is_valid(void **state)
{
    char *s = render(*state);
    assert_true(json_valid(s));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_valid_checker_rejects_bad_json),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_emits_valid_json, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_names_a_track_per_stream, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_draws_a_flow_per_edge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_links_violation_to_both_ops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_escapes_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_skips_ops_that_never_ran, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_puts_token_chains_on_one_track_each, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_write_chrome_of_empty_recording_is_valid, setup, teardown),
    };
    return cmocka_run_group_tests_name("traces_chrome", tests, NULL, NULL);
}
