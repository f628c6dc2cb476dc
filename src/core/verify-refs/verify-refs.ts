import type { Context } from '../../shared/context.js';
import type { SkippedFile } from '../walk/collect-files.js';
import { collectFiles } from '../walk/collect-files.js';
import type { DriftReport } from '../drift/drift-types.js';
import type { SnippetReport } from '../snippets/judge-snippets.js';
import { READ_AT_PIN } from '../versions/run-versions.js';
import { groupNotCloned } from './group-not-cloned.js';
import { addSuggestions, pinnedTrees } from './suggest-fixes.js';
import type { RefFinding } from './ref-finding.js';
import { checkPlannedWorkflow } from './check-workflows.js';
import { planWorkflows } from './plan-workflows.js';
import { findRefs, readDoc } from './find-refs.js';
import { checkFoundRefs, readsNothing } from './check-refs.js';
import { driftPass } from './drift-pass.js';
import { detachSince, resultsMark, startRun, type VerifyRun } from './verify-run.js';
import type { VerifyRefsOptions, VerifyRefsReport } from './verify-types.js';

/** The file types `verify refs` scans in folders (docs/reference.md#verify-refs). */
export const VERIFY_EXTENSIONS: readonly string[] = ['.md', '.conv', '.txt', '.yaml', '.yml'];

export type { VerifyRefsOptions, VerifyRefsReport } from './verify-types.js';
export type { RefFinding } from './ref-finding.js';
export { addSuggestions } from './suggest-fixes.js';

/**
 * `refcat verify refs` (docs/reference.md#verify-refs): check only the references in `paths` (default `.`). A `.conv`
 * file has its REFCAT / CONTEXT refs checked as `validate` does (ALIAS and INCLUDE included);
 * other files are scanned for refs (find-refs.ts). A doc's relative ref is looked up in the doc's
 * folder, then in the folder being scanned, then in cwd. Throws UsageError for a path that does
 * not exist.
 *
 * One pipeline, each stage called with values the one before made (docs/design/verify-refs.md#the-pipeline):
 * collect files, plan workflows, then file by file find refs, read what they need, check and judge
 * them; then drift once over every ref found, and the report.
 */
export async function verifyRefs(paths: readonly string[], ctx: Context, options: VerifyRefsOptions = {}): Promise<VerifyRefsReport> {
  const run = startRun(ctx, options);
  const { files, skipped } = collectFiles(paths.length > 0 ? paths : ['.'], ctx, {
    extensions: VERIFY_EXTENSIONS,
    exclude: options.exclude,
    skipIgnored: options.skipIgnored,
    confine: options.confine,
  });
  const scanned = files.map((f) => f.path);
  for (const f of scanned) run.scanned.add(f);
  const workflows = planWorkflows(scanned, ctx, options);
  let refsFound = 0;
  let drift: VerifyRefsReport['drift'];
  try {
    for (const [i, file] of files.entries()) {
      options.onProgress?.(i, files.length);
      const mark = resultsMark(run);
      const workflow = workflows.get(file.path);
      refsFound += workflow ? await checkPlannedWorkflow(workflow, run) : await checkDoc(file.path, file.root, run);
      detachSince(run, mark);
    }
    if (run.driftRefs) options.onRefs?.(run.driftRefs);
    drift = options.drift && run.driftRefs ? await driftPass(run.driftRefs, options.drift, run) : undefined;
    if (options.suggestFixes) addSuggestions(run.findings, run.aliases, files.map((f) => f.root), ctx, await pinnedTrees(run.findings, run.aliases, run.versions));
  } finally {
    run.versions.close();
  }

  const grouped = groupNotCloned(run.findings, run.aliases, ctx, { allowMissing: options.allowMissing ?? false, exists: run.folderThere });
  return reportOf(grouped, { filesScanned: files.length, skipped, refsFound, strict: options.strict ?? false, snippets: run.snippets, drift });
}

/**
 * A doc through the stages: read once, its refs found, its refs at a version read from git (once
 * a run), then every ref checked (a grammar loaded when a ref first has to parse with it). Returns
 * how many refs were found.
 */
async function checkDoc(file: string, root: string, run: VerifyRun): Promise<number> {
  const text = readDoc(file, run.ctx, run.findings);
  if (text === null) return 0;
  const refs = findRefs(file, root, text, run.ctx, { resolver: run.aliases, isKnownAlias: run.isKnownAlias });
  // A ref into a folder not cloned is never read: no grammar loads and no git runs for it.
  const read = refs.some((r) => r.ref.includes(':')) ? refs.filter((r) => !readsNothing(r, run)) : refs;
  if (run.versions.pending(read)) await run.versions.prepare(read, run.aliases);
  await checkFoundRefs(file, refs, run);
  return refs.length;
}

/** The report of a run from its findings (not-cloned refs grouped) and what it scanned. */
function reportOf(
  grouped: readonly RefFinding[],
  scan: { filesScanned: number; skipped: SkippedFile[]; refsFound: number; strict: boolean; snippets: SnippetReport | undefined; drift: VerifyRefsReport['drift'] },
): VerifyRefsReport {
  const errors = grouped.filter((f) => f.severity === 'error');
  const warnings = grouped.filter((f) => f.severity === 'warning');
  // A pinned alias read at its pin is judged right: the warning that says so fails no --strict run.
  const failing = warnings.filter((w) => w.code !== READ_AT_PIN);
  // Findings without a ref (a malformed ALIAS, an unreadable file) fail the run but are not refs.
  const broken = new Set(errors.flatMap((f): { file: string; line: number | null; ref?: string }[] => f.refs ?? (f.ref ? [f] : [])).map((f) => `${f.file}\0${f.line}\0${f.ref}`)).size;
  return {
    filesScanned: scan.filesScanned,
    skipped: scan.skipped,
    refsFound: scan.refsFound,
    valid: scan.refsFound - broken,
    broken,
    errors,
    warnings,
    passed:
      errors.length === 0 && !(scan.strict && failing.length > 0) && driftPasses(scan.drift, scan.strict) && (scan.snippets?.stale ?? 0) === 0,
    ...(scan.snippets ? { snippets: scan.snippets } : {}),
    ...(scan.drift ? { drift: scan.drift } : {}),
  };
}

/** Changed and deleted refs fail the check; moved and unknown ones only with --strict. */
function driftPasses(drift: DriftReport | undefined, strict: boolean): boolean {
  if (!drift) return true;
  const { changed, deleted, moved, unknown } = drift.counts;
  // A file --fix could not write (or would not, a link leading out) fails the run.
  const unwritten = (drift.notFixed ?? []).some((n) => n.kind === 'unwritable' || n.kind === 'outside');
  // A changed symbol ref still names the right code: a warning (docs/drift.md#symbol-refs).
  const byName = drift.entries.filter((e) => e.status === 'changed' && e.byName).length;
  return changed - byName + deleted === 0 && !unwritten && !(strict && moved + unknown + byName > 0);
}
