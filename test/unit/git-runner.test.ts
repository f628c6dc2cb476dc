import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_SLOTS, GitError, GitRunner, GitSlots } from '../../src/core/git/git-runner.js';
import { detectDrift, parseRef } from '../../src/index.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// A git that cannot be started is one call's error, and git processes are capped across runners
// (every verify_refs call of refcat mcp, every check of refcat lsp has its own runner).

/** A child process that failed to start as it does when file descriptors run out: no pipes, an error event. */
function failingSpawn(code: string) {
  return (() => {
    const child = Object.assign(new EventEmitter(), { stdin: null, stdout: null, stderr: null, pid: undefined });
    process.nextTick(() => child.emit('error', Object.assign(new Error(`spawn git ${code}`), { code, errno: -24, syscall: 'spawn git' })));
    return child;
  }) as unknown as typeof import('node:child_process').spawn;
}

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

describe('a git that cannot be started', () => {
  it('EMFILE (no pipes, then an error event) is a one-line GitError for that run, not an uncaught error', async () => {
    const dir = tmpDir();
    const git = new GitRunner(testCtx(dir, { PATH: process.env.PATH ?? '' }), { spawn: failingSpawn('EMFILE') });
    const err = await git.run(dir, ['status']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitError);
    expect((err as Error).message).toBe(`git could not be started in ${dir}: spawn git EMFILE (too many open files; try again with fewer calls at once)`);
    // The runner goes on: its slots were given back.
    const again = new GitRunner(testCtx(dir, { PATH: process.env.PATH ?? '' }));
    expect((await again.run(dir, ['--version'])).toString()).toMatch(/^git version/);
  });

  it('a spawn that throws at once is a GitError too', async () => {
    const dir = tmpDir();
    const throwing = (() => {
      throw Object.assign(new Error('spawn E2BIG'), { code: 'E2BIG' });
    }) as unknown as typeof import('node:child_process').spawn;
    const git = new GitRunner(testCtx(dir, {}), { spawn: throwing });
    await expect(git.tryRun(dir, ['status'])).rejects.toThrow(new GitError(`git could not be started in ${dir}: spawn E2BIG`));
  });

  it.runIf(process.platform !== 'win32')('a `git` on PATH that cannot be executed (a folder: EACCES) fails the drift call with one line', async () => {
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 10), 'notes.md': 'See @lib/x.js#L2-L3\n' });
    const bin = tmpDir();
    fs.mkdirSync(path.join(bin, 'git'));
    const file = path.join(repo.dir, 'notes.md');
    const err = await detectDrift([{ file, line: 1, ref: '@lib/x.js#L2-L3', spec: parseRef('@lib/x.js#L2-L3'), alias: null, searchDirs: [repo.dir] }], testCtx(repo.dir, { PATH: bin })).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/^git could not be started in .*: spawn git EACCES$/);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('git processes are capped across runners', () => {
  it('three runners of eight runs each never have more git processes at once than the shared slots (counted by a git shim)', async () => {
    const dir = tmpDir();
    const bin = tmpDir();
    const log = path.join(bin, 'log');
    fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "start $$" >> "$SHIM_LOG"\nsleep 0.2\n"$REAL_GIT" "$@"\nstatus=$?\necho "end $$" >> "$SHIM_LOG"\nexit $status\n`, { mode: 0o755 });
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, SHIM_LOG: log, REAL_GIT: realGit };
    const slots = new GitSlots(2);
    // Each runner alone would run 4 at once.
    const runners = [1, 2, 3].map(() => new GitRunner(testCtx(dir, env), { concurrency: 4, slots }));
    const outputs = await Promise.all(runners.flatMap((git) => Array.from({ length: 8 }, () => git.run(dir, ['--version']))));
    expect(outputs.map((o) => o.toString().startsWith('git version'))).toEqual(Array(24).fill(true));
    let running = 0;
    let peak = 0;
    const events = fs.readFileSync(log, 'utf8').trim().split('\n');
    for (const e of events) {
      running += e.startsWith('start ') ? 1 : -1;
      peak = Math.max(peak, running);
    }
    // 3 config reads (one per runner) and 24 runs.
    expect(events.length).toBe(2 * 27);
    expect(peak).toBe(2);
    expect(slots.peak).toBe(2);
  });

  it('every runner shares the slots of the process by default, as many as the cores (at least 2)', async () => {
    expect(GIT_SLOTS.size).toBeGreaterThanOrEqual(2);
    const dir = tmpDir();
    const before = GIT_SLOTS.peak;
    const runners = [1, 2, 3, 4].map(() => new GitRunner(testCtx(dir, { PATH: process.env.PATH ?? '' })));
    await Promise.all(runners.flatMap((git) => Array.from({ length: GIT_SLOTS.size * 2 }, () => git.run(dir, ['--version']))));
    expect(GIT_SLOTS.peak).toBeLessThanOrEqual(GIT_SLOTS.size);
    expect(Math.max(before, ...runners.map((r) => r.peak))).toBeLessThanOrEqual(GIT_SLOTS.size);
  });
});
