import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/core/paging/fd-store.js';
import { AtomicFile } from '../../src/core/safe-write/atomic-file.js';
import { acquireLock } from '../../src/core/safe-write/write-lock.js';
import { watchInterrupts } from '../../src/shared/interrupt.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// The process edge listens for Ctrl-C only while something is registered to undo
// (src/shared/interrupt.ts). A signal that comes before it listens ends the process by the
// default action, so whatever is on disk then stays. Hence the order these tests pin down:
// listen first, then create. (The end-to-end test in test/hostile/hostile-input.test.ts hit the
// other order about once in ten runs on a loaded machine: an fd entry folder and its temp file
// left behind.)

/** Every path under `dir`, relative, at the moment the process edge would start listening. */
function watchFrom(dir: string): { atListen: string[][]; transitions: boolean[] } {
  const seen = { atListen: [] as string[][], transitions: [] as boolean[] };
  watchInterrupts((active) => {
    seen.transitions.push(active);
    if (active) seen.atListen.push(fs.readdirSync(dir, { recursive: true }).map(String).sort());
  });
  return seen;
}

afterEach(() => watchInterrupts(undefined));

describe('refcat listens for an interrupt before it creates what the interrupt must remove', () => {
  it("an atomic file's temp file", () => {
    const dir = tmpDir();
    const seen = watchFrom(dir);
    const file = new AtomicFile(path.join(dir, 'out.txt'));
    expect(fs.readdirSync(dir)).toEqual([path.basename(file.temp)]);
    file.write('x');
    file.commit();
    expect(seen.atListen).toEqual([[]]);
    expect(seen.transitions).toEqual([true, false]);
  });

  it('an atomic file that cannot be created stops listening and throws', () => {
    const dir = tmpDir();
    const seen = watchFrom(dir);
    fs.mkdirSync(path.join(dir, 'gone'));
    expect(() => new AtomicFile(path.join(dir, 'gone', 'missing', 'out.txt'))).toThrow(/ENOENT/);
    expect(seen.transitions).toEqual([true, false]);
  });

  it('a write lock', () => {
    const dir = tmpDir();
    const seen = watchFrom(dir);
    const release = acquireLock(path.join(dir, 'doc.md'), { shown: 'doc.md' });
    expect(fs.readdirSync(dir).length).toBe(1);
    release();
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(seen.atListen).toEqual([[]]);
    expect(seen.transitions).toEqual([true, false]);
  });

  it('a lock held by another writer times out, and nothing is left listening', () => {
    const dir = tmpDir();
    const target = path.join(dir, 'doc.md');
    const release = acquireLock(target, { shown: 'doc.md' });
    const seen = watchFrom(dir);
    expect(() => acquireLock(target, { shown: 'doc.md', waitMs: 0 })).toThrow(/being written by another refcat/);
    release();
    expect(seen.transitions.at(-1)).toBe(false);
  });

  it('an fd entry folder (fd read of stdin)', () => {
    const dir = tmpDir();
    const storeDir = path.join(dir, 'store');
    fs.mkdirSync(path.join(storeDir, '1'), { recursive: true }); // taken: the next id is used
    const seen = watchFrom(dir);
    const pending = Store.at(testCtx(dir), storeDir).newFd('stdin');
    expect(pending.id).toBe('fd:2');
    expect(seen.atListen).toEqual([['store', 'store/1']]);
    pending.abort();
    expect(fs.readdirSync(storeDir)).toEqual(['1']);
    expect(seen.transitions.at(-1)).toBe(false);
  });

  it('a ref: version folder (ref export --save)', () => {
    const dir = tmpDir();
    const storeDir = path.join(dir, 'store');
    const store = Store.at(testCtx(dir), storeDir);
    store.putRef('a', 'first\n', 'answer.md', 1, { bytes: 6, chars: 6, lines: 1 });
    const before = fs.readdirSync(dir, { recursive: true }).map(String).sort();
    const seen = watchFrom(dir);
    store.putRef('a', 'second\n', 'answer.md', 1, { bytes: 7, chars: 7, lines: 1 });
    expect(seen.atListen[0]).toEqual(before);
    expect(seen.transitions.at(-1)).toBe(false);
  });
});
