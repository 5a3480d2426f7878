/* module.c - the module's arena, the name table, lookups and the names of the enums.
 *
 * The arena is a list of chunks that double in size up to 1 MiB; a module is freed at once by
 * ptx_module_destroy. The name table is open addressing keyed by FNV-1a and doubles when half full,
 * so a megabyte of PTX with a few thousand distinct names costs one probe per token. */
#include "ptx/internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 20)

typedef struct Chunk {
  struct Chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
} Chunk;

struct PtxArena {
  Chunk *chunks;
};

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("gpuinterp: out of memory\n", stderr);
    abort();
  }
  return p;
}

PtxArena *ptx_arena_create(void) {
  PtxArena *a = calloc(1, sizeof *a);
  if (!a) {
    fputs("gpuinterp: out of memory\n", stderr);
    abort();
  }
  return a;
}

void ptx_arena_destroy(PtxArena *a) {
  if (!a)
    return;
  for (Chunk *c = a->chunks, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  free(a);
}

static _Alignas(16) unsigned char nothing[16];

void *ptx_alloc(PtxArena *a, size_t bytes) {
  if (!bytes)
    return nothing;
  bytes = (bytes + 7) & ~(size_t)7;
  Chunk *c = a->chunks;
  if (!c || c->cap - c->used < bytes) {
    if (bytes > CHUNK / 4 && c) {
      /* a big object gets a chunk of its own behind the current one */
      Chunk *big = xmalloc(sizeof *big + bytes);
      big->used = big->cap = bytes;
      big->next = c->next;
      c->next = big;
      memset(big->data, 0, bytes);
      return big->data;
    }
    size_t cap = c ? c->cap * 2 : CHUNK / 32;
    if (cap > CHUNK)
      cap = CHUNK;
    if (cap < bytes)
      cap = bytes;
    c = xmalloc(sizeof *c + cap);
    c->used = 0;
    c->cap = cap;
    c->next = a->chunks;
    a->chunks = c;
  }
  void *p = c->data + c->used;
  c->used += bytes;
  memset(p, 0, bytes);
  return p;
}

void *ptx_dup(PtxArena *a, const void *p, size_t bytes) {
  void *q = ptx_alloc(a, bytes);
  if (bytes)
    memcpy(q, p, bytes);
  return q;
}

/* --- names --- */

static uint32_t fnv(const char *s, uint32_t len) {
  uint32_t h = 2166136261u;
  for (uint32_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

Name *name_find(const NameTab *t, const char *s, uint32_t len) {
  if (!t->cap)
    return NULL;
  uint32_t h = fnv(s, len);
  for (uint32_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    Name *n = t->slots[i];
    if (!n)
      return NULL;
    if (n->hash == h && n->len == len && !memcmp(n->s, s, len))
      return n;
  }
}

static void grow(NameTab *t) {
  uint32_t cap = t->cap ? t->cap * 2 : 1024;
  Name **slots = calloc(cap, sizeof *slots);
  if (!slots) {
    fputs("gpuinterp: out of memory\n", stderr);
    abort();
  }
  for (uint32_t i = 0; i < t->cap; i++) {
    Name *n = t->slots[i];
    if (!n)
      continue;
    uint32_t j = n->hash & (cap - 1);
    while (slots[j])
      j = (j + 1) & (cap - 1);
    slots[j] = n;
  }
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
}

Name *name_intern(NameTab *t, PtxArena *a, const char *s, uint32_t len) {
  Name *n = name_find(t, s, len);
  if (n)
    return n;
  if ((t->count + 1) * 2 > t->cap)
    grow(t);
  n = ptx_alloc(a, sizeof *n + len + 1);
  char *copy = (char *)(n + 1);
  memcpy(copy, s, len);
  copy[len] = 0;
  n->s = copy;
  n->len = len;
  n->hash = fnv(s, len);
  uint32_t i = n->hash & (t->cap - 1);
  while (t->slots[i])
    i = (i + 1) & (t->cap - 1);
  t->slots[i] = n;
  t->count++;
  return n;
}

void name_tab_free(NameTab *t) {
  free(t->slots);
  t->slots = NULL;
  t->cap = t->count = 0;
}

/* --- the tables --- */

static const char *const op_names[] = {
#define PTX_OP(id, name) name,
#include "ptx/opcodes.def"
#undef PTX_OP
};

static const struct {
  const char *name;
  unsigned bits;
} type_info[] = {
    {"", 0},
#define PTX_TYPE(id, name, bits) {name, bits},
#include "ptx/types.def"
#undef PTX_TYPE
};

static const char *const space_names[] = {"", "reg", "sreg", "const", "global", "local", "param", "shared", "tex"};

static const char *const sreg_names[] = {
#define PTX_SREG(id, name, vec) name,
#include "ptx/sregs.def"
#undef PTX_SREG
};

const char *ptx_opcode_name(PtxOpcode op) { return (unsigned)op < PTX_OP_COUNT ? op_names[op] : "?"; }
const char *ptx_type_name(PtxType t) { return (unsigned)t < PTX_T_COUNT ? type_info[t].name : "?"; }
unsigned ptx_type_bits(PtxType t) { return (unsigned)t < PTX_T_COUNT ? type_info[t].bits : 0; }
const char *ptx_space_name(PtxSpace s) { return (unsigned)s < PTX_SPACE_COUNT ? space_names[s] : "?"; }
const char *ptx_sreg_name(PtxSreg s) { return (unsigned)s < PTX_SREG_COUNT ? sreg_names[s] : "?"; }

/* A modifier name "shared::cta" names the space before its "::". */
void name_classify(Name *n) {
  n->classified = true;
  n->mod_kind = PTX_MOD_OTHER;
  n->mod_value = 0;
  n->op = n->sreg = -1;
  for (unsigned t = 1; t < PTX_T_COUNT; t++)
    if (!strcmp(n->s, type_info[t].name)) {
      n->mod_kind = PTX_MOD_TYPE;
      n->mod_value = (uint8_t)t;
    }
  size_t head = strcspn(n->s, ":");
  for (unsigned s = PTX_SPACE_CONST; s < PTX_SPACE_COUNT; s++)
    if (strlen(space_names[s]) == head && !strncmp(n->s, space_names[s], head)) {
      n->mod_kind = PTX_MOD_SPACE;
      n->mod_value = (uint8_t)s;
    }
  if (!strcmp(n->s, "v2") || !strcmp(n->s, "v4") || !strcmp(n->s, "v8")) {
    n->mod_kind = PTX_MOD_VEC;
    n->mod_value = (uint8_t)(n->s[1] - '0');
  }
  /* opcodes.def is sorted by name */
  int lo = 0, hi = PTX_OP_COUNT - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, c = strcmp(n->s, op_names[mid]);
    if (!c) {
      n->op = (int16_t)mid;
      break;
    }
    if (c < 0)
      hi = mid - 1;
    else
      lo = mid + 1;
  }
  for (unsigned s = 0; s < PTX_SREG_COUNT; s++)
    if (!strcmp(n->s, sreg_names[s]))
      n->sreg = (int16_t)s;
}

/* --- lookups --- */

const PtxFunc *ptx_module_func(const PtxModule *m, const char *name) {
  const PtxFunc *found = NULL;
  for (uint32_t i = 0; i < m->ndecls; i++)
    if (m->decls[i].kind == PTX_DECL_FUNC && !strcmp(m->decls[i].func->name, name))
      if (!found || m->decls[i].func->defined)
        found = m->decls[i].func; /* a definition wins over a declaration */
  return found;
}

const PtxVar *ptx_module_var(const PtxModule *m, const char *name) {
  for (uint32_t i = 0; i < m->ndecls; i++)
    if (m->decls[i].kind == PTX_DECL_VAR && !strcmp(m->decls[i].var->name, name))
      return m->decls[i].var;
  return NULL;
}

bool ptx_insn_has_mod(const PtxInsn *insn, const char *name) {
  for (unsigned i = 0; i < insn->nmods; i++)
    if (!strcmp(insn->mods[i].name, name))
      return true;
  return false;
}

PtxType ptx_insn_type(const PtxInsn *insn, unsigned nth) {
  for (unsigned i = 0; i < insn->nmods; i++)
    if (insn->mods[i].kind == PTX_MOD_TYPE && !nth--)
      return (PtxType)insn->mods[i].value;
  return PTX_T_NONE;
}

PtxSpace ptx_insn_space(const PtxInsn *insn) {
  for (unsigned i = 0; i < insn->nmods; i++)
    if (insn->mods[i].kind == PTX_MOD_SPACE)
      return (PtxSpace)insn->mods[i].value;
  return PTX_SPACE_NONE;
}

void ptx_module_destroy(PtxModule *m) {
  if (m)
    ptx_arena_destroy(m->arena); /* the module itself lives in its arena */
}

int ptx_error_format(const PtxError *err, char *buf, size_t size) {
  return snprintf(buf, size, "%s:%u:%u: error: %s", err->bufname ? err->bufname : "<ptx>", err->line, err->col,
                  err->msg);
}
