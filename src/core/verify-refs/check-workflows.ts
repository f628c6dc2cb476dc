/**
 * The check stage of `verify refs` for a workflow (docs/design/verify-refs.md#the-pipeline): each
 * planned workflow's refs checked as `validate` checks them (docs/reference.md#verify-refs).
 */
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { RefError } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import type { Finding } from '../../shared/errors.js';
import { checkConvRefs, relaxedBy, relaxMissing, searchDirsFor, workflowAliases } from '../workflow/validate-conv.js';
import { convRefs } from '../workflow/conv-refs.js';
import type { ConversationFile } from '../workflow/conv-types.js';
import { prepareSymbolRefs } from '../symbols/prepare-symbol-refs.js';
import type { RefToCheck } from '../versions/run-versions.js';
import type { PlannedWorkflow } from './plan-workflows.js';
import { driftInput, type VerifyRun } from './verify-run.js';

/**
 * Checks a scanned workflow's refs, after the workflows outside the scan that check some of its
 * parts (`through`); their symbol grammars and refs at a version are read first. Returns how many
 * refs were checked.
 */
export async function checkPlannedWorkflow(workflow: PlannedWorkflow, run: VerifyRun): Promise<number> {
  const chain = [...workflow.through, workflow];
  for (const w of chain) {
    if (w.conv instanceof RefError) continue;
    await prepareSymbolRefs(convRefs(w.conv).map((r) => r.ref));
    await run.versions.prepare(workflowRefs(w.conv, run.ctx), workflowAliases(w.conv, run.ctx, run.aliases, (p) => p, []));
  }
  let count = 0;
  for (const w of chain) count += checkWorkflow(w, run);
  return count;
}

/** A workflow's refs, as checkConvRefs looks them up. */
function workflowRefs(conv: ConversationFile, ctx: Context): RefToCheck[] {
  return convRefs(conv).map((r) => ({ ref: r.ref, dirs: searchDirsFor(r.directive, ctx) }));
}

/** The directives holding refs: a file's are checked only by the workflow that owns it. */
const REF_DIRECTIVES = new Set(['REFCAT', 'CONTEXT', 'CONTEXT-OPTIONAL']);

function checkWorkflow(workflow: PlannedWorkflow, run: VerifyRun): number {
  const { ctx, findings, driftRefs } = run;
  const { file, conv: loaded, owns } = workflow;
  if (loaded instanceof RefError) {
    findings.push({ severity: 'error', code: loaded.code, message: loaded.message, details: [], file, line: null });
    return 0;
  }
  const display = (p: string) => shownPath(ctx.cwd, p);
  // Every ALIAS defines aliases for the whole workflow; a file's refs (and its bad ALIAS lines)
  // are checked only where the file is owned.
  const conv = { ...loaded, directives: loaded.directives.filter((d) => owns.has(d.file) || !REF_DIRECTIVES.has(d.name)) };
  const own: Finding[] = [];
  const aliases = workflowAliases(loaded, ctx, run.aliases, display, own);
  const count = checkConvRefs(conv, ctx, aliases, own, false, run.budget, run.confine, undefined, run.versions.prepared);
  // The workflow's VALIDATION-MODE relaxes its refs here as in validate: one verdict from both.
  relaxMissing(own, relaxedBy(loaded, false));
  findings.push(...own.filter((f) => owns.has(f.file)));
  const refused = new Set(own.filter((f) => f.code === 'outside_root').map((f) => `${f.file}\0${f.line}\0${f.ref}`));
  for (const r of driftRefs ? convRefs(conv) : []) {
    if (refused.has(`${r.directive.file}\0${r.directive.line}\0${r.ref}`)) continue;
    const input = driftInput(r.directive.file, r.directive.line, r.ref, r.ref, aliases, [path.dirname(r.directive.file), ctx.cwd]);
    if (!run.scanned.has(r.directive.file)) input.includedBy = file;
    driftRefs!.push(input);
  }
  return count;
}
