/* syntax.c - what the type, attribute and location parsers share: growable arrays, alias
 * tables, the normalization of dialect bodies; the parsing of locations; top-level aliases.
 *
 *   loc    ::= `loc` `(` location `)`
 *   location ::= unknown | "file":line(:col)? (to ...)? | "name" (`(` location `)`)?
 *              | callsite(location at location) | fused(<attr>)?[location, ...] | #alias
 *   alias  ::= `!`name `=` type | `#`name `=` attr | `#`name `=` loc
 */
#include "ir/internal.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* ---- Helpers for growable arrays in the parser ---------------------------------------------- */

void ir_vec_push(Vec *vec, void *x) {
  if (vec->n == vec->cap) {
    vec->cap = vec->cap ? vec->cap * 2 : 8;
    void **nv = realloc(vec->v, vec->cap * sizeof *nv);
    if (!nv)
      abort();
    vec->v = nv;
  }
  vec->v[vec->n++] = x;
}

void **ir_vec_finish(IrCtx *ctx, Vec *vec) {
  void **out = ir_dup(ctx, vec->v, vec->n * sizeof(void *));
  free(vec->v);
  vec->v = NULL;
  return out;
}

/* ---- Aliases -------------------------------------------------------------------------------- */

void *ir_alias_find(Alias *tab, uint32_t n, const char *s, uint32_t len) {
  for (uint32_t i = 0; i < n; i++)
    if (tab[i].name.len == len && memcmp(tab[i].name.s, s, len) == 0)
      return tab[i].value;
  return NULL;
}

/* ---- Text normalization of dialect bodies --------------------------------------------------- */

/* Collapses runs of blanks to one space, drops blanks after an opening bracket and before a
 * closing one or a comma, and adds one after a comma; strings are copied as they are. */
Str ir_normalize_body(IrCtx *ctx, const char *s, uint32_t len) {
  char small[512] = {0};
  char *out = len * 2 + 2 <= sizeof small ? small : calloc(len * 2 + 2, 1);
  if (!out)
    abort();
  uint32_t o = 0;
  bool pending_space = false;
  for (uint32_t i = 0; i < len; i++) {
    char c = s[i];
    if (c == '"') {
      if (pending_space && o && !strchr("<([{", out[o - 1]))
        out[o++] = ' ';
      pending_space = false;
      out[o++] = c;
      for (i++; i < len && s[i] != '"'; i++) {
        if (s[i] == '\\' && i + 1 < len)
          out[o++] = s[i++];
        out[o++] = s[i];
      }
      if (i < len)
        out[o++] = '"';
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      pending_space = true;
      continue;
    }
    if (c == ',') {
      out[o++] = ',';
      pending_space = true;
      continue;
    }
    if (strchr(">)]}", c) && !(c == '>' && i + 1 < len && s[i + 1] == '=')) {
      pending_space = false;
      out[o++] = c;
      continue;
    }
    if (pending_space && o && !strchr("<([{", out[o - 1]))
      out[o++] = ' ';
    pending_space = false;
    out[o++] = c;
  }
  Str r = ir_intern(ctx, out, o);
  if (out != small)
    free(out);
  return r;
}

/* ---- Locations ------------------------------------------------------------------------------ */

static bool parse_loc_inner(Parser *p, Loc **out);

Loc *p_loc_new(Parser *p, LocKind k) {
  Loc *l = ir_alloc(p->ctx, sizeof *l);
  l->kind = k;
  return l;
}

static bool parse_loc_body(Parser *p, Loc **out);

/* A line or column of a file location: an unsigned 32-bit integer, as MLIR keeps them. */
static bool loc_number(Parser *p, uint32_t *out, const char *what) {
  const char *at = p->tok.text;
  char buf[24];
  bool ok = p_is(p, TOK_INT) && p->tok.len < sizeof buf;
  unsigned long long v = 0;
  if (ok) {
    memcpy(buf, p->tok.text, p->tok.len);
    buf[p->tok.len] = 0;
    errno = 0;
    v = strtoull(buf, NULL, 0);
    ok = !errno && v <= UINT32_MAX;
  }
  if (!ok)
    return p_error_at(p, at, "expected integer %s number in FileLineColRange", what);
  *out = (uint32_t)v;
  p_next(p);
  return true;
}

static bool parse_loc_inner(Parser *p, Loc **out) {
  if (!p_nest_enter(p, "locations"))
    return false;
  bool ok = parse_loc_body(p, out);
  p_nest_leave(p);
  return ok;
}

static bool parse_loc_body(Parser *p, Loc **out) {
  if (p_is(p, TOK_HASH)) {
    /* a #loc alias; it may be defined later in the file */
    Loc *l = ir_alias_find(p->loc_alias, p->nloc_alias, p->tok.text, p->tok.len);
    if (!l) {
      l = p_loc_new(p, LOC_UNKNOWN);
      p_defer_loc_alias(p, l, p->tok.text, p->tok.len);
    }
    *out = l;
    p_next(p);
    return true;
  }
  if (p_opt_kw(p, "unknown")) {
    *out = p_loc_new(p, LOC_UNKNOWN);
    return true;
  }
  if (p_is_kw(p, "callsite")) {
    p_next(p);
    Loc *l = p_loc_new(p, LOC_CALLSITE);
    l->kids = ir_alloc(p->ctx, 2 * sizeof(Loc *));
    l->n = 2;
    if (!p_expect(p, TOK_LPAREN, "'('") || !parse_loc_inner(p, &l->kids[0]) || !p_kw(p, "at") ||
        !parse_loc_inner(p, &l->kids[1]) || !p_expect(p, TOK_RPAREN, "')'"))
      return false;
    *out = l;
    return true;
  }
  if (p_is_kw(p, "fused")) {
    p_next(p);
    Loc *l = p_loc_new(p, LOC_FUSED);
    if (p_opt(p, TOK_LESS)) {
      if (!p_attr(p, NULL, &l->metadata) || !p_expect(p, TOK_GREATER, "'>'"))
        return false;
    }
    if (!p_expect(p, TOK_LSQUARE, "'['"))
      return false;
    Vec v = {0};
    if (!p_opt(p, TOK_RSQUARE)) {
      do {
        Loc *k;
        if (!parse_loc_inner(p, &k)) {
          free(v.v);
          return false;
        }
        ir_vec_push(&v, k);
      } while (p_opt(p, TOK_COMMA));
      if (!p_expect(p, TOK_RSQUARE, "']'")) {
        free(v.v);
        return false;
      }
    }
    l->n = v.n;
    l->kids = (Loc **)ir_vec_finish(p->ctx, &v);
    *out = l;
    return true;
  }
  if (p_is(p, TOK_STRING)) {
    Str s;
    if (!p_string(p, &s))
      return false;
    if (p_opt(p, TOK_COLON)) {
      uint32_t line, col = 0; /* `"file":line` is column 0, as in MLIR */
      if (!loc_number(p, &line, "line") || (p_opt(p, TOK_COLON) && !loc_number(p, &col, "column")))
        return false;
      Loc *l = ir_loc_file(p->ctx, s, line, col);
      if (p_opt_kw(p, "to")) {
        uint32_t a, b = 0;
        if (p_opt(p, TOK_COLON)) {
          if (!loc_number(p, &a, "column"))
            return false;
          l->end_line = l->line;
          l->end_col = a;
        } else {
          if (!loc_number(p, &a, "line") || !p_expect(p, TOK_COLON, "':'") || !loc_number(p, &b, "column"))
            return false;
          l->end_line = a;
          l->end_col = b;
        }
      }
      *out = l;
      return true;
    }
    Loc *l = p_loc_new(p, LOC_NAME);
    l->file = s;
    if (p_opt(p, TOK_LPAREN)) {
      l->kids = ir_alloc(p->ctx, sizeof(Loc *));
      l->n = 1;
      if (!parse_loc_inner(p, &l->kids[0]) || !p_expect(p, TOK_RPAREN, "')'"))
        return false;
    }
    *out = l;
    return true;
  }
  return p_error(p, "expected location instance");
}

/* loc ::= `loc` `(` location-inst `)` ; the `loc` keyword is the current token */
bool p_loc(Parser *p, Loc **out) {
  if (!p_kw(p, "loc") || !p_expect(p, TOK_LPAREN, "'(' in location"))
    return false;
  return parse_loc_inner(p, out) && p_expect(p, TOK_RPAREN, "')' in location");
}

/* ---- Top-level aliases ---------------------------------------------------------------------- */

static void alias_add(Alias **tab, uint32_t *n, uint32_t *cap, Str name, void *value) {
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    Alias *t = realloc(*tab, *cap * sizeof *t);
    if (!t)
      abort();
    *tab = t;
  }
  (*tab)[(*n)++] = (Alias){name, value};
}

/* `!name = type` | `#name = attr` | `#name = loc(...)`; the alias token is current */
bool p_alias_def(Parser *p) {
  bool is_type = p->tok.kind == TOK_BANG;
  Str name = ir_intern(p->ctx, p->tok.text, p->tok.len);
  const char *pos = p->tok.text;
  if (memchr(name.s, '.', name.len))
    return p_error(p, "expected alias name without a '.'");
  p_next(p);
  if (!p_expect(p, TOK_EQUAL, "'='"))
    return false;
  if (is_type) {
    if (ir_alias_find(p->type_alias, p->ntype_alias, name.s, name.len))
      return p_error_at(p, pos, "redefinition of type alias id '%.*s'", (int)name.len, name.s);
    Type *t;
    if (!p_type(p, &t))
      return false;
    alias_add(&p->type_alias, &p->ntype_alias, &p->cap_type_alias, name, t);
    return true;
  }
  if (ir_alias_find(p->attr_alias, p->nattr_alias, name.s, name.len) ||
      ir_alias_find(p->loc_alias, p->nloc_alias, name.s, name.len))
    return p_error_at(p, pos, "redefinition of attribute alias id '%.*s'", (int)name.len, name.s);
  if (p_is_kw(p, "loc")) {
    Loc *l;
    if (!p_loc(p, &l))
      return false;
    alias_add(&p->loc_alias, &p->nloc_alias, &p->cap_loc_alias, name, l);
    return true;
  }
  Attr *a;
  if (!p_attr(p, NULL, &a))
    return false;
  alias_add(&p->attr_alias, &p->nattr_alias, &p->cap_attr_alias, name, a);
  return true;
}

struct PendingLoc {
  Loc *slot;
  const char *name;
  uint32_t len;
};

void p_defer_loc_alias(Parser *p, Loc *slot, const char *name, uint32_t len) {
  if (p->npending == p->cappending) {
    p->cappending = p->cappending ? p->cappending * 2 : 64;
    PendingLoc *n = realloc(p->pending, p->cappending * sizeof *n);
    if (!n)
      abort();
    p->pending = n;
  }
  p->pending[p->npending++] = (PendingLoc){slot, name, len};
}

/* After the whole file: fill every loc(#alias) placeholder with its definition. */
bool p_resolve_loc_aliases(Parser *p) {
  bool ok = true;
  for (uint32_t i = 0; i < p->npending; i++) {
    PendingLoc *pl = &p->pending[i];
    Loc *l = ir_alias_find(p->loc_alias, p->nloc_alias, pl->name, pl->len);
    if (!l) {
      ok = p_error_at(p, pl->name - 1, "undefined symbol alias id '%.*s'", (int)pl->len, pl->name);
      continue;
    }
    *pl->slot = *l;
  }
  return ok;
}

void p_free_aliases(Parser *p) {
  free(p->type_alias);
  free(p->attr_alias);
  free(p->loc_alias);
  free(p->pending);
}
