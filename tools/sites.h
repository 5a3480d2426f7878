/* sites.h - the runtime's diagnostics in the front end's shape (tools/sites.c). */
#ifndef TOOLS_SITES_H
#define TOOLS_SITES_H

#include "backends/backend.h"
#include "ir/ir.h"

typedef struct Sites Sites;

/* Indexes the ops of top by location; entry names the function whose return op stands for the
 * diagnostics no op caused (NULL: none). */
Sites *sites_create(IrCtx *ctx, const Op *top, const char *entry);
void sites_destroy(Sites *s);
/* An IrDiagRewrite (user: the Sites): quoted 'file:line:col' sites become the ops' names. */
char *sites_rewrite(void *user, const Loc *loc, const char *msg);
/* A BeDiagFn (user: the Sites): the device's diagnostic through ir_diag, with its notes. */
void sites_sink(const BeDiag *d, void *user);

#endif
