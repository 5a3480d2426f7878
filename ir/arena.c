/* arena.c - the context: one bump arena that owns every IR object, the string intern table, the
 * type intern table and the source buffers kept for diagnostics.
 *
 * The arena grows in chunks and is freed all at once by ir_ctx_destroy. Interning uses open
 * addressing keyed by an FNV-1a hash; tables double when half full, so lookups stay short. */
#include "ir/internal.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << 20)

typedef struct Chunk {
  struct Chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
} Chunk;

static void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("gpuinterp: out of memory\n", stderr);
    abort();
  }
  return p;
}

IrCtx *ir_ctx_create(void) {
  IrCtx *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return NULL;
  ctx->diag_out = stderr;
  return ctx;
}

void ir_ctx_allow_unregistered(IrCtx *ctx, bool allow) { ctx->allow_unregistered = allow; }

void ir_ctx_destroy(IrCtx *ctx) {
  if (!ctx)
    return;
  for (int l = 0; l < 2; l++)
    for (Chunk *c = l ? ctx->opchunks : ctx->chunks, *n; c; c = n) {
      n = c->next;
      free(c);
    }
  free(ctx->strtab);
  free(ctx->typetab);
  for (uint32_t i = 0; i < ctx->nsources; i++)
    if (ctx->sources[i].owned)
      free(ctx->sources[i].text);
  free(ctx->sources);
  free(ctx);
}

/* What a zero-size request gets: a valid pointer to nothing, shared. */
static _Alignas(16) unsigned char nothing[16];

/* Bump-allocates bytes (a multiple of 8, not zero) from the chunk list at *head. */
static void *bump(struct Chunk **head, size_t bytes) {
  Chunk *c = *head;
  if (!c || c->cap - c->used < bytes) {
    size_t cap = bytes > CHUNK / 4 ? bytes : CHUNK;
    if (bytes > CHUNK / 4 && c) {
      /* A big object gets a chunk of its own behind the current one, so the current chunk's
       * free space is not thrown away. */
      Chunk *big = xmalloc(sizeof *big + cap);
      big->used = bytes;
      big->cap = cap;
      big->next = c->next;
      c->next = big;
      memset(big->data, 0, bytes);
      return big->data;
    }
    /* chunks start small and double up to CHUNK: a small program (a part of a split file)
     * takes little memory and no mapping of its own */
    size_t grow = c ? c->cap * 2 : CHUNK / 16;
    if (cap == CHUNK && grow < CHUNK)
      cap = grow > bytes ? grow : bytes;
    c = xmalloc(sizeof *c + cap);
    c->used = 0;
    c->cap = cap;
    c->next = *head;
    *head = c;
  }
  void *p = c->data + c->used;
  c->used += bytes;
  memset(p, 0, bytes);
  return p;
}

void *ir_alloc(IrCtx *ctx, size_t bytes) {
  if (!bytes)
    return nothing;
  bytes = (bytes + 7) & ~(size_t)7; /* 8-byte alignment is all IR objects need */
  return bump(&ctx->chunks, bytes);
}

Op *ir_alloc_op(IrCtx *ctx, uint32_t nresults) {
  Op *op = bump(&ctx->opchunks, sizeof *op + (size_t)nresults * sizeof(Value));
  op->results = nresults ? (Value *)(op + 1) : (Value *)nothing;
  return op;
}

void *ir_dup(IrCtx *ctx, const void *src, size_t bytes) {
  void *p = ir_alloc(ctx, bytes);
  if (bytes)
    memcpy(p, src, bytes);
  return p;
}

uint32_t ir_hash_bytes(const char *s, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* A slot of the intern table. The hash is kept beside the string (in what would be Str's
 * padding), so growing the table does not hash every string again, and a probe compares the
 * string's bytes only when hash and length agree: a probe past other strings reads only the
 * table, not those strings wherever they lie in the arena. */
struct StrSlot {
  const char *s;
  uint32_t len, hash;
};

Str ir_intern(IrCtx *ctx, const char *s, size_t len) {
  if (ctx->nstr * 2 >= ctx->strcap) {
    uint32_t ncap = ctx->strcap ? ctx->strcap * 2 : 1024;
    struct StrSlot *tab = calloc(ncap, sizeof *tab);
    if (!tab)
      abort();
    for (uint32_t i = 0; i < ctx->strcap; i++) {
      struct StrSlot e = ctx->strtab[i];
      if (!e.s)
        continue;
      uint32_t j = e.hash & (ncap - 1);
      while (tab[j].s)
        j = (j + 1) & (ncap - 1);
      tab[j] = e;
    }
    free(ctx->strtab);
    ctx->strtab = tab;
    ctx->strcap = ncap;
  }
  uint32_t mask = ctx->strcap - 1;
  uint32_t h = ir_hash_bytes(s, len);
  uint32_t j = h & mask;
  for (; ctx->strtab[j].s; j = (j + 1) & mask) {
    struct StrSlot e = ctx->strtab[j];
    if (e.hash == h && e.len == len && memcmp(e.s, s, len) == 0)
      return (Str){e.s, e.len};
  }
  char *copy = ir_alloc(ctx, len + 1);
  memcpy(copy, s, len);
  ctx->strtab[j] = (struct StrSlot){copy, (uint32_t)len, h};
  ctx->nstr++;
  return (Str){copy, (uint32_t)len};
}

Str ir_intern_cstr(IrCtx *ctx, const char *s) { return ir_intern(ctx, s, strlen(s)); }


/* Keeps a source buffer (a copy, or the caller's) so diagnostics can quote its lines. */
const char *ir_ctx_add_source(IrCtx *ctx, const char *name, const char *text, size_t len, uint32_t line,
                              uint32_t col, bool copy) {
  if (ctx->nsources == ctx->capsources) {
    uint32_t ncap = ctx->capsources ? ctx->capsources * 2 : 4;
    SourceBuf *s = realloc(ctx->sources, ncap * sizeof *s);
    if (!s)
      abort();
    ctx->sources = s;
    ctx->capsources = ncap;
  }
  char *buf = (char *)text;
  if (copy) {
    buf = xmalloc(len + 1);
    memcpy(buf, text, len);
    buf[len] = 0;
  }
  SourceBuf *sb = &ctx->sources[ctx->nsources++];
  sb->name = ir_intern_cstr(ctx, name);
  sb->text = buf;
  sb->owned = copy;
  sb->len = len;
  sb->line = line;
  sb->col = col;
  return buf;
}
