/* fakecuda.c — a fake CUDA driver library for the tests of the cuda backend (backends/cuda.c).
 *
 * Built as $b/tests/fakes/libfakecuda.so; gpuinterp loads it with --cuda-lib=PATH (or
 * GPUINTERP_CUDA_LIB). It exports the functions of backends/cuda_api.h under the names the real
 * libcuda.so.1 exports (cuMemAlloc_v2, cuStreamDestroy_v2, ...), with the same prototypes, and
 * implements them on the device model of fakedrv.c: one device, streams and events that complete
 * at once (every copy, memset and launch is done when it is enqueued), modules that keep their
 * image, and kernels of PTX modules run on the project's kernel engine (fakerun.c: a kernel that
 * fails fails its launch with CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_ASSERT,
 * CUDA_ERROR_LAUNCH_TIMEOUT or CUDA_ERROR_LAUNCH_FAILED, the engine's diagnostic on stderr). It
 * checks what a driver checks (handles of the right kind and alive, a context made current,
 * copies inside the allocations it handed out, frees of what it allocated) and returns the
 * driver's error codes for what is wrong.
 *
 * Environment:
 *   FAKECUDA_LOG=PATH         append one line per call: `name(args) -> RESULT [outputs]`.
 *                             Handles and device memory are named by what the fake handed out, in
 *                             order (s1, e2, d1+16, m1 for host-shared memory, mod1, kernels by
 *                             name); other host pointers are `host`, so logs do not change from
 *                             run to run. A launch shows its parameters as the kernel's PTX
 *                             declares them (device pointers named, integers in decimal, floats
 *                             as their bits in hex), a PTX module load the names of its
 *                             .entry kernels.
 *   FAKECUDA_FAIL=NAME:N[:CODE][,...]  the Nth call of NAME returns CODE (a number or a
 *                             CUDA_ERROR_* name; default CUDA_ERROR_OUT_OF_MEMORY for
 *                             allocations, CUDA_ERROR_NO_DEVICE for cuInit, else
 *                             CUDA_ERROR_UNKNOWN) and does nothing else.
 *   FAKECUDA_CORRUPT=NAME:N[,...]  the Nth call of NAME (a copy or memset) succeeds but flips
 *                             every bit of the first byte it wrote, and its log line says
 *                             "(corrupted)": a wrong result for the differential checks to find.
 *                             A launch so named (cuLaunchKernel:N) runs, then flips the first
 *                             byte the kernel changed in the memory its pointer parameters
 *                             point into (in parameter order): "(corrupted d1+8)", or "(nothing
 *                             to corrupt)" when it changed none.
 * What kernels print (vprintf) is held and written to stdout at the points CUDA flushes its
 * printf buffer at: cuCtxSynchronize, cuStreamSynchronize, cuEventSynchronize, a module load or
 * unload, the start of a launch, a launch that fails, the primary context's last release.
 *   FAKECUDA_DEVICES=N        devices cuDeviceGetCount reports (default 1).
 *   FAKECUDA_UVA=0            the devices have no unified addressing.
 *   FAKECUDA_TIMEOUT=SECONDS  how long a launch may run before it fails with
 *                             CUDA_ERROR_LAUNCH_TIMEOUT (default 60; 0: no limit).
 * Event timing (cuEventElapsedTime_v2) follows a device clock that a copy advances by 0.25 ms, a
 * memset by 0.125 ms and a launch by 1 ms, so timed traces are the same on every run.
 */
#include "backends/cuda_api.h"
#include "tests/fakes/fakedrv.h"

#include <stdint.h>
#include <string.h>

#define PROTO(name, params) CuResult name params;
CUDA_FUNCTIONS(PROTO)
#undef PROTO
CuResult cuEventElapsedTime_v2(float *ms, CuEvent start, CuEvent end);

static const FakeError errors[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {710, "CUDA_ERROR_ASSERT"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

static FakeResult default_fail(const char *call)
{
    return strstr(call, "MemAlloc") ? E_OOM : strcmp(call, "cuInit") == 0 ? E_NO_DEVICE : E_UNKNOWN;
}

const FakeDriver fake_driver = {
    .env = "FAKECUDA",
    .errors = errors,
    .n_errors = sizeof errors / sizeof *errors,
    .default_fail = default_fail,
    .run = &fake_run,
};

#define DP(p) ((void *)(uintptr_t)(p))

/* ---- initialization, devices, contexts ---- */

CuResult cuInit(unsigned int flags)
{
    return fake_init("cuInit", flags, false);
}

CuResult cuGetErrorName(CuResult error, const char **name)
{
    BEGIN("cuGetErrorName", "%u", error)
    *name = fake_error_name(error);
    if (!*name)
        r = E_VALUE;
    else
        snprintf(out, sizeof out, "%s", *name);
    END
}

CuResult cuDeviceGetCount(int *count)
{
    return fake_device_count("cuDeviceGetCount", count, false);
}

CuResult cuDeviceGet(CuDevice *device, int ordinal)
{
    return fake_device_get("cuDeviceGet", device, ordinal);
}

CuResult cuDeviceGetName(char *name, int len, CuDevice device)
{
    return fake_device_name("cuDeviceGetName", name, len, device, "CUDA");
}

CuResult cuDeviceGetAttribute(int *value, CuDeviceAttr attrib, CuDevice device)
{
    return fake_device_attr("cuDeviceGetAttribute", value, attrib, device, CU_ATTR_UNIFIED_ADDRESSING);
}

/* Primary contexts are counted: the last release destroys one. */
CuResult cuDevicePrimaryCtxRetain(CuContext *ctx, CuDevice device)
{
    BEGIN("cuDevicePrimaryCtxRetain", "%d", device)
    Obj *o = NULL;
    if ((r = fake_need_device(device))) {
    } else if (device >= 8) {
        r = E_DEVICE;
    } else if (!(o = fake_device_ctx(device))) {
        r = E_OOM;
    } else {
        o->refs++;
        o->live = true;
        *ctx = (CuContext)o;
        snprintf(out, sizeof out, "ctx%u", o->id);
    }
    END
}

CuResult cuDevicePrimaryCtxRelease_v2(CuDevice device)
{
    BEGIN("cuDevicePrimaryCtxRelease_v2", "%d", device)
    Obj *o = NULL;
    if ((r = fake_need_device(device))) {
    } else if (device >= 8 || !(o = fake_device_ctx(device)) || o->refs <= 0) {
        r = E_DEVICE;
    } else if (--o->refs == 0) {
        fake_flush_output(); /* the context is destroyed */
        o->live = false;
    }
    END
}

CuResult cuCtxSetCurrent(CuContext ctx)
{
    char name[32];
    fake_obj_name(name, sizeof name, ctx, K_CTX);
    BEGIN("cuCtxSetCurrent", "%s", name)
    Obj *o = ctx ? fake_obj_find(ctx, K_CTX) : NULL;
    if (!fake_inited)
        r = E_NOT_INIT;
    else if (ctx && (!o || !o->live))
        r = E_CONTEXT;
    else
        fake_current = o;
    END
}

CuResult cuCtxSynchronize(void)
{
    return fake_sync("cuCtxSynchronize");
}

/* ---- streams and events ---- */

CuResult cuStreamCreate(CuStream *stream, unsigned int flags)
{
    return fake_stream_create("cuStreamCreate", (void **)stream, flags);
}

CuResult cuStreamDestroy_v2(CuStream stream)
{
    return fake_destroy("cuStreamDestroy_v2", stream, K_STREAM);
}

CuResult cuStreamSynchronize(CuStream stream)
{
    return fake_wait("cuStreamSynchronize", stream, K_STREAM, true);
}

CuResult cuStreamWaitEvent(CuStream stream, CuEvent event, unsigned int flags)
{
    return fake_stream_wait_event("cuStreamWaitEvent", stream, event, flags);
}

CuResult cuEventCreate(CuEvent *event, unsigned int flags)
{
    return fake_event_create("cuEventCreate", (void **)event, flags);
}

CuResult cuEventDestroy_v2(CuEvent event)
{
    return fake_destroy("cuEventDestroy_v2", event, K_EVENT);
}

CuResult cuEventRecord(CuEvent event, CuStream stream)
{
    return fake_event_record("cuEventRecord", event, stream);
}

CuResult cuEventElapsedTime_v2(float *ms, CuEvent start, CuEvent end)
{
    return fake_event_elapsed("cuEventElapsedTime_v2", ms, start, end);
}

CuResult cuEventSynchronize(CuEvent event)
{
    return fake_wait("cuEventSynchronize", event, K_EVENT, true);
}

CuResult cuEventQuery(CuEvent event)
{
    return fake_wait("cuEventQuery", event, K_EVENT, false);
}

/* ---- memory ---- */

CuResult cuMemAlloc_v2(CuDevPtr *ptr, size_t bytes)
{
    void *p = NULL;
    CuResult r = fake_alloc("cuMemAlloc_v2", &p, bytes);
    if (!r)
        *ptr = (CuDevPtr)(uintptr_t)p;
    return r;
}

CuResult cuMemAllocManaged(CuDevPtr *ptr, size_t bytes, unsigned int flags)
{
    void *p = NULL;
    CuResult r = fake_alloc_managed("cuMemAllocManaged", &p, bytes, flags);
    if (!r)
        *ptr = (CuDevPtr)(uintptr_t)p;
    return r;
}

CuResult cuMemFree_v2(CuDevPtr ptr)
{
    return fake_free("cuMemFree_v2", DP(ptr), false);
}

CuResult cuMemcpyAsync(CuDevPtr dst, CuDevPtr src, size_t bytes, CuStream stream)
{
    return fake_memcpy("cuMemcpyAsync", DP(dst), DP(src), bytes, NULL, stream);
}

CuResult cuMemsetD8Async(CuDevPtr dst, unsigned char value, size_t count, CuStream stream)
{
    return fake_memset("cuMemsetD8Async", DP(dst), &value, 1, value, count, stream);
}

CuResult cuMemsetD16Async(CuDevPtr dst, unsigned short value, size_t count, CuStream stream)
{
    return fake_memset("cuMemsetD16Async", DP(dst), &value, 2, value, count, stream);
}

CuResult cuMemsetD32Async(CuDevPtr dst, unsigned int value, size_t count, CuStream stream)
{
    return fake_memset("cuMemsetD32Async", DP(dst), &value, 4, value, count, stream);
}

CuResult cuMemHostRegister_v2(void *ptr, size_t bytes, unsigned int flags)
{
    return fake_host_register("cuMemHostRegister_v2", ptr, bytes, flags);
}

CuResult cuMemHostUnregister(void *ptr)
{
    return fake_host_unregister("cuMemHostUnregister", ptr);
}

/* ---- modules and launches ---- */

CuResult cuModuleLoadData(CuModule *module, const void *image)
{
    return fake_module_load("cuModuleLoadData", (void **)module, image, "elf fatbin ptx");
}

CuResult cuModuleGetFunction(CuFunction *function, CuModule module, const char *name)
{
    return fake_module_function("cuModuleGetFunction", (void **)function, module, name);
}

CuResult cuModuleUnload(CuModule module)
{
    return fake_destroy("cuModuleUnload", module, K_MODULE);
}

CuResult cuLaunchKernel(CuFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ,
                        unsigned int blockX, unsigned int blockY, unsigned int blockZ, unsigned int smem,
                        CuStream stream, void **params, void **extra)
{
    return fake_launch("cuLaunchKernel", f, (const unsigned[3]){gridX, gridY, gridZ},
                       (const unsigned[3]){blockX, blockY, blockZ}, smem, stream, params, extra);
}
