import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/**
 * A workspace with two aliases: `l` pinned (its clone owned, as git sees it, by another user) and
 * `plain` without a pin. Git refuses the clone the way it does in a CI container: a shim first on
 * PATH prints git's own "dubious ownership" message and exits 128 for any command run in it.
 */
function refused(pinBy: 'sha' | 'tag' = 'sha') {
  const ws = tmpDir();
  const l = GitRepo.init({}, path.join(ws, 'externals', 'l'));
  const v1 = l.commit('v1', { 'app.ts': 'one\n' });
  l.git('tag', 'v1', v1);
  l.git('tag', 'v2', l.commit('v2', { 'app.ts': 'two\n' }));
  fs.mkdirSync(path.join(ws, 'externals', 'plain'));
  fs.writeFileSync(path.join(ws, 'externals', 'plain', 'p.txt'), 'p\n');
  fs.writeFileSync(path.join(ws, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'l', name: 'l', ref: pinBy === 'sha' ? v1 : 'v1' }, { alias: 'plain', name: 'plain' }] }));
  const bin = tmpDir();
  const repo = fs.realpathSync(l.dir);
  fs.writeFileSync(
    path.join(bin, 'git'),
    `#!/bin/sh
case "$(pwd -P)" in
  "$DUBIOUS"|"$DUBIOUS"/*)
    printf "fatal: detected dubious ownership in repository at '%s'\\nTo add an exception for this directory, call:\\n\\n\\tgit config --global --add safe.directory %s\\n" "$DUBIOUS" "$DUBIOUS" >&2
    exit 128;;
esac
exec "$REAL_GIT" "$@"
`,
    { mode: 0o755 },
  );
  const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, DUBIOUS: repo, REAL_GIT: realGit };
  return { ws, repo, run: (...args: string[]) => refcatInProcess(args, { cwd: ws, env }) };
}

const fix = (repo: string) => `git config --global --add safe.directory ${repo}`;

describe('a clone git refuses for its owner (dubious ownership)', () => {
  it.each([['sha'], ['tag']] as const)('refcat aliases lists every alias; the one pinned (by %s) says what is wrong and what to run', async (pinBy) => {
    const { repo, run } = refused(pinBy);
    const r = await run('aliases');
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^l\b/m);
    expect(r.stdout).toMatch(/^plain\b/m);
    const line = r.stdout.split('\n').find((s) => s.startsWith('l '))!;
    expect(line).toContain('owned by another user');
    expect(line).toContain(fix(repo));
  });

  it.each([['l:app.ts#L1'], ['l@v2:app.ts#L1']])('%s: one line naming the problem and the fix', async (ref) => {
    const { repo, run } = refused();
    const r = await run(ref);
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((s) => s.startsWith('Error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('owned by another user');
    expect(errors[0]).toContain(fix(repo));
    expect(errors[0]).not.toContain('\t');
    expect(r.stderr).not.toContain('Unknown revision');
  });
});
