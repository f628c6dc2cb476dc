import type { AliasResolver } from '../alias/resolve-aliases.js';
import { loadConv } from './load-conv.js';
import { convRefs } from './conv-refs.js';
import { searchDirsFor, sortFindings, workflowAliases } from './validate-conv.js';
import type { Context } from '../../shared/context.js';
import type { RefBatch } from '../extract/extract-batches.js';
import type { Diagnostic, Finding } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';

/**
 * `--from-workflow FILE`: the REFCAT refs and CONTEXT / CONTEXT-OPTIONAL `@` patterns of a `.conv`
 * (INCLUDEs followed), one batch per ref so that each is looked up in its own workflow file's
 * folder, then in cwd (docs/reference.md#validate), with the workflow's ALIAS directives. Problems that lose refs
 * (a missing or cyclic INCLUDE, a bad ALIAS) are errors; the rest is `refcat validate`'s job.
 */
export function workflowRefs(file: string, ctx: Context, aliases: AliasResolver): { batches: RefBatch[]; errors: Diagnostic[] } {
  const display = (p: string) => shownPath(ctx.cwd, p);
  // A relative `file` is relative to ctx.cwd; a workflow that cannot be read throws RefError.
  const conv = loadConv(file, { cwd: ctx.cwd, display });
  const findings: Finding[] = conv.problems.filter((p) => p.severity === 'error' && p.code.startsWith('include_'));
  const resolver = workflowAliases(conv, ctx, aliases, display, findings);
  const errors = sortFindings(findings, conv.files).map((f) => ({
    code: f.code,
    message: f.message,
    details: [...f.details, `at ${display(f.file)}:${f.line}`],
  }));
  const batches = convRefs(conv).map((r) => ({
    inputs: [r.ref],
    searchDirs: searchDirsFor(r.directive, ctx),
    aliases: resolver,
    optional: r.kind === 'CONTEXT-OPTIONAL',
    at: `${display(r.directive.file)}:${r.directive.line}`,
  }));
  return { batches, errors };
}
