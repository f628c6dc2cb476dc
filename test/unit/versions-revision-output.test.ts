import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

/** A workspace whose lockfile lists `ext` (externals/ext), pinned at `pin` when given. */
function workspace(build: (ext: GitRepo) => void, pin?: (ext: GitRepo) => string) {
  const ws = tmpDir();
  const ext = GitRepo.init({}, path.join(ws, 'externals', 'ext'));
  build(ext);
  const ref = pin?.(ext);
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ...(ref === undefined ? {} : { ref }) }] }));
  return { ws, ext };
}

const run = (ws: string, ...args: string[]) => refcatInProcess(args, { cwd: ws });

describe('what a revision ref prints reads the same version back (docs/refs.md#revision-refs)', () => {
  it('--spec of a path under a submodule names the alias repository\'s commit; JSON commit is that commit too', async () => {
    const lib = GitRepo.init({ 'lib.txt': 'lib at first\n' });
    const libFirst = lib.head();
    lib.commit('lib 2', { 'lib.txt': 'lib later\n' });
    let top = '';
    const { ws, ext } = workspace((ext) => {
      ext.commit('c1', { 'f.txt': 'f\n' });
      ext.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.dir, 'sub');
      execFileSync('git', ['checkout', '-q', libFirst], { cwd: path.join(ext.dir, 'sub') });
      ext.git('add', 'sub');
      top = ext.commit('pin sub at its first commit');
      execFileSync('git', ['checkout', '-q', 'main'], { cwd: path.join(ext.dir, 'sub'), stdio: 'ignore' });
      ext.git('add', 'sub');
      ext.commit('sub moves on');
      ext.git('tag', 'later');
    });
    const spec = await run(ws, '--spec', `ext@${top.slice(0, 10)}:sub/lib.txt#L1`);
    expect(spec.stdout).toBe(`ext@${top}:sub/lib.txt#L1\n`);
    const back = await run(ws, '-q', spec.stdout.trim());
    expect(back).toMatchObject({ code: 0, stdout: 'lib at first\n' });
    const json = JSON.parse((await run(ws, '--json', 'ext@later:sub/lib.txt')).stdout);
    expect(json.refs[0]).toMatchObject({ content: 'lib later', commit: ext.head(), spec: `ext@${ext.head()}:sub/lib.txt` });
  });
});
