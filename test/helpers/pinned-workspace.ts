import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GitRepo } from './git-repo.js';
import { tmpDir } from './tmp.js';

/**
 * A workspace with one external clone, `externals/ext` (alias `ext`), built by `build`, and a
 * workspace.lock.json pinning it at what `pin` returns (no `ref` when undefined); `more` are
 * further lockfile entries.
 */
export function pinnedWorkspace(
  build: (ext: GitRepo) => void,
  pin: (ext: GitRepo) => string | undefined = () => undefined,
  more: Record<string, unknown>[] = [],
): { ws: string; ext: GitRepo } {
  const ws = tmpDir();
  const ext = GitRepo.init({}, path.join(ws, 'externals', 'ext'));
  build(ext);
  const ref = pin(ext);
  const repos = [{ alias: 'ext', name: 'ext', ...(ref === undefined ? {} : { ref }) }, ...more];
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos }));
  return { ws, ext };
}

/**
 * A workspace whose `ext` is a partial clone (`--filter=blob:none`) pinned at the first of two
 * commits of `f.txt` ('first', then 'second'): the pinned blob is not in the clone.
 */
export function partialCloneWorkspace(): { ws: string; pin: string } {
  const origin = GitRepo.init({ 'f.txt': 'first\n' });
  const pin = origin.head();
  origin.commit('c2', { 'f.txt': 'second\n' });
  origin.git('config', 'uploadpack.allowFilter', 'true');
  const ws = tmpDir();
  fs.mkdirSync(path.join(ws, 'externals'));
  execFileSync('git', ['clone', '-q', '--filter=blob:none', `file://${origin.dir}`, path.join(ws, 'externals', 'ext')], {
    env: { PATH: process.env.PATH, HOME: ws, GIT_CONFIG_NOSYSTEM: '1' },
    stdio: 'ignore',
  });
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }));
  return { ws, pin };
}
