/* fakerun.c — how the fake CUDA driver (fakecuda.c) runs kernels: the PTX modules it is given run
 * on the project's kernel engine, by the path libmgpusim.so runs them (mgpu/mgpu.c, bound to an
 * engine host of the fake's own: mgpu_bind, mgpu_ptx_load, mgpuModuleGetFunction,
 * mgpuLaunchKernel).
 *
 * The engine runs on a simulated device (backends' "sim", opened at the fake's first allocation,
 * scheduler serial, no race check: a driver reports none) that owns none of the memory: the fake's
 * allocations, host-shared memory and registered host memory are host memory, registered with
 * that device when the fake hands them out and unregistered when they are freed, so a kernel's
 * access outside them (past an allocation's end, into freed memory, into host memory the driver
 * was not told of) is an error, as the engine checks every access against what the device knows.
 * The fake completes everything when it is enqueued, so a launch runs the whole grid before
 * cuLaunchKernel returns, and stream order holds as it does for copies.
 *
 * A module's text is parsed at its load (what the engine cannot parse: CUDA_ERROR_INVALID_PTX), a
 * kernel compiled at its cuModuleGetFunction (what the engine cannot run: CUDA_ERROR_NOT_SUPPORTED),
 * a launch's parameters unpacked by the sizes its .param declarations give, and a kernel that fails
 * fails its launch: cuLaunchKernel returns CUDA_ERROR_ILLEGAL_ADDRESS for an access outside the
 * device's memory, CUDA_ERROR_ASSERT for a failed assertion (__assertfail), CUDA_ERROR_LAUNCH_TIMEOUT
 * when the launch ran past FAKECUDA_TIMEOUT seconds (default 60), else CUDA_ERROR_LAUNCH_FAILED (a
 * trap, a divergent barrier), after the engine's located diagnostic went to stderr
 * ("@cuModuleLoadData#1.ptx:20:3: error: ...", then a note naming the thread and
 * "cuLaunchKernel#2: note: in the kernel launched here"). A real driver would report the error at
 * the next synchronization instead; the fake's launch is that synchronization. What kernels print
 * (vprintf, and the line of each failed assertion) is held, as a driver holds its printf buffer,
 * and written to stdout (then flushed) when the fake flushes it (fake_flush_output: a
 * synchronization, a module load or unload, the start of a launch, a launch that fails), so it
 * comes where a GPU's would, not when the kernel ran.
 *
 * Everything happens under the fake's lock, on the calling thread. */
#include "tests/fakes/fakedrv.h"
#include "mgpu/mgpu.h"

#include <stdlib.h>
#include <string.h>

static bool started;
static Backend *sim; /* NULL when it could not be opened (said once) */
static KHost host;
static unsigned seen_errors; /* the engine's errors (ir_error_count) already looked at */
static bool in_launch;
static FakeResult why; /* the first error of the launch running */
static double timeout = 60;
static char *held; /* what kernels printed since the last flush */
static size_t n_held, cap_held;

/* The engine's output of a kernel (one call per block's lines): held until the next flush. */
static void hold(void *user, const char *launch_loc, uint64_t launch, const char *text, size_t len)
{
    (void)user, (void)launch_loc, (void)launch;
    if (n_held + len > cap_held) {
        size_t cap = cap_held ? cap_held : 4096;
        while (cap < n_held + len)
            cap *= 2;
        char *p = realloc(held, cap);
        if (!p) {
            fprintf(stderr, "fakecuda: error: out of memory holding %zu bytes of kernel output\n", len);
            return;
        }
        held = p;
        cap_held = cap;
    }
    memcpy(held + n_held, text, len);
    n_held += len;
}

static void run_flush(void)
{
    if (n_held)
        fwrite(held, 1, n_held, stdout);
    n_held = 0;
    fflush(stdout);
}

/* What a kernel's error makes its launch return, from its message (or the device's kind). */
static FakeResult error_code(const char *msg, const char *kind)
{
    if (strstr(msg, "assertion failed"))
        return E_ASSERT;
    if (strstr(msg, "time limit"))
        return E_LAUNCH_TIMEOUT;
    if ((kind && (strcmp(kind, "out-of-bounds") == 0 || strcmp(kind, "misuse") == 0)) ||
        strstr(msg, "out-of-bounds") || strstr(msg, "use-after-free"))
        return E_ILLEGAL_ADDRESS;
    return E_LAUNCH_FAILED;
}

static void run_flush(void);

/* The engine's diagnostics: written as they are (to stderr); an error of a launch names its code.
 * The context counts an error before it hands the message here. A kernel's error makes its launch
 * the synchronization that reports it, so what the kernels printed comes out first. */
static char *seen(void *user, const Loc *loc, const char *msg)
{
    unsigned n = ir_error_count(host.ctx);
    if (n > seen_errors && in_launch && !why)
        why = error_code(msg, NULL);
    if (n > seen_errors && in_launch)
        run_flush();
    seen_errors = n;
    return NULL;
}

/* The device's diagnostics (an access outside its memory that the engine asked it about). */
static void sink(const BeDiag *d, void *user)
{
    if (d->error && in_launch && !why)
        why = error_code(d->message, d->kind);
    if (d->error && in_launch)
        run_flush();
    be_diag_print(stderr, "fakecuda", d);
}

static bool start(void)
{
    if (started)
        return sim != NULL;
    started = true;
    const char *t = getenv("FAKECUDA_TIMEOUT");
    if (t && *t) {
        char *end;
        double v = strtod(t, &end);
        if (*end || !(v >= 0))
            fprintf(stderr, "fakecuda: error: FAKECUDA_TIMEOUT='%s' is not a number of seconds; using %g\n", t,
                    timeout);
        else
            timeout = v;
    }
    BeOptions opt = {.sched = "serial", .no_race_check = true, .leak_check = BE_LEAK_OFF, .sink = sink};
    char err[256];
    IrCtx *ctx = ir_ctx_create();
    if (!ctx || be_open("sim", &opt, &sim, err, sizeof err) != BE_OK) {
        fprintf(stderr, "fakecuda: error: cannot open the device kernels run on: %s\n", ctx ? err : "out of memory");
        if (ctx)
            ir_ctx_destroy(ctx);
        sim = NULL;
        return false;
    }
    ir_diag_set_rewrite(ctx, seen, NULL);
    host.ctx = ctx;
    host.be = sim;
    host.out = stdout;
    host.device_print = hold;
    host.no_race_check = true;
    kernel_budget_init(&host.budget, 0, 0);
    atomic_init(&host.credit, kernel_budget_credit(&host.budget));
    return true;
}

/* A name that lives as long as the device (which keeps the locations it is given). */
static const char *keep(const char *s)
{
    return ir_intern_cstr(host.ctx, s).s;
}

static FakeResult run_mem(void *p, size_t bytes, bool known, const char *call)
{
    if (!start())
        return E_UNKNOWN;
    BeStatus st = known ? be_mem_register(sim, p, bytes, keep(call)) : be_mem_unregister(sim, p, keep(call));
    return st == BE_OK ? 0 : st == BE_ERR_MEMORY ? E_OOM : E_UNKNOWN;
}

static FakeResult run_load(const char *image, void **handle, const char *call)
{
    if (!start())
        return E_UNKNOWN;
    char name[96];
    snprintf(name, sizeof name, "@%s.ptx", call); /* "@cuModuleLoadData#1.ptx" */
    mgpu_bind(&host, keep(call));
    *handle = mgpu_ptx_load(image, strlen(image), name);
    mgpu_bind(NULL, NULL);
    return *handle ? 0 : E_INVALID_PTX;
}

static FakeResult run_function(void *module, const char *name, void **handle, const char *call)
{
    mgpu_bind(&host, keep(call));
    *handle = mgpuModuleGetFunction(module, name);
    mgpu_bind(NULL, NULL);
    return *handle ? 0 : E_NOT_SUPPORTED; /* the name is there (the fake checked): the engine cannot run it */
}

static void run_unload(void *module, const char *call)
{
    mgpu_bind(&host, keep(call));
    mgpuModuleUnload(module);
    mgpu_bind(NULL, NULL);
}

static FakeResult run_launch(void *function, const unsigned grid[3], const unsigned block[3], unsigned smem,
                             void **params, const char *call)
{
    uint32_t n = mgpu_ptx_params(function);
    if (n && !params) {
        fprintf(stderr, "fakecuda: %s: error: the kernel takes %u parameters, and kernelParams is NULL\n", call, n);
        return E_VALUE;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!params[i]) {
            fprintf(stderr, "fakecuda: %s: error: kernelParams[%u] is NULL (it must point at parameter %u)\n", call,
                    i, i);
            return E_VALUE;
        }
    /* each launch has the whole time limit */
    kernel_budget_init(&host.budget, 0, timeout);
    atomic_store(&host.credit, kernel_budget_credit(&host.budget));
    size_t before = ir_error_count(host.ctx) + be_error_count(sim);
    const char *loc = keep(call);
    in_launch = true;
    why = 0;
    mgpu_bind(&host, loc);
    mgpuLaunchKernel(function, grid[0], grid[1], grid[2], block[0], block[1], block[2], (int32_t)smem, NULL, params,
                     NULL, n);
    mgpu_bind(NULL, NULL);
    kernel_wait_all(&host);
    in_launch = false;
    if (ir_error_count(host.ctx) + be_error_count(sim) > before)
        return why ? why : E_LAUNCH_FAILED;
    return 0;
}

const FakeRun fake_run = {
    .who = "fakecuda",
    .mem = run_mem,
    .load = run_load,
    .function = run_function,
    .unload = run_unload,
    .launch = run_launch,
    .flush = run_flush,
};
