/* fakecuda.c — a fake CUDA driver library for the tests of the cuda backend (backends/cuda.c).
 *
 * Built as $b/tests/fakes/libfakecuda.so; gpuinterp loads it with --cuda-lib=PATH (or
 * GPUINTERP_CUDA_LIB). It exports the functions of backends/cuda_api.h under the names the real
 * libcuda.so.1 exports (cuMemAlloc_v2, cuStreamDestroy_v2, ...), with the same prototypes, and
 * implements them on the device model of fakedrv.c: one device, streams and events that complete
 * at once (every copy and memset is done when it is enqueued), modules that keep their image, and
 * launches that run nothing. It checks what a driver checks (handles of the right kind and alive,
 * a context made current, copies inside the allocations it handed out, frees of what it
 * allocated) and returns the driver's error codes for what is wrong.
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
 *   FAKECUDA_DEVICES=N        devices cuDeviceGetCount reports (default 1).
 *   FAKECUDA_UVA=0            the devices have no unified addressing.
 * Event timing (cuEventElapsedTime_v2) follows a device clock that a copy advances by 0.25 ms, a
 * memset by 0.125 ms and a launch by 1 ms, so timed traces are the same on every run.
 */
#include "backends/cuda_api.h"
#include "tests/fakes/fakedrv.h"

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
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
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
};

/* ---- initialization, devices, contexts ---- */

CuResult cuInit(unsigned int flags)
{
    BEGIN(cuInit, "%u", flags)
    if (flags)
        r = E_VALUE;
    else
        fake_inited = true;
    END
}

CuResult cuGetErrorName(CuResult error, const char **name)
{
    BEGIN(cuGetErrorName, "%u", error)
    *name = fake_error_name(error);
    if (!*name)
        r = E_VALUE;
    else
        snprintf(out, sizeof out, "%s", *name);
    END
}

CuResult cuDeviceGetCount(int *count)
{
    BEGIN(cuDeviceGetCount, "%s", "")
    if (!fake_inited) {
        r = E_NOT_INIT;
    } else {
        *count = fake_devices;
        snprintf(out, sizeof out, "%d", fake_devices);
    }
    END
}

CuResult cuDeviceGet(CuDevice *device, int ordinal)
{
    BEGIN(cuDeviceGet, "%d", ordinal)
    if (!(r = fake_need_device(ordinal)))
        *device = ordinal;
    END
}

CuResult cuDeviceGetName(char *name, int len, CuDevice device)
{
    BEGIN(cuDeviceGetName, "%d, %d", len, device)
    if ((r = fake_need_device(device))) {
    } else if (!name || len <= 0) {
        r = E_VALUE;
    } else {
        snprintf(name, (size_t)len, "Fake CUDA Device %d", device);
    }
    END
}

CuResult cuDeviceGetAttribute(int *value, CuDeviceAttr attrib, CuDevice device)
{
    BEGIN(cuDeviceGetAttribute, "%u, %d", attrib, device)
    if (!(r = fake_need_device(device))) {
        *value = attrib == CU_ATTR_UNIFIED_ADDRESSING ? fake_uva : 0;
        snprintf(out, sizeof out, "%d", *value);
    }
    END
}

static Obj *primary[8];

CuResult cuDevicePrimaryCtxRetain(CuContext *ctx, CuDevice device)
{
    BEGIN(cuDevicePrimaryCtxRetain, "%d", device)
    if ((r = fake_need_device(device))) {
    } else if (device >= 8) {
        r = E_DEVICE;
    } else {
        if (!primary[device] && !(primary[device] = fake_obj_new(K_CTX)))
            r = E_OOM;
        if (!r) {
            primary[device]->refs++;
            primary[device]->live = true;
            *ctx = (CuContext)primary[device];
            snprintf(out, sizeof out, "ctx%u", primary[device]->id);
        }
    }
    END
}

CuResult cuDevicePrimaryCtxRelease_v2(CuDevice device)
{
    BEGIN(cuDevicePrimaryCtxRelease_v2, "%d", device)
    if ((r = fake_need_device(device))) {
    } else if (device >= 8 || !primary[device] || primary[device]->refs <= 0) {
        r = E_DEVICE;
    } else if (--primary[device]->refs == 0) {
        primary[device]->live = false;
    }
    END
}

CuResult cuCtxSetCurrent(CuContext ctx)
{
    char name[32];
    fake_obj_name(name, sizeof name, ctx, K_CTX);
    BEGIN(cuCtxSetCurrent, "%s", name)
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
    BEGIN(cuCtxSynchronize, "%s", "")
    r = fake_need_ctx();
    END
}

/* ---- streams and events ---- */

CuResult cuStreamCreate(CuStream *stream, unsigned int flags)
{
    BEGIN(cuStreamCreate, "%u", flags)
    Obj *o = NULL;
    if (!(r = fake_need_ctx()) && !(o = fake_obj_new(K_STREAM)))
        r = E_OOM;
    if (!r) {
        *stream = (CuStream)o;
        snprintf(out, sizeof out, "s%u", o->id);
    }
    END
}

CuResult cuStreamDestroy_v2(CuStream stream)
{
    char name[32];
    fake_obj_name(name, sizeof name, stream, K_STREAM);
    BEGIN(cuStreamDestroy_v2, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_kill(stream, K_STREAM);
    END
}

CuResult cuStreamSynchronize(CuStream stream)
{
    char name[32];
    fake_obj_name(name, sizeof name, stream, K_STREAM);
    BEGIN(cuStreamSynchronize, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_need_stream(stream);
    END
}

CuResult cuStreamWaitEvent(CuStream stream, CuEvent event, unsigned int flags)
{
    char s[32], e[32];
    fake_obj_name(s, sizeof s, stream, K_STREAM);
    fake_obj_name(e, sizeof e, event, K_EVENT);
    BEGIN(cuStreamWaitEvent, "%s, %s, %u", s, e, flags)
    if (!(r = fake_need_ctx()) && !(r = fake_need_stream(stream)))
        r = fake_need_event(event);
    END
}

CuResult cuEventCreate(CuEvent *event, unsigned int flags)
{
    BEGIN(cuEventCreate, "%u", flags)
    Obj *o = NULL;
    if (!(r = fake_need_ctx()) && !(o = fake_obj_new(K_EVENT)))
        r = E_OOM;
    if (!r) {
        *event = (CuEvent)o;
        snprintf(out, sizeof out, "e%u", o->id);
    }
    END
}

CuResult cuEventDestroy_v2(CuEvent event)
{
    char name[32];
    fake_obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(cuEventDestroy_v2, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_kill(event, K_EVENT);
    END
}

CuResult cuEventRecord(CuEvent event, CuStream stream)
{
    char s[32], e[32];
    fake_obj_name(e, sizeof e, event, K_EVENT);
    fake_obj_name(s, sizeof s, stream, K_STREAM);
    BEGIN(cuEventRecord, "%s, %s", e, s)
    r = fake_event_record(event, stream);
    END
}

CuResult cuEventElapsedTime_v2(float *ms, CuEvent start, CuEvent end)
{
    char a[32], b[32];
    fake_obj_name(a, sizeof a, start, K_EVENT);
    fake_obj_name(b, sizeof b, end, K_EVENT);
    BEGIN(cuEventElapsedTime_v2, "%s, %s", a, b)
    r = fake_event_elapsed(ms, start, end, out, sizeof out);
    END
}

CuResult cuEventSynchronize(CuEvent event)
{
    char name[32];
    fake_obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(cuEventSynchronize, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_need_event(event);
    END
}

CuResult cuEventQuery(CuEvent event)
{
    char name[32];
    fake_obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(cuEventQuery, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_need_event(event);
    END
}

/* ---- memory ---- */

CuResult cuMemAlloc_v2(CuDevPtr *ptr, size_t bytes)
{
    BEGIN(cuMemAlloc_v2, "%zu", bytes)
    void *p = NULL;
    if (!(r = fake_mem_new(&p, bytes, false, out, sizeof out)))
        *ptr = (CuDevPtr)(uintptr_t)p;
    END
}

CuResult cuMemAllocManaged(CuDevPtr *ptr, size_t bytes, unsigned int flags)
{
    BEGIN(cuMemAllocManaged, "%zu, %u", bytes, flags)
    void *p = NULL;
    if ((r = fake_need_ctx())) {
    } else if (flags != CU_MEM_ATTACH_GLOBAL_FLAG && flags != 2) {
        r = E_VALUE;
    } else if (!(r = fake_mem_new(&p, bytes, true, out, sizeof out))) {
        *ptr = (CuDevPtr)(uintptr_t)p;
    }
    END
}

CuResult cuMemFree_v2(CuDevPtr ptr)
{
    char name[48];
    fake_ptr_name(name, sizeof name, (uintptr_t)ptr);
    BEGIN(cuMemFree_v2, "%s", name)
    r = fake_mem_free((void *)(uintptr_t)ptr);
    END
}

CuResult cuMemcpyAsync(CuDevPtr dst, CuDevPtr src, size_t bytes, CuStream stream)
{
    char d[48], s[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_ptr_name(s, sizeof s, (uintptr_t)src);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemcpyAsync, "%s, %s, %zu, %s", d, s, bytes, st)
    r = fake_copy((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes, stream, out, sizeof out);
    END
}

CuResult cuMemsetD8Async(CuDevPtr dst, unsigned char value, size_t count, CuStream stream)
{
    char d[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemsetD8Async, "%s, %u, %zu, %s", d, value, count, st)
    r = fake_fill((void *)(uintptr_t)dst, &value, 1, count, stream, out, sizeof out);
    END
}

CuResult cuMemsetD16Async(CuDevPtr dst, unsigned short value, size_t count, CuStream stream)
{
    char d[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemsetD16Async, "%s, %u, %zu, %s", d, value, count, st)
    r = fake_fill((void *)(uintptr_t)dst, &value, 2, count, stream, out, sizeof out);
    END
}

CuResult cuMemsetD32Async(CuDevPtr dst, unsigned int value, size_t count, CuStream stream)
{
    char d[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(cuMemsetD32Async, "%s, %u, %zu, %s", d, value, count, st)
    r = fake_fill((void *)(uintptr_t)dst, &value, 4, count, stream, out, sizeof out);
    END
}

CuResult cuMemHostRegister_v2(void *ptr, size_t bytes, unsigned int flags)
{
    BEGIN(cuMemHostRegister_v2, "host, %zu, %u", bytes, flags)
    r = fake_register(ptr, bytes);
    END
}

CuResult cuMemHostUnregister(void *ptr)
{
    BEGIN(cuMemHostUnregister, "%s", ptr ? "host" : "0")
    r = fake_unregister(ptr);
    END
}

/* ---- modules and launches ---- */

CuResult cuModuleLoadData(CuModule *module, const void *image)
{
    BEGIN(cuModuleLoadData, "%s", fake_image_kind(image))
    void *m = NULL;
    if (!(r = fake_module_load(&m, image, "elf fatbin ptx", out, sizeof out))) {
        *module = m;
        fake_add_entries(args, sizeof args, m);
    }
    END
}

CuResult cuModuleGetFunction(CuFunction *function, CuModule module, const char *name)
{
    char m[32];
    fake_obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(cuModuleGetFunction, "%s, %s", m, name ? name : "0")
    void *f = NULL;
    if (!(r = fake_module_function(&f, module, name, out, sizeof out)))
        *function = f;
    END
}

CuResult cuModuleUnload(CuModule module)
{
    char m[32];
    fake_obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(cuModuleUnload, "%s", m)
    if (!(r = fake_need_ctx()))
        r = fake_kill(module, K_MODULE);
    END
}

CuResult cuLaunchKernel(CuFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ,
                        unsigned int blockX, unsigned int blockY, unsigned int blockZ, unsigned int smem,
                        CuStream stream, void **params, void **extra)
{
    char fn[160], st[32], shown[400] = "";
    fake_obj_name(fn, sizeof fn, f, K_FUNCTION);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    fake_show_params(shown, sizeof shown, f, params);
    BEGIN(cuLaunchKernel, "%s, %ux%ux%u, %ux%ux%u, %u, %s%s%s", fn, gridX, gridY, gridZ, blockX, blockY,
          blockZ, smem, st, shown, extra ? ", extra" : "")
    r = fake_launch(f, (const unsigned[3]){gridX, gridY, gridZ}, (const unsigned[3]){blockX, blockY, blockZ},
                    smem, stream);
    END
}
