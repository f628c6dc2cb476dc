import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refcat } from '../helpers/cli.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';

// The process edge of --drift and --fix: exit codes, stdout and stderr of the built bin.
describe('refcat verify refs --drift / --fix (bin)', () => {
  const X = numbered('x', 20);

  it('moved refs: exit 0 with --drift, then --fix rewrites them and a second --fix finds nothing', () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'docs/flow.conv': 'PROMPT look\nREFCAT @../lib/x.js#L4-L6\n' });
    const sha = repo.head().slice(0, 7);
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    expect(refcat(['verify', 'refs', '--drift'], { cwd: repo.dir })).toEqual({
      code: 0,
      stdout:
        '✓ PASSED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken; drift: 0 unchanged, 1 moved, 0 changed, 0 deleted, 0 unknown, 0 anchored\n' +
        `  MOVED docs/flow.conv:2: @../lib/x.js#L4-L6 → @../lib/x.js#L5-L7 (since ${sha})\n`,
      stderr: '',
    });
    const fixed = refcat(['verify', 'refs', '--fix'], { cwd: repo.dir });
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('  FIXED docs/flow.conv:2: @../lib/x.js#L4-L6 → @../lib/x.js#L5-L7\n');
    expect(repo.read('docs/flow.conv')).toBe('PROMPT look\nREFCAT @../lib/x.js#L5-L7\n');
    repo.commit('fix');
    const again = refcat(['verify', 'refs', '--fix'], { cwd: repo.dir });
    expect(again.stdout).toContain('drift: 1 unchanged, 0 moved');
    expect(again.stdout).not.toContain('FIXED');
  });

  it('without git on PATH: one line on stderr, exit 2, no stack trace', () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    const r = refcat(['verify', 'refs', '--drift'], { cwd: repo.dir, env: { PATH: path.join(repo.dir, 'empty-bin') } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Error: git is not installed (or not on PATH): --drift and --fix need the git command\n');
  });

  it('a bad --since revision: one line on stderr, exit 2', () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    const r = refcat(['verify', 'refs', '--since', 'v9.9.9'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Error: Unknown revision for --since: v9.9.9 (in .)\n');
  });
});
