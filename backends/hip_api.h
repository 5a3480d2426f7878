/* hip_api.h — the part of AMD's HIP runtime API the hip backend uses, declared without HIP's
 * headers.
 *
 * The build needs no ROCm: backends/hip.c loads libamdhip64.so with dlopen and resolves the
 * functions below by name. Each X(ret, name, params) line gives the return type, the symbol the
 * library exports (HIP exports its API names as they are) and the parameters; all but
 * hipGetErrorName return a hipError_t.
 *
 * The types are named Hip* so that they can sit beside hip_runtime_api.h's hip* in one
 * translation unit: backends/hip_check.c includes both and proves, where the header exists
 * (Debian's libamdhip64-dev), that each declaration here is the real prototype. Opaque handles
 * use the header's own struct tags, which makes them the same types; hipError_t and
 * hipDeviceAttribute_t are enums whose values are all non-negative, which gcc and clang give the
 * type unsigned int.
 *
 * tests/fakes/fakehip.c implements the same table on host memory.
 */
#ifndef BACKENDS_HIP_API_H
#define BACKENDS_HIP_API_H

#include <stddef.h>

typedef unsigned int HipError;
typedef int HipDevice;
typedef void *HipDevPtr;
typedef unsigned int HipDeviceAttr;
typedef unsigned int HipMemcpyKind;
typedef struct ihipStream_t *HipStream;
typedef struct ihipEvent_t *HipEvent;
typedef struct ihipModule_t *HipModule;
typedef struct ihipModuleSymbol_t *HipFunction;

/* The hipError_t values the backend looks at itself; every other one is only named, through
 * hipGetErrorName. HIP keeps CUDA's numbers. */
enum {
    HIP_RES_OK = 0,
    HIP_RES_INVALID_VALUE = 1,
    HIP_RES_OUT_OF_MEMORY = 2,
    HIP_RES_NOT_INITIALIZED = 3,
    HIP_RES_NO_DEVICE = 100,
    HIP_RES_INVALID_HANDLE = 400,
    HIP_RES_NOT_READY = 600,
    /* a kernel failed: the device's error is sticky (driver.h: BeDriverApi.kernel_faults) */
    HIP_RES_ILLEGAL_ADDRESS = 700,
    HIP_RES_LAUNCH_TIMEOUT = 702,
    HIP_RES_ASSERT = 710,
    HIP_RES_LAUNCH_FAILURE = 719,
    HIP_RES_UNKNOWN = 999,
};

enum {
    HIP_FLAG_ATTR_UVA = 85, /* hipDeviceAttributeUnifiedAddressing */
    HIP_FLAG_STREAM_NON_BLOCKING = 0x1, /* hipStreamNonBlocking */
    HIP_FLAG_EVENT_DEFAULT = 0x0,        /* hipEventDefault: the events that time ops in traces */
    HIP_FLAG_EVENT_DISABLE_TIMING = 0x2, /* hipEventDisableTiming, as MLIR's ROCm wrappers pass */
    HIP_FLAG_MEM_ATTACH_GLOBAL = 0x1,  /* hipMemAttachGlobal */
    HIP_FLAG_MEMCPY_DEFAULT = 4,           /* hipMemcpyDefault: the direction from the addresses */
};

#define HIP_FUNCTIONS(X)                                                                         \
    X(HipError, hipInit, (unsigned int flags))                                                   \
    X(const char *, hipGetErrorName, (HipError error))                                           \
    X(HipError, hipGetDeviceCount, (int *count))                                                 \
    X(HipError, hipDeviceGet, (HipDevice *device, int ordinal))                                  \
    X(HipError, hipDeviceGetName, (char *name, int len, HipDevice device))                       \
    X(HipError, hipDeviceGetAttribute, (int *value, HipDeviceAttr attr, int device))             \
    X(HipError, hipSetDevice, (int device))                                                      \
    X(HipError, hipDeviceSynchronize, (void))                                                    \
    X(HipError, hipStreamCreateWithFlags, (HipStream *stream, unsigned int flags))               \
    X(HipError, hipStreamDestroy, (HipStream stream))                                            \
    X(HipError, hipStreamSynchronize, (HipStream stream))                                        \
    X(HipError, hipStreamWaitEvent, (HipStream stream, HipEvent event, unsigned int flags))      \
    X(HipError, hipEventCreateWithFlags, (HipEvent *event, unsigned int flags))                  \
    X(HipError, hipEventDestroy, (HipEvent event))                                               \
    X(HipError, hipEventRecord, (HipEvent event, HipStream stream))                              \
    X(HipError, hipEventSynchronize, (HipEvent event))                                           \
    X(HipError, hipEventQuery, (HipEvent event))                                                 \
    X(HipError, hipEventElapsedTime, (float *ms, HipEvent start, HipEvent stop))                 \
    X(HipError, hipMalloc, (void **ptr, size_t bytes))                                           \
    X(HipError, hipMallocManaged, (void **ptr, size_t bytes, unsigned int flags))                \
    X(HipError, hipFree, (void *ptr))                                                            \
    X(HipError, hipMemcpyAsync, (void *dst, const void *src, size_t bytes, HipMemcpyKind kind,   \
                                 HipStream stream))                                              \
    X(HipError, hipMemsetD8Async, (HipDevPtr dst, unsigned char value, size_t count, HipStream stream))  \
    X(HipError, hipMemsetD16Async, (HipDevPtr dst, unsigned short value, size_t count, HipStream stream)) \
    X(HipError, hipMemsetD32Async, (HipDevPtr dst, int value, size_t count, HipStream stream))   \
    X(HipError, hipHostRegister, (void *ptr, size_t bytes, unsigned int flags))                  \
    X(HipError, hipHostUnregister, (void *ptr))                                                  \
    X(HipError, hipModuleLoadData, (HipModule *module, const void *image))                       \
    X(HipError, hipModuleGetFunction, (HipFunction *function, HipModule module, const char *name)) \
    X(HipError, hipModuleUnload, (HipModule module))                                             \
    X(HipError, hipModuleLaunchKernel, (HipFunction f, unsigned int gridX, unsigned int gridY,   \
                                        unsigned int gridZ, unsigned int blockX, unsigned int blockY, \
                                        unsigned int blockZ, unsigned int smem, HipStream stream, \
                                        void **params, void **extra))

/* hipGetDeviceProperties, apart from the table because its argument is a struct the project does
 * not declare: the exported name fills the layout HIP had before ROCm 6 (hipDeviceProp_t of ROCm
 * 5, hipDeviceProp_tR0000 of ROCm 6, whose own headers map the name to hipGetDevicePropertiesR0600),
 * of which the backend reads only gcnArchName, HIP_PROP_ARCH_BYTES bytes at HIP_PROP_ARCH_OFFSET,
 * into a buffer of HIP_PROP_BYTES, larger than any version of the struct. hip_check.c proves the
 * offset and the bound against the header. */
enum { HIP_PROP_BYTES = 4096, HIP_PROP_ARCH_OFFSET = 396, HIP_PROP_ARCH_BYTES = 256 };
typedef HipError (*hip_hipGetDeviceProperties_fn)(void *prop, int device);

/* One function-pointer type per entry: hip_hipMalloc_fn, ... */
#define HIP_FN_TYPE(ret, name, params) typedef ret (*hip_##name##_fn) params;
HIP_FUNCTIONS(HIP_FN_TYPE)
#undef HIP_FN_TYPE

#endif
