/* test_backends_mgpu.c — the mgpu* ABI as mlir-runner calls it.
 *
 * The ABI keeps one device per process and decides the exit status at exit, so each scenario runs
 * in a forked child (the parent never touches the ABI and stays single-threaded): the test checks
 * what the child printed on stderr and how it exited. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mgpu/mgpu.h"

typedef struct Run {
    int status;       /* exit status, or -1 if killed */
    char err[8192];   /* stderr */
} Run;

/* Runs fn in a child with the given environment ("NAME=value" strings, NULL-terminated). */
static void run(Run *r, void (*fn)(void), const char *const *env)
{
    char path[] = "/tmp/test_backends_mgpu_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd, 2);
        for (const char *const *e = env; e && *e; e++)
            putenv((char *)*e);
        fn();
        exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    memset(r->err, 0, sizeof r->err);
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, r->err, sizeof r->err - 1);
    (void)n;
    close(fd);
    unlink(path);
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "CHILD CHECK FAILED: %s\n", what);
        exit(99);
    }
}

/* ---- scenarios (run in the child) ---- */

static void zero_alloc(void)
{
    check(mgpuMemAlloc(0, NULL, false) == NULL, "0 bytes gives NULL");
    mgpuMemFree(NULL, NULL);
}

static void round_trip(void)
{
    uint32_t h32[4] = {0};
    uint16_t h16[4] = {0};
    void *s = mgpuStreamCreate();
    void *d = mgpuMemAlloc(16, s, false);
    check(d != NULL, "alloc");
    mgpuMemset32(d, 0x01020304u, 4, s);
    mgpuMemcpy(h32, d, 16, s);
    mgpuMemset16(d, 0xbeef, 4, s);
    mgpuMemcpy(h16, d, 8, s);
    mgpuMemFree(d, s);
    mgpuStreamSynchronize(s);
    mgpuStreamDestroy(s);
    check(h32[3] == 0x01020304u, "memset32");
    check(h16[3] == 0xbeef, "memset16");
}

static void host_shared(void)
{
    void *s = mgpuStreamCreate();
    uint32_t *p = mgpuMemAlloc(16, NULL, true);
    mgpuMemset32(p, 42, 4, s);
    mgpuStreamSynchronize(s);
    check(p[2] == 42, "host_shared memory is host-visible");
    mgpuMemFree(p, s);
    mgpuStreamSynchronize(s);
    mgpuStreamDestroy(s);
}

static void events(void)
{
    uint32_t h[4] = {0};
    void *a = mgpuStreamCreate(), *b = mgpuStreamCreate();
    void *e = mgpuEventCreate();
    void *d = mgpuMemAlloc(16, a, false);
    mgpuMemset32(d, 7, 4, a);
    mgpuEventRecord(e, a);
    mgpuStreamWaitEvent(b, e);
    mgpuMemcpy(h, d, 16, b);
    mgpuEventSynchronize(e);
    mgpuStreamSynchronize(b);
    check(h[0] == 7, "ordered by the event");
    mgpuMemFree(d, b);
    mgpuStreamSynchronize(b);
    mgpuEventDestroy(e);
    mgpuStreamDestroy(a);
    mgpuStreamDestroy(b);
}

/* The callee of a function that got a token: MLIR 22 hands it a stream, it waits on an event. */
static void stream_as_event(void)
{
    void *caller = mgpuStreamCreate();
    void *callee = mgpuStreamCreate();
    mgpuStreamWaitEvent(callee, caller);
    mgpuEventDestroy(caller);
    mgpuStreamSynchronize(callee);
    mgpuStreamDestroy(callee);
    mgpuStreamDestroy(caller);
}

static void leak(void)
{
    mgpuStreamCreate();
    mgpuMemAlloc(64, NULL, false);
}

static void race(void)
{
    uint32_t h1[4] = {1, 1, 1, 1}, h2[4] = {2, 2, 2, 2};
    void *a = mgpuStreamCreate(), *b = mgpuStreamCreate();
    void *d = mgpuMemAlloc(16, NULL, false);
    mgpuMemcpy(d, h1, 16, a);
    mgpuMemcpy(d, h2, 16, b);
    mgpuStreamSynchronize(a);
    mgpuStreamSynchronize(b);
    mgpuMemFree(d, a);
    mgpuStreamSynchronize(a);
    mgpuStreamDestroy(a);
    mgpuStreamDestroy(b);
}

static void memref_register(void)
{
    float data[2 * 3];
    struct {
        BeMemRef head;
        int64_t sizes_strides[4];
    } m = {{.base = (char *)data, .data = (char *)data, .offset = 0}, {2, 3, 3, 1}};
    mgpuMemHostRegisterMemRef(2, &m.head, sizeof(float));
    void *d = mgpuMemAlloc(sizeof data, NULL, false);
    mgpuMemset32(d, 0x3f800000u, 6, NULL); /* 1.0f */
    mgpuMemcpy(data, d, sizeof data, NULL);
    mgpuStreamSynchronize(NULL);
    check(data[5] == 1.0f, "copied into the registered memref");
    mgpuMemHostUnregisterMemRef(2, &m.head, sizeof(float));
    mgpuMemFree(d, NULL);
    mgpuStreamSynchronize(NULL);
}

static void memref_not_dense(void)
{
    float data[4 * 4];
    struct {
        BeMemRef head;
        int64_t sizes_strides[4];
    } m = {{.base = (char *)data, .data = (char *)data, .offset = 0}, {2, 2, 4, 1}};
    mgpuMemHostRegisterMemRef(2, &m.head, sizeof(float));
}

static void module(void)
{
    /* an ELF header up to e_machine = EM_CUDA (190): what a cubin starts with */
    static char cubin[] = "\x7f" "ELF\x02\x01\x01\x33\x07\0\0\0\0\0\0\0\x02\0\xbe\0 fake";
    void *m = mgpuModuleLoad(cubin, sizeof cubin);
    void *f = mgpuModuleGetFunction(m, "my_kernel");
    void *s = mgpuStreamCreate();
    void *params[1] = {&s};
    mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL, 1);
    mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL, 1);
    mgpuStreamSynchronize(s);
    mgpuStreamDestroy(s);
    mgpuModuleUnload(m);
}

/* A kernel adding 1 to the first n words of p (n: its second parameter), one thread each. */
static char add_one_ptx[] = ".version 8.0\n.target sm_90\n.address_size 64\n\n"
                            ".visible .entry add_one(\n\t.param .u64 add_one_param_0,\n\t.param .u32 add_one_param_1\n)\n{\n"
                            "\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<5>;\n"
                            "\tld.param.u64 %rd1, [add_one_param_0];\n\tld.param.u32 %r1, [add_one_param_1];\n"
                            "\tmov.u32 %r2, %tid.x;\n\tsetp.ge.u32 %p1, %r2, %r1;\n\t@%p1 bra $L__end;\n"
                            "\tcvta.to.global.u64 %rd2, %rd1;\n\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
                            "\tld.global.u32 %r3, [%rd4];\n\tadd.s32 %r4, %r3, 1;\n\tst.global.u32 [%rd4], %r4;\n"
                            "$L__end:\n\tret;\n}\n";

/* Launches add_one over 8 words of device memory with n as its count, 32 threads; copies back. */
static void launch_add_one(uint32_t n, size_t nparams, const char *name)
{
    int32_t host[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    void *m = mgpuModuleLoadJIT(add_one_ptx, 2);
    void *f = mgpuModuleGetFunction(m, name);
    void *s = mgpuStreamCreate();
    void *d = mgpuMemAlloc(sizeof host, s, false);
    mgpuMemcpy(d, host, sizeof host, s);
    void *params[] = {&d, &n};
    mgpuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, NULL, nparams);
    mgpuMemcpy(host, d, sizeof host, s);
    mgpuStreamSynchronize(s);
    for (int i = 0; i < 8; i++)
        check(host[i] == i + 1 + ((uint32_t)i < n), "each of the first n words got 1 more");
    mgpuMemFree(d, s);
    mgpuStreamSynchronize(s);
    mgpuStreamDestroy(s);
    mgpuModuleUnload(m);
}

static void ptx_runs(void) { launch_add_one(5, 2, "add_one"); }
static void ptx_out_of_bounds(void) { launch_add_one(9, 2, "add_one"); }
static void ptx_wrong_count(void) { launch_add_one(5, 1, "add_one"); }
static void ptx_no_entry(void) { launch_add_one(5, 2, "nope"); }

static void ptx_bad_text(void)
{
    static char ptx[] = "//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 8.0\n.target sm_90\n.bogus\n";
    void *m = mgpuModuleLoadJIT(ptx, 2);
    check(m == NULL, "a PTX text that does not parse gives no module");
}

static void bad_dims(void)
{
    mgpuLaunchKernel(NULL, -1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL, 0);
}

static void traced(void)
{
    void *s = mgpuStreamCreate();
    void *d = mgpuMemAlloc(16, s, false);
    mgpuMemset32(d, 1, 4, s);
    mgpuMemFree(d, s);
    mgpuStreamSynchronize(s);
    mgpuStreamDestroy(s);
}

static void set_device(void)
{
    mgpuSetDefaultDevice(0);
    mgpuSetDefaultDevice(1);
}

static void late_call(void)
{
    /* Runs after the ABI's own exit handler closed the device. */
    check(mgpuStreamCreate() == NULL, "no stream after exit");
    mgpuMemcpy(NULL, NULL, 0, NULL);
    fprintf(stderr, "late call returned\n");
}

static void call_after_exit(void)
{
    atexit(late_call); /* registered first, so it runs last */
    mgpuStreamDestroy(mgpuStreamCreate());
}

/* ---- tests ---- */

static void test_mgpuMemAlloc_of_zero_bytes_is_null(void **state)
{
    (void)state;
    Run r;
    run(&r, zero_alloc, NULL);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
}

static void test_mgpuMemcpy_and_memsets_round_trip(void **state)
{
    (void)state;
    const char *const serial[] = {"MGPUSIM_SCHED=serial", NULL};
    const char *const threads[] = {"MGPUSIM_SCHED=threads", "MGPUSIM_WORKERS=2", NULL};
    const char *const random[] = {"MGPUSIM_SCHED=random:7", NULL};
    const char *const *envs[] = {serial, threads, random};
    for (int i = 0; i < 3; i++) {
        Run r;
        run(&r, round_trip, envs[i]);
        assert_string_equal(r.err, "");
        assert_int_equal(r.status, 0);
    }
}

static void test_mgpuMemAlloc_host_shared_is_host_visible(void **state)
{
    (void)state;
    Run r;
    run(&r, host_shared, NULL);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
}

static void test_mgpuEventRecord_orders_streams(void **state)
{
    (void)state;
    Run r;
    run(&r, events, NULL);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
}

static void test_mgpuStreamWaitEvent_given_a_stream_fails_the_run(void **state)
{
    (void)state;
    Run r;
    run(&r, stream_as_event, NULL);
    assert_non_null(strstr(r.err, "mgpusim: mgpuStreamWaitEvent#1: error: "));
    assert_non_null(strstr(r.err, "mgpusim: mgpuEventDestroy#1: error: "));
    assert_non_null(strstr(r.err, "mgpusim: 2 errors\n"));
    assert_int_equal(r.status, 1);
}

static void test_mgpu_leaks_are_warnings_unless_asked(void **state)
{
    (void)state;
    Run r;
    run(&r, leak, NULL);
    assert_non_null(strstr(r.err, "mgpuStreamCreate#1: warning: "));
    assert_non_null(strstr(r.err, "mgpuMemAlloc#1: warning: "));
    assert_non_null(strstr(r.err, "mgpusim: 2 warnings\n"));
    assert_int_equal(r.status, 0);
    const char *const env[] = {"MGPUSIM_LEAK_CHECK=error", NULL};
    run(&r, leak, env);
    assert_non_null(strstr(r.err, "mgpuStreamCreate#1: error: "));
    assert_non_null(strstr(r.err, "mgpusim: 2 errors\n"));
    assert_int_equal(r.status, 1);
    const char *const off[] = {"MGPUSIM_LEAK_CHECK=off", NULL};
    run(&r, leak, off);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
}

static void test_mgpuMemcpy_race_names_both_calls(void **state)
{
    (void)state;
    const char *const serial[] = {"MGPUSIM_SCHED=serial", NULL};
    const char *const threads[] = {"MGPUSIM_SCHED=threads", NULL};
    const char *const *envs[] = {serial, threads};
    for (int i = 0; i < 2; i++) {
        Run r;
        run(&r, race, envs[i]);
        assert_non_null(strstr(r.err, "mgpuMemcpy#2: error: "));
        assert_non_null(strstr(r.err, "mgpuMemcpy#1: note: "));
        assert_non_null(strstr(r.err, "[race]"));
        assert_int_equal(r.status, 1);
    }
}

static void test_mgpuMemHostRegisterMemRef_registers_dense_memrefs(void **state)
{
    (void)state;
    const char *const env[] = {"MGPUSIM_SCHED=threads", NULL};
    Run r;
    run(&r, memref_register, env);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
}

static void test_mgpuMemHostRegisterMemRef_of_strided_memref_is_misuse(void **state)
{
    (void)state;
    Run r;
    run(&r, memref_not_dense, NULL);
    assert_non_null(strstr(r.err, "mgpuMemHostRegisterMemRef#1: error: memref of rank 2 is not densely packed"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuModuleLoad_refuses_a_cubin_and_says_how_to_get_ptx(void **state)
{
    (void)state;
    Run r;
    run(&r, module, NULL);
    assert_non_null(strstr(r.err, "mgpusim: mgpuModuleLoad#1: error: cannot load a device binary (26 bytes, "
                                  "cubin (SASS)) on the sim: the sim cannot run SASS; compile with "
                                  "-gpu-lower-to-nvvm-pipeline=\"cubin-format=isa\""));
    assert_non_null(strstr(r.err, "mgpusim: mgpuLaunchKernel#1: error: kernel 'my_kernel' was not run"));
    assert_null(strstr(r.err, "mgpuLaunchKernel#2"));
    assert_non_null(strstr(r.err, "mgpusim: 2 errors\n"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuLaunchKernel_runs_a_ptx_kernel(void **state)
{
    (void)state;
    Run r;
    run(&r, ptx_runs, NULL);
    assert_string_equal(r.err, "");
    assert_int_equal(r.status, 0);
}

static void test_mgpuLaunchKernel_reports_a_ptx_access_out_of_bounds(void **state)
{
    (void)state;
    Run r;
    run(&r, ptx_out_of_bounds, NULL);
    assert_non_null(strstr(r.err, "mgpusim: @mgpuModuleLoadJIT#1.ptx:21:2: error: kernel load: bytes [32, 36) are out "
                                  "of bounds of the 32-byte device memory allocated at 'mgpuMemAlloc#1'"));
    assert_non_null(strstr(r.err, "@mgpuModuleLoadJIT#1.ptx:21:2: note: the access of thread (8, 0, 0) of block "
                                  "(0, 0, 0)\n\tld.global.u32 %r3, [%rd4];"));
    assert_non_null(strstr(r.err, "mgpuLaunchKernel#1: note: in the kernel launched here"));
    assert_non_null(strstr(r.err, "mgpusim: 1 error\n"));
    assert_non_null(strstr(r.err, "mgpuStreamSynchronize#1: note: the program ends at this synchronization"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuLaunchKernel_checks_the_ptx_parameter_count(void **state)
{
    (void)state;
    Run r;
    run(&r, ptx_wrong_count, NULL);
    assert_non_null(strstr(r.err, "mgpusim: mgpuLaunchKernel#1: error: kernel 'add_one' (@mgpuModuleLoadJIT#1.ptx) "
                                  "takes 2 parameters, and the launch passes 1"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuModuleGetFunction_names_a_missing_ptx_entry(void **state)
{
    (void)state;
    Run r;
    run(&r, ptx_no_entry, NULL);
    assert_non_null(strstr(r.err, "@mgpuModuleLoadJIT#1.ptx:1:1: error: no kernel (.entry) 'nope' here"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuModuleLoadJIT_locates_a_ptx_syntax_error(void **state)
{
    (void)state;
    Run r;
    run(&r, ptx_bad_text, NULL);
    assert_non_null(strstr(r.err, "@mgpuModuleLoadJIT#1.ptx:7:1: error: "));
    assert_null(strstr(r.err, "CHILD CHECK FAILED"));
    assert_non_null(strstr(r.err, "mgpusim: 1 error"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuLaunchKernel_rejects_negative_dimensions(void **state)
{
    (void)state;
    Run r;
    run(&r, bad_dims, NULL);
    assert_non_null(strstr(r.err, "mgpuLaunchKernel#1: error: launch dimensions out of range"));
    assert_int_equal(r.status, 1);
}

static void test_mgpuSetDefaultDevice_other_than_zero_warns(void **state)
{
    (void)state;
    Run r;
    run(&r, set_device, NULL);
    assert_non_null(strstr(r.err, "mgpuSetDefaultDevice#2: warning: "));
    assert_null(strstr(r.err, "mgpuSetDefaultDevice#1"));
    assert_int_equal(r.status, 0);
}

static void test_mgpu_trace_env_writes_text_trace(void **state)
{
    (void)state;
    char path[] = "/tmp/test_backends_mgpu_trace_XXXXXX.txt";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    close(fd);
    char var[128];
    snprintf(var, sizeof var, "MGPUSIM_TRACE=%s", path);
    const char *const env[] = {var, "MGPUSIM_SCHED=serial", NULL};
    Run r;
    run(&r, traced, env);
    assert_int_equal(r.status, 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char text[8192] = {0};
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    unlink(path);
    assert_true(n > 0);
    assert_non_null(strstr(text, "trace v1\nhost:\n  call mgpuStreamCreate at mgpuStreamCreate#1: stream "));
    assert_non_null(strstr(text, "at mgpuMemset32#1 write b1[0,16)\n"));
    assert_non_null(strstr(text, "  call mgpuStreamSynchronize at mgpuStreamSynchronize#1: stream "));
}

static void test_mgpu_trace_that_cannot_be_written_is_an_error(void **state)
{
    (void)state;
    const char *const env[] = {"MGPUSIM_TRACE=/nonexistent/dir/t.json", NULL};
    Run r;
    run(&r, traced, env);
    assert_non_null(strstr(r.err, "mgpusim: error: cannot write to '/nonexistent/dir/t.json': No such file or directory\n"));
    assert_non_null(strstr(r.err, "mgpusim: 1 error\n"));
    assert_int_equal(r.status, 1);
}

static void test_mgpu_bad_scheduler_is_an_error(void **state)
{
    (void)state;
    const char *const env[] = {"MGPUSIM_SCHED=fastest", NULL};
    Run r;
    run(&r, zero_alloc, env);
    assert_non_null(strstr(r.err, "mgpusim: error: MGPUSIM_SCHED='fastest' is not understood (expected threads, serial or random:SEED)"));
    assert_int_equal(r.status, 1);
}

static void test_mgpu_cuda_backend_without_driver_is_an_error(void **state)
{
    (void)state;
    const char *const env[] = {"MGPUSIM_BACKEND=cuda", "GPUINTERP_CUDA_LIB=/nonexistent/libcuda.so.1", NULL};
    Run r;
    run(&r, zero_alloc, env);
    assert_non_null(strstr(r.err, "mgpusim: error: MGPUSIM_BACKEND='cuda': cannot load the CUDA driver library "
                                  "'/nonexistent/libcuda.so.1'"));
    assert_int_equal(r.status, 1);
}

static void test_mgpu_settings_not_understood_are_errors(void **state)
{
    (void)state;
    const char *const env[] = {"MGPUSIM_TRACE_FORMAT=svg", "MGPUSIM_TRACE=/dev/null",
                               "MGPUSIM_LEAK_CHECK=loud", "MGPUSIM_WORKERS=many",
                               "MGPUSIM_RACE_CHECK=maybe", NULL};
    Run r;
    run(&r, zero_alloc, env);
    assert_non_null(strstr(r.err, "mgpusim: error: MGPUSIM_TRACE_FORMAT='svg' is not understood (expected chrome or text)"));
    assert_non_null(strstr(r.err, "mgpusim: error: MGPUSIM_LEAK_CHECK='loud' is not understood"));
    assert_non_null(strstr(r.err, "mgpusim: error: MGPUSIM_WORKERS='many' is not understood"));
    assert_non_null(strstr(r.err, "mgpusim: error: MGPUSIM_RACE_CHECK='maybe' is not understood"));
    assert_non_null(strstr(r.err, "mgpusim: 4 errors\n"));
    assert_int_equal(r.status, 1);
}

static void test_mgpu_calls_after_exit_do_nothing(void **state)
{
    (void)state;
    Run r;
    run(&r, call_after_exit, NULL);
    assert_string_equal(r.err, "late call returned\n");
    assert_int_equal(r.status, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mgpuMemAlloc_of_zero_bytes_is_null),
        cmocka_unit_test(test_mgpuMemcpy_and_memsets_round_trip),
        cmocka_unit_test(test_mgpuMemAlloc_host_shared_is_host_visible),
        cmocka_unit_test(test_mgpuEventRecord_orders_streams),
        cmocka_unit_test(test_mgpuStreamWaitEvent_given_a_stream_fails_the_run),
        cmocka_unit_test(test_mgpu_leaks_are_warnings_unless_asked),
        cmocka_unit_test(test_mgpuMemcpy_race_names_both_calls),
        cmocka_unit_test(test_mgpuMemHostRegisterMemRef_registers_dense_memrefs),
        cmocka_unit_test(test_mgpuMemHostRegisterMemRef_of_strided_memref_is_misuse),
        cmocka_unit_test(test_mgpuModuleLoad_refuses_a_cubin_and_says_how_to_get_ptx),
        cmocka_unit_test(test_mgpuLaunchKernel_runs_a_ptx_kernel),
        cmocka_unit_test(test_mgpuLaunchKernel_reports_a_ptx_access_out_of_bounds),
        cmocka_unit_test(test_mgpuLaunchKernel_checks_the_ptx_parameter_count),
        cmocka_unit_test(test_mgpuModuleGetFunction_names_a_missing_ptx_entry),
        cmocka_unit_test(test_mgpuModuleLoadJIT_locates_a_ptx_syntax_error),
        cmocka_unit_test(test_mgpuLaunchKernel_rejects_negative_dimensions),
        cmocka_unit_test(test_mgpuSetDefaultDevice_other_than_zero_warns),
        cmocka_unit_test(test_mgpu_trace_env_writes_text_trace),
        cmocka_unit_test(test_mgpu_trace_that_cannot_be_written_is_an_error),
        cmocka_unit_test(test_mgpu_bad_scheduler_is_an_error),
        cmocka_unit_test(test_mgpu_cuda_backend_without_driver_is_an_error),
        cmocka_unit_test(test_mgpu_settings_not_understood_are_errors),
        cmocka_unit_test(test_mgpu_calls_after_exit_do_nothing),
    };
    return cmocka_run_group_tests_name("backends_mgpu", tests, NULL, NULL);
}
