/* fakehip.c — a fake HIP runtime library for the tests of the hip backend (backends/hip.c).
 *
 * Built as $b/tests/fakes/libfakehip.so; gpuinterp loads it with --hip-lib=PATH (or
 * GPUINTERP_HIP_LIB). It exports the functions of backends/hip_api.h under the names
 * libamdhip64.so exports, with the same prototypes, on the device model fakecuda.c uses too
 * (fakedrv.c): devices on host memory, streams and events that complete at once, launches that
 * run nothing (nothing here runs AMD code). It checks what HIP checks (handles of the right kind
 * and alive, hipInit first, copies inside the allocations it handed out, frees of what it
 * allocated; a module's image is an AMD code object whose kernel descriptors name the functions
 * it has) and returns HIP's error codes for what is wrong. As in HIP, device 0 is current until
 * hipSetDevice picks another, and hipFree(NULL) does nothing.
 *
 * Environment, as fakecuda's:
 *   FAKEHIP_LOG=PATH          append one line per call: `name(args) -> RESULT [outputs]`, handles
 *                             and memory named by what the fake handed out (s1, e2, d1+16, m1,
 *                             mod1, kernels by name; other host pointers `host`). A module
 *                             load names its chip and kernel descriptors (`elf gfx90a fill.kd`),
 *                             a launch its arguments as the code object's metadata lists them
 *                             (`[params unknown]` for an image that does not say).
 *   FAKEHIP_FAIL=NAME:N[:CODE][,...]  the Nth call of NAME returns CODE (a number or a hipError*
 *                             name; default hipErrorOutOfMemory for allocations, hipErrorNoDevice
 *                             for hipInit, else hipErrorUnknown) and does nothing else.
 *   FAKEHIP_CORRUPT=NAME:N[,...]  the Nth call of NAME (a copy or memset) succeeds but flips
 *                             the first byte it wrote; its log line says "(corrupted)".
 *   FAKEHIP_DEVICES=N         devices hipGetDeviceCount reports (default 1).
 *   FAKEHIP_UVA=0             the devices have no unified addressing.
 *   FAKEHIP_ARCH=NAME         the gcnArchName hipGetDeviceProperties gives (default
 *                             gfx90a:sramecc+:xnack-, an MI200).
 * Event timing (hipEventElapsedTime) follows fakecuda's device clock; an event made with
 * hipEventDisableTiming cannot be timed (hipErrorInvalidHandle), as in HIP.
 */
#include "backends/hip_api.h"
#include "tests/fakes/fakedrv.h"

#include <stdlib.h>
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

HipError hipInit(unsigned int flags)
{
    return fake_init("hipInit", flags, true);
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

/* HIP says hipErrorNoDevice where there is none. */
HipError hipGetDeviceCount(int *count)
{
    return fake_device_count("hipGetDeviceCount", count, true);
}

HipError hipDeviceGet(HipDevice *device, int ordinal)
{
    return fake_device_get("hipDeviceGet", device, ordinal);
}

HipError hipDeviceGetName(char *name, int len, HipDevice device)
{
    return fake_device_name("hipDeviceGetName", name, len, device, "HIP");
}

HipError hipDeviceGetAttribute(int *value, HipDeviceAttr attr, int device)
{
    return fake_device_attr("hipDeviceGetAttribute", value, attr, device, HIP_FLAG_ATTR_UVA);
}

/* Fills the name and gcnArchName of the layout the exported name has (backends/hip_api.h); the
 * rest stays zero. */
HipError hipGetDeviceProperties(void *prop, int device);
HipError hipGetDeviceProperties(void *prop, int device)
{
    const char *arch = getenv("FAKEHIP_ARCH");
    if (!arch || !*arch)
        arch = "gfx90a:sramecc+:xnack-";
    BEGIN("hipGetDeviceProperties", "%d", device)
    if ((r = fake_need_device(device))) {
    } else if (!prop) {
        r = E_VALUE;
    } else {
        snprintf(prop, 256, "Fake HIP Device %d", device);
        snprintf((char *)prop + HIP_PROP_ARCH_OFFSET, HIP_PROP_ARCH_BYTES, "%s", arch);
        snprintf(out, sizeof out, "%s", (char *)prop + HIP_PROP_ARCH_OFFSET);
    }
    END
}

HipError hipSetDevice(int device)
{
    BEGIN("hipSetDevice", "%d", device)
    if ((r = fake_need_device(device)))
        ;
    else if (device >= 8)
        r = E_DEVICE;
    else if (!(fake_current = fake_device_ctx(device)))
        r = E_OOM;
    END
}

HipError hipDeviceSynchronize(void)
{
    return fake_sync("hipDeviceSynchronize");
}

/* ---- streams and events ---- */

HipError hipStreamCreateWithFlags(HipStream *stream, unsigned int flags)
{
    return fake_stream_create("hipStreamCreateWithFlags", (void **)stream, flags);
}

HipError hipStreamDestroy(HipStream stream)
{
    return fake_destroy("hipStreamDestroy", stream, K_STREAM);
}

HipError hipStreamSynchronize(HipStream stream)
{
    return fake_wait("hipStreamSynchronize", stream, K_STREAM, true);
}

HipError hipStreamWaitEvent(HipStream stream, HipEvent event, unsigned int flags)
{
    return fake_stream_wait_event("hipStreamWaitEvent", stream, event, flags);
}

HipError hipEventCreateWithFlags(HipEvent *event, unsigned int flags)
{
    return fake_event_create("hipEventCreateWithFlags", (void **)event, flags);
}

HipError hipEventDestroy(HipEvent event)
{
    return fake_destroy("hipEventDestroy", event, K_EVENT);
}

HipError hipEventRecord(HipEvent event, HipStream stream)
{
    return fake_event_record("hipEventRecord", event, stream);
}

HipError hipEventElapsedTime(float *ms, HipEvent start, HipEvent stop)
{
    return fake_event_elapsed("hipEventElapsedTime", ms, start, stop);
}

HipError hipEventSynchronize(HipEvent event)
{
    return fake_wait("hipEventSynchronize", event, K_EVENT, true);
}

HipError hipEventQuery(HipEvent event)
{
    return fake_wait("hipEventQuery", event, K_EVENT, false);
}

/* ---- memory ---- */

HipError hipMalloc(void **ptr, size_t bytes)
{
    return fake_alloc("hipMalloc", ptr, bytes);
}

HipError hipMallocManaged(void **ptr, size_t bytes, unsigned int flags)
{
    return fake_alloc_managed("hipMallocManaged", ptr, bytes, flags);
}

HipError hipFree(void *ptr)
{
    return fake_free("hipFree", ptr, true);
}

HipError hipMemcpyAsync(void *dst, const void *src, size_t bytes, HipMemcpyKind kind, HipStream stream)
{
    return fake_memcpy("hipMemcpyAsync", dst, src, bytes, &kind, stream);
}

HipError hipMemsetD8Async(HipDevPtr dst, unsigned char value, size_t count, HipStream stream)
{
    return fake_memset("hipMemsetD8Async", dst, &value, 1, value, count, stream);
}

HipError hipMemsetD16Async(HipDevPtr dst, unsigned short value, size_t count, HipStream stream)
{
    return fake_memset("hipMemsetD16Async", dst, &value, 2, value, count, stream);
}

HipError hipMemsetD32Async(HipDevPtr dst, int value, size_t count, HipStream stream)
{
    return fake_memset("hipMemsetD32Async", dst, &value, 4, value, count, stream);
}

HipError hipHostRegister(void *ptr, size_t bytes, unsigned int flags)
{
    return fake_host_register("hipHostRegister", ptr, bytes, flags);
}

HipError hipHostUnregister(void *ptr)
{
    return fake_host_unregister("hipHostUnregister", ptr);
}

/* ---- modules and launches ---- */

HipError hipModuleLoadData(HipModule *module, const void *image)
{
    return fake_module_load("hipModuleLoadData", (void **)module, image, "elf bundle");
}

HipError hipModuleGetFunction(HipFunction *function, HipModule module, const char *name)
{
    return fake_module_function("hipModuleGetFunction", (void **)function, module, name);
}

HipError hipModuleUnload(HipModule module)
{
    return fake_destroy("hipModuleUnload", module, K_MODULE);
}

HipError hipModuleLaunchKernel(HipFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ,
                               unsigned int blockX, unsigned int blockY, unsigned int blockZ, unsigned int smem,
                               HipStream stream, void **params, void **extra)
{
    return fake_launch("hipModuleLaunchKernel", f, (const unsigned[3]){gridX, gridY, gridZ},
                       (const unsigned[3]){blockX, blockY, blockZ}, smem, stream, params, extra);
}
