/* driver.h — what a GPU driver backend (cuda.c, hip.c) gives driver.c, the layer they share.
 *
 * NVIDIA's Driver API and AMD's HIP have the same model (devices, in-order streams, events,
 * device and managed memory, host registration, modules, launches with a parameter array), so
 * everything above the calls themselves lives once, in driver.c: backend.h's table, the handle
 * table that catches misuse before the driver sees it, the memory table, the token door's
 * streams and events, leak reports, and turning every failed call into a located diagnostic
 * that names the function and the driver's own name for the error. A driver file only loads its
 * library and fills a BeDriverApi: one small function per operation, each making exactly one
 * driver call (device_activate excepted) and returning its result code, with the name of the
 * function it calls for diagnostics.
 *
 * Result codes are the driver's own (CUresult, hipError_t); 0 is success in both, and the few
 * codes driver.c looks at are given in the table. Handles are the driver's pointers as void *.
 * `drv` is the driver file's own state (its resolved functions), passed to every operation.
 */
#ifndef BACKENDS_DRIVER_H
#define BACKENDS_DRIVER_H

#include "backends/backend.h"

typedef unsigned BeDrvResult;

/* One operation: the function, and the driver function it calls (what diagnostics name). */
#define BE_DRV_OP(name, params)                                                                  \
    struct {                                                                                     \
        BeDrvResult(*fn) params;                                                                 \
        const char *call;                                                                        \
    } name

typedef struct BeDriverApi {
    const char *name;        /* the backend: "cuda" */
    const char *vendor;      /* in messages: "CUDA" ("no CUDA device found") */
    const char *noun;        /* what the library is: "driver" ("cannot start the CUDA driver") */
    const char *needs;       /* what a machine needs for it: "an NVIDIA driver" */
    const char *lib_hint;    /* how to name another library: "--cuda-lib=PATH or GPUINTERP_CUDA_LIB" */
    const char *result_type; /* "CUresult": a code the driver cannot name is given as this */
    const char *binaries;    /* what modules it loads, for the refusal of other kinds: "cubin, PTX" */
    const char *device_code; /* what it runs, for the refusal of interpreter kernels: "a gpu.binary,
                                or a gpu.module compiled to PTX" */
    uint32_t refused_blobs;  /* 1 << BeBlobKind for each kind refused before the driver sees it */
    BeDrvResult not_ready, out_of_memory, invalid_handle;
    BeDrvResult no_device; /* device_count's answer for none, when it is not a count of 0 (HIP) */
    /* The codes of a kernel that failed (an illegal address, an assertion, a trap, ...; 0 ends
     * the list): the device's error is sticky, so any call that returns one of them, a launch or
     * the synchronization a real driver reports it at, fails the launch (be_failure). */
    BeDrvResult kernel_faults[12];

    /* The driver file's state (its functions): its size, and filling it from lib (false after a
     * message in err). */
    size_t drv_size;
    bool (*resolve)(void *drv, void *lib, const char *path, char *err, size_t errlen);

    /* The driver's name for r, or NULL when it has none. */
    const char *(*error_name)(void *drv, BeDrvResult r);
    BE_DRV_OP(init, (void *drv));
    BE_DRV_OP(device_count, (void *drv, int *count));
    BE_DRV_OP(device_get, (void *drv, int *device, int ordinal));
    BE_DRV_OP(device_name, (void *drv, char *name, int len, int device));
    BE_DRV_OP(device_uva, (void *drv, int *value, int device)); /* unified addressing attribute */
    /* The device's architecture as the driver names it ("gfx90a:sramecc+:xnack-"), NUL-terminated
     * in arch; fn may be NULL (the driver has no such name to give: cuda). */
    BE_DRV_OP(device_arch, (void *drv, char *arch, size_t cap, int device));
    /* Makes device (ordinal) current for the calls that follow; held: it was current before.
     * On failure *call names the function that failed. */
    BeDrvResult (*device_activate)(void *drv, int device, int ordinal, bool held, const char **call);
    BE_DRV_OP(device_release, (void *drv, int device)); /* at close, per device used; fn may be NULL */
    BE_DRV_OP(sync, (void *drv));                       /* the current device */
    BE_DRV_OP(stream_create, (void *drv, void **stream));
    BE_DRV_OP(stream_destroy, (void *drv, void *stream));
    BE_DRV_OP(stream_sync, (void *drv, void *stream));
    BE_DRV_OP(stream_wait_event, (void *drv, void *stream, void *event));
    BE_DRV_OP(event_create, (void *drv, void **event));
    BE_DRV_OP(event_destroy, (void *drv, void *event));
    BE_DRV_OP(event_record, (void *drv, void *event, void *stream));
    BE_DRV_OP(event_sync, (void *drv, void *event));
    BE_DRV_OP(event_query, (void *drv, void *event));
    BE_DRV_OP(mem_alloc, (void *drv, void **ptr, size_t bytes));
    BE_DRV_OP(mem_alloc_managed, (void *drv, void **ptr, size_t bytes));
    BE_DRV_OP(mem_free, (void *drv, void *ptr));
    BE_DRV_OP(memcpy, (void *drv, void *dst, const void *src, size_t bytes, void *stream));
    BE_DRV_OP(memset8, (void *drv, void *dst, uint8_t value, size_t count, void *stream));
    BE_DRV_OP(memset16, (void *drv, void *dst, uint16_t value, size_t count, void *stream));
    BE_DRV_OP(memset32, (void *drv, void *dst, uint32_t value, size_t count, void *stream));
    BE_DRV_OP(host_register, (void *drv, void *ptr, size_t bytes));
    BE_DRV_OP(host_unregister, (void *drv, void *ptr));
    BE_DRV_OP(module_load, (void *drv, void **module, const void *image));
    BE_DRV_OP(module_function, (void *drv, void **function, void *module, const char *name));
    BE_DRV_OP(module_unload, (void *drv, void *module));
    BE_DRV_OP(launch, (void *drv, void *function, const BeLaunch *launch, void *stream));
    /* Milliseconds between two completed events: what times ops in traces. fn may be NULL (ops
     * are not timed); times_events, when set, says whether this driver has it (an optional
     * function of the library). */
    BE_DRV_OP(event_elapsed, (void *drv, float *ms, void *start, void *end));
    bool (*times_events)(void *drv);
    /* An event that event_elapsed can time, where event_create's cannot (HIP's token events are
     * made without timing); fn NULL: event_create's. */
    BE_DRV_OP(event_create_timed, (void *drv, void **event));
} BeDriverApi;

/* What kernels print on the device (devout.c): in a plain run it goes to stdout where the driver
 * writes it, stdout flushed around each driver call so that host and device output keep their
 * order; with BeOptions.device_out, fd 1 is a temporary file while the device is open, and what
 * the driver wrote there is handed on after each call. */
typedef struct BeDevOut {
    void (*fn)(void *user, const char *loc, const char *text, size_t len);
    void *user;
    int fd;    /* the file fd 1 points at; -1: nothing is captured */
    int saved; /* what fd 1 was */
    long long done; /* bytes of fd handed on */
} BeDevOut;
/* Starts capturing when opt asks for it; false (err says why) when fd 1 cannot be moved. */
bool be_devout_open(BeDevOut *o, const BeOptions *opt, char *err, size_t errlen);
void be_devout_before(const BeDevOut *o);           /* before a driver call */
void be_devout_drain(BeDevOut *o, const char *loc); /* after it: loc is the call's */
void be_devout_close(BeDevOut *o, const char *loc); /* drains, restores fd 1 */

/* dlsym(lib, name), or NULL with err saying the library at path is no such driver: for resolve. */
void *be_driver_sym(const BeDriverApi *api, void *lib, const char *path, const char *name, char *err,
                    size_t errlen);
/* The library to load when the user names one: the option, else $env; NULL when neither does. */
const char *be_driver_path(const BeOptions *opt, const char *env);

/* be_open of a driver backend: loads the first of paths (NULL-terminated) that dlopen takes,
 * resolves its functions into a zeroed drv of api->drv_size bytes (api->resolve), runs init,
 * opens device 0. On failure err holds one message, and nothing is left loaded. */
BeStatus be_driver_open(const BeDriverApi *api, const char *const *paths, const BeOptions *opt, const BeOps **ops,
                        void **self, char *err, size_t errlen);

#endif
