import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRunner } from '../../src/core/git/git-runner.js';
import { ObjectBatch } from '../../src/core/git/object-batch.js';
import { GitRepo } from '../helpers/git-repo.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

describe('one long-lived git cat-file --batch per repository', () => {
  it('answers many reads with one process: objects, missing names, ambiguous never confused', async () => {
    const repo = GitRepo.init({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'empty.txt': '' });
    const git = new GitRunner(testCtx(repo.dir));
    const batch = new ObjectBatch(git, repo.dir);
    try {
      const answers = await Promise.all(['HEAD:a.txt', 'HEAD:nope.txt', 'HEAD:empty.txt', 'HEAD:b.txt', 'HEAD^{commit}'].map((n) => batch.read(n)));
      expect(answers.map((a) => (a.kind === 'object' ? `${a.type}:${a.data.toString()}` : a.kind))).toEqual([
        'blob:alpha\n',
        'missing',
        'blob:',
        'blob:beta\n',
        expect.stringMatching(/^commit:tree /),
      ]);
      // The config read of the hardening, and one batch.
      expect(git.spawned).toBe(2);
      await expect(batch.read('HEAD:a\nb')).rejects.toThrow(/line break or NUL/);
    } finally {
      batch.close();
    }
  });

  it('a blob larger than the pipe buffer comes back whole, and the next answer after it is its own', async () => {
    const big = Array.from({ length: 40_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}`).join('\n') + '\n';
    const repo = GitRepo.init({ 'big.txt': big, 'small.txt': 'small\n' });
    const batch = new ObjectBatch(new GitRunner(testCtx(repo.dir)), repo.dir);
    try {
      const [a, b] = await Promise.all([batch.read('HEAD:big.txt'), batch.read('HEAD:small.txt')]);
      expect(a.kind === 'object' && a.data.equals(Buffer.from(big))).toBe(true);
      expect(b.kind === 'object' && b.data.toString()).toBe('small\n');
      // Past maxBytes the object is passed over, not held, and the next answer is still its own.
      const [skipped, after] = await Promise.all([batch.read('HEAD:big.txt', 1000), batch.read('HEAD:small.txt', 1000)]);
      expect(skipped).toMatchObject({ kind: 'object', type: 'blob', size: big.length, whole: false });
      expect(skipped.kind === 'object' && skipped.data.length).toBe(0);
      expect(after.kind === 'object' && after.data.toString()).toBe('small\n');
    } finally {
      batch.close();
    }
  });

  it('a process that dies while reading fails that read only: the next read starts it again; a second death ends the reader', async () => {
    const repo = GitRepo.init({ 'a.txt': 'alpha\n' });
    const bin = tmpDir();
    // cat-file that dies (without answering) on a name holding DIE; every other git command is git's.
    fs.writeFileSync(
      path.join(bin, 'git'),
      `#!/bin/sh\ncase "$*" in *cat-file*) while read -r line; do case "$line" in *DIE*) exit 1;; esac; echo "$line"; done | "$REAL_GIT" "$@";; *) exec "$REAL_GIT" "$@";; esac\n`,
      { mode: 0o755 },
    );
    const git = new GitRunner(testCtx(repo.dir, { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, REAL_GIT: realGit }));
    const batch = new ObjectBatch(git, repo.dir);
    try {
      expect((await batch.read('HEAD:a.txt')).kind).toBe('object');
      await expect(batch.read('HEAD:DIE')).rejects.toThrow(/git cat-file stopped/);
      const again = await batch.read('HEAD:a.txt');
      expect(again.kind === 'object' && again.data.toString()).toBe('alpha\n');
      await expect(batch.read('HEAD:DIE')).rejects.toThrow(/git cat-file stopped/);
      await expect(batch.read('HEAD:a.txt')).rejects.toThrow(/stopped twice/);
    } finally {
      batch.close();
    }
  });
});
