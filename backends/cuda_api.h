/* cuda_api.h — the part of the CUDA Driver API the cuda backend uses, declared without cuda.h.
 *
 * The build needs no CUDA toolkit: backends/cuda.c loads libcuda.so.1 with dlopen and resolves
 * the functions below by name. Each X(name, params) line gives the symbol the driver library
 * exports and its parameters; every function returns a CUresult. The names are the ones cuda.h
 * maps its API names to (cuMemAlloc -> cuMemAlloc_v2, cuStreamDestroy -> cuStreamDestroy_v2, ...):
 * a plain dlsym("cuMemAlloc") would find the legacy 32-bit ABI.
 *
 * The types below are named Cu* so that they can sit beside cuda.h's CU* in one translation unit:
 * backends/cuda_check.c includes both and proves, where cuda.h exists, that each declaration here
 * is the real prototype. Opaque handles use cuda.h's own struct tags, which makes them the same
 * types; CUresult and CUdevice_attribute are enums whose values are all non-negative, which gcc
 * and clang give the type unsigned int.
 *
 * tests/fakes/fakecuda.c implements the same table on host memory.
 */
#ifndef BACKENDS_CUDA_API_H
#define BACKENDS_CUDA_API_H

#include <stddef.h>

typedef unsigned int CuResult;
typedef int CuDevice;
typedef unsigned long long CuDevPtr;
typedef unsigned int CuDeviceAttr;
typedef struct CUctx_st *CuContext;
typedef struct CUstream_st *CuStream;
typedef struct CUevent_st *CuEvent;
typedef struct CUmod_st *CuModule;
typedef struct CUfunc_st *CuFunction;

/* The CUresult values the backend looks at itself; every other one is only named, through
 * cuGetErrorName. */
enum {
    CU_OK = 0,
    CU_ERROR_INVALID_VALUE = 1,
    CU_ERROR_OUT_OF_MEMORY = 2,
    CU_ERROR_NOT_INITIALIZED = 3,
    CU_ERROR_NO_DEVICE = 100,
    CU_ERROR_INVALID_HANDLE = 400,
    CU_ERROR_NOT_READY = 600,
    /* a kernel failed: the context's error is sticky (driver.h: BeDriverApi.kernel_faults) */
    CU_ERROR_ILLEGAL_ADDRESS = 700,
    CU_ERROR_LAUNCH_TIMEOUT = 702,
    CU_ERROR_ASSERT = 710,
    CU_ERROR_HARDWARE_STACK_ERROR = 714,
    CU_ERROR_ILLEGAL_INSTRUCTION = 715,
    CU_ERROR_MISALIGNED_ADDRESS = 716,
    CU_ERROR_INVALID_ADDRESS_SPACE = 717,
    CU_ERROR_INVALID_PC = 718,
    CU_ERROR_LAUNCH_FAILED = 719,
};

enum {
    CU_ATTR_UNIFIED_ADDRESSING = 41,   /* CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING */
    CU_STREAM_NON_BLOCKING_FLAG = 0x1, /* CU_STREAM_NON_BLOCKING, as mgpuStreamCreate passes */
    CU_EVENT_DEFAULT_FLAG = 0x0,       /* CU_EVENT_DEFAULT, as mgpuEventCreate passes */
    CU_MEM_ATTACH_GLOBAL_FLAG = 0x1,   /* CU_MEM_ATTACH_GLOBAL, as mgpuMemAlloc passes */
};

#define CUDA_FUNCTIONS(X)                                                                        \
    X(cuInit, (unsigned int flags))                                                              \
    X(cuGetErrorName, (CuResult error, const char **name))                                       \
    X(cuDeviceGetCount, (int *count))                                                            \
    X(cuDeviceGet, (CuDevice *device, int ordinal))                                              \
    X(cuDeviceGetName, (char *name, int len, CuDevice device))                                   \
    X(cuDeviceGetAttribute, (int *value, CuDeviceAttr attrib, CuDevice device))                  \
    X(cuDevicePrimaryCtxRetain, (CuContext *ctx, CuDevice device))                               \
    X(cuDevicePrimaryCtxRelease_v2, (CuDevice device))                                           \
    X(cuCtxSetCurrent, (CuContext ctx))                                                          \
    X(cuCtxSynchronize, (void))                                                                  \
    X(cuStreamCreate, (CuStream *stream, unsigned int flags))                                    \
    X(cuStreamDestroy_v2, (CuStream stream))                                                     \
    X(cuStreamSynchronize, (CuStream stream))                                                    \
    X(cuStreamWaitEvent, (CuStream stream, CuEvent event, unsigned int flags))                   \
    X(cuEventCreate, (CuEvent *event, unsigned int flags))                                       \
    X(cuEventDestroy_v2, (CuEvent event))                                                        \
    X(cuEventRecord, (CuEvent event, CuStream stream))                                           \
    X(cuEventSynchronize, (CuEvent event))                                                       \
    X(cuEventQuery, (CuEvent event))                                                             \
    X(cuMemAlloc_v2, (CuDevPtr *ptr, size_t bytes))                                              \
    X(cuMemAllocManaged, (CuDevPtr *ptr, size_t bytes, unsigned int flags))                      \
    X(cuMemFree_v2, (CuDevPtr ptr))                                                              \
    X(cuMemcpyAsync, (CuDevPtr dst, CuDevPtr src, size_t bytes, CuStream stream))                \
    X(cuMemsetD8Async, (CuDevPtr dst, unsigned char value, size_t count, CuStream stream))       \
    X(cuMemsetD16Async, (CuDevPtr dst, unsigned short value, size_t count, CuStream stream))     \
    X(cuMemsetD32Async, (CuDevPtr dst, unsigned int value, size_t count, CuStream stream))       \
    X(cuMemHostRegister_v2, (void *ptr, size_t bytes, unsigned int flags))                       \
    X(cuMemHostUnregister, (void *ptr))                                                          \
    X(cuModuleLoadData, (CuModule *module, const void *image))                                   \
    X(cuModuleGetFunction, (CuFunction *function, CuModule module, const char *name))            \
    X(cuModuleUnload, (CuModule module))                                                         \
    X(cuLaunchKernel, (CuFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ, \
                       unsigned int blockX, unsigned int blockY, unsigned int blockZ,            \
                       unsigned int smem, CuStream stream, void **params, void **extra))

/* Optional: what the backend uses when it records a trace (event-timed ops), looked up as
 * cuEventElapsedTime_v2 (cuda.h 12.8 and later map the name to it), else cuEventElapsedTime; a
 * driver without either runs untimed. Milliseconds between two completed events. */
typedef CuResult (*cu_event_elapsed_fn)(float *ms, CuEvent start, CuEvent end);

/* One function-pointer type per entry: cu_cuMemAlloc_v2_fn, ... */
#define CUDA_FN_TYPE(name, params) typedef CuResult (*cu_##name##_fn) params;
CUDA_FUNCTIONS(CUDA_FN_TYPE)
#undef CUDA_FN_TYPE

#endif
