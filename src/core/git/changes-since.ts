import { argBatches, PATHS_PER_CALL } from './arg-batches.js';
import { parseDiff, type RepoChanges } from './diff-hunks.js';
import type { GitRunner } from './git-runner.js';

/**
 * What became of `rels` between `base` and the working tree (or the commit `to`), reading no other file's content: a
 * diff of the referenced paths only; when one of them is gone, renames are found over names only
 * (`--name-status`, no content in the output) and just those pairs are content-diffed
 * (docs/reference.md#drift-verdicts).
 */
export async function changesSince(git: GitRunner, repo: string, base: string, rels: readonly string[], to?: string): Promise<RepoChanges> {
  const revs = to === undefined ? [base] : [base, to];
  const changes = await contentDiff(git, repo, revs, rels);
  const gone = new Set([...changes.values()].filter((c) => c.newPath === null).map((c) => c.oldPath));
  if (gone.size === 0) return changes;
  const names = await git.run(repo, ['diff', '--no-ext-diff', '--no-textconv', '-M', '--name-status', '-z', ...revs, '--']);
  const pairs: string[] = [];
  const fields = names.toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; ) {
    const status = fields[i]!;
    const two = status.startsWith('R') || status.startsWith('C');
    if (two && status.startsWith('R') && gone.has(fields[i + 1]!)) pairs.push(fields[i + 1]!, fields[i + 2]!);
    i += two ? 3 : 2;
  }
  for (const [k, v] of await contentDiff(git, repo, revs, pairs)) changes.set(k, v);
  return changes;
}

async function contentDiff(git: GitRunner, repo: string, revs: readonly string[], paths: readonly string[]): Promise<RepoChanges> {
  const changes: RepoChanges = new Map();
  for (const batch of argBatches(paths, PATHS_PER_CALL)) {
    const args = ['--literal-pathspecs', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', '-M', '-U0', ...revs, '--', ...batch];
    for (const [k, v] of parseDiff((await git.run(repo, args)).toString('utf8'))) changes.set(k, v);
  }
  return changes;
}

/**
 * Which of `rels` differ in the working tree from HEAD (uncommitted changes); null when git
 * cannot say (no commit yet).
 */
export async function uncommittedPaths(git: GitRunner, repo: string, rels: readonly string[]): Promise<Set<string> | null> {
  const out = await git.tryRun(repo, ['--literal-pathspecs', 'diff', '--no-ext-diff', '--no-textconv', '--name-only', '-z', 'HEAD', '--', ...rels]);
  return out ? new Set(out.toString('utf8').split('\0')) : null;
}
