/* fakedrv.h — what the fake GPU drivers (fakecuda.c, fakehip.c) share: one fake device model.
 *
 * The CUDA Driver API and HIP keep the same error numbers and the same model, so one core serves
 * both fakes: objects (contexts or devices made current, streams, events, modules, functions)
 * named by what was handed out in order (s1, e2, mod1, kernels by name), device memory on host
 * memory (d1, m1 for host-shared, offsets as d1+16; other host pointers are `host`), the
 * checks a driver makes, the call counts that FAKE*_FAIL injects failures by, and the log.
 * Each fake gives its names (FakeDriver) and exports its entry points under the real names,
 * most of them one call of the entry points below (fake_stream_create("hipStreamCreateWithFlags",
 * ...)); those of one API alone (primary contexts, hipSetDevice) are written in the same shape,
 * BEGIN ... END: count the call, format its arguments, fail if told to, do the work, log
 * `name(args) -> RESULT [outputs]`.
 *
 * Device memory is never given back before exit (a freed allocation stays known, so a later use
 * of it is an invalid value, not a wild access). One host thread, as the backends; a lock
 * anyway, since it costs nothing here.
 */
#ifndef TESTS_FAKES_FAKEDRV_H
#define TESTS_FAKES_FAKEDRV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef unsigned FakeResult;

/* The codes the fakes return themselves: the same numbers in cuda.h and hip_runtime_api.h (those of
 * kernels that fail, 700 and up, only the fake that runs them returns). */
enum { E_VALUE = 1, E_OOM = 2, E_NOT_INIT = 3, E_NO_DEVICE = 100, E_DEVICE = 101, E_IMAGE = 200,
       E_CONTEXT = 201, E_INVALID_PTX = 218, E_HANDLE = 400, E_NOT_FOUND = 500, E_ILLEGAL_ADDRESS = 700,
       E_LAUNCH_TIMEOUT = 702, E_ASSERT = 710, E_REGISTERED = 712, E_NOT_REGISTERED = 713,
       E_LAUNCH_FAILED = 719, E_NOT_SUPPORTED = 801, E_UNKNOWN = 999 };

typedef struct FakeError {
    FakeResult code;
    const char *name;
} FakeError;

/* What a fake defines once: the prefix of its environment variables ("FAKECUDA": FAKECUDA_LOG,
 * FAKECUDA_FAIL, FAKECUDA_DEVICES, FAKECUDA_UVA), its error names, and the code an injected
 * failure of a call returns unless the spec names one. */
typedef struct FakeRun FakeRun;
typedef struct FakeDriver {
    const char *env;
    const FakeError *errors;
    size_t n_errors;
    FakeResult (*default_fail)(const char *call);
    const FakeRun *run; /* what runs the kernels of PTX modules; NULL: launches run nothing */
} FakeDriver;
extern const FakeDriver fake_driver;

/* A fake that runs kernels (fakecuda's fakerun.c) hooks into the model here. Each hook is called
 * with the fake's lock held, after the model's own checks passed. `call` names the call in
 * diagnostics ("cuLaunchKernel#2"); a result other than 0 is what the call returns, after the
 * runner said why on stderr. */
struct FakeRun {
    const char *who; /* what diagnostics start with: "fakecuda" */
    /* [p, p+bytes) is device memory (or host memory registered) from now on, or (known false)
     * no longer is */
    FakeResult (*mem)(void *p, size_t bytes, bool known, const char *call);
    /* a PTX image (NUL-terminated) loaded: *handle is the runner's module */
    FakeResult (*load)(const char *image, void **handle, const char *call);
    FakeResult (*function)(void *module, const char *name, void **handle, const char *call);
    void (*unload)(void *module, const char *call);
    /* runs the kernel to its end: every launch of the fake completes when it is enqueued */
    FakeResult (*launch)(void *function, const unsigned grid[3], const unsigned block[3], unsigned smem,
                         void **params, const char *call);
    /* writes what kernels printed since the last flush to stdout (and flushes it), as a driver
     * does at a synchronization: kernels' printf output is held until then */
    void (*flush)(void);
};
/* fakerun.c: kernels of PTX modules on the project's kernel engine (fakecuda's runner). */
extern const FakeRun fake_run;

enum { K_CTX = 1, K_STREAM, K_EVENT, K_MODULE, K_FUNCTION };

typedef struct Obj Obj;
struct Obj {
    Obj *next;
    int kind;
    unsigned id;
    bool live;
    int refs;       /* a context: primary retains */
    char *image;    /* a module: its image when it is PTX, NUL-terminated */
    struct BeHsaco *co; /* a module: what its image says when it is an AMD code object */
    const char *what; /* a module: its image's kind ("elf", "fatbin", "ptx") */
    void *run;      /* a module or function: the runner's (FakeRun), NULL when it has none */
    Obj *module;    /* a function */
    char name[128]; /* a function */
    double t;       /* an event: the device clock when it was last recorded */
    bool recorded;
    bool untimed; /* an event made with the disable-timing flag (0x2 in both APIs) */
};

/* The state of the one process-wide device model. */
extern pthread_mutex_t fake_mu;
extern bool fake_inited;  /* the driver's init was called */
extern Obj *fake_current; /* the context (cuda) or device (hip) made current */
extern int fake_devices;  /* FAKE*_DEVICES, default 1 */
extern bool fake_uva;     /* FAKE*_UVA=0 turns it off */

/* Counts a call of name; the injected error when this is the call to fail, else 0. */
FakeResult fake_enter(const char *name);
void fake_say(const char *name, const char *args, FakeResult r, bool injected, const char *out);
/* The log line of a call that returns something else than a result code: `name(args) -> value`. */
void fake_say_value(const char *name, const char *args, const char *value);
const char *fake_error_name(FakeResult r); /* NULL when it has none */

/* The one shape of an entry point: count the call, format its arguments, fail if told to (the
 * block then does nothing), do the work setting r (and out), log, return r. */
#define BEGIN(call, ...)                                                                         \
    pthread_mutex_lock(&fake_mu);                                                                \
    const char *fn_name = (call);                                                                \
    FakeResult r = fake_enter(fn_name);                                                          \
    bool injected = r != 0;                                                                      \
    char args[1024] = "", out[256] = "";                                                          \
    snprintf(args, sizeof args, __VA_ARGS__);                                                    \
    if (!injected) {
#define END                                                                                      \
    }                                                                                            \
    fake_say(fn_name, args, r, injected, out);                                                   \
    pthread_mutex_unlock(&fake_mu);                                                              \
    return r;

Obj *fake_obj_find(const void *h, int kind);
void fake_obj_name(char *buf, size_t cap, const void *h, int kind); /* "s1", "my_kernel", "0" */
/* A made-current context, or the error; checks of the device queries: init, an ordinal in range. */
FakeResult fake_need_ctx(void);
FakeResult fake_need_device(int device);
/* Device `device`'s context (cuda: the primary one; hip: what hipSetDevice makes current), made on
 * first use; NULL when out of memory or past the 8 the fake knows. */
Obj *fake_device_ctx(int device);

/* The entry points both APIs have, each logged under the name `call` the fake exports it by.
 * Handles, pointers and names are printed as the header says; objects are streams, events or
 * modules by `kind`. */
FakeResult fake_init(const char *call, unsigned flags, bool current0); /* current0: device 0 current */
FakeResult fake_device_count(const char *call, int *count, bool none_is_error);
FakeResult fake_device_get(const char *call, int *device, int ordinal);
FakeResult fake_device_name(const char *call, char *name, int len, int device, const char *vendor);
FakeResult fake_device_attr(const char *call, int *value, unsigned attr, int device, unsigned uva_attr);
FakeResult fake_sync(const char *call); /* the current context or device */
/* Kernels' printf output held since the last flush goes to stdout. The points a CUDA driver
 * flushes it at do so: a context or device synchronization, a stream or event synchronization
 * (not a query), a module load or unload, the start of a launch, a launch that fails (the
 * fake's launch is the synchronization that reports it), the destruction of a context. */
void fake_flush_output(void);
FakeResult fake_stream_create(const char *call, void **stream, unsigned flags);
FakeResult fake_event_create(const char *call, void **event, unsigned flags);
FakeResult fake_destroy(const char *call, const void *h, int kind);
/* stream or event sync (sync: flushes kernels' output), event query */
FakeResult fake_wait(const char *call, const void *h, int kind, bool sync);
FakeResult fake_stream_wait_event(const char *call, const void *stream, const void *event, unsigned flags);
/* Events follow a device clock that a copy advances by 0.25 ms, a memset by 0.125 ms and a
 * launch by 1 ms, so timings are the same on every run: a record takes the clock's time, elapsed
 * gives (and logs) the milliseconds between two recorded events, each made with timing on. */
FakeResult fake_event_record(const char *call, const void *event, const void *stream);
FakeResult fake_event_elapsed(const char *call, float *ms, const void *start, const void *end);
FakeResult fake_alloc(const char *call, void **ptr, size_t bytes);
FakeResult fake_alloc_managed(const char *call, void **ptr, size_t bytes, unsigned flags);
FakeResult fake_free(const char *call, const void *ptr, bool null_ok);
/* A copy or memset that FAKE*_CORRUPT=NAME:N names (the Nth call of NAME) succeeds but flips the
 * first byte it wrote, and its log line says "(corrupted)"; a launch so named flips the first byte
 * the kernel changed (fake_launch).
 * kind: hip's hipMemcpyKind (logged; above 4, hipMemcpyDefault, is invalid), NULL for cuda. */
FakeResult fake_memcpy(const char *call, void *dst, const void *src, size_t bytes, const unsigned *kind,
                       const void *stream);
/* value: the element's bytes (width 1, 2 or 4); shown: the value as the API's type prints it. */
FakeResult fake_memset(const char *call, void *dst, const void *value, unsigned width, long long shown, size_t count,
                       const void *stream);
FakeResult fake_host_register(const char *call, void *ptr, size_t bytes, unsigned flags);
FakeResult fake_host_unregister(const char *call, void *ptr);
/* An image is "elf", "fatbin" (NVIDIA's), "bundle" (clang's offload bundle) or "ptx" (text
 * holding `.version`); accepted: the kinds this driver loads ("elf fatbin ptx"). A PTX image's
 * load logs the names of its .entry kernels. An ELF for EM_AMDGPU must be an AMD code object
 * (backends/hsaco.c reads it, as far as its headers say it spans): one that is not is an invalid
 * image, said on stderr; its load logs its chip and kernel descriptors (`elf gfx90a fill.kd`), a
 * function is found only by its descriptor, and a launch logs the explicit arguments its
 * metadata lists. */
FakeResult fake_module_load(const char *call, void **module, const void *image, const char *accepted);
FakeResult fake_module_function(const char *call, void **function, const void *module, const char *name);
/* Logs the parameters as the kernel's PTX declares them (device pointers named, integers in
 * decimal, floats as their bits in hex), or as a code object's metadata lists them (pointers
 * named, other arguments by their size: integers in decimal), or `[params unknown]` for another
 * binary. A launch that FAKE*_CORRUPT names runs, then flips every bit of the first byte it
 * changed in the memory its pointer parameters point into (in parameter order, lowest address
 * first), and its log line says "(corrupted d1+8)", or "(nothing to corrupt)" when the kernel
 * changed no byte there. */
FakeResult fake_launch(const char *call, const void *f, const unsigned grid[3], const unsigned block[3],
                       unsigned smem, const void *stream, void **params, void **extra);

#endif
