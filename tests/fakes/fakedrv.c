/* fakedrv.c — the device model the fake drivers share (fakedrv.h): objects, memory, checks,
 * failure injection and the call log. */
#include "tests/fakes/fakedrv.h"
#include "backends/backend.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct Mem {
    struct Mem *next;
    unsigned char *base;
    size_t size;
    unsigned id;
    bool managed, registered, live;
} Mem;

typedef struct Fail {
    char name[48];
    unsigned long nth;
    FakeResult code;
} Fail;

pthread_mutex_t fake_mu = PTHREAD_MUTEX_INITIALIZER;
bool fake_inited;
Obj *fake_current;
int fake_devices = 1;
bool fake_uva = true;

static bool started;
static FILE *log_file;
static Fail fails[16];
static size_t n_fails;
static Fail corrupts[16]; /* CORRUPT: name and nth only */
static size_t n_corrupts;
static const char *cur_call; /* the call being made (fake_enter) and its count */
static unsigned long cur_n;
/* The device's clock, in milliseconds: a copy takes 0.25, a memset 0.125, a launch 1. */
static double device_ms;
static Obj *objs;
static unsigned next_id[K_FUNCTION + 1];
static Mem *mems;
static unsigned next_mem;
static struct {
    char name[48];
    unsigned long n;
} counts[64];

/* ---- error names, failures, the log ---- */

const char *fake_error_name(FakeResult r)
{
    for (size_t i = 0; i < fake_driver.n_errors; i++)
        if (fake_driver.errors[i].code == r)
            return fake_driver.errors[i].name;
    return NULL;
}

/* NAME:N[:CODE][,...]: CODE a number or an error name. */
static void parse_fail(const char *spec)
{
    while (spec && *spec && n_fails < sizeof fails / sizeof *fails) {
        Fail f = {.code = 0};
        const char *colon = strchr(spec, ':');
        if (!colon || (size_t)(colon - spec) >= sizeof f.name)
            break;
        memcpy(f.name, spec, (size_t)(colon - spec));
        char *end;
        f.nth = strtoul(colon + 1, &end, 10);
        if (*end == ':') {
            const char *code = end + 1;
            size_t len = strcspn(code, ",");
            if (isdigit((unsigned char)*code)) {
                f.code = (FakeResult)strtoul(code, NULL, 10);
            } else {
                for (size_t i = 0; i < fake_driver.n_errors; i++)
                    if (strlen(fake_driver.errors[i].name) == len &&
                        strncmp(fake_driver.errors[i].name, code, len) == 0)
                        f.code = fake_driver.errors[i].code;
            }
            end = (char *)code + len;
        }
        if (!f.code)
            f.code = fake_driver.default_fail(f.name);
        fails[n_fails++] = f;
        spec = *end == ',' ? end + 1 : NULL;
    }
}

static const char *env(const char *what)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", fake_driver.env, what);
    return getenv(name);
}

static void start(void)
{
    if (started)
        return;
    started = true;
    const char *path = env("LOG");
    if (path && *path)
        log_file = fopen(path, "a");
    parse_fail(env("FAIL"));
    for (const char *c = env("CORRUPT"); c && *c && n_corrupts < sizeof corrupts / sizeof *corrupts;) {
        const char *colon = strchr(c, ':');
        if (!colon || (size_t)(colon - c) >= sizeof corrupts[0].name)
            break;
        Fail *f = &corrupts[n_corrupts++];
        memcpy(f->name, c, (size_t)(colon - c));
        char *end;
        f->nth = strtoul(colon + 1, &end, 10);
        c = *end == ',' ? end + 1 : NULL;
    }
    const char *n = env("DEVICES");
    if (n && *n)
        fake_devices = atoi(n);
    const char *u = env("UVA");
    fake_uva = !(u && strcmp(u, "0") == 0);
}

FakeResult fake_enter(const char *name)
{
    start();
    unsigned long n = 0;
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        if (!counts[i].name[0])
            snprintf(counts[i].name, sizeof counts[i].name, "%s", name);
        if (strcmp(counts[i].name, name) == 0) {
            n = ++counts[i].n;
            break;
        }
    }
    cur_call = name;
    cur_n = n;
    for (size_t i = 0; i < n_fails; i++)
        if (fails[i].nth == n && strcmp(fails[i].name, name) == 0)
            return fails[i].code;
    return 0;
}

void fake_say(const char *name, const char *args, FakeResult r, bool injected, const char *out)
{
    if (!log_file)
        return;
    const char *rn = fake_error_name(r);
    if (rn)
        fprintf(log_file, "%s(%s) -> %s", name, args, rn);
    else
        fprintf(log_file, "%s(%s) -> %u", name, args, r);
    if (injected)
        fputs(" (injected)", log_file);
    if (out && *out)
        fprintf(log_file, " %s", out);
    fputc('\n', log_file);
    fflush(log_file);
}

void fake_say_value(const char *name, const char *args, const char *value)
{
    if (log_file) {
        fprintf(log_file, "%s(%s) -> %s\n", name, args, value);
        fflush(log_file);
    }
}

/* The call being made, numbered: "cuLaunchKernel#2", for the runner's diagnostics. */
static const char *call_name(char *buf, size_t cap)
{
    snprintf(buf, cap, "%s#%lu", cur_call ? cur_call : "?", cur_n);
    return buf;
}

/* ---- objects ---- */

static Obj *device_ctx[8];

Obj *fake_obj_find(const void *h, int kind)
{
    for (Obj *o = objs; o; o = o->next)
        if ((const void *)o == h && o->kind == kind)
            return o;
    return NULL;
}

static Obj *obj_new(int kind)
{
    Obj *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->kind = kind;
    o->id = ++next_id[kind];
    o->live = true;
    o->next = objs;
    objs = o;
    return o;
}

void fake_obj_name(char *buf, size_t cap, const void *h, int kind)
{
    Obj *o = fake_obj_find(h, kind);
    static const char prefix[][4] = {"", "ctx", "s", "e", "mod", ""};
    if (!h)
        snprintf(buf, cap, "0");
    else if (!o)
        snprintf(buf, cap, "%p?", h);
    else if (kind == K_FUNCTION)
        snprintf(buf, cap, "%s", o->name);
    else
        snprintf(buf, cap, "%s%u", prefix[kind], o->id);
}

static FakeResult obj_kill(const void *h, int kind)
{
    Obj *o = fake_obj_find(h, kind);
    if (!o || !o->live)
        return E_HANDLE;
    o->live = false;
    if (kind == K_MODULE && o->run && fake_driver.run) {
        char call[64];
        fake_driver.run->unload(o->run, call_name(call, sizeof call));
    }
    return 0;
}

static FakeResult need_stream(const void *s)
{
    if (!s)
        return 0;
    Obj *o = fake_obj_find(s, K_STREAM);
    return o && o->live ? 0 : E_HANDLE;
}

static FakeResult need_event(const void *e)
{
    Obj *o = fake_obj_find(e, K_EVENT);
    return o && o->live ? 0 : E_HANDLE;
}

FakeResult fake_need_ctx(void)
{
    if (!fake_inited)
        return E_NOT_INIT;
    return fake_current && fake_current->live ? 0 : E_CONTEXT;
}

FakeResult fake_need_device(int device)
{
    if (!fake_inited)
        return E_NOT_INIT;
    return device < 0 || device >= fake_devices ? E_DEVICE : 0;
}

/* ---- memory ---- */

static Mem *mem_find(uintptr_t p)
{
    for (Mem *m = mems; m; m = m->next)
        if (p >= (uintptr_t)m->base && p - (uintptr_t)m->base < (m->size ? m->size : 1))
            return m;
    return NULL;
}

static void ptr_name(char *buf, size_t cap, uintptr_t p)
{
    Mem *m = p ? mem_find(p) : NULL;
    if (!p)
        snprintf(buf, cap, "0");
    else if (!m || m->registered)
        snprintf(buf, cap, "host");
    else if (p == (uintptr_t)m->base)
        snprintf(buf, cap, "%c%u", m->managed ? 'm' : 'd', m->id);
    else
        snprintf(buf, cap, "%c%u+%zu", m->managed ? 'm' : 'd', m->id, (size_t)(p - (uintptr_t)m->base));
}

/* [p, p+n) may be touched: inside a live allocation when it starts in one, else host memory. */
static FakeResult need_range(uintptr_t p, size_t n)
{
    if (!p)
        return E_VALUE;
    Mem *m = mem_find(p);
    if (!m)
        return 0;
    if (!m->live || n > m->size - (p - (uintptr_t)m->base))
        return E_VALUE;
    return 0;
}

static FakeResult mem_new(void **ptr, size_t bytes, bool managed, char *out, size_t cap)
{
    FakeResult r = fake_need_ctx();
    if (r)
        return r;
    if (!bytes)
        return E_VALUE;
    Mem *m = calloc(1, sizeof *m);
    size_t rounded = (bytes + 255) & ~(size_t)255;
    unsigned char *p = m ? aligned_alloc(256, rounded) : NULL;
    if (!p) {
        free(m);
        return E_OOM;
    }
    memset(p, 0xa5, rounded); /* device memory is not zeroed: a test must not read it unwritten */
    char call[64];
    if (fake_driver.run && (r = fake_driver.run->mem(p, bytes, true, call_name(call, sizeof call)))) {
        free(p);
        free(m);
        return r;
    }
    *m = (Mem){.next = mems, .base = p, .size = bytes, .id = ++next_mem, .managed = managed, .live = true};
    mems = m;
    *ptr = p;
    snprintf(out, cap, "%c%u", managed ? 'm' : 'd', m->id);
    return 0;
}

static FakeResult mem_free(const void *ptr)
{
    FakeResult r = fake_need_ctx();
    if (r)
        return r;
    Mem *m = mem_find((uintptr_t)ptr);
    if (!m || m->registered || !m->live || (const void *)m->base != ptr)
        return E_VALUE;
    m->live = false;
    char call[64];
    if (fake_driver.run)
        fake_driver.run->mem(m->base, m->size, false, call_name(call, sizeof call));
    return 0;
}

/* Whether CORRUPT names the call being made. */
static bool corrupting(void)
{
    for (size_t i = 0; cur_call && i < n_corrupts; i++)
        if (corrupts[i].nth == cur_n && strcmp(corrupts[i].name, cur_call) == 0)
            return true;
    return false;
}

/* Flips the first byte a copy or memset wrote, when CORRUPT names this call. */
static void maybe_corrupt(void *dst, size_t bytes, char *out, size_t cap)
{
    if (bytes && corrupting()) {
        *(unsigned char *)dst ^= 0xff;
        snprintf(out, cap, "(corrupted)");
    }
}

static FakeResult copy(void *dst, const void *src, size_t bytes, const void *stream, char *out, size_t cap)
{
    FakeResult r;
    if (!(r = fake_need_ctx()) && !(r = need_stream(stream)) && !(r = need_range((uintptr_t)dst, bytes)) &&
        !(r = need_range((uintptr_t)src, bytes))) {
        memmove(dst, src, bytes);
        maybe_corrupt(dst, bytes, out, cap);
        device_ms += 0.25;
    }
    return r;
}

static FakeResult fill(void *dst, const void *value, unsigned width, size_t count, const void *stream, char *out,
                       size_t cap)
{
    FakeResult r;
    if ((r = fake_need_ctx()) || (r = need_stream(stream)))
        return r;
    if (count > SIZE_MAX / width || ((uintptr_t)dst % width) != 0)
        return E_VALUE;
    if ((r = need_range((uintptr_t)dst, count * width)))
        return r;
    unsigned char *p = dst;
    for (size_t i = 0; i < count; i++)
        memcpy(p + i * width, value, width);
    maybe_corrupt(dst, count, out, cap);
    device_ms += 0.125;
    return 0;
}

static FakeResult host_register(void *ptr, size_t bytes)
{
    FakeResult r = fake_need_ctx();
    if (r)
        return r;
    Mem *m = mem_find((uintptr_t)ptr);
    if (!ptr || !bytes)
        return E_VALUE;
    /* as a driver does: a range that overlaps a registered one is refused, one beside it is not */
    for (Mem *o = mems; o; o = o->next)
        if (o->registered && o->live && (uintptr_t)ptr < (uintptr_t)o->base + o->size &&
            (uintptr_t)o->base < (uintptr_t)ptr + bytes)
            return E_REGISTERED;
    if (m && m->live)
        return E_VALUE; /* device memory */
    if (!(m = calloc(1, sizeof *m)))
        return E_OOM;
    char call[64];
    if (fake_driver.run && (r = fake_driver.run->mem(ptr, bytes, true, call_name(call, sizeof call)))) {
        free(m);
        return r;
    }
    *m = (Mem){.next = mems, .base = ptr, .size = bytes, .registered = true, .live = true};
    mems = m;
    return 0;
}

static FakeResult host_unregister(void *ptr)
{
    FakeResult r = fake_need_ctx();
    if (r)
        return r;
    Mem *m = mem_find((uintptr_t)ptr);
    if (!m || !m->registered || !m->live || m->base != ptr)
        return E_NOT_REGISTERED;
    char call[64];
    if (fake_driver.run)
        fake_driver.run->mem(m->base, m->size, false, call_name(call, sizeof call));
    m->live = false;
    m->size = 0; /* host memory: forget it, the address may come back from malloc */
    m->base = NULL;
    return 0;
}

/* ---- modules and launches ---- */

static const char *image_kind(const void *image)
{
    const unsigned char *p = image;
    if (!p)
        return "0";
    if (memcmp(p, "\x7f" "ELF", 4) == 0)
        return "elf";
    if (memcmp(p, "\x50\xed\x55\xba", 4) == 0)
        return "fatbin";
    if (strncmp(image, "__CLANG_OFFLOAD_BUNDLE__", 24) == 0)
        return "bundle";
    return "ptx";
}

static FakeResult module_load(void **module, const void *image, const char *accepted, char *out, size_t cap)
{
    FakeResult r = fake_need_ctx();
    if (r)
        return r;
    if (!image)
        return E_VALUE;
    const char *kind = image_kind(image);
    bool is_ptx = strcmp(kind, "ptx") == 0;
    if (!strstr(accepted, kind) || (is_ptx && !strstr(image, ".version")))
        return E_IMAGE; /* not a binary this driver loads, nor PTX text */
    void *run = NULL;
    char call[64];
    BeHsaco *co = NULL;
    size_t extent = strcmp(kind, "elf") == 0 ? be_hsaco_extent(image) : 0;
    if (extent) { /* an AMDGPU ELF: the runtime reads its symbols and metadata */
        char why[256];
        if (!(co = be_hsaco_read(image, extent, why, sizeof why))) {
            char who[16];
            size_t k = 0;
            for (; fake_driver.env[k] && k + 1 < sizeof who; k++)
                who[k] = (char)tolower((unsigned char)fake_driver.env[k]);
            who[k] = '\0';
            fprintf(stderr, "%s: %s: error: the image is %s\n", who, call_name(call, sizeof call), why);
            return E_IMAGE;
        }
    }
    if (is_ptx && fake_driver.run &&
        (r = fake_driver.run->load(image, &run, call_name(call, sizeof call))))
        return r;
    Obj *o = obj_new(K_MODULE);
    if (!o) {
        be_hsaco_free(co);
        return E_OOM;
    }
    o->run = run;
    o->co = co;
    o->what = kind;
    if (is_ptx)
        o->image = strdup(image);
    *module = o;
    snprintf(out, cap, "mod%u", o->id);
    return 0;
}

/* Appends a code object's chip (what its target names after "--") and " NAME.kd" for each kernel
 * descriptor it defines, in order. */
static void add_kds(char *buf, size_t cap, const BeHsaco *co)
{
    size_t n = strlen(buf);
    const char *chip = strstr(co->target, "--");
    snprintf(buf + n, cap - n, " %s", chip ? chip + 2 : co->target[0] ? co->target : "?");
    for (uint32_t i = 0; i < co->nkds; i++) {
        n = strlen(buf);
        snprintf(buf + n, cap - n, " %s", co->kds[i]);
    }
}

/* Appends " .entry NAME" for each kernel a PTX image defines, in order. */
static void add_entries(char *buf, size_t cap, const char *ptx)
{
    size_t n = strlen(buf);
    for (const char *p = ptx; p && (p = strstr(p, ".entry")) && n + 1 < cap; p += 6) {
        const char *q = p + 6;
        if (!isspace((unsigned char)*q))
            continue;
        while (isspace((unsigned char)*q))
            q++;
        size_t len = 0;
        while (isalnum((unsigned char)q[len]) || q[len] == '_' || q[len] == '$')
            len++;
        snprintf(buf + n, cap - n, " .entry %.*s", (int)len, q);
        n = strlen(buf);
    }
}

/* The `.entry NAME (` of a PTX image, or NULL. */
static const char *ptx_entry(const char *ptx, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = ptx; (p = strstr(p, ".entry")); p += 6) {
        const char *q = p + 6;
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, name, n) == 0 && (isspace((unsigned char)q[n]) || q[n] == '('))
            return q + n;
    }
    return NULL;
}

static FakeResult module_function(void **function, const void *module, const char *name, char *out, size_t cap)
{
    FakeResult r = fake_need_ctx();
    if (r)
        return r;
    Obj *mo = fake_obj_find(module, K_MODULE), *o;
    if (!mo || !mo->live)
        return E_HANDLE;
    if (!name || strlen(name) >= sizeof mo->name)
        return E_VALUE;
    if ((mo->image && !ptx_entry(mo->image, name)) || (mo->co && !be_hsaco_has_kd(mo->co, name)))
        return E_NOT_FOUND;
    void *run = NULL;
    char call[64];
    if (mo->run && (r = fake_driver.run->function(mo->run, name, &run, call_name(call, sizeof call))))
        return r;
    if (!(o = obj_new(K_FUNCTION)))
        return E_OOM;
    o->run = run;
    snprintf(o->name, sizeof o->name, "%s", name);
    o->module = mo;
    *function = o;
    snprintf(out, cap, "%s", name);
    return 0;
}

/* A code object kernel's explicit arguments, as its metadata lists them. */
static void show_args(char *buf, size_t cap, const BeHsacoKernel *k, void **params)
{
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, ", [");
    for (uint32_t i = 0, shown = 0; i < k->nargs; i++) {
        const BeHsacoArg *a = &k->args[i];
        if (a->hidden)
            continue;
        char v[64];
        uint64_t x = 0;
        if (!params || !params[shown]) {
            snprintf(v, sizeof v, "null");
        } else if (a->size == 8 || a->size == 4 || a->size == 2 || a->size == 1) {
            memcpy(&x, params[shown], a->size);
            if (a->size == 8 && (a->pointer || mem_find((uintptr_t)x)))
                ptr_name(v, sizeof v, (uintptr_t)x);
            else
                snprintf(v, sizeof v, "%" PRIu64, x);
        } else {
            snprintf(v, sizeof v, "%u bytes", a->size);
        }
        n = strlen(buf);
        snprintf(buf + n, cap - n, "%s%s", shown++ ? ", " : "", v);
    }
    n = strlen(buf);
    snprintf(buf + n, cap - n, "]");
}

/* A kernel parameter as its PTX declares it: its bytes, and whether it is a float. */
typedef struct Param {
    size_t size;
    bool is_float;
} Param;
enum { MAX_PARAMS = 64 };

/* The parameters of kernel function `f` as its module's PTX declares them (at most cap); -1 when
 * it has no PTX (a binary, which says nothing of them). */
static int params_of(const Obj *f, Param *out, int cap)
{
    const char *p = f && f->module && f->module->image ? ptx_entry(f->module->image, f->name) : NULL;
    if (!p)
        return -1;
    const char *end = strchr(p, ')');
    int i = 0;
    for (const char *q = p; i < cap && (q = strstr(q, ".param")) && (!end || q < end); i++) {
        q += 6;
        /* .param [.align N] .TYPE name[[COUNT]] */
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, ".align", 6) == 0) {
            q += 6;
            while (isspace((unsigned char)*q) || isdigit((unsigned char)*q))
                q++;
        }
        size_t size = 0;
        bool is_float = q[0] == '.' && q[1] == 'f';
        if (*q == '.' && isalpha((unsigned char)q[1]))
            size = (size_t)atoi(q + 2) / 8;
        while (*q && !isspace((unsigned char)*q))
            q++;
        while (isspace((unsigned char)*q))
            q++;
        while (*q && (isalnum((unsigned char)*q) || *q == '_' || *q == '$'))
            q++;
        size_t count = 1;
        if (*q == '[')
            count = (size_t)atoi(q + 1);
        out[i] = (Param){size * count, is_float};
    }
    return i;
}

static void show_params(char *buf, size_t cap, const void *function, void **params)
{
    const Obj *f = fake_obj_find(function, K_FUNCTION);
    size_t n = strlen(buf);
    if (!f)
        return;
    const BeHsacoKernel *k = f->module && f->module->co ? be_hsaco_kernel(f->module->co, f->name) : NULL;
    if (k) {
        show_args(buf, cap, k, params);
        return;
    }
    Param ps[MAX_PARAMS];
    int np = params_of(f, ps, MAX_PARAMS);
    if (np < 0) {
        snprintf(buf + n, cap - n, ", [params unknown]");
        return;
    }
    snprintf(buf + n, cap - n, ", [");
    n = strlen(buf);
    for (int i = 0; i < np; i++) {
        size_t size = ps[i].size;
        char v[64] = "?";
        if (!params || !params[i]) {
            snprintf(v, sizeof v, "null");
        } else if (ps[i].is_float && (size == 8 || size == 4 || size == 2)) {
            uint64_t x = 0;
            memcpy(&x, params[i], size);
            snprintf(v, sizeof v, "f%zu:0x%0*" PRIx64, size * 8, (int)size * 2, x);
        } else if (size == 8) {
            uint64_t x;
            memcpy(&x, params[i], 8);
            if (mem_find((uintptr_t)x))
                ptr_name(v, sizeof v, (uintptr_t)x);
            else
                snprintf(v, sizeof v, "%" PRIu64, x);
        } else if (size == 4 || size == 2 || size == 1) {
            uint32_t x = 0;
            memcpy(&x, params[i], size);
            snprintf(v, sizeof v, "%" PRIu32, x);
        } else {
            snprintf(v, sizeof v, "%zu bytes", size);
        }
        snprintf(buf + n, cap - n, "%s%s", i ? ", " : "", v);
        n = strlen(buf);
    }
    snprintf(buf + n, cap - n, "]");
}

/* What a corrupted launch may have written: the live memory its pointer parameters point into,
 * each once, in parameter order, with its bytes before the launch. */
typedef struct Written {
    Mem *m[MAX_PARAMS];
    unsigned char *before[MAX_PARAMS];
    int n;
} Written;

static void written_begin(Written *w, const Obj *f, void **params)
{
    Param ps[MAX_PARAMS];
    int np = params_of(f, ps, MAX_PARAMS);
    w->n = 0;
    for (int i = 0; params && i < np; i++) {
        uint64_t x;
        if (ps[i].size != 8 || ps[i].is_float || !params[i])
            continue;
        memcpy(&x, params[i], 8);
        Mem *m = mem_find((uintptr_t)x);
        bool seen = false;
        for (int k = 0; k < w->n; k++)
            seen |= w->m[k] == m;
        if (!m || !m->live || seen || !(w->before[w->n] = malloc(m->size ? m->size : 1)))
            continue;
        memcpy(w->before[w->n], m->base, m->size);
        w->m[w->n++] = m;
    }
}

/* After the launch: flips the first byte it changed, and says which in out. */
static void written_corrupt(Written *w, char *out, size_t cap)
{
    snprintf(out, cap, "(nothing to corrupt)");
    bool done = false;
    for (int k = 0; k < w->n; k++) {
        Mem *m = w->m[k];
        for (size_t b = 0; !done && m->live && b < m->size; b++)
            if (m->base[b] != w->before[k][b]) {
                m->base[b] ^= 0xff;
                char name[48];
                ptr_name(name, sizeof name, (uintptr_t)(m->base + b));
                snprintf(out, cap, "(corrupted %s)", name);
                done = true;
            }
        free(w->before[k]);
    }
    w->n = 0;
}

static FakeResult launch(const void *function, const unsigned grid[3], const unsigned block[3], unsigned smem,
                         const void *stream, void **params, void **extra, char *out, size_t cap)
{
    FakeResult r;
    const Obj *fo = fake_obj_find(function, K_FUNCTION);
    if ((r = fake_need_ctx()) || (r = need_stream(stream)))
        return r;
    if (!fo || !fo->module || !fo->module->live)
        return E_HANDLE;
    if (!grid[0] || !grid[1] || !grid[2] || !block[0] || !block[1] || !block[2] ||
        (uint64_t)block[0] * block[1] * block[2] > 1024 || smem > 48 * 1024)
        return E_VALUE;
    device_ms += 1.0;
    if (!fake_driver.run) {
        if (corrupting())
            snprintf(out, cap, "(nothing to corrupt)"); /* nothing runs, so nothing is written */
        return 0;
    }
    fake_flush_output(); /* a launch starts with a flush, as CUDA's does */
    char call[64];
    call_name(call, sizeof call);
    if (!fo->run) { /* a binary: SASS, which nothing here runs */
        fprintf(stderr, "%s: %s: error: kernel '%s' is in a device binary (%s), which the fake driver cannot run: "
                "only PTX modules' kernels run\n", fake_driver.run->who, call, fo->name, fo->module->what);
        return E_NOT_SUPPORTED;
    }
    if (extra) {
        fprintf(stderr, "%s: %s: error: kernel '%s' is given its arguments in `extra`, which the fake driver does "
                "not take: pass them in kernelParams\n", fake_driver.run->who, call, fo->name);
        return E_NOT_SUPPORTED;
    }
    Written w = {.n = 0};
    bool corrupt = corrupting();
    if (corrupt)
        written_begin(&w, fo, params);
    r = fake_driver.run->launch(fo->run, grid, block, smem, params, call);
    if (corrupt)
        written_corrupt(&w, out, cap);
    if (r) /* the launch is the synchronization that reports it: what the kernel printed comes out */
        fake_flush_output();
    return r;
}

/* ---- the entry points both fakes have: each logs under the name `call` ---- */

Obj *fake_device_ctx(int device)
{
    if (device < 0 || device >= 8)
        return NULL;
    if (!device_ctx[device])
        device_ctx[device] = obj_new(K_CTX);
    return device_ctx[device];
}

FakeResult fake_init(const char *call, unsigned flags, bool current0)
{
    BEGIN(call, "%u", flags)
    if (flags) {
        r = E_VALUE;
    } else {
        fake_inited = true;
        if (current0 && fake_devices > 0 && !(fake_current = fake_device_ctx(0)))
            r = E_OOM;
    }
    END
}

FakeResult fake_device_count(const char *call, int *count, bool none_is_error)
{
    BEGIN(call, "%s", "")
    if (!fake_inited) {
        r = E_NOT_INIT;
    } else {
        *count = fake_devices > 0 ? fake_devices : 0;
        if (none_is_error && !*count)
            r = E_NO_DEVICE;
        else
            snprintf(out, sizeof out, "%d", *count);
    }
    END
}

FakeResult fake_device_get(const char *call, int *device, int ordinal)
{
    BEGIN(call, "%d", ordinal)
    if (!(r = fake_need_device(ordinal)))
        *device = ordinal;
    END
}

FakeResult fake_device_name(const char *call, char *name, int len, int device, const char *vendor)
{
    BEGIN(call, "%d, %d", len, device)
    if ((r = fake_need_device(device))) {
    } else if (!name || len <= 0) {
        r = E_VALUE;
    } else {
        snprintf(name, (size_t)len, "Fake %s Device %d", vendor, device);
    }
    END
}

FakeResult fake_device_attr(const char *call, int *value, unsigned attr, int device, unsigned uva_attr)
{
    BEGIN(call, "%u, %d", attr, device)
    if (!(r = fake_need_device(device))) {
        *value = attr == uva_attr ? fake_uva : 0;
        snprintf(out, sizeof out, "%d", *value);
    }
    END
}

void fake_flush_output(void)
{
    if (fake_driver.run && fake_driver.run->flush)
        fake_driver.run->flush();
}

FakeResult fake_sync(const char *call)
{
    BEGIN(call, "%s", "")
    if (!(r = fake_need_ctx()))
        fake_flush_output();
    END
}

/* A stream or an event: the same creation. */
static FakeResult create(const char *call, void **h, unsigned flags, int kind)
{
    BEGIN(call, "%u", flags)
    Obj *o = NULL;
    if (!(r = fake_need_ctx()) && !(o = obj_new(kind)))
        r = E_OOM;
    if (!r) {
        o->untimed = kind == K_EVENT && (flags & 0x2);
        *h = o;
        snprintf(out, sizeof out, "%s%u", kind == K_STREAM ? "s" : "e", o->id);
    }
    END
}

FakeResult fake_stream_create(const char *call, void **stream, unsigned flags)
{
    return create(call, stream, flags, K_STREAM);
}

FakeResult fake_event_create(const char *call, void **event, unsigned flags)
{
    return create(call, event, flags, K_EVENT);
}

FakeResult fake_destroy(const char *call, const void *h, int kind)
{
    char name[32];
    fake_obj_name(name, sizeof name, h, kind);
    BEGIN(call, "%s", name)
    if (!(r = fake_need_ctx()))
        r = obj_kill(h, kind);
    if (!r && kind == K_MODULE)
        fake_flush_output();
    END
}

FakeResult fake_wait(const char *call, const void *h, int kind, bool sync)
{
    char name[32];
    fake_obj_name(name, sizeof name, h, kind);
    BEGIN(call, "%s", name)
    if (!(r = fake_need_ctx()))
        r = kind == K_STREAM ? need_stream(h) : need_event(h);
    if (!r && sync)
        fake_flush_output();
    END
}

FakeResult fake_stream_wait_event(const char *call, const void *stream, const void *event, unsigned flags)
{
    char s[32], e[32];
    fake_obj_name(s, sizeof s, stream, K_STREAM);
    fake_obj_name(e, sizeof e, event, K_EVENT);
    BEGIN(call, "%s, %s, %u", s, e, flags)
    if (!(r = fake_need_ctx()) && !(r = need_stream(stream)))
        r = need_event(event);
    END
}

FakeResult fake_event_record(const char *call, const void *event, const void *stream)
{
    char s[32], e[32];
    fake_obj_name(e, sizeof e, event, K_EVENT);
    fake_obj_name(s, sizeof s, stream, K_STREAM);
    BEGIN(call, "%s, %s", e, s)
    if (!(r = fake_need_ctx()) && !(r = need_event(event)) && !(r = need_stream(stream))) {
        Obj *o = fake_obj_find(event, K_EVENT);
        o->t = device_ms;
        o->recorded = true;
    }
    END
}

FakeResult fake_event_elapsed(const char *call, float *ms, const void *start, const void *end)
{
    char a[32], b[32];
    fake_obj_name(a, sizeof a, start, K_EVENT);
    fake_obj_name(b, sizeof b, end, K_EVENT);
    BEGIN(call, "%s, %s", a, b)
    const Obj *x = fake_obj_find(start, K_EVENT), *y = fake_obj_find(end, K_EVENT);
    if ((r = fake_need_ctx()) || (r = need_event(start)) || (r = need_event(end))) {
    } else if (!ms) {
        r = E_VALUE;
    } else if (!x->recorded || !y->recorded || x->untimed || y->untimed) {
        r = E_HANDLE; /* as the drivers say of an event never recorded, or made without timing */
    } else {
        *ms = (float)(y->t - x->t);
        snprintf(out, sizeof out, "%.3f", *ms);
    }
    END
}

FakeResult fake_alloc(const char *call, void **ptr, size_t bytes)
{
    BEGIN(call, "%zu", bytes)
    r = mem_new(ptr, bytes, false, out, sizeof out);
    END
}

FakeResult fake_alloc_managed(const char *call, void **ptr, size_t bytes, unsigned flags)
{
    BEGIN(call, "%zu, %u", bytes, flags)
    if ((r = fake_need_ctx()))
        ;
    else if (flags != 1 && flags != 2) /* attach global or host, in both APIs */
        r = E_VALUE;
    else
        r = mem_new(ptr, bytes, true, out, sizeof out);
    END
}

FakeResult fake_free(const char *call, const void *ptr, bool null_ok)
{
    char name[48];
    ptr_name(name, sizeof name, (uintptr_t)ptr);
    BEGIN(call, "%s", name)
    if (ptr || !null_ok)
        r = mem_free(ptr);
    END
}

FakeResult fake_memcpy(const char *call, void *dst, const void *src, size_t bytes, const unsigned *kind,
                       const void *stream)
{
    char d[48], s[48], st[32], k[16] = "";
    ptr_name(d, sizeof d, (uintptr_t)dst);
    ptr_name(s, sizeof s, (uintptr_t)src);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    if (kind)
        snprintf(k, sizeof k, "%u, ", *kind);
    BEGIN(call, "%s, %s, %zu, %s%s", d, s, bytes, k, st)
    r = kind && *kind > 4 ? E_VALUE : copy(dst, src, bytes, stream, out, sizeof out); /* 4: the default direction */
    END
}

FakeResult fake_memset(const char *call, void *dst, const void *value, unsigned width, long long shown, size_t count,
                       const void *stream)
{
    char d[48], st[32];
    ptr_name(d, sizeof d, (uintptr_t)dst);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    BEGIN(call, "%s, %lld, %zu, %s", d, shown, count, st)
    r = fill(dst, value, width, count, stream, out, sizeof out);
    END
}

FakeResult fake_host_register(const char *call, void *ptr, size_t bytes, unsigned flags)
{
    BEGIN(call, "host, %zu, %u", bytes, flags)
    r = host_register(ptr, bytes);
    END
}

FakeResult fake_host_unregister(const char *call, void *ptr)
{
    BEGIN(call, "%s", ptr ? "host" : "0")
    r = host_unregister(ptr);
    END
}

FakeResult fake_module_load(const char *call, void **module, const void *image, const char *accepted)
{
    BEGIN(call, "%s", image_kind(image))
    fake_flush_output();
    if (!(r = module_load(module, image, accepted, out, sizeof out)) && ((const Obj *)*module)->co)
        add_kds(args, sizeof args, ((const Obj *)*module)->co);
    else if (!r)
        add_entries(args, sizeof args, ((const Obj *)*module)->image);
    END
}

FakeResult fake_module_function(const char *call, void **function, const void *module, const char *name)
{
    char m[32];
    fake_obj_name(m, sizeof m, module, K_MODULE);
    BEGIN(call, "%s, %s", m, name ? name : "0")
    r = module_function(function, module, name, out, sizeof out);
    END
}

FakeResult fake_launch(const char *call, const void *f, const unsigned grid[3], const unsigned block[3],
                       unsigned smem, const void *stream, void **params, void **extra)
{
    char fn[160], st[32], shown[400] = "";
    fake_obj_name(fn, sizeof fn, f, K_FUNCTION);
    fake_obj_name(st, sizeof st, stream, K_STREAM);
    show_params(shown, sizeof shown, f, params);
    BEGIN(call, "%s, %ux%ux%u, %ux%ux%u, %u, %s%s%s", fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
          smem, st, shown, extra ? ", extra" : "")
    r = launch(f, grid, block, smem, stream, params, extra, out, sizeof out);
    END
}
