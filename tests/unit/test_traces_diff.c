/* test_traces_diff.c — trace_diff: unified diffs of the text form, and minimal edit counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "traces/traces.h"

typedef struct Pair {
    TraceRecorder *a, *b;
} Pair;

static int setup(void **state)
{
    Pair *p = malloc(sizeof *p);
    p->a = trace_recorder_create();
    p->b = trace_recorder_create();
    *state = p;
    return 0;
}

static int teardown(void **state)
{
    Pair *p = *state;
    trace_recorder_destroy(p->a);
    trace_recorder_destroy(p->b);
    free(p);
    return 0;
}

/* One host call line per character of names: "  call X". */
static void calls(TraceRecorder *rec, const char *names)
{
    for (const char *c = names; *c; c++) {
        char name[2] = {*c, 0};
        trace_call(rec, name, NULL, 0, NULL);
    }
}

static char *diff(Pair *p, int *count)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    *count = trace_diff(p->a, p->b, "golden", "run", f);
    fclose(f);
    return buf;
}

static void test_trace_diff_of_equal_traces_is_empty(void **state)
{
    Pair *p = *state;
    calls(p->a, "abc");
    calls(p->b, "abc");
    int n;
    char *s = diff(p, &n);
    assert_int_equal(n, 0);
    assert_string_equal(s, "");
    free(s);
}

static void test_trace_diff_shows_a_changed_line_with_context(void **state)
{
    Pair *p = *state;
    calls(p->a, "abcdefghij");
    calls(p->b, "abcdeXghij");
    int n;
    char *s = diff(p, &n);
    assert_int_equal(n, 2);
    /* Lines 1-2 are the header "trace v1", "host:"; call f is line 8. */
    assert_string_equal(s, "--- golden\n"
                           "+++ run\n"
                           "@@ -5,7 +5,7 @@\n"
                           "   call c\n"
                           "   call d\n"
                           "   call e\n"
                           "-  call f\n"
                           "+  call X\n"
                           "   call g\n"
                           "   call h\n"
                           "   call i\n");
    free(s);
}

static void test_trace_diff_splits_distant_changes_into_hunks(void **state)
{
    Pair *p = *state;
    calls(p->a, "abcdefghijklmnop");
    calls(p->b, "Xbcdefghijklmno");
    int n;
    char *s = diff(p, &n);
    assert_int_equal(n, 3);
    assert_string_equal(s, "--- golden\n"
                           "+++ run\n"
                           "@@ -1,6 +1,6 @@\n"
                           " trace v1\n"
                           " host:\n"
                           "-  call a\n"
                           "+  call X\n"
                           "   call b\n"
                           "   call c\n"
                           "   call d\n"
                           "@@ -15,4 +15,3 @@\n"
                           "   call m\n"
                           "   call n\n"
                           "   call o\n"
                           "-  call p\n");
    free(s);
}

static void test_trace_diff_of_an_added_tail_names_the_line_before(void **state)
{
    Pair *p = *state;
    calls(p->a, "ab");
    calls(p->b, "abc");
    int n;
    char *s = diff(p, &n);
    assert_int_equal(n, 1);
    assert_string_equal(s, "--- golden\n"
                           "+++ run\n"
                           "@@ -2,3 +2,4 @@\n"
                           " host:\n"
                           "   call a\n"
                           "   call b\n"
                           "+  call c\n");
    free(s);
}

/* The number of edits is minimal: n + m - 2 * LCS, checked against dynamic programming. */
static int lcs(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    int *t = calloc((n + 1) * (m + 1), sizeof *t);
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++)
            t[i * (m + 1) + j] = a[i - 1] == b[j - 1] ? t[(i - 1) * (m + 1) + j - 1] + 1
                                 : t[(i - 1) * (m + 1) + j] > t[i * (m + 1) + j - 1]
                                     ? t[(i - 1) * (m + 1) + j]
                                     : t[i * (m + 1) + j - 1];
    int r = t[n * (m + 1) + m];
    free(t);
    return r;
}

static void test_trace_diff_counts_the_fewest_edits(void **state)
{
    (void)state;
    srand(12345);
    for (int round = 0; round < 200; round++) {
        char a[24] = {0}, b[24] = {0};
        int n = rand() % 20, m = rand() % 20;
        for (int i = 0; i < n; i++)
            a[i] = (char)('a' + rand() % 4);
        for (int i = 0; i < m; i++)
            b[i] = (char)('a' + rand() % 4);
        TraceRecorder *ra = trace_recorder_create(), *rb = trace_recorder_create();
        calls(ra, a);
        calls(rb, b);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        int d = trace_diff(ra, rb, "a", "b", f);
        fclose(f);
        assert_int_equal(d, n + m - 2 * lcs(a, b));
        /* Every removed line is from a, every added one from b, and they add up to d. */
        int minus = 0, plus = 0;
        for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
            if (line[0] == '-' && line[1] != '-')
                minus++;
            if (line[0] == '+' && line[1] != '+')
                plus++;
        }
        assert_int_equal(minus + plus, d);
        free(buf);
        trace_recorder_destroy(ra);
        trace_recorder_destroy(rb);
    }
}

static void test_trace_diff_of_very_different_traces_names_the_first_difference(void **state)
{
    Pair *p = *state;
    for (int i = 0; i < 1100; i++) {
        trace_call(p->a, "same", NULL, 0, NULL);
        trace_call(p->b, "same", NULL, 0, NULL);
    }
    for (int i = 0; i < 1100; i++) {
        trace_call(p->a, "left", NULL, 0, NULL);
        trace_call(p->b, "right", NULL, 0, NULL);
    }
    int n;
    char *s = diff(p, &n);
    assert_true(n > 2000);
    assert_string_equal(s, "--- golden\n+++ run\ntraces differ in more than 2000 lines, first at line 1103\n");
    free(s);
}

static void test_trace_diff_accepts_no_output(void **state)
{
    Pair *p = *state;
    calls(p->a, "ab");
    calls(p->b, "ba");
    assert_int_equal(trace_diff(p->a, p->b, NULL, NULL, NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_trace_diff_of_equal_traces_is_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_diff_shows_a_changed_line_with_context, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_diff_splits_distant_changes_into_hunks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_diff_of_an_added_tail_names_the_line_before, setup, teardown),
        cmocka_unit_test(test_trace_diff_counts_the_fewest_edits),
        cmocka_unit_test_setup_teardown(test_trace_diff_of_very_different_traces_names_the_first_difference, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_diff_accepts_no_output, setup, teardown),
    };
    return cmocka_run_group_tests_name("traces_diff", tests, NULL, NULL);
}
