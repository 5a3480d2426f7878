/* diag.c - diagnostics in mlir-opt's shape.
 *
 *   prog.mlir:12:5: error: 'gpu.wait' op ...
 *     %t = gpu.wait async [%a]
 *       ^
 *
 * The source line and caret are shown when the location is a file:line:col inside a buffer this
 * context has read; otherwise only the first line is written (as mlir-opt does for locations
 * without a source). A location in a file the context has not read (a lowered program's
 * locations, mapped back to the program it came from by -mlir-print-debuginfo) gets its source
 * line from the file on disk, as mlir-opt's SourceMgr handler loads it.
 *
 * Every diagnostic goes through ir_diag_write: one lock orders the writers (the simulator reports
 * from its worker threads), stdout is flushed first so that a program's output and its
 * diagnostics interleave in the order they happened when both go to one file, and a process-wide
 * count of what was written gives the closing summary (ir_diag_summary). Library code only
 * reports; the caller decides the exit status. */
#include "ir/internal.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t diag_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned total_errors, total_warnings;

void ir_diag_set_stream(IrCtx *ctx, FILE *out) { ctx->diag_out = out; }
void ir_diag_set_rewrite(IrCtx *ctx, IrDiagRewrite fn, void *user) {
  ctx->rewrite = fn;
  ctx->rewrite_user = user;
}
unsigned ir_error_count(const IrCtx *ctx) { return ctx->nerrors; }

static const char *sev_name(DiagSeverity s) {
  switch (s) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  case DIAG_NOTE: return "note";
  default: return "remark";
  }
}

/* The buffer of file `name` that holds `line`: one the context read (of a split file's parts, the
 * last that starts at or before the line), else the file read now (once; a file that cannot be
 * read is remembered as such, text NULL). */
static const SourceBuf *source_of(IrCtx *ctx, Str name, uint32_t line) {
  const SourceBuf *best = NULL;
  for (uint32_t i = 0; i < ctx->nsources; i++) {
    const SourceBuf *sb = &ctx->sources[i];
    if (sb->name.len == name.len && !memcmp(sb->name.s, name.s, name.len) && sb->line <= line &&
        (!best || sb->line > best->line))
      best = sb;
  }
  if (best)
    return best;
  char path[4096];
  if (!name.len || name.len >= sizeof path)
    return NULL;
  memcpy(path, name.s, name.len);
  path[name.len] = 0;
  FILE *f = strcmp(path, "-") && strcmp(path, "<stdin>") ? fopen(path, "rb") : NULL;
  char *text = NULL;
  size_t len = 0, cap = 0;
  while (f) {
    if (len == cap) {
      char *t = cap < (256u << 20) ? realloc(text, cap = cap ? cap * 2 : 65536) : NULL;
      if (!t) {
        free(text);
        text = NULL;
        break;
      }
      text = t;
    }
    size_t n = fread(text + len, 1, cap - len, f);
    len += n;
    if (n == 0)
      break;
  }
  if (f)
    fclose(f);
  ir_ctx_add_source(ctx, path, text ? text : "", text ? len : 0, 1, 1, true);
  free(text);
  SourceBuf *sb = &ctx->sources[ctx->nsources - 1];
  if (!text) {
    free(sb->text);
    sb->text = NULL;
  }
  return sb;
}

const char *ir_diag_source_line(IrCtx *ctx, Str file, uint32_t line, size_t *len) {
  pthread_mutex_lock(&diag_lock);
  const SourceBuf *sb = source_of(ctx, file, line);
  const char *c = NULL;
  if (sb && sb->text && line) {
    const char *p = sb->text, *end = sb->text + sb->len;
    for (uint32_t l = sb->line; l < line && p; l++)
      if ((p = memchr(p, '\n', (size_t)(end - p))))
        p++;
    if (p) {
      const char *e = memchr(p, '\n', (size_t)(end - p));
      *len = (size_t)((e ? e : end) - p);
      c = p;
    }
  }
  pthread_mutex_unlock(&diag_lock);
  return c;
}

static void quote_source(IrCtx *ctx, const Loc *f, uint32_t underline) {
  const SourceBuf *sb = source_of(ctx, f->file, f->line);
  if (sb && sb->text && f->line) {
    /* a buffer that starts inside a line (a part of a split file) shows blanks for the rest */
    const char *c = sb->text, *end = sb->text + sb->len;
    uint32_t pad = f->line == sb->line ? sb->col - 1 : 0;
    for (uint32_t line = sb->line; line < f->line && c < end; c++)
      if (*c == '\n')
        line++;
    if (c >= end && f->line > sb->line)
      return;
    const char *e = memchr(c, '\n', (size_t)(end - c));
    if (!e)
      e = end;
    fprintf(ctx->diag_out, "%*s%.*s\n", (int)pad, "", (int)(e - c), c);
    for (uint32_t k = 1; k < f->col; k++) /* column k is c[k - 1 - pad] */
      fputc(k > pad && c + (k - 1 - pad) < e && c[k - 1 - pad] == '\t' ? '\t' : ' ', ctx->diag_out);
    fputc('^', ctx->diag_out);
    for (uint32_t k = 0; k < underline; k++)
      fputc('~', ctx->diag_out);
    fputc('\n', ctx->diag_out);
  }
}

/* Writes one diagnostic: the file:line:col prefix, the message, then the source line with a
 * caret (and `underline` tildes after it, for a range). */
void ir_diag_write(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *msg, uint32_t underline) {
  FILE *out = ctx->diag_out;
  const Loc *f = ir_loc_file_of(loc);
  pthread_mutex_lock(&diag_lock);
  if (out == stderr) { /* what is captured elsewhere (tools/diff.c) is neither flushed for nor counted */
    fflush(stdout);
    if (sev == DIAG_ERROR)
      total_errors++;
    else if (sev == DIAG_WARNING)
      total_warnings++;
  }
  if (f)
    fprintf(out, "%.*s:%u:%u: ", (int)f->file.len, f->file.s, f->line, f->col);
  else if (loc && loc->kind == LOC_NAME)
    fprintf(out, "%.*s: ", (int)loc->file.len, loc->file.s);
  else if (loc)
    fputs("loc(unknown): ", out);
  else
    fputs("gpuinterp: ", out);
  fprintf(out, "%s: %s\n", sev_name(sev), msg);
  if (f)
    quote_source(ctx, f, underline);
  fflush(out);
  pthread_mutex_unlock(&diag_lock);
}

void ir_diag_count_printed(DiagSeverity sev) {
  pthread_mutex_lock(&diag_lock);
  if (sev == DIAG_ERROR)
    total_errors++;
  else if (sev == DIAG_WARNING)
    total_warnings++;
  pthread_mutex_unlock(&diag_lock);
}

/* "1 error", "2 warnings", "1 error, 2 warnings": only the counts that are not zero. */
void ir_diag_summary_text(unsigned errors, unsigned warnings, char *buf, size_t n) {
  buf[0] = 0;
  if (errors && warnings)
    snprintf(buf, n, "%u error%s, %u warning%s", errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
  else if (errors)
    snprintf(buf, n, "%u error%s", errors, errors == 1 ? "" : "s");
  else if (warnings)
    snprintf(buf, n, "%u warning%s", warnings, warnings == 1 ? "" : "s");
}

bool ir_diag_summary(FILE *out, const char *prefix) {
  char text[96];
  pthread_mutex_lock(&diag_lock);
  ir_diag_summary_text(total_errors, total_warnings, text, sizeof text);
  pthread_mutex_unlock(&diag_lock);
  if (!text[0])
    return false;
  fflush(stdout);
  fprintf(out, "%s: %s\n", prefix, text);
  fflush(out);
  return true;
}

/* Formats the message, then writes it, or hands it to --verify-diagnostics (expect.c) when that
 * is checking this context's diagnostics. */
static void vdiag(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *fmt, va_list ap) {
  if (sev == DIAG_ERROR)
    ctx->nerrors++;
  char small[1024], *msg = small;
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(small, sizeof small, fmt, aq);
  va_end(aq);
  if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)))
    vsnprintf(msg, (size_t)n + 1, fmt, ap);
  if (!msg)
    msg = small;
  char *named = ctx->rewrite ? ctx->rewrite(ctx->rewrite_user, loc, msg) : NULL;
  if (named) {
    if (msg != small)
      free(msg);
    msg = named;
  }
  if (ctx->expect)
    ir_expect_handle(ctx->expect, sev, loc, msg);
  else
    ir_diag_write(ctx, sev, loc, msg, 0);
  if (msg != small)
    free(msg);
}

void ir_diag(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vdiag(ctx, sev, loc, fmt, ap);
  va_end(ap);
}

void ir_op_error(IrCtx *ctx, const Op *op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ir_diag(ctx, DIAG_ERROR, ir_op_loc(op), "'%.*s' op %s", (int)op->name.len, op->name.s, msg);
}

const Loc *ir_op_loc(const Op *op) { return ir_loc_file_of(op->loc) ? op->loc : op->src; }

void ir_op_diag(IrCtx *ctx, DiagSeverity sev, const Op *op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ir_diag(ctx, sev, ir_op_loc(op), "%s", msg);
}
