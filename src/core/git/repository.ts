import fs from 'node:fs';
import path from 'node:path';
import { findUp } from '../../shared/paths.js';

/** The repository root holding a folder (a `.git` folder or file up the tree), cached per folder. */
export function repoFinder(): (dir: string) => string | null {
  const cache = new Map<string, string | null>();
  return (dir) => {
    let hit = cache.get(dir);
    if (hit === undefined) {
      const dotGit = findUp(dir, '.git');
      hit = dotGit ? path.dirname(dotGit) : null;
      cache.set(dir, hit);
    }
    return hit;
  };
}

/**
 * Whether a repository's history is cut short (`git clone --depth`). Its `.git` may be a file
 * (`gitdir: ...`) for a worktree or a submodule; a worktree's `shallow` file is in the common dir.
 */
export function isShallow(repo: string): boolean {
  let gitDir = path.join(repo, '.git');
  try {
    if (!fs.statSync(gitDir).isDirectory()) {
      const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(gitDir, 'utf8'));
      if (m) gitDir = path.resolve(repo, m[1]!.trim());
      try {
        gitDir = path.resolve(gitDir, fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim());
      } catch {
        // not a worktree: the shallow file is in gitDir itself
      }
    }
  } catch {
    return false;
  }
  return fs.existsSync(path.join(gitDir, 'shallow'));
}
