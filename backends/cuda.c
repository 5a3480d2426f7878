/* cuda.c — the "cuda" backend: NVIDIA's Driver API, loaded at run time, under driver.c.
 *
 * The driver library (libcuda.so.1; BeOptions.driver_lib or GPUINTERP_CUDA_LIB name another, such
 * as the test suite's fake) is opened with dlopen when the backend opens, and the functions of
 * backends/cuda_api.h are resolved by their exported names, so the build needs neither a GPU nor
 * the toolkit. No library or a missing function: be_open fails with one message. What the
 * backend does with them (handles, memory checks, tokens, diagnostics) is driver.c's; this file
 * says which driver call each operation is:
 *
 *   stream_create  cuStreamCreate(CU_STREAM_NON_BLOCKING)    event_create  cuEventCreate(DEFAULT)
 *   mem_alloc      cuMemAlloc, or cuMemAllocManaged(ATTACH_GLOBAL) for host-shared memory
 *   memcpy         cuMemcpyAsync (unified addressing)        memset        cuMemsetD8/D16/D32Async
 *   host_register  cuMemHostRegister(0)                       launch        cuLaunchKernel
 *   event_elapsed  cuEventElapsedTime_v2, else cuEventElapsedTime (optional: traces only)
 *   device         device `ordinal`'s primary context, retained once and made current
 *
 * Errors are named by cuGetErrorName.
 */
#include "backends/cuda_api.h"
#include "backends/driver.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Fns {
#define FIELD(name, params) cu_##name##_fn name;
    CUDA_FUNCTIONS(FIELD)
#undef FIELD
    cu_event_elapsed_fn elapsed; /* optional: NULL where the driver has neither name */
} Fns;

#define F(drv) ((const Fns *)(drv))
#define DP(p) ((CuDevPtr)(uintptr_t)(p))

static const char *error_name(void *drv, BeDrvResult r)
{
    const char *name = NULL;
    return F(drv)->cuGetErrorName(r, &name) == CU_OK ? name : NULL;
}

static BeDrvResult init(void *drv)
{
    return F(drv)->cuInit(0);
}

static BeDrvResult device_count(void *drv, int *count)
{
    return F(drv)->cuDeviceGetCount(count);
}

static BeDrvResult device_get(void *drv, int *device, int ordinal)
{
    return F(drv)->cuDeviceGet(device, ordinal);
}

static BeDrvResult device_name(void *drv, char *name, int len, int device)
{
    return F(drv)->cuDeviceGetName(name, len, device);
}

static BeDrvResult device_uva(void *drv, int *value, int device)
{
    return F(drv)->cuDeviceGetAttribute(value, CU_ATTR_UNIFIED_ADDRESSING, device);
}

/* The primary context, retained once per device (a second retain is given back at once, as is a
 * first one that cannot be made current: driver.c holds only the devices this made current). */
static BeDrvResult device_activate(void *drv, int device, int ordinal, bool held, const char **call)
{
    CuContext ctx;
    CuResult r;
    if ((r = F(drv)->cuDevicePrimaryCtxRetain(&ctx, device)) != CU_OK) {
        *call = "cuDevicePrimaryCtxRetain";
        return r;
    }
    if (held && (r = F(drv)->cuDevicePrimaryCtxRelease_v2(device)) != CU_OK) {
        *call = "cuDevicePrimaryCtxRelease_v2";
        return r;
    }
    *call = "cuCtxSetCurrent";
    if ((r = F(drv)->cuCtxSetCurrent(ctx)) != CU_OK && !held)
        F(drv)->cuDevicePrimaryCtxRelease_v2(device);
    return r;
}

static BeDrvResult device_release(void *drv, int device)
{
    return F(drv)->cuDevicePrimaryCtxRelease_v2(device);
}

static BeDrvResult sync(void *drv)
{
    return F(drv)->cuCtxSynchronize();
}

static BeDrvResult stream_create(void *drv, void **stream)
{
    return F(drv)->cuStreamCreate((CuStream *)stream, CU_STREAM_NON_BLOCKING_FLAG);
}

static BeDrvResult stream_destroy(void *drv, void *stream)
{
    return F(drv)->cuStreamDestroy_v2(stream);
}

static BeDrvResult stream_sync(void *drv, void *stream)
{
    return F(drv)->cuStreamSynchronize(stream);
}

static BeDrvResult stream_wait_event(void *drv, void *stream, void *event)
{
    return F(drv)->cuStreamWaitEvent(stream, event, 0);
}

static BeDrvResult event_create(void *drv, void **event)
{
    return F(drv)->cuEventCreate((CuEvent *)event, CU_EVENT_DEFAULT_FLAG);
}

static BeDrvResult event_destroy(void *drv, void *event)
{
    return F(drv)->cuEventDestroy_v2(event);
}

static BeDrvResult event_record(void *drv, void *event, void *stream)
{
    return F(drv)->cuEventRecord(event, stream);
}

static BeDrvResult event_sync(void *drv, void *event)
{
    return F(drv)->cuEventSynchronize(event);
}

static BeDrvResult event_query(void *drv, void *event)
{
    return F(drv)->cuEventQuery(event);
}

static BeDrvResult mem_alloc(void *drv, void **ptr, size_t bytes)
{
    CuDevPtr p = 0;
    CuResult r = F(drv)->cuMemAlloc_v2(&p, bytes);
    *ptr = (void *)(uintptr_t)p;
    return r;
}

static BeDrvResult mem_alloc_managed(void *drv, void **ptr, size_t bytes)
{
    CuDevPtr p = 0;
    CuResult r = F(drv)->cuMemAllocManaged(&p, bytes, CU_MEM_ATTACH_GLOBAL_FLAG);
    *ptr = (void *)(uintptr_t)p;
    return r;
}

static BeDrvResult mem_free(void *drv, void *ptr)
{
    return F(drv)->cuMemFree_v2(DP(ptr));
}

static BeDrvResult copy(void *drv, void *dst, const void *src, size_t bytes, void *stream)
{
    return F(drv)->cuMemcpyAsync(DP(dst), DP(src), bytes, stream);
}

static BeDrvResult memset8(void *drv, void *dst, uint8_t value, size_t count, void *stream)
{
    return F(drv)->cuMemsetD8Async(DP(dst), value, count, stream);
}

static BeDrvResult memset16(void *drv, void *dst, uint16_t value, size_t count, void *stream)
{
    return F(drv)->cuMemsetD16Async(DP(dst), value, count, stream);
}

static BeDrvResult memset32(void *drv, void *dst, uint32_t value, size_t count, void *stream)
{
    return F(drv)->cuMemsetD32Async(DP(dst), value, count, stream);
}

static BeDrvResult host_register(void *drv, void *ptr, size_t bytes)
{
    return F(drv)->cuMemHostRegister_v2(ptr, bytes, 0);
}

static BeDrvResult host_unregister(void *drv, void *ptr)
{
    return F(drv)->cuMemHostUnregister(ptr);
}

static BeDrvResult module_load(void *drv, void **module, const void *image)
{
    return F(drv)->cuModuleLoadData((CuModule *)module, image);
}

static BeDrvResult module_function(void *drv, void **function, void *module, const char *name)
{
    return F(drv)->cuModuleGetFunction((CuFunction *)function, module, name);
}

static BeDrvResult module_unload(void *drv, void *module)
{
    return F(drv)->cuModuleUnload(module);
}

static BeDrvResult launch(void *drv, void *function, const BeLaunch *l, void *stream)
{
    return F(drv)->cuLaunchKernel(function, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                                  l->block[2], l->smem, stream, l->params, NULL);
}

static BeDrvResult event_elapsed(void *drv, float *ms, void *start, void *end)
{
    return F(drv)->elapsed(ms, start, end);
}

static bool times_events(void *drv)
{
    return F(drv)->elapsed != NULL;
}

static bool resolve(void *drv, void *lib, const char *path, char *err, size_t errlen);

#define OP(name, call) .name = {name, #call}
static const BeDriverApi api = {
    .name = "cuda",
    .vendor = "CUDA",
    .noun = "driver",
    .needs = "an NVIDIA driver",
    .lib_hint = "--cuda-lib=PATH or GPUINTERP_CUDA_LIB",
    .result_type = "CUresult",
    .binaries = "cubin, PTX",
    .device_code = "a gpu.binary, or a gpu.module compiled to PTX",
    .not_ready = CU_ERROR_NOT_READY,
    .out_of_memory = CU_ERROR_OUT_OF_MEMORY,
    .invalid_handle = CU_ERROR_INVALID_HANDLE,
    .no_device = CU_ERROR_NO_DEVICE,
    .kernel_faults = {CU_ERROR_ILLEGAL_ADDRESS, CU_ERROR_LAUNCH_TIMEOUT, CU_ERROR_ASSERT, CU_ERROR_HARDWARE_STACK_ERROR,
                      CU_ERROR_ILLEGAL_INSTRUCTION, CU_ERROR_MISALIGNED_ADDRESS, CU_ERROR_INVALID_ADDRESS_SPACE,
                      CU_ERROR_INVALID_PC, CU_ERROR_LAUNCH_FAILED},
    .drv_size = sizeof(Fns),
    .resolve = resolve,
    .error_name = error_name,
    OP(init, cuInit),
    OP(device_count, cuDeviceGetCount),
    OP(device_get, cuDeviceGet),
    OP(device_name, cuDeviceGetName),
    OP(device_uva, cuDeviceGetAttribute),
    .device_activate = device_activate,
    OP(device_release, cuDevicePrimaryCtxRelease_v2),
    OP(sync, cuCtxSynchronize),
    OP(stream_create, cuStreamCreate),
    OP(stream_destroy, cuStreamDestroy_v2),
    OP(stream_sync, cuStreamSynchronize),
    OP(stream_wait_event, cuStreamWaitEvent),
    OP(event_create, cuEventCreate),
    OP(event_destroy, cuEventDestroy_v2),
    OP(event_record, cuEventRecord),
    OP(event_sync, cuEventSynchronize),
    OP(event_query, cuEventQuery),
    OP(mem_alloc, cuMemAlloc_v2),
    OP(mem_alloc_managed, cuMemAllocManaged),
    OP(mem_free, cuMemFree_v2),
    .memcpy = {copy, "cuMemcpyAsync"},
    OP(memset8, cuMemsetD8Async),
    OP(memset16, cuMemsetD16Async),
    OP(memset32, cuMemsetD32Async),
    OP(host_register, cuMemHostRegister_v2),
    OP(host_unregister, cuMemHostUnregister),
    OP(module_load, cuModuleLoadData),
    OP(module_function, cuModuleGetFunction),
    OP(module_unload, cuModuleUnload),
    OP(launch, cuLaunchKernel),
    OP(event_elapsed, cuEventElapsedTime_v2),
    .times_events = times_events,
};
#undef OP

static bool resolve(void *drv, void *lib, const char *path, char *err, size_t errlen)
{
    Fns *f = drv;
#define RESOLVE(name, params)                                                                    \
    if (!(f->name = (cu_##name##_fn)be_driver_sym(&api, lib, path, #name, err, errlen)))         \
        return false;
    CUDA_FUNCTIONS(RESOLVE)
#undef RESOLVE
    f->elapsed = (cu_event_elapsed_fn)dlsym(lib, "cuEventElapsedTime_v2");
    if (!f->elapsed)
        f->elapsed = (cu_event_elapsed_fn)dlsym(lib, "cuEventElapsedTime");
    return true;
}

BeStatus be_cuda_create(const BeOptions *opt, const BeOps **ops, void **self, char *err, size_t errlen)
{
    const char *named = be_driver_path(opt, "GPUINTERP_CUDA_LIB");
    const char *const paths[] = {named ? named : "libcuda.so.1", NULL};
    return be_driver_open(&api, paths, opt, ops, self, err, errlen);
}
