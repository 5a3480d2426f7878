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

static void quote_source(IrCtx *ctx, const Loc *f) {
  for (uint32_t i = 0; i < ctx->nsources; i++) {
    SourceBuf *sb = &ctx->sources[i];
    if (sb->name.s != f->file.s)
      continue;
    const char *c = sb->text, *end = sb->text + sb->len;
    for (uint32_t line = 1; line < f->line && c < end; c++)
      if (*c == '\n')
        line++;
    if (c >= end && f->line > 1)
      return;
    const char *e = memchr(c, '\n', (size_t)(end - c));
    if (!e)
      e = end;
    fprintf(ctx->diag_out, "%.*s\n", (int)(e - c), c);
    for (uint32_t k = 1; k < f->col; k++)
      fputc(c + k - 1 < e && c[k - 1] == '\t' ? '\t' : ' ', ctx->diag_out);
    fputs("^\n", ctx->diag_out);
    return;
  }
}

static void vdiag(IrCtx *ctx, DiagSeverity sev, const Loc *loc, const char *fmt, va_list ap) {
  FILE *out = ctx->diag_out;
  if (sev == DIAG_ERROR)
    ctx->nerrors++;
  const Loc *f = ir_loc_file_of(loc);
  if (f)
    fprintf(out, "%.*s:%u:%u: ", (int)f->file.len, f->file.s, f->line, f->col);
  else if (loc && loc->kind == LOC_NAME)
    fprintf(out, "%.*s: ", (int)loc->file.len, loc->file.s);
  else if (loc)
    fputs("loc(unknown): ", out);
  else
    fputs("gpuinterp: ", out);
  fprintf(out, "%s: ", sev_name(sev));
  vfprintf(out, fmt, ap);
  fputc('\n', out);
  if (f)
    quote_source(ctx, f);
  fflush(out);
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
  const Loc *where = ir_loc_file_of(op->loc) ? op->loc : op->src;
  ir_diag(ctx, DIAG_ERROR, where, "'%.*s' op %s", (int)op->name.len, op->name.s, msg);
}
