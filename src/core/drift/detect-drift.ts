import path from 'node:path';
import type { Context } from '../../shared/context.js';
import type { Confinement } from '../safe-read/confinement.js';
import { GitRunner } from '../git/git-runner.js';
import { repoFinder } from '../git/repository.js';
import { applyAccepted } from './accept-drift.js';
import type { DriftEntry, DriftRefInput, DriftReport, DriftStatus, UnresolvedDriftRef } from './drift-types.js';
import { findBases } from './find-bases.js';
import { findTargets } from './find-targets.js';
import { judge } from './judge-line-refs.js';
import { type Pending, shown, unknown } from './pending-ref.js';
import { fixedRevisions, pinnedCurrents } from './current-version.js';
import type { VersionMode } from '../versions/version-reader.js';

export interface DetectDriftOptions {
  /** Compare every ref against this revision instead of the commit that last changed its line. */
  since?: string;
  /** Share a runner (and its process count) with a later fixDrift or another report. */
  git?: GitRunner;
  /**
   * Blame every scanned file, without the shortcuts that find most bases from a few logs (for
   * comparisons: tests check the shortcuts against it, the bench times it). Same verdicts.
   */
  blameEveryFile?: boolean;
  /** `refcat mcp`: a refcat-accepted.json under the root that leads outside is refused (readAccepted). */
  confine?: Confinement;
  /** Keep each line ref's target file at its base on its entry (`baseFile`), for `refcat anchor --drift`. */
  baseFiles?: boolean;
  /** `--worktree` judges pinned aliases' checkouts, not their pins; `--pinned`: a pin the clone lacks makes the ref unknown (docs/drift.md#pinned-aliases). */
  versionMode?: VersionMode;
}

/**
 * Whether each line ref still points at the code it was written against
 * (docs/reference.md#drift-verdicts). Git runs a bounded number of times: one blame per scanned
 * file with line refs, a few batch lookups per repository, one diff per (repository, base) pair;
 * independent runs (blames, diffs, lookups in different repositories) run at once, as many as the
 * runner allows.
 */
export async function detectDrift(refs: readonly (DriftRefInput | UnresolvedDriftRef)[], ctx: Context, options: DetectDriftOptions = {}): Promise<DriftReport> {
  const git = options.git ?? new GitRunner(ctx);
  const before = git.spawned;
  const entries: DriftEntry[] = [];
  const pending: Pending[] = [];
  const repoOf = repoFinder();
  const revisions: { p: Pending; rev: string; repo: string }[] = [];

  for (const input of refs) {
    const entry: DriftEntry = { file: input.file, line: input.line, ref: input.ref, status: 'anchored', base: null, newRef: null, editedLines: 0, insertedLines: 0, deletedLines: 0, oldLines: 0, reason: null };
    if (input.includedBy !== undefined) entry.includedBy = input.includedBy;
    entries.push(entry);
    if ('reason' in input) {
      unknown(entry, input.reason);
      continue;
    }
    if (input.stamp !== undefined) entry.stamp = input.stamp;
    const sel = input.spec.selector;
    if (!sel || sel.kind === 'pattern') continue;
    const scanRepo = repoOf(path.dirname(input.file));
    if (!scanRepo) {
      unknown(entry, `${shown(ctx, input.file)} is not in a git repository`);
      continue;
    }
    const p: Pending = { input, entry, selector: sel, scanRepo, scanBase: null, scanTime: 0 };
    const revRepo = input.spec.rev === undefined ? null : input.alias ? repoOf(input.alias.target) : scanRepo;
    if (input.spec.rev !== undefined) {
      if (revRepo) revisions.push({ p, rev: input.spec.rev, repo: revRepo });
      else unknown(entry, `${input.alias ? shown(ctx, input.alias.target) : 'its folder'} is not a git repository`);
    } else pending.push(p);
  }
  if (revisions.length > 0) {
    // A revision ref reads its revision: at a commit or a tag it never drifts (docs/drift.md#pinned-aliases).
    const fixed = await fixedRevisions(revisions, git);
    for (const r of revisions) {
      if (!fixed.has(`${r.repo}\0${r.rev}`)) unknown(r.p.entry, `${r.rev} is no commit or tag: ${r.p.input.ref} reads it as it is now, and drift has nothing to compare (write a commit or a tag)`);
    }
  }

  await findBases(pending, ctx, git, options.since, options.blameEveryFile ?? false);
  const live = pending.filter((p) => {
    if (p.entry.status === 'unknown') return false;
    if (p.scanBase === null) {
      p.entry.status = 'unchanged'; // written against the working tree
      return false;
    }
    return true;
  });
  await findTargets(live, ctx, git, repoOf);
  await pinnedCurrents(live.filter((p) => p.entry.status !== 'unknown'), ctx, git, options.versionMode ?? 'auto');
  await judge(live.filter((p) => p.entry.status !== 'unknown'), git, options.baseFiles ?? false);

  applyAccepted(entries, options.confine);
  const counts: Record<DriftStatus, number> = { unchanged: 0, moved: 0, changed: 0, deleted: 0, unknown: 0, anchored: 0, fixed: 0, accepted: 0 };
  for (const e of entries) counts[e.status]++;
  return { entries, counts, gitProcesses: git.spawned - before };
}
