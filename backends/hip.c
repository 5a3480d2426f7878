/* hip.c — the "hip" backend: AMD's HIP runtime, loaded at run time, under driver.c.
 *
 * The runtime library (libamdhip64.so, else libamdhip64.so.6 or .so.5, the names ROCm and Debian
 * install; BeOptions.driver_lib or GPUINTERP_HIP_LIB name another, such as the test suite's fake)
 * is opened with dlopen when the backend opens, and the functions of backends/hip_api.h are
 * resolved by name, so the build needs neither a GPU nor ROCm. No library or a missing function:
 * be_open fails with one message. What the backend does with them (handles, memory checks,
 * tokens, diagnostics) is driver.c's, as for cuda; this file says which HIP call each operation
 * is, following MLIR's ROCm runtime wrappers where they choose:
 *
 *   stream_create  hipStreamCreateWithFlags(hipStreamNonBlocking), as the cuda backend's streams
 *   event_create   hipEventCreateWithFlags(hipEventDisableTiming); the events that time ops in
 *                  traces hipEventCreateWithFlags(hipEventDefault), read by hipEventElapsedTime
 *   mem_alloc      hipMalloc, or hipMallocManaged(hipMemAttachGlobal) for host-shared memory
 *   memcpy         hipMemcpyAsync(hipMemcpyDefault)          memset  hipMemsetD8/D16/D32Async
 *   host_register  hipHostRegister(0)                         launch  hipModuleLaunchKernel
 *   device         hipSetDevice; the device's own synchronization is hipDeviceSynchronize
 *   device_arch    hipGetDeviceProperties' gcnArchName: the chip offload.c compiles gpu.modules for
 *
 * Modules are AMD code objects (HSACO) or offload bundles: PTX and NVIDIA binaries are refused by
 * name before HIP sees them. Errors are named by hipGetErrorName, which answers "hipErrorUnknown"
 * for a code it does not know: such a code is given by number instead.
 */
#include "backends/driver.h"
#include "backends/hip_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Fns {
#define FIELD(ret, name, params) hip_##name##_fn name;
    HIP_FUNCTIONS(FIELD)
#undef FIELD
    hip_hipGetDeviceProperties_fn hipGetDeviceProperties;
} Fns;

#define F(drv) ((const Fns *)(drv))

static const char *error_name(void *drv, BeDrvResult r)
{
    const char *name = F(drv)->hipGetErrorName(r);
    if (!name || (r != HIP_RES_UNKNOWN && strcmp(name, "hipErrorUnknown") == 0))
        return NULL;
    return name;
}

static BeDrvResult init(void *drv)
{
    return F(drv)->hipInit(0);
}

static BeDrvResult device_count(void *drv, int *count)
{
    return F(drv)->hipGetDeviceCount(count);
}

static BeDrvResult device_get(void *drv, int *device, int ordinal)
{
    return F(drv)->hipDeviceGet(device, ordinal);
}

static BeDrvResult device_name(void *drv, char *name, int len, int device)
{
    return F(drv)->hipDeviceGetName(name, len, device);
}

/* hipDeviceGetAttribute takes the ordinal, which hipDeviceGet gives back as the device. */
static BeDrvResult device_uva(void *drv, int *value, int device)
{
    return F(drv)->hipDeviceGetAttribute(value, HIP_FLAG_ATTR_UVA, device);
}

/* gcnArchName of the device's properties (hip_api.h says which layout). */
static BeDrvResult device_arch(void *drv, char *arch, size_t cap, int device)
{
    unsigned char *prop = calloc(1, HIP_PROP_BYTES);
    if (!prop)
        return HIP_RES_OUT_OF_MEMORY;
    BeDrvResult r = F(drv)->hipGetDeviceProperties(prop, device);
    if (r == 0)
        snprintf(arch, cap, "%.*s", (int)HIP_PROP_ARCH_BYTES, (const char *)prop + HIP_PROP_ARCH_OFFSET);
    free(prop);
    return r;
}

/* HIP has no contexts to hold: the device is made current for this thread. */
static BeDrvResult device_activate(void *drv, int device, int ordinal, bool held, const char **call)
{
    *call = "hipSetDevice";
    return F(drv)->hipSetDevice(ordinal);
}

static BeDrvResult sync(void *drv)
{
    return F(drv)->hipDeviceSynchronize();
}

static BeDrvResult stream_create(void *drv, void **stream)
{
    return F(drv)->hipStreamCreateWithFlags((HipStream *)stream, HIP_FLAG_STREAM_NON_BLOCKING);
}

static BeDrvResult stream_destroy(void *drv, void *stream)
{
    return F(drv)->hipStreamDestroy(stream);
}

static BeDrvResult stream_sync(void *drv, void *stream)
{
    return F(drv)->hipStreamSynchronize(stream);
}

static BeDrvResult stream_wait_event(void *drv, void *stream, void *event)
{
    return F(drv)->hipStreamWaitEvent(stream, event, 0);
}

static BeDrvResult event_create(void *drv, void **event)
{
    return F(drv)->hipEventCreateWithFlags((HipEvent *)event, HIP_FLAG_EVENT_DISABLE_TIMING);
}

static BeDrvResult event_create_timed(void *drv, void **event)
{
    return F(drv)->hipEventCreateWithFlags((HipEvent *)event, HIP_FLAG_EVENT_DEFAULT);
}

static BeDrvResult event_elapsed(void *drv, float *ms, void *start, void *end)
{
    return F(drv)->hipEventElapsedTime(ms, start, end);
}

static BeDrvResult event_destroy(void *drv, void *event)
{
    return F(drv)->hipEventDestroy(event);
}

static BeDrvResult event_record(void *drv, void *event, void *stream)
{
    return F(drv)->hipEventRecord(event, stream);
}

static BeDrvResult event_sync(void *drv, void *event)
{
    return F(drv)->hipEventSynchronize(event);
}

static BeDrvResult event_query(void *drv, void *event)
{
    return F(drv)->hipEventQuery(event);
}

static BeDrvResult mem_alloc(void *drv, void **ptr, size_t bytes)
{
    return F(drv)->hipMalloc(ptr, bytes);
}

static BeDrvResult mem_alloc_managed(void *drv, void **ptr, size_t bytes)
{
    return F(drv)->hipMallocManaged(ptr, bytes, HIP_FLAG_MEM_ATTACH_GLOBAL);
}

static BeDrvResult mem_free(void *drv, void *ptr)
{
    return F(drv)->hipFree(ptr);
}

static BeDrvResult copy(void *drv, void *dst, const void *src, size_t bytes, void *stream)
{
    return F(drv)->hipMemcpyAsync(dst, src, bytes, HIP_FLAG_MEMCPY_DEFAULT, stream);
}

static BeDrvResult memset8(void *drv, void *dst, uint8_t value, size_t count, void *stream)
{
    return F(drv)->hipMemsetD8Async(dst, value, count, stream);
}

static BeDrvResult memset16(void *drv, void *dst, uint16_t value, size_t count, void *stream)
{
    return F(drv)->hipMemsetD16Async(dst, value, count, stream);
}

/* HIP takes the 32-bit pattern as an int: the same bits. */
static BeDrvResult memset32(void *drv, void *dst, uint32_t value, size_t count, void *stream)
{
    int32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return F(drv)->hipMemsetD32Async(dst, bits, count, stream);
}

static BeDrvResult host_register(void *drv, void *ptr, size_t bytes)
{
    return F(drv)->hipHostRegister(ptr, bytes, 0);
}

static BeDrvResult host_unregister(void *drv, void *ptr)
{
    return F(drv)->hipHostUnregister(ptr);
}

static BeDrvResult module_load(void *drv, void **module, const void *image)
{
    return F(drv)->hipModuleLoadData((HipModule *)module, image);
}

static BeDrvResult module_function(void *drv, void **function, void *module, const char *name)
{
    return F(drv)->hipModuleGetFunction((HipFunction *)function, module, name);
}

static BeDrvResult module_unload(void *drv, void *module)
{
    return F(drv)->hipModuleUnload(module);
}

static BeDrvResult launch(void *drv, void *function, const BeLaunch *l, void *stream)
{
    return F(drv)->hipModuleLaunchKernel(function, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                                         l->block[2], l->smem, stream, l->params, NULL);
}

static bool resolve(void *drv, void *lib, const char *path, char *err, size_t errlen);

#define OP(name, call) .name = {name, #call}
static const BeDriverApi api = {
    .name = "hip",
    .vendor = "HIP",
    .noun = "runtime",
    .needs = "AMD's ROCm runtime",
    .lib_hint = "--hip-lib=PATH or GPUINTERP_HIP_LIB",
    .result_type = "hipError_t",
    .binaries = "AMD code objects",
    .device_code = "a gpu.binary of AMD code objects",
    .refused_blobs = 1u << BE_BLOB_PTX | 1u << BE_BLOB_CUBIN | 1u << BE_BLOB_FATBIN,
    .not_ready = HIP_RES_NOT_READY,
    .out_of_memory = HIP_RES_OUT_OF_MEMORY,
    .invalid_handle = HIP_RES_INVALID_HANDLE,
    .no_device = HIP_RES_NO_DEVICE,
    .kernel_faults = {HIP_RES_ILLEGAL_ADDRESS, HIP_RES_LAUNCH_TIMEOUT, HIP_RES_ASSERT, HIP_RES_LAUNCH_FAILURE},
    .drv_size = sizeof(Fns),
    .resolve = resolve,
    .error_name = error_name,
    OP(init, hipInit),
    OP(device_count, hipGetDeviceCount),
    OP(device_get, hipDeviceGet),
    OP(device_name, hipDeviceGetName),
    OP(device_uva, hipDeviceGetAttribute),
    OP(device_arch, hipGetDeviceProperties),
    .device_activate = device_activate,
    OP(sync, hipDeviceSynchronize),
    OP(stream_create, hipStreamCreateWithFlags),
    OP(stream_destroy, hipStreamDestroy),
    OP(stream_sync, hipStreamSynchronize),
    OP(stream_wait_event, hipStreamWaitEvent),
    OP(event_create, hipEventCreateWithFlags),
    OP(event_destroy, hipEventDestroy),
    OP(event_record, hipEventRecord),
    OP(event_sync, hipEventSynchronize),
    OP(event_query, hipEventQuery),
    OP(event_elapsed, hipEventElapsedTime),
    .event_create_timed = {event_create_timed, "hipEventCreateWithFlags"},
    OP(mem_alloc, hipMalloc),
    OP(mem_alloc_managed, hipMallocManaged),
    OP(mem_free, hipFree),
    .memcpy = {copy, "hipMemcpyAsync"},
    OP(memset8, hipMemsetD8Async),
    OP(memset16, hipMemsetD16Async),
    OP(memset32, hipMemsetD32Async),
    OP(host_register, hipHostRegister),
    OP(host_unregister, hipHostUnregister),
    OP(module_load, hipModuleLoadData),
    OP(module_function, hipModuleGetFunction),
    OP(module_unload, hipModuleUnload),
    OP(launch, hipModuleLaunchKernel),
};
#undef OP

static bool resolve(void *drv, void *lib, const char *path, char *err, size_t errlen)
{
    Fns *f = drv;
#define RESOLVE(ret, name, params)                                                                    \
    if (!(f->name = (hip_##name##_fn)be_driver_sym(&api, lib, path, #name, err, errlen)))         \
        return false;
    HIP_FUNCTIONS(RESOLVE)
    RESOLVE(HipError, hipGetDeviceProperties, ())
#undef RESOLVE
    return true;
}

BeStatus be_hip_create(const BeOptions *opt, const BeOps **ops, void **self, char *err, size_t errlen)
{
    /* A library the user names is the only one tried; else the development name, then the
     * runtime names of ROCm 6 and 5. */
    const char *named = be_driver_path(opt, "GPUINTERP_HIP_LIB");
    const char *const paths[] = {named ? named : "libamdhip64.so", named ? NULL : "libamdhip64.so.6",
                                 "libamdhip64.so.5", NULL};
    return be_driver_open(&api, paths, opt, ops, self, err, errlen);
}
