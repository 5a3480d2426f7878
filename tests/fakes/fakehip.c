/* fakehip.c — a fake HIP runtime library for the tests of the hip backend (backends/hip.c).
 *
 * Built as $b/tests/fakes/libfakehip.so; gpuinterp loads it with --hip-lib=PATH (or
 * GPUINTERP_HIP_LIB). It exports the functions of backends/hip_api.h under the names
 * libamdhip64.so exports, with the same prototypes, on the device model fakecuda.c uses too
 * (fakedrv.c): devices on host memory, streams and events that complete at once, modules that
 * keep nothing of their code object, launches that run nothing. It checks what HIP checks
 * (handles of the right kind and alive, hipInit first, copies inside the allocations it handed
 * out, frees of what it allocated) and returns HIP's error codes for what is wrong. As in HIP,
 * device 0 is current until hipSetDevice picks another, and hipFree(NULL) does nothing.
 *
 * Environment, as fakecuda's:
 *   FAKEHIP_LOG=PATH          append one line per call: `name(args) -> RESULT [outputs]`, handles
 *                             and memory named by what the fake handed out (s1, e2, d1+16, m1,
 *                             mod1, kernels by name; other host pointers `host`). A launch's
 *                             parameters are `[params unknown]`: a code object does not say.
 *   FAKEHIP_FAIL=NAME:N[:CODE][,...]  the Nth call of NAME returns CODE (a number or a hipError*
 *                             name; default hipErrorOutOfMemory for allocations, hipErrorNoDevice
 *                             for hipInit, else hipErrorUnknown) and does nothing else.
 *   FAKEHIP_DEVICES=N         devices hipGetDeviceCount reports (default 1).
 *   FAKEHIP_UVA=0             the devices have no unified addressing.
 */
#include "backends/hip_api.h"
#include "tests/fakes/fakedrv.h"

#include <string.h>

#define PROTO(ret, name, params) ret name params;
HIP_FUNCTIONS(PROTO)
#undef PROTO

static const FakeError errors[] = {
    {0, "hipSuccess"},
    {1, "hipErrorInvalidValue"},
    {2, "hipErrorOutOfMemory"},
    {3, "hipErrorNotInitialized"},
    {4, "hipErrorDeinitialized"},
    {35, "hipErrorInsufficientDriver"},
    {98, "hipErrorInvalidDeviceFunction"},
    {100, "hipErrorNoDevice"},
    {101, "hipErrorInvalidDevice"},
    {200, "hipErrorInvalidImage"},
    {201, "hipErrorInvalidContext"},
    {209, "hipErrorNoBinaryForGpu"},
    {218, "hipErrorInvalidKernelFile"},
    {303, "hipErrorSharedObjectInitFailed"},
    {400, "hipErrorInvalidHandle"},
    {500, "hipErrorNotFound"},
    {600, "hipErrorNotReady"},
    {700, "hipErrorIllegalAddress"},
    {701, "hipErrorLaunchOutOfResources"},
    {712, "hipErrorHostMemoryAlreadyRegistered"},
    {713, "hipErrorHostMemoryNotRegistered"},
    {719, "hipErrorLaunchFailure"},
    {999, "hipErrorUnknown"},
};

static FakeResult default_fail(const char *call)
{
    return strstr(call, "Malloc") ? E_OOM : strcmp(call, "hipInit") == 0 ? E_NO_DEVICE : E_UNKNOWN;
}

const FakeDriver fake_driver = {
    .env = "FAKEHIP",
    .errors = errors,
    .n_errors = sizeof errors / sizeof *errors,
    .default_fail = default_fail,
};

/* ---- initialization and devices ---- */

static Obj *device_obj[8]; /* what fake_current points at: the device made current */

static FakeResult set_device(int device)
{
    FakeResult r = fake_need_device(device);
    if (r)
        return r;
    if (device >= 8)
        return E_DEVICE;
    if (!device_obj[device] && !(device_obj[device] = fake_obj_new(K_CTX)))
        return E_OOM;
    fake_current = device_obj[device];
    return 0;
}

HipError hipInit(unsigned int flags)
{
    BEGIN(hipInit, "%u", flags)
    if (flags) {
        r = E_VALUE;
    } else {
        fake_inited = true;
        if (fake_devices > 0)
            r = set_device(0);
    }
    END
}

/* As HIP's: a code it does not know is "hipErrorUnknown". */
const char *hipGetErrorName(HipError error)
{
    pthread_mutex_lock(&fake_mu);
    fake_enter("hipGetErrorName");
    const char *name = fake_error_name(error);
    if (!name)
        name = "hipErrorUnknown";
    char args[32];
    snprintf(args, sizeof args, "%u", error);
    fake_say_value("hipGetErrorName", args, name);
    pthread_mutex_unlock(&fake_mu);
    return name;
}

HipError hipGetDeviceCount(int *count)
{
    BEGIN(hipGetDeviceCount, "%s", "")
    if (!fake_inited) {
        r = E_NOT_INIT;
    } else if (fake_devices <= 0) {
        *count = 0;
        r = E_NO_DEVICE; /* HIP says so, and counts 0 */
    } else {
        *count = fake_devices;
        snprintf(out, sizeof out, "%d", fake_devices);
    }
    END
}

HipError hipDeviceGet(HipDevice *device, int ordinal)
{
    BEGIN(hipDeviceGet, "%d", ordinal)
    if (!(r = fake_need_device(ordinal)))
        *device = ordinal;
    END
}

HipError hipDeviceGetName(char *name, int len, HipDevice device)
{
    BEGIN(hipDeviceGetName, "%d, %d", len, device)
    if ((r = fake_need_device(device))) {
    } else if (!name || len <= 0) {
        r = E_VALUE;
    } else {
        snprintf(name, (size_t)len, "Fake HIP Device %d", device);
    }
    END
}

HipError hipDeviceGetAttribute(int *value, HipDeviceAttr attr, int device)
{
    BEGIN(hipDeviceGetAttribute, "%u, %d", attr, device)
    if (!(r = fake_need_device(device))) {
        *value = attr == HIP_FLAG_ATTR_UVA ? fake_uva : 0;
        snprintf(out, sizeof out, "%d", *value);
    }
    END
}

HipError hipSetDevice(int device)
{
    BEGIN(hipSetDevice, "%d", device)
    r = set_device(device);
    END
}

HipError hipDeviceSynchronize(void)
{
    BEGIN(hipDeviceSynchronize, "%s", "")
    r = fake_need_ctx();
    END
}

/* ---- streams and events ---- */

HipError hipStreamCreateWithFlags(HipStream *stream, unsigned int flags)
{
    BEGIN(hipStreamCreateWithFlags, "%u", flags)
    Obj *o = NULL;
    if (!(r = fake_need_ctx()) && !(o = fake_obj_new(K_STREAM)))
        r = E_OOM;
    if (!r) {
        *stream = (HipStream)o;
        snprintf(out, sizeof out, "s%u", o->id);
    }
    END
}

HipError hipStreamDestroy(HipStream stream)
{
    char name[32];
    fake_obj_name(name, sizeof name, stream, K_STREAM);
    BEGIN(hipStreamDestroy, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_kill(stream, K_STREAM);
    END
}

HipError hipStreamSynchronize(HipStream stream)
{
    char name[32];
    fake_obj_name(name, sizeof name, stream, K_STREAM);
    BEGIN(hipStreamSynchronize, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_need_stream(stream);
    END
}

HipError hipStreamWaitEvent(HipStream stream, HipEvent event, unsigned int flags)
{
    char s[32], e[32];
    fake_obj_name(s, sizeof s, stream, K_STREAM);
    fake_obj_name(e, sizeof e, event, K_EVENT);
    BEGIN(hipStreamWaitEvent, "%s, %s, %u", s, e, flags)
    if (!(r = fake_need_ctx()) && !(r = fake_need_stream(stream)))
        r = fake_need_event(event);
    END
}

HipError hipEventCreateWithFlags(HipEvent *event, unsigned int flags)
{
    BEGIN(hipEventCreateWithFlags, "%u", flags)
    Obj *o = NULL;
    if (!(r = fake_need_ctx()) && !(o = fake_obj_new(K_EVENT)))
        r = E_OOM;
    if (!r) {
        *event = (HipEvent)o;
        snprintf(out, sizeof out, "e%u", o->id);
    }
    END
}

HipError hipEventDestroy(HipEvent event)
{
    char name[32];
    fake_obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(hipEventDestroy, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_kill(event, K_EVENT);
    END
}

HipError hipEventRecord(HipEvent event, HipStream stream)
{
    char s[32], e[32];
    fake_obj_name(e, sizeof e, event, K_EVENT);
    fake_obj_name(s, sizeof s, stream, K_STREAM);
    BEGIN(hipEventRecord, "%s, %s", e, s)
    r = fake_event_record(event, stream);
    END
}

HipError hipEventSynchronize(HipEvent event)
{
    char name[32];
    fake_obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(hipEventSynchronize, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_need_event(event);
    END
}

HipError hipEventQuery(HipEvent event)
{
    char name[32];
    fake_obj_name(name, sizeof name, event, K_EVENT);
    BEGIN(hipEventQuery, "%s", name)
    if (!(r = fake_need_ctx()))
        r = fake_need_event(event);
    END
}

/* ---- memory ---- */

HipError hipMalloc(void **ptr, size_t bytes)
{
    BEGIN(hipMalloc, "%zu", bytes)
    r = fake_mem_new(ptr, bytes, false, out, sizeof out);
    END
}

HipError hipMallocManaged(void **ptr, size_t bytes, unsigned int flags)
{
    BEGIN(hipMallocManaged, "%zu, %u", bytes, flags)
    if ((r = fake_need_ctx())) {
    } else if (flags != HIP_FLAG_MEM_ATTACH_GLOBAL && flags != 2) {
        r = E_VALUE;
    } else {
        r = fake_mem_new(ptr, bytes, true, out, sizeof out);
    }
    END
}

HipError hipFree(void *ptr)
{
    char name[48];
    fake_ptr_name(name, sizeof name, (uintptr_t)ptr);
    BEGIN(hipFree, "%s", name)
    if (ptr)
        r = fake_mem_free(ptr);
    END
}

HipError hipMemcpyAsync(void *dst, const void *src, size_t bytes, HipMemcpyKind kind, HipStream stream)
{
    char d[48], s[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_ptr_name(s, sizeof s, (uintptr_t)src);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(hipMemcpyAsync, "%s, %s, %zu, %u, %s", d, s, bytes, kind, st)
    r = kind > HIP_FLAG_MEMCPY_DEFAULT ? E_VALUE : fake_copy(dst, src, bytes, stream, out, sizeof out);
    END
}

HipError hipMemsetD8Async(HipDevPtr dst, unsigned char value, size_t count, HipStream stream)
{
    char d[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(hipMemsetD8Async, "%s, %u, %zu, %s", d, value, count, st)
    r = fake_fill(dst, &value, 1, count, stream, out, sizeof out);
    END
}

HipError hipMemsetD16Async(HipDevPtr dst, unsigned short value, size_t count, HipStream stream)
{
    char d[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(hipMemsetD16Async, "%s, %u, %zu, %s", d, value, count, st)
    r = fake_fill(dst, &value, 2, count, stream, out, sizeof out);
    END
}

HipError hipMemsetD32Async(HipDevPtr dst, int value, size_t count, HipStream stream)
{
    char d[48], st[32];
    fake_ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(hipMemsetD32Async, "%s, %d, %zu, %s", d, value, count, st)
    r = fake_fill(dst, &value, 4, count, stream, out, sizeof out);
    END
}

HipError hipHostRegister(void *ptr, size_t bytes, unsigned int flags)
{
    BEGIN(hipHostRegister, "host, %zu, %u", bytes, flags)
    r = fake_register(ptr, bytes);
    END
}

HipError hipHostUnregister(void *ptr)
{
    BEGIN(hipHostUnregister, "%s", ptr ? "host" : "0")
    r = fake_unregister(ptr);
    END
}

/* ---- modules and launches ---- */

HipError hipModuleLoadData(HipModule *module, const void *image)
{
    BEGIN(hipModuleLoadData, "%s", fake_image_kind(image))
    void *m = NULL;
    if (!(r = fake_module_load(&m, image, "elf bundle", out, sizeof out)))
        *module = m;
    END
}

HipError hipModuleGetFunction(HipFunction *function, HipModule module, const char *name)
{
    char m[32];
    fake_obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(hipModuleGetFunction, "%s, %s", m, name ? name : "0")
    void *f = NULL;
    if (!(r = fake_module_function(&f, module, name, out, sizeof out)))
        *function = f;
    END
}

HipError hipModuleUnload(HipModule module)
{
    char m[32];
    fake_obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(hipModuleUnload, "%s", m)
    if (!(r = fake_need_ctx()))
        r = fake_kill(module, K_MODULE);
    END
}

HipError hipModuleLaunchKernel(HipFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ,
                               unsigned int blockX, unsigned int blockY, unsigned int blockZ, unsigned int smem,
                               HipStream stream, void **params, void **extra)
{
    char fn[160], st[32], shown[400] = "";
    fake_obj_name(fn, sizeof fn, f, K_FUNCTION);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    fake_show_params(shown, sizeof shown, f, params);
    BEGIN(hipModuleLaunchKernel, "%s, %ux%ux%u, %ux%ux%u, %u, %s%s%s", fn, gridX, gridY, gridZ, blockX, blockY,
          blockZ, smem, st, shown, extra ? ", extra" : "")
    r = fake_launch(f, (const unsigned[3]){gridX, gridY, gridZ}, (const unsigned[3]){blockX, blockY, blockZ},
                    smem, stream);
    END
}
