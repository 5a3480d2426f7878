/* test_backends_open.c — opening backends by name: the sim opens, CUDA and HIP say they are not
 * implemented yet, bad names and bad options are refused with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"

static void test_be_open_sim_by_default(void **state)
{
    (void)state;
    Backend *be = NULL;
    char err[256] = "x";
    assert_int_equal(be_open(NULL, NULL, &be, err, sizeof err), BE_OK);
    assert_non_null(be);
    assert_string_equal(be_name(be), "sim");
    assert_string_equal(err, "");
    assert_int_equal(be_error_count(be), 0);
    BeSummary sum = {1, 1};
    be_close(be, &sum);
    assert_int_equal(sum.errors, 0);
    assert_int_equal(sum.warnings, 0);
}

static void test_be_open_cuda_is_not_implemented(void **state)
{
    (void)state;
    Backend *be = (Backend *)1;
    char err[256];
    assert_int_equal(be_open("cuda", NULL, &be, err, sizeof err), BE_ERR_NO_BACKEND);
    assert_null(be);
    assert_non_null(strstr(err, "CUDA backend is not implemented yet"));
}

static void test_be_open_hip_is_not_implemented(void **state)
{
    (void)state;
    Backend *be = NULL;
    char err[256];
    assert_int_equal(be_open("hip", NULL, &be, err, sizeof err), BE_ERR_NO_BACKEND);
    assert_non_null(strstr(err, "HIP backend is not implemented yet"));
}

static void test_be_open_unknown_name_fails(void **state)
{
    (void)state;
    Backend *be = NULL;
    char err[256];
    assert_int_equal(be_open("tpu", NULL, &be, err, sizeof err), BE_ERR_NO_BACKEND);
    assert_non_null(strstr(err, "unknown backend 'tpu'"));
}

static void test_be_open_bad_scheduler_fails(void **state)
{
    (void)state;
    Backend *be = NULL;
    char err[256];
    BeOptions opt = {.sched = "sometimes"};
    assert_int_equal(be_open("sim", &opt, &be, err, sizeof err), BE_ERR_ARG);
    assert_null(be);
    assert_non_null(strstr(err, "bad scheduler 'sometimes'"));
}

static void test_be_open_accepts_every_scheduler(void **state)
{
    (void)state;
    const char *specs[] = {"threads", "serial", "random:42"};
    for (size_t i = 0; i < 3; i++) {
        Backend *be = NULL;
        BeOptions opt = {.sched = specs[i], .workers = 2};
        assert_int_equal(be_open("sim", &opt, &be, NULL, 0), BE_OK);
        be_close(be, NULL);
    }
}

static void test_be_close_accepts_null(void **state)
{
    (void)state;
    BeSummary sum = {3, 4};
    be_close(NULL, &sum);
    assert_int_equal(sum.errors, 0);
}

static void test_be_status_name_names_every_status(void **state)
{
    (void)state;
    assert_string_equal(be_status_name(BE_OK), "ok");
    assert_string_equal(be_status_name(BE_ERR_HANDLE), "invalid handle");
    assert_string_equal(be_status_name(BE_ERR_UNSUPPORTED), "unsupported");
}

static void test_be_diag_print_names_both_parties(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    BeDiag d = {.error = true, .kind = "race", .loc = "mgpuMemcpy#2", .loc2 = "mgpuMemcpy#1",
                .alloc_loc = "mgpuMemAlloc#1", .message = "write-write race"};
    be_diag_print(f, "mgpusim", &d);
    fclose(f);
    assert_string_equal(buf, "mgpusim: mgpuMemcpy#2: error: write-write race [race]\n"
                             "mgpusim: mgpuMemcpy#1: note: the conflicting access\n"
                             "mgpusim: mgpuMemAlloc#1: note: the memory was allocated here\n");
    free(buf);
}

static void test_be_diag_print_leaves_plain_errors_unlabelled(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    BeDiag plain = {.error = true, .kind = "error", .loc = "mgpuModuleLoad#1", .message = "cannot"};
    BeDiag leak = {.error = false, .kind = "leak", .loc = "mgpuMemAlloc#1", .alloc_loc = "mgpuMemAlloc#1",
                   .message = "never freed"};
    BeDiag misuse = {.error = true, .kind = "misuse", .loc = "mgpuEventDestroy#1",
                     .loc2 = "mgpuStreamCreate#1", .message = "expects an event"};
    be_diag_print(f, NULL, &plain);
    be_diag_print(f, NULL, &leak);
    be_diag_print(f, NULL, &misuse);
    fclose(f);
    assert_string_equal(buf, "mgpuModuleLoad#1: error: cannot\n"
                             "mgpuMemAlloc#1: warning: never freed [leak]\n"
                             "mgpuEventDestroy#1: error: expects an event [misuse]\n"
                             "mgpuStreamCreate#1: note: the handle or memory was made or released here\n");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_be_open_sim_by_default),
        cmocka_unit_test(test_be_open_cuda_is_not_implemented),
        cmocka_unit_test(test_be_open_hip_is_not_implemented),
        cmocka_unit_test(test_be_open_unknown_name_fails),
        cmocka_unit_test(test_be_open_bad_scheduler_fails),
        cmocka_unit_test(test_be_open_accepts_every_scheduler),
        cmocka_unit_test(test_be_close_accepts_null),
        cmocka_unit_test(test_be_status_name_names_every_status),
        cmocka_unit_test(test_be_diag_print_names_both_parties),
        cmocka_unit_test(test_be_diag_print_leaves_plain_errors_unlabelled),
    };
    return cmocka_run_group_tests_name("backends_open", tests, NULL, NULL);
}
