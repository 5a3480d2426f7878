/* diag.c - diagnostics in mlir-opt's shape.
 *
 *   prog.mlir:12:5: error: 'gpu.wait' op ...
 *     %t = gpu.wait async [%a]
 *       ^
 *
 * The source line and caret are shown when the location is a file:line:col inside a buffer this
 * context has read; otherwise only the first line is written (as mlir-opt does for locations
 * without a source). Library code only reports; the caller decides the exit status. */
#include "ir/internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void ir_diag_set_stream(IrCtx *ctx, FILE *out) { ctx->diag_out = out; }
unsigned ir_error_count(const IrCtx *ctx) { return ctx->nerrors; }

static const char *sev_name(DiagSeverity s) {
  switch (s) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  case DIAG_NOTE: return "note";
  default: return "remark";
  }
}

static void quote_source(IrCtx *ctx, const Loc *f, uint32_t underline) {
  for (uint32_t i = 0; i < ctx->nsources; i++) {
    SourceBuf *sb = &ctx->sources[i];
    if (sb->name.s != f->file.s)
      continue;
    if (f->line < sb->line)
      continue;
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
    return;
  }
}

/* Writes one diagnostic: the file:line:col prefix, the message, then the source line with a
 * caret (and `underline` tildes after it, for a range). */
void ir_diag_write(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *msg, uint32_t underline) {
  FILE *out = ctx->diag_out;
  const Loc *f = ir_loc_file_of(loc);
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
