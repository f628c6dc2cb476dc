import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';

const X = numbered('x', 30);

describe('verify refs --fix (docs/reference.md#drift-verdicts)', () => {
  it('rewrites only the moved refs\' characters: BOM, CRLF, trailing spaces and the other refs stay', async () => {
    const doc = '\uFEFF# Notes on @lib/x.js#L20  \r\nSee @lib/x.js#L10-L12, then more.   \r\nAnd `@lib/x.js#L1` plus @lib/x.js#L10-L12 again\r\n@lib/x.js#L25 last';
    const repo = GitRepo.init({ 'lib/x.js': X, 'docs/notes.md': doc });
    repo.commit('insert', { 'lib/x.js': 'top 1\ntop 2\n' + X.replace('x 20\n', 'x twenty\n') });
    const r = await refcatInProcess(['verify', 'refs', '--fix'], { cwd: repo.dir });
    expect(r.stdout.split('\n')).toEqual([
      expect.stringMatching(/^✗ FAILED: .*; drift: 0 unchanged, 0 moved, 1 changed, 0 deleted, 0 unknown, 0 anchored, 4 fixed$/),
      expect.stringMatching(/^ {2}CHANGED docs\/notes\.md:1: @lib\/x\.js#L20: 1 of 1 lines edited/),
      '  FIXED docs/notes.md:2: @lib/x.js#L10-L12 → @lib/x.js#L12-L14',
      '  FIXED docs/notes.md:3: @lib/x.js#L1 → @lib/x.js#L3',
      '  FIXED docs/notes.md:3: @lib/x.js#L10-L12 → @lib/x.js#L12-L14',
      '  FIXED docs/notes.md:4: @lib/x.js#L25 → @lib/x.js#L27',
      '',
    ]);
    expect(r.code).toBe(1); // the changed ref
    expect(repo.read('docs/notes.md')).toBe(
      '\uFEFF# Notes on @lib/x.js#L20  \r\nSee @lib/x.js#L12-L14, then more.   \r\nAnd `@lib/x.js#L3` plus @lib/x.js#L12-L14 again\r\n@lib/x.js#L27 last',
    );
    // A second run (after committing the fix) finds nothing left to move.
    repo.commit('fix refs');
    const again = await refcatInProcess(['verify', 'refs', '--fix', '--json'], { cwd: repo.dir });
    const drift = (JSON.parse(again.stdout) as { drift: Record<string, number> }).drift;
    expect([drift.moved, drift.fixed]).toEqual([0, 0]);
  });

  it('fixes .conv files in place and keeps the file mode', async () => {
    const conv = 'MODEL gpt\nREFCAT @lib/x.js#L5 @lib/x.js#/x 7/\nCONTEXT @lib/x.js#L8-L9\nPROMPT look\n';
    const repo = GitRepo.init({ 'lib/x.js': X, 'flow.conv': conv });
    fs.chmodSync(path.join(repo.dir, 'flow.conv'), 0o640);
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'flow.conv'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  FIXED flow.conv:2: @lib/x.js#L5 → @lib/x.js#L6\n');
    expect(repo.read('flow.conv')).toBe('MODEL gpt\nREFCAT @lib/x.js#L6 @lib/x.js#/x 7/\nCONTEXT @lib/x.js#L9-L10\nPROMPT look\n');
    expect(fs.statSync(path.join(repo.dir, 'flow.conv')).mode & 0o777).toBe(0o640);
  });

  it('--dry-run prints what --fix would change and writes nothing', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': 'See @lib/x.js#L5\n' });
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    for (const args of [['--fix', '--dry-run'], ['--dry-run']]) {
      const r = await refcatInProcess(['verify', 'refs', ...args], { cwd: repo.dir });
      expect(r.stdout).toContain('  WOULD FIX notes.md:1: @lib/x.js#L5 → @lib/x.js#L6 (since ');
      expect(r.stdout).toContain('1 moved');
      expect(repo.read('notes.md')).toBe('See @lib/x.js#L5\n');
    }
  });

  it('a moved ref that shares its line with a changed or deleted ref waits: rewriting the line would end their verdicts unreviewed', async () => {
    const doc = 'See @lib/x.js#L5-L7 and @lib/x.js#L10.\nAlso @lib/x.js#L12\nThen @lib/x.js#L14 and @lib/gone.js#L1\n';
    const repo = GitRepo.init({ 'lib/x.js': X, 'lib/gone.js': 'g\n', 'docs/d.md': doc });
    repo.commit('insert and edit', { 'lib/x.js': 'new\n' + X.replace('x 10\n', 'x ten\n'), 'lib/gone.js': null });
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--fix', '--json'], { cwd: repo.dir });
    const drift = (JSON.parse(r.stdout) as { drift: { not_fixed: { line: number; kind: string; ref: string }[]; fixed: number } }).drift;
    expect(drift.not_fixed.map((n) => [n.line, n.kind, n.ref])).toEqual([
      [1, 'review_first', '@lib/x.js#L5-L7'],
      [3, 'review_first', '@lib/x.js#L14'],
    ]);
    expect(drift.fixed).toBe(1);
    expect(repo.read('docs/d.md')).toBe('See @lib/x.js#L5-L7 and @lib/x.js#L10.\nAlso @lib/x.js#L13\nThen @lib/x.js#L14 and @lib/gone.js#L1\n');
    // Committed, the changed ref is still changed: its base is still the commit it was written against.
    repo.commit('fix what could be fixed');
    const again = await refcatInProcess(['verify', 'refs', 'docs', '--drift'], { cwd: repo.dir });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('  CHANGED docs/d.md:1: @lib/x.js#L10: 1 of 1 lines edited');
  });

  it('changed, deleted and unknown refs are never rewritten', async () => {
    const doc = '@lib/x.js#L3\n@lib/gone.js#L1\n';
    const repo = GitRepo.init({ 'lib/x.js': X, 'lib/gone.js': 'g\n', 'notes.md': doc });
    repo.commit('change', { 'lib/x.js': X.replace('x 3\n', 'x three\n'), 'lib/gone.js': null });
    const r = await refcatInProcess(['verify', 'refs', '--fix'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('FIXED');
    expect(repo.read('notes.md')).toBe(doc);
  });
});
