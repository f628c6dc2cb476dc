import path from 'node:path';
import { argBatches, PATHS_PER_CALL } from '../git/arg-batches.js';
import { uncommittedPaths } from '../git/changes-since.js';
import { lineBefore } from '../git/diff-hunks.js';
import type { GitRunner } from '../git/git-runner.js';
import { commitChanges, type CommitDiff, firstParentDiffs, type LoggedCommit, pathLog } from '../git/history.js';
import { isShallow } from '../git/repository.js';
import type { CommitStamp } from '../git/revisions.js';
import { groupInto } from './drift-types.js';
import { type Pending, toPosix } from './pending-ref.js';

/**
 * The bases of scanned files whose history logs can prove, without a blame each
 * (docs/reference.md#drift-verdicts), by file: line -> base. Two kinds:
 * - a file whose whole history is the one commit that added it: every line is that commit's;
 * - a file added once and since only modified, by commits that are not merges, along the first
 *   parents of HEAD: each line is followed back through those commits' own diffs (git's
 *   `-U0` hunks, computed as blame computes them) to the commit that wrote it.
 * Either way the file must have no uncommitted change and not have been renamed or copied where
 * it was added. Four git runs per repository (and per PATHS_PER_CALL files) instead of one blame
 * per file; every other file is blamed as usual. Shallow clones are left to blame, which knows
 * where their history stops, and so is a repository whose config changes how blame diffs
 * (`diff.algorithm`, `diff.indentHeuristic`, a driver's algorithm, `blame.*` ignored revisions).
 */
export async function basesWithoutBlame(byFile: ReadonlyMap<string, Pending[]>, git: GitRunner): Promise<Map<string, Map<number, CommitStamp>>> {
  const out = new Map<string, Map<number, CommitStamp>>();
  const byRepo = new Map<string, string[]>();
  for (const [file, group] of byFile) groupInto(byRepo, group[0]!.scanRepo, file);
  const batches: Promise<void>[] = [];
  for (const [repo, files] of byRepo) {
    if (isShallow(repo)) continue;
    const byRel = new Map(files.map((f) => [toPosix(path.relative(repo, f)), f]));
    for (const rels of argBatches([...byRel.keys()], PATHS_PER_CALL)) {
      const batch = rels.map((r) => byRel.get(r)!);
      const rel = new Map(batch.map((f) => [toPosix(path.relative(repo, f)), f]));
      const lines = new Map(batch.map((f) => [toPosix(path.relative(repo, f)), [...new Set(byFile.get(f)!.map((p) => p.input.line))]]));
      batches.push(basesIn(git, repo, lines).then((found) => {
        for (const [relPath, bases] of found) out.set(rel.get(relPath)!, bases);
      }));
    }
  }
  await Promise.all(batches);
  return out;
}

interface Touch {
  base: CommitStamp;
  status: string;
  merge: boolean;
}

/** Settings under which blame's diff may differ from the log's (blame is then asked). */
const BLAME_DIFF_SETTINGS = /^(diff\.algorithm|diff\.indentheuristic|diff\..+\.algorithm|blame\.ignorerevs(file)?)$/;

async function basesIn(git: GitRunner, repo: string, linesOf: ReadonlyMap<string, number[]>): Promise<Map<string, Map<number, CommitStamp>>> {
  const rels = [...linesOf.keys()];
  const found = new Map<string, Map<number, CommitStamp>>();
  const everyLine = (relPath: string, base: CommitStamp) => found.set(relPath, new Map(linesOf.get(relPath)!.map((n) => [n, base])));
  const [dirty, log, settings] = await Promise.all([uncommittedPaths(git, repo, rels), pathLog(git, repo, rels), git.settingsOf(repo)]);
  if (!dirty || !log) return found; // no commits yet, or git could not say: blame decides
  const sameDiffAsBlame = ![...settings.keys()].some((k) => BLAME_DIFF_SETTINGS.test(k));
  const { addedOnce, linear } = provable(log, dirty, linesOf, sameDiffAsBlame);
  if (addedOnce.size === 0 && linear.size === 0) return found;
  // A path-limited log cannot see where a file came from: ask each adding commit, with rename
  // detection over all its changes, whether the file was in fact renamed or copied there. At the
  // same time, the first-parent history of the files modified since, with their diffs.
  const shas = [...new Set([...addedOnce.values(), ...[...linear.values()].map((l) => l[l.length - 1]!.base)].map((b) => b.sha))];
  const [full, diffsOf] = await Promise.all([commitChanges(git, repo, shas), linear.size > 0 ? firstParentDiffs(git, repo, [...linear.keys()]) : Promise.resolve(null)]);
  if (!full) return found;
  const arrived = new Set<string>();
  for (const commit of full) {
    for (const { status, paths } of commit.changes) if (status !== 'A') arrived.add(`${commit.sha} ${paths[paths.length - 1]}`);
  }
  for (const [relPath, base] of addedOnce) if (!arrived.has(`${base.sha} ${relPath}`)) everyLine(relPath, base);
  if (!diffsOf) return found;
  for (const [relPath, list] of linear) {
    if (arrived.has(`${list[list.length - 1]!.base.sha} ${relPath}`)) continue;
    const bases = followLines(list, diffsOf.get(relPath), linesOf.get(relPath)!);
    if (bases) found.set(relPath, bases);
  }
  return found;
}

/**
 * The files of a path log whose bases its commits may prove: added once and never changed since
 * (`addedOnce`, by the adding commit), or added and since only modified, with no merge, under
 * settings that diff as blame does (`linear`, the file's commits newest first). A file with
 * uncommitted changes is neither.
 */
function provable(log: readonly LoggedCommit[], dirty: ReadonlySet<string>, linesOf: ReadonlyMap<string, number[]>, sameDiffAsBlame: boolean) {
  const touches = new Map<string, Touch[]>();
  for (const commit of log) {
    for (const { status, paths } of commit.changes) {
      groupInto(touches, paths[paths.length - 1]!, { base: { sha: commit.sha, time: commit.time }, status, merge: commit.parents > 1 });
    }
  }
  const addedOnce = new Map<string, CommitStamp>();
  const linear = new Map<string, Touch[]>();
  for (const [relPath, list] of touches) {
    if (dirty.has(relPath) || !linesOf.has(relPath)) continue;
    const added = list[list.length - 1]!;
    if (added.status !== 'A' || list.some((t) => t.merge)) continue;
    if (list.length === 1) addedOnce.set(relPath, added.base);
    else if (sameDiffAsBlame && list.slice(0, -1).every((t) => t.status === 'M')) linear.set(relPath, list);
  }
  return { addedOnce, linear };
}

/**
 * Each line's base, followed from HEAD back through a file's commits (newest first, the oldest
 * the one that added it): the first commit whose diff adds the line, else the adding commit.
 * Null (blame decides) when the first-parent diffs are not exactly the commits the log found.
 */
function followLines(touches: readonly Touch[], diffs: readonly CommitDiff[] | undefined, lines: readonly number[]): Map<number, CommitStamp> | null {
  if (!diffs || diffs.length !== touches.length) return null;
  for (let i = 0; i < touches.length; i++) {
    const d = diffs[i]!;
    const adding = i === touches.length - 1;
    if (d.sha !== touches[i]!.base.sha || d.added !== adding || (!adding && d.hunks.length === 0)) return null;
  }
  const bases = new Map<number, CommitStamp>();
  for (const line of lines) {
    let n = line;
    let i = 0;
    for (; i < touches.length - 1; i++) {
      const back = lineBefore(diffs[i]!.hunks, n);
      if (back === null) break;
      n = back;
    }
    bases.set(line, touches[i]!.base);
  }
  return bases;
}
