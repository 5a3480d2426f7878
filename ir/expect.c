/* expect.c - --verify-diagnostics, as mlir-opt has it: the diagnostics a program gets must be
 * exactly those its comments expect.
 *
 *   // expected-error@+1 {{requires 2 operands}}
 *   %x = "gpu.foo"(%a) : (i32) -> i32
 *
 * A directive is `expected-(error|warning|note|remark)(-re)?`, then an optional place, then the
 * text between `{{` and the `}}` that ends the line (text after it: not a directive). The place is the directive's own line when
 * absent, `@+N` / `@-N` lines below / above it, `@above` / `@below` the nearest line that holds no
 * directive, `@unknown` a diagnostic without a file location. A diagnostic matches the first
 * unmatched directive of its severity on its line whose text it contains (for `-re`, the text
 * outside `{{...}}` is literal and the parts inside are POSIX extended regular expressions).
 *
 * While a check is on, diag.c hands every diagnostic of the context here instead of writing it:
 * a matched one is dropped, an unmatched one is written as `unexpected error: ...`, and at the end
 * each directive nothing matched is written as `expected error "..." was not produced` at the
 * directive, with the text underlined as mlir-opt does. A directive that does not parse (mlir-opt
 * has no count, `expected-error 2 {{...}}`) is not a directive. */
#include "ir/internal.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Expectation {
  DiagSeverity sev;
  bool unknown;       /* @unknown */
  bool matched;
  bool has_rx;
  bool below;         /* @below, until the next line without a directive */
  uint32_t line;      /* where the diagnostic is expected */
  uint32_t at_line, at_col; /* where the directive is */
  char *text;         /* between {{ and }} */
  regex_t rx;         /* -re */
} Expectation;

struct IrExpect {
  IrCtx *ctx;
  Str file; /* interned, as the parser names the buffer */
  Expectation *v;
  uint32_t n, cap;
  unsigned failures;
};

static const char *const sev_words[] = {"error", "warning", "note", "remark"};

/* ERE for an -re text: literal parts escaped, {{...}} parts as they are. */
static char *re_pattern(const char *t) {
  size_t len = strlen(t);
  char *out = malloc(2 * len + 1), *o = out;
  if (!out)
    abort();
  while (*t) {
    if (t[0] == '{' && t[1] == '{') {
      const char *end = strstr(t + 2, "}}");
      if (!end)
        end = t + strlen(t);
      memcpy(o, t + 2, (size_t)(end - t - 2));
      o += end - t - 2;
      t = *end ? end + 2 : end;
      continue;
    }
    if (strchr(".[]()*+?{}|^$\\", *t))
      *o++ = '\\';
    *o++ = *t++;
  }
  *o = 0;
  return out;
}

static Expectation *push(IrExpect *e) {
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 16;
    e->v = realloc(e->v, e->cap * sizeof *e->v);
    if (!e->v)
      abort();
  }
  Expectation *x = &e->v[e->n++];
  memset(x, 0, sizeof *x);
  return x;
}

/* Parses the directive at s (just past "expected-") in a line ending at end. Returns false, with
 * nothing added, when it is not one. *place: 0 plain or numeric, 'a' above, 'b' below. */
static bool parse_directive(IrExpect *e, const char *s, const char *end, uint32_t line, uint32_t col,
                            char *place) {
  int sev = -1;
  for (int k = 0; k < 4; k++) {
    size_t l = strlen(sev_words[k]);
    if ((size_t)(end - s) >= l && !strncmp(s, sev_words[k], l)) {
      sev = k;
      s += l;
      break;
    }
  }
  if (sev < 0)
    return false;
  bool re = end - s >= 3 && !strncmp(s, "-re", 3);
  if (re)
    s += 3;
  while (s < end && *s == ' ')
    s++;
  int64_t target = line;
  bool unknown = false;
  *place = 0;
  if (s < end && *s == '@') {
    s++;
    if (s < end && (*s == '+' || *s == '-')) {
      char sign = *s++;
      if (s == end || *s < '0' || *s > '9')
        return false;
      int64_t n = 0;
      while (s < end && *s >= '0' && *s <= '9' && n < 100000000)
        n = 10 * n + (*s++ - '0');
      target = sign == '+' ? target + n : target - n;
      if (target < 1)
        return false;
    } else if (end - s >= 5 && !strncmp(s, "above", 5)) {
      *place = 'a';
      s += 5;
    } else if (end - s >= 5 && !strncmp(s, "below", 5)) {
      *place = 'b';
      s += 5;
    } else if (end - s >= 7 && !strncmp(s, "unknown", 7)) {
      unknown = true;
      s += 7;
    } else {
      return false;
    }
  }
  while (s < end && *s == ' ')
    s++;
  if (end - s < 4 || s[0] != '{' || s[1] != '{' || end[-1] != '}' || end[-2] != '}')
    return false;
  const char *text = s + 2, *text_end = end - 2;
  Expectation *x = push(e);
  x->sev = (DiagSeverity)sev;
  x->unknown = unknown;
  x->line = (uint32_t)target;
  x->at_line = line;
  x->at_col = col;
  x->text = malloc((size_t)(text_end - text) + 1);
  if (!x->text)
    abort();
  memcpy(x->text, text, (size_t)(text_end - text));
  x->text[text_end - text] = 0;
  if (re) {
    char *pat = re_pattern(x->text);
    if (regcomp(&x->rx, pat, REG_EXTENDED | REG_NOSUB) == 0) {
      x->has_rx = true;
    } else {
      Loc *at = ir_loc_file(e->ctx, e->file, line, col);
      ir_diag_write(e->ctx, DIAG_ERROR, at, "invalid regular expression in expected diagnostic", 0);
      e->failures++;
    }
    free(pat);
  }
  return true;
}

IrExpect *ir_expect_begin(IrCtx *ctx, const char *filename, const char *text, size_t len) {
  return ir_expect_begin_part(ctx, filename, text, len, 1, 1);
}

IrExpect *ir_expect_begin_part(IrCtx *ctx, const char *filename, const char *text, size_t len, uint32_t first_line,
                               uint32_t first_col) {
  IrExpect *e = calloc(1, sizeof *e);
  if (!e)
    abort();
  e->ctx = ctx;
  e->file = ir_intern_cstr(ctx, filename);
  uint32_t line = first_line, last_plain = first_line - 1, first_below = UINT32_MAX;
  for (const char *c = text, *end = text + len; c < end; line++) {
    const char *eol = memchr(c, '\n', (size_t)(end - c));
    if (!eol)
      eol = end;
    const char *lend = eol > c && eol[-1] == '\r' ? eol - 1 : eol;
    const char *d = NULL;
    for (const char *s = c; s + 9 <= lend; s++)
      if (!memcmp(s, "expected-", 9)) {
        d = s;
        break;
      }
    char place = 0;
    uint32_t before = e->n;
    uint32_t col = (uint32_t)(d - c) + 1 + (c == text ? first_col - 1 : 0);
    if (d && parse_directive(e, d + 9, lend, line, col, &place)) {
      if (place == 'a')
        e->v[before].line = last_plain;
      else if (place == 'b') {
        e->v[before].below = true;
        if (first_below == UINT32_MAX)
          first_below = before;
      }
    } else {
      for (uint32_t k = first_below; k < e->n; k++)
        if (e->v[k].below) {
          e->v[k].below = false;
          e->v[k].line = line;
        }
      first_below = UINT32_MAX;
      last_plain = line;
    }
    c = eol + (eol < end);
  }
  ctx->expect = e;
  return e;
}

static bool text_matches(const Expectation *x, const char *msg) {
  if (x->has_rx)
    return regexec(&x->rx, msg, 0, NULL, 0) == 0;
  return strstr(msg, x->text) != NULL;
}

void ir_expect_handle(IrExpect *e, DiagSeverity sev, const Loc *loc, const char *msg) {
  const Loc *f = ir_loc_file_of(loc);
  bool here = f && f->file.len == e->file.len && !memcmp(f->file.s, e->file.s, e->file.len);
  for (uint32_t i = 0; i < e->n; i++) {
    Expectation *x = &e->v[i];
    if (x->matched || x->sev != sev || (x->unknown ? f != NULL : !here || x->line != f->line))
      continue;
    if (text_matches(x, msg)) {
      x->matched = true;
      return;
    }
  }
  size_t n = strlen(msg) + 32;
  char *m = malloc(n);
  if (!m)
    abort();
  snprintf(m, n, "unexpected %s: %s", sev_words[sev], msg);
  ir_diag_write(e->ctx, DIAG_ERROR, loc, m, 0);
  free(m);
  e->failures++;
}

unsigned ir_expect_end(IrExpect *e) {
  if (!e)
    return 0;
  e->ctx->expect = NULL;
  unsigned failures = e->failures;
  for (uint32_t i = 0; i < e->n; i++) {
    Expectation *x = &e->v[i];
    if (!x->matched) {
      size_t n = strlen(x->text) + 64;
      char *m = malloc(n);
      if (!m)
        abort();
      snprintf(m, n, "expected %s \"%s\" was not produced", sev_words[x->sev], x->text);
      Loc *at = ir_loc_file(e->ctx, e->file, x->at_line, x->at_col);
      ir_diag_write(e->ctx, DIAG_ERROR, at, m, (uint32_t)strlen(x->text));
      free(m);
      failures++;
    }
    free(x->text);
    if (x->has_rx)
      regfree(&x->rx);
  }
  free(e->v);
  free(e);
  return failures;
}
