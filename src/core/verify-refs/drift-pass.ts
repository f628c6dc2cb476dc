/**
 * The drift stage of `verify refs` (docs/design/verify-refs.md#the-pipeline), once a run after every
 * file was checked: drift over every ref found (docs/drift.md), with --fix and --accept, and the
 * cited snippets judged at their refs' base (docs/snippets.md#with---drift), refreshed with
 * --fix-snippets.
 */
import { extract } from '../extract/extract.js';
import { detectDrift } from '../drift/detect-drift.js';
import type { DriftRefInput, UnresolvedDriftRef } from '../drift/drift-types.js';
import { fixDrift } from '../drift/fix-drift.js';
import { acceptDrift } from '../drift/accept-drift.js';
import type { SnippetEntry } from '../snippets/judge-snippets.js';
import {
  fixedSelections,
  judgeAtBase,
  judgeFixedAgain,
  keepBareRefs,
  refreshSelections,
  refreshSnippets,
  type SelectedLines,
  selectionKey,
  type SnippetSelection,
} from '../snippets/snippet-drift.js';
import type { VerifyRefsOptions, VerifyRefsReport } from './verify-types.js';
import type { VerifyRun } from './verify-run.js';

export async function driftPass(
  driftRefs: readonly (DriftRefInput | UnresolvedDriftRef)[],
  opts: NonNullable<VerifyRefsOptions['drift']>,
  run: VerifyRun,
): Promise<NonNullable<VerifyRefsReport['drift']>> {
  const { snippets, versions, isKnownAlias } = run;
  const versionMode = versions.policy.mode;
  const found = await detectDrift(driftRefs, run.ctx, { since: opts.since, git: opts.git, blameEveryFile: opts.blameEveryFile, confine: run.confine, versionMode });
  keepBareRefs(found, run.bareRefs);
  const dryRun = opts.dryRun ?? false;
  const fixes = opts.fix ? await fixDrift(found, run.ctx, { dryRun, isKnownAlias }) : [];
  const acceptances = opts.accept ? acceptDrift(found, run.ctx, { dryRun }) : undefined;
  const drift: NonNullable<VerifyRefsReport['drift']> = { ...found, dryRun, fixes, ...(acceptances ? { acceptances } : {}) };
  if (snippets) {
    // A snippet's lines as its (new) ref selects them now, looked up as the doc's refs are.
    const asRef = (s: SnippetEntry, ref: string) => (s.citation.bare && !ref.startsWith('@') ? '@' + ref : ref);
    // The new refs read the version the old ones did (docs/refs.md#what-each-command-reads).
    const newRefs = new Map<string, string[]>();
    for (const e of drift.entries) if (e.newRef) newRefs.set(e.file, [...(newRefs.get(e.file) ?? []), e.newRef]);
    await versions.prepare(snippets.entries.flatMap((s) => (newRefs.get(s.file) ?? []).map((ref) => ({ ref: asRef(s, ref), dirs: s.searchDirs }))), run.aliases);
    // The lines each new ref selects, extracted here before the snippet step that judges or writes them.
    const selectAll = (wanted: readonly SnippetSelection[]): SelectedLines =>
      new Map(
        wanted.map(({ entry, ref }) => {
          const report = extract([asRef(entry, ref)], run.ctx, { searchDirs: [...entry.searchDirs], aliases: run.aliases, patternBudget: run.budget, versions: versions.prepared });
          return [selectionKey(entry, ref), report.errors.length === 0 ? report.results : null];
        }),
      );
    judgeAtBase(snippets, drift);
    judgeFixedAgain(snippets, drift, selectAll(fixedSelections(snippets, drift)));
    if (opts.fixSnippets) {
      snippets.refresh = { ...refreshSnippets(snippets, drift, selectAll(refreshSelections(snippets, drift)), { dryRun, isKnownAlias }), dryRun };
    }
  }
  return drift;
}
