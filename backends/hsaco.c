/* hsaco.c — reads what an AMD code object (an HSACO: the ELF that hipModuleLoadData loads) says
 * about its kernels, for the checks of launches on the hip backend and for the fake HIP runtime.
 *
 * A code object is an ELF64 file for EM_AMDGPU. What it holds:
 *   - its symbols (.symtab, else .dynsym): each kernel has a kernel descriptor, the object symbol
 *     `NAME.kd` that the runtime launches by; an undefined symbol is a function the object calls
 *     and nothing defines (a ROCm device library function such as __ocml_sin_f32, when the
 *     libraries were not linked in), which no runtime can resolve;
 *   - a note of type NT_AMDGPU_METADATA (32) owned by "AMDGPU": a MessagePack map, whose
 *     `amdhsa.target` names the chip (`amdgcn-amd-amdhsa--gfx90a`) and whose `amdhsa.kernels`
 *     lists each kernel: `.name`, `.symbol` (its descriptor), `.max_flat_workgroup_size` and
 *     `.args`, one map per kernel argument with its `.offset` and `.size` in the kernarg segment
 *     and its `.value_kind` (`global_buffer` for a pointer, `by_value`, and the `hidden_*`
 *     arguments the runtime fills in itself, which a launch does not pass).
 * Every read is bounded by the size given: a truncated or malformed object is an error with what
 * was wrong, never a read past its end. The MessagePack reader knows every format byte and skips
 * what the map holds besides the keys above.
 */
#include "backends/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EM_AMDGPU_ = 224, SHT_SYMTAB_ = 2, SHT_NOTE_ = 7, SHT_DYNSYM_ = 11, NT_AMDGPU_METADATA_ = 32 };
enum { MAX_DEPTH = 32 };

static uint64_t rd(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

size_t be_hsaco_extent(const void *data)
{
    const uint8_t *p = data;
    if (!p || memcmp(p, "\x7f" "ELF", 4) != 0 || p[4] != 2 || p[5] != 1 || rd(p + 18, 2) != EM_AMDGPU_)
        return 0;
    uint64_t shoff = rd(p + 40, 8), phoff = rd(p + 32, 8);
    uint64_t shend = shoff + rd(p + 60, 2) * rd(p + 58, 2), phend = phoff + rd(p + 56, 2) * rd(p + 54, 2);
    uint64_t end = shend > phend ? shend : phend;
    return end > (1ull << 32) ? 0 : end < 64 ? 64 : (size_t)end;
}

/* ---- MessagePack ---- */

typedef struct Mp {
    const uint8_t *p, *end;
    bool bad;
} Mp;

static uint64_t take(Mp *m, unsigned n)
{
    if (m->bad || (size_t)(m->end - m->p) < n) {
        m->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | m->p[i]; /* big-endian */
    m->p += n;
    return v;
}

/* The next value's format: 'm' map, 'a' array, 's' string, 'u' unsigned, 'i' signed, 'o' other
 * (skipped whole); *n: the count, the string's length, or the integer. */
static char head(Mp *m, uint64_t *n)
{
    unsigned b = (unsigned)take(m, 1);
    *n = 0;
    if (m->bad)
        return 'o';
    if (b <= 0x7f) return *n = b, 'u';
    if (b >= 0xe0) return *n = b, 'i';
    if (b >= 0x80 && b <= 0x8f) return *n = b & 0xf, 'm';
    if (b >= 0x90 && b <= 0x9f) return *n = b & 0xf, 'a';
    if (b >= 0xa0 && b <= 0xbf) return *n = b & 0x1f, 's';
    switch (b) {
    case 0xc0: case 0xc2: case 0xc3: return 'o';
    case 0xc4: case 0xc5: case 0xc6: *n = take(m, 1u << (b - 0xc4)); return 'b';
    case 0xca: take(m, 4); return 'o';
    case 0xcb: take(m, 8); return 'o';
    case 0xcc: case 0xcd: case 0xce: case 0xcf: *n = take(m, 1u << (b - 0xcc)); return 'u';
    case 0xd0: case 0xd1: case 0xd2: case 0xd3: *n = take(m, 1u << (b - 0xd0)); return 'i';
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8: take(m, 1 + (1u << (b - 0xd4))); return 'o';
    case 0xc7: case 0xc8: case 0xc9: *n = take(m, 1u << (b - 0xc7)); take(m, 1); return 'b';
    case 0xd9: case 0xda: case 0xdb: *n = take(m, 1u << (b - 0xd9)); return 's';
    case 0xdc: case 0xdd: *n = take(m, 2u << (b - 0xdc)); return 'a';
    case 0xde: case 0xdf: *n = take(m, 2u << (b - 0xde)); return 'm';
    }
    m->bad = true; /* 0xc1: never used */
    return 'o';
}

static void bytes(Mp *m, uint64_t n)
{
    if (m->bad || (uint64_t)(m->end - m->p) < n)
        m->bad = true;
    else
        m->p += n;
}

static void skip(Mp *m, int depth)
{
    uint64_t n;
    char k = head(m, &n);
    if (depth > MAX_DEPTH)
        m->bad = true;
    if (k == 's' || k == 'b')
        bytes(m, n);
    else if (k == 'a' || k == 'm')
        for (uint64_t i = 0; i < n * (k == 'm' ? 2 : 1) && !m->bad; i++)
            skip(m, depth + 1);
}

/* A string value into buf (truncated to cap - 1); false (skipped) when the value is no string. */
static bool str(Mp *m, char *buf, size_t cap, int depth)
{
    const uint8_t *at = m->p;
    uint64_t n;
    if (head(m, &n) != 's') {
        m->p = at;
        skip(m, depth);
        return false;
    }
    const uint8_t *s = m->p;
    bytes(m, n);
    if (m->bad)
        return false;
    size_t k = n < cap - 1 ? (size_t)n : cap - 1;
    memcpy(buf, s, k);
    buf[k] = '\0';
    return true;
}

static uint64_t uint_(Mp *m, int depth)
{
    const uint8_t *at = m->p;
    uint64_t n;
    if (head(m, &n) == 'u')
        return n;
    m->p = at;
    skip(m, depth);
    m->bad = true;
    return 0;
}

static void arg_read(Mp *m, BeHsacoArg *a)
{
    uint64_t n;
    if (head(m, &n) != 'm') {
        m->bad = true;
        return;
    }
    for (uint64_t i = 0; i < n && !m->bad; i++) {
        char key[64] = "", kind[64] = "";
        str(m, key, sizeof key, 3);
        if (strcmp(key, ".offset") == 0)
            a->offset = (uint32_t)uint_(m, 3);
        else if (strcmp(key, ".size") == 0)
            a->size = (uint32_t)uint_(m, 3);
        else if (strcmp(key, ".value_kind") == 0 && str(m, kind, sizeof kind, 3)) {
            a->hidden = strncmp(kind, "hidden_", 7) == 0;
            a->pointer = strcmp(kind, "global_buffer") == 0 || strcmp(kind, "dynamic_shared_pointer") == 0;
        } else
            skip(m, 3);
    }
}

static void kernel_read(Mp *m, BeHsacoKernel *k)
{
    uint64_t n;
    if (head(m, &n) != 'm') {
        m->bad = true;
        return;
    }
    for (uint64_t i = 0; i < n && !m->bad; i++) {
        char key[64] = "";
        str(m, key, sizeof key, 2);
        if (strcmp(key, ".name") == 0)
            str(m, k->name, sizeof k->name, 2);
        else if (strcmp(key, ".symbol") == 0)
            str(m, k->symbol, sizeof k->symbol, 2);
        else if (strcmp(key, ".max_flat_workgroup_size") == 0)
            k->max_flat = (uint32_t)uint_(m, 2);
        else if (strcmp(key, ".args") == 0) {
            uint64_t na;
            if (head(m, &na) != 'a' || na > (uint64_t)(m->end - m->p)) {
                m->bad = true;
                return;
            }
            free(k->args);
            k->args = calloc(na ? na : 1, sizeof *k->args);
            if (!k->args) {
                m->bad = true;
                return;
            }
            k->nargs = (uint32_t)na;
            for (uint64_t j = 0; j < na && !m->bad; j++)
                arg_read(m, &k->args[j]);
        } else
            skip(m, 2);
    }
}

static bool metadata_read(BeHsaco *h, const uint8_t *p, size_t n)
{
    Mp m = {p, p + n, false};
    uint64_t nk;
    if (head(&m, &nk) != 'm')
        return false;
    for (uint64_t i = 0; i < nk && !m.bad; i++) {
        char key[64] = "";
        str(&m, key, sizeof key, 0);
        if (strcmp(key, "amdhsa.target") == 0) {
            str(&m, h->target, sizeof h->target, 0);
        } else if (strcmp(key, "amdhsa.kernels") == 0) {
            uint64_t nks;
            if (head(&m, &nks) != 'a' || nks > (uint64_t)(m.end - m.p) || h->kernels)
                return false;
            h->kernels = calloc(nks ? nks : 1, sizeof *h->kernels);
            if (!h->kernels)
                return false;
            h->nkernels = (uint32_t)nks;
            for (uint64_t j = 0; j < nks && !m.bad; j++)
                kernel_read(&m, &h->kernels[j]);
        } else {
            skip(&m, 1);
        }
    }
    return !m.bad;
}

/* ---- ELF ---- */

static void name_add(char ***v, uint32_t *n, const char *s, size_t len)
{
    char **p = realloc(*v, (*n + 1) * sizeof *p);
    if (!p)
        return;
    *v = p;
    if ((p[*n] = malloc(len + 1))) {
        memcpy(p[*n], s, len);
        p[*n][len] = '\0';
        (*n)++;
    }
}

/* The symbols of section sh (a symbol table) whose names are in its linked string table: defined
 * kernel descriptors into kds, undefined names into undefined. */
static bool symbols_read(BeHsaco *h, const uint8_t *p, size_t size, const uint8_t *sh, const uint8_t *shdrs,
                         uint64_t shnum)
{
    uint64_t off = rd(sh + 24, 8), len = rd(sh + 32, 8), link = rd(sh + 40, 4), ent = rd(sh + 56, 8);
    if (ent < 24 || off > size || len > size - off || link >= shnum)
        return false;
    const uint8_t *ss = shdrs + link * 64;
    uint64_t soff = rd(ss + 24, 8), slen = rd(ss + 32, 8);
    if (soff > size || slen > size - soff)
        return false;
    const char *strs = (const char *)p + soff;
    for (uint64_t i = 1; i < len / ent; i++) {
        const uint8_t *s = p + off + i * ent;
        uint64_t name = rd(s, 4), shndx = rd(s + 6, 2);
        unsigned bind = s[4] >> 4;
        if (name >= slen)
            return false;
        const char *nm = strs + name;
        size_t nl = strnlen(nm, (size_t)(slen - name));
        if (!nl)
            continue;
        if (shndx == 0 && bind != 0) /* undefined, and not local */
            name_add(&h->undefined, &h->nundefined, nm, nl);
        else if (shndx != 0 && nl > 3 && memcmp(nm + nl - 3, ".kd", 3) == 0)
            name_add(&h->kds, &h->nkds, nm, nl);
    }
    return true;
}

BeHsaco *be_hsaco_read(const void *data, size_t size, char *err, size_t errlen)
{
    const uint8_t *p = data;
    BeHsaco *h = NULL;
    const char *why = NULL;
    if (size < 64 || memcmp(p, "\x7f" "ELF", 4) != 0) {
        why = "it is not an ELF file";
        goto fail;
    }
    if (p[4] != 2 || p[5] != 1 || rd(p + 18, 2) != EM_AMDGPU_) {
        why = "it is not a 64-bit little-endian ELF file for AMDGPU (EM_AMDGPU)";
        goto fail;
    }
    uint64_t shoff = rd(p + 40, 8), shnum = rd(p + 60, 2), shentsize = rd(p + 58, 2);
    if (shnum && (shentsize != 64 || shoff > size || shnum > (size - shoff) / 64)) {
        why = "its section headers lie past its end";
        goto fail;
    }
    if (!(h = calloc(1, sizeof *h))) {
        why = "out of memory";
        goto fail;
    }
    const uint8_t *shdrs = p + shoff;
    bool symtab = false, notes = false;
    for (uint64_t i = 0; i < shnum; i++)
        symtab |= rd(shdrs + i * 64 + 4, 4) == SHT_SYMTAB_;
    for (uint64_t i = 0; i < shnum; i++) {
        const uint8_t *sh = shdrs + i * 64;
        uint64_t type = rd(sh + 4, 4), off = rd(sh + 24, 8), len = rd(sh + 32, 8);
        if (type == (symtab ? SHT_SYMTAB_ : SHT_DYNSYM_)) {
            if (!symbols_read(h, p, size, sh, shdrs, shnum)) {
                why = "its symbol table lies past its end";
                goto fail;
            }
        } else if (type == SHT_NOTE_) {
            if (off > size || len > size - off) {
                why = "a note section lies past its end";
                goto fail;
            }
            for (uint64_t at = 0; at + 12 <= len;) {
                const uint8_t *n = p + off + at;
                uint64_t namesz = rd(n, 4), descsz = rd(n + 4, 4), ntype = rd(n + 8, 4);
                uint64_t desc = 12 + ((namesz + 3) & ~3ull), next = desc + ((descsz + 3) & ~3ull);
                if (namesz > len || descsz > len || at + desc + descsz > len) {
                    why = "a note lies past its end";
                    goto fail;
                }
                if (ntype == NT_AMDGPU_METADATA_ && namesz == 7 && memcmp(n + 12, "AMDGPU", 7) == 0) {
                    if (notes || !metadata_read(h, n + desc, (size_t)descsz)) {
                        why = "its AMDGPU metadata note is not the MessagePack map of code object v3 and later";
                        goto fail;
                    }
                    notes = true;
                }
                at += next;
            }
        }
    }
    if (!notes) {
        why = "it has no AMDGPU metadata note (NT_AMDGPU_METADATA), which code objects since v3 carry";
        goto fail;
    }
    return h;
fail:
    snprintf(err, errlen, "not an AMD code object: %s", why);
    be_hsaco_free(h);
    return NULL;
}

const BeHsacoKernel *be_hsaco_kernel(const BeHsaco *h, const char *name)
{
    for (uint32_t i = 0; h && i < h->nkernels; i++)
        if (strcmp(h->kernels[i].name, name) == 0)
            return &h->kernels[i];
    return NULL;
}

bool be_hsaco_has_kd(const BeHsaco *h, const char *name)
{
    size_t n = strlen(name);
    for (uint32_t i = 0; h && i < h->nkds; i++)
        if (strncmp(h->kds[i], name, n) == 0 && strcmp(h->kds[i] + n, ".kd") == 0)
            return true;
    return false;
}

void be_hsaco_free(BeHsaco *h)
{
    if (!h)
        return;
    for (uint32_t i = 0; i < h->nkernels; i++)
        free(h->kernels[i].args);
    free(h->kernels);
    for (uint32_t i = 0; i < h->nkds; i++)
        free(h->kds[i]);
    free(h->kds);
    for (uint32_t i = 0; i < h->nundefined; i++)
        free(h->undefined[i]);
    free(h->undefined);
    free(h);
}
