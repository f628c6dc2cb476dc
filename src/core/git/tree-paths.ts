import { argBatches, PATHS_PER_CALL } from './arg-batches.js';
import type { GitRunner } from './git-runner.js';

/**
 * Which of `rels` (paths from the repository root) the tree of `rev` holds, whether or not their
 * objects can be read: `git ls-tree` reads trees only, so it tells a path a revision never had
 * from one whose blob a partial clone or a damaged repository lacks.
 */
export async function pathsAt(git: GitRunner, repo: string, rev: string, rels: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const batch of argBatches(rels, PATHS_PER_CALL)) {
    const out = await git.run(repo, ['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', '--name-only', rev, '--', ...batch]);
    for (const name of out.toString('utf8').split('\0')) if (name !== '') found.add(name);
  }
  return found;
}

/** Every file path (`/`-separated, from the root) the tree of `commit` holds, with its mode. */
export async function filesAt(git: GitRunner, repo: string, commit: string): Promise<{ path: string; mode: string }[]> {
  const out = await git.run(repo, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  const files: { path: string; mode: string }[] = [];
  for (const entry of out.toString('utf8').split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab === -1) continue;
    files.push({ path: entry.slice(tab + 1), mode: entry.slice(0, entry.indexOf(' ')) });
  }
  return files;
}
