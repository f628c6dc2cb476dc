import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileStamp, scanStamp } from '../../src/core/drift/fix-drift.js';
import { occurrences, scanOccurrences } from '../../src/core/drift/judge-line-refs.js';
import { DiskHeld, diskHolds } from '../../src/core/versions/pin-resolution.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// The shortcuts that keep --drift's cost per file rather than per ref (docs/design/drift.md#cost-per-ref-not-per-refs-file), each
// pinned to the full answer it stands for.

describe('where a block of lines is now: the per-file index equals reading every line', () => {
  // A small alphabet, so that repeated lines and repeated blocks happen.
  const line = fc.integer({ min: 0, max: 5 }).map((n) => `v${n}`);
  it('for any file and any blocks asked of it, one after another', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.array(fc.array(line, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), (lines, blocks) => {
        // The same array asked again and again: the index built for the first block serves the others.
        for (const block of blocks) expect(occurrences(lines, block)).toEqual(scanOccurrences(lines, block));
      }),
    );
  });

  it('an empty block is answered as the full scan answers it', () => {
    expect(occurrences(['a', 'b'], [])).toEqual(scanOccurrences(['a', 'b'], []));
  });
});

describe('a doc is stat-ed once for all its refs, within the step that scans it', () => {
  it('equals fileStamp in the step; a file written after the step has a new stamp', async () => {
    const dir = tmpDir();
    const a = path.join(dir, 'a.md');
    const b = path.join(dir, 'b.md');
    fs.writeFileSync(a, 'one\n');
    fs.writeFileSync(b, 'two\n');
    const first = scanStamp(a);
    expect(first).toBe(fileStamp(a));
    expect(scanStamp(a)).toBe(first);
    expect(scanStamp(b)).toBe(fileStamp(b));
    expect(scanStamp(a)).toBe(first);
    await Promise.resolve();
    fs.writeFileSync(a, 'one, longer\n');
    const second = scanStamp(a);
    expect(second).toBe(fileStamp(a));
    expect(second).not.toBe(first);
    expect(scanStamp(path.join(dir, 'missing.md'))).toBeNull();
  });
});

describe('a checkout file hashed once while it is untouched', () => {
  const oidOf = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0`).update(text).digest('hex');
  it('answers as diskHolds, before and after the file is edited, from one long-lived memo', () => {
    const file = path.join(tmpDir(), 'a.js');
    fs.writeFileSync(file, 'one\n');
    const held = new DiskHeld();
    const pinned = oidOf('one\n');
    for (let i = 0; i < 3; i++) expect(held.holds(file, pinned)).toBe(diskHolds(file, pinned));
    expect(held.holds(file, pinned)).toBe(true);
    expect(held.holds(file, oidOf('two\n'))).toBe(false);
    // Edited to the same size: the stat (times, size) still tells it apart.
    fs.writeFileSync(file, 'two\n');
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(file, later, later);
    expect(held.holds(file, pinned)).toBe(diskHolds(file, pinned));
    expect(held.holds(file, pinned)).toBe(false);
    expect(held.holds(file, oidOf('two\n'))).toBe(true);
    fs.rmSync(file);
    expect(held.holds(file, oidOf('two\n'))).toBe(false);
  });
});

describe('a lockfile read once for every ref that shares it', () => {
  interface DriftRefJson {
    file: string;
    status: string;
    base: string | null;
  }
  const A = numbered('a', 10);

  it('each ref gets the pin of its own alias; a lockfile spoiled by a null entry gives no pin (the ref is dated)', async () => {
    const root = tmpDir();
    const one = GitRepo.init({}, path.join(root, 'externals', 'one'));
    const two = GitRepo.init({}, path.join(root, 'externals', 'two'));
    const c1 = one.commit('c1', { 'lib/a.js': A }); // day 1
    const t1 = two.commit('t1', { 'lib/a.js': A });
    one.day = 2;
    two.day = 2;
    const c2 = one.commit('c2', { 'lib/a.js': 'new\n' + A }); // day 3
    two.commit('t2', { 'lib/a.js': 'new\n' + A });
    const ws = GitRepo.init({}, root);
    ws.day = 3;
    // Pins older than the docs' date: pinned, a ref's base is the pin; dated, the commit of day 3.
    const pins = { repos: [{ alias: 'one', name: 'one', ref: c1 }, { alias: 'two', name: 'two', ref: t1 }] };
    const docs: Record<string, string> = {};
    for (let d = 0; d < 6; d++) docs[`docs/d${d}.md`] = 'one:lib/a.js#L4-L5\ntwo:lib/a.js#L6-L7\n';
    ws.commit('docs', { '.gitignore': 'externals/\n', 'workspace.lock.json': JSON.stringify(pins), ...docs });
    const run = async () => {
      const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd: root });
      return (JSON.parse(r.stdout) as { drift: { refs: DriftRefJson[] } }).drift.refs;
    };
    const pinned = await run();
    expect(pinned).toHaveLength(12);
    expect(new Set(pinned.map((r) => r.base))).toEqual(new Set([c1, t1]));
    expect(pinned.filter((r) => r.base === c1)).toHaveLength(6);

    const spoiled = { repos: [null, ...pins.repos] };
    ws.commit('spoil the lockfile', { 'workspace.lock.json': JSON.stringify(spoiled), 'docs/late.md': 'one:lib/a.js#L5-L6\n' });
    // The lockfile as it is now defines the aliases; the one at the ref's base gave no pin.
    ws.commit('mend the lockfile', { 'workspace.lock.json': JSON.stringify(pins) });
    const late = (await run()).find((r) => r.file === 'docs/late.md')!;
    expect(late.base).toBe(c2);
  });
});
