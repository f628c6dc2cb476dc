import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BufferSource } from '../../src/core/paging/byte-source.js';
import { TEMP_RE } from '../../src/core/safe-write/atomic-file.js';
import { makeDirs } from '../../src/core/safe-write/make-dirs.js';
import { lockPathFor } from '../../src/core/safe-write/write-lock.js';
import { safeWrite, type SafeWriteOptions } from '../../src/core/safe-write/safe-write.js';
import type { RefcatError } from '../../src/shared/errors.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const src = (s: string) => new BufferSource(Buffer.from(s));

/** Run safeWrite in a fresh folder holding `files`; return the error message or the target's text. */
async function run(files: Record<string, string>, content: string, opts: Partial<SafeWriteOptions> & { to: string }) {
  const dir = tmpDir(files);
  try {
    await safeWrite(src(content), { mode: 'write', ...opts }, testCtx(dir));
  } catch (err) {
    return { error: (err as Error).message, text: read(dir, opts.to) };
  }
  return { text: read(dir, opts.to) };
}

function read(dir: string, rel: string): string | null {
  try {
    return fs.readFileSync(path.resolve(dir, rel), 'utf8');
  } catch {
    return null;
  }
}

describe('safeWrite: modes (docs/reference.md#writing-files-ref-export-and-fd-write)', () => {
  it.each<[string, Record<string, string>, string, Partial<SafeWriteOptions> & { to: string }, { text: string | null; error?: string }]>([
    ['write creates a file', {}, 'new\n', { to: 'a.txt' }, { text: 'new\n' }],
    ['write creates missing folders', {}, 'x\n', { to: 'deep/er/a.txt' }, { text: 'x\n' }],
    ['write writes bytes as given', {}, 'no newline', { to: 'a.txt' }, { text: 'no newline' }],
    ['write refuses an existing file', { 'a.txt': 'old\n' }, 'new\n', { to: 'a.txt' }, { text: 'old\n', error: 'a.txt exists (use --force to overwrite)' }],
    ['write --force replaces it', { 'a.txt': 'old\n' }, 'new\n', { to: 'a.txt', force: true }, { text: 'new\n' }],
    ['append adds at the end', { 'a.txt': 'one\n' }, 'two\n', { to: 'a.txt', mode: 'append' }, { text: 'one\ntwo\n' }],
    ['append keeps lines whole on both sides', { 'a.txt': 'one' }, 'two', { to: 'a.txt', mode: 'append' }, { text: 'one\ntwo\n' }],
    ['append to a missing file creates it', {}, 'two\n', { to: 'a.txt', mode: 'append' }, { text: 'two\n' }],
    ['insert --line 1', { 'a.txt': 'b\nc\n' }, 'a\n', { to: 'a.txt', mode: 'insert', line: 1 }, { text: 'a\nb\nc\n' }],
    ['insert --line 2', { 'a.txt': 'a\nc\n' }, 'b', { to: 'a.txt', mode: 'insert', line: 2 }, { text: 'a\nb\nc\n' }],
    ['insert --line lines+1 appends', { 'a.txt': 'a\nb' }, 'c', { to: 'a.txt', mode: 'insert', line: 3 }, { text: 'a\nb\nc\n' }],
    [
      'insert --line past the end',
      { 'a.txt': 'a\nb\n' },
      'c',
      { to: 'a.txt', mode: 'insert', line: 4 },
      { text: 'a\nb\n', error: '--line 4 is past the end of a.txt (2 lines; use 1-3)' },
    ],
    ['insert --line past the end of one line', { 'a.txt': 'a\n' }, 'c', { to: 'a.txt', mode: 'insert', line: 3 }, { text: 'a\n', error: '--line 3 is past the end of a.txt (1 line; use 1-2)' }],
    // Lines kept whole with the endings they are written with: the file's own, else the content's.
    ['append CRLF to a CRLF file without a last line end', { 'a.txt': 'one\r\ntwo' }, 'three\r\nfour', { to: 'a.txt', mode: 'append' }, { text: 'one\r\ntwo\r\nthree\r\nfour\r\n' }],
    ['append one line to a CRLF file', { 'a.txt': 'one\r\ntwo' }, 'three', { to: 'a.txt', mode: 'append' }, { text: 'one\r\ntwo\r\nthree\r\n' }],
    ['append CRLF lines to a one-line file', { 'a.txt': 'one' }, 'two\r\nthree', { to: 'a.txt', mode: 'append' }, { text: 'one\r\ntwo\r\nthree\r\n' }],
    ['append LF lines to a CRLF file keeps each its own', { 'a.txt': 'one\r\n' }, 'two\nthree', { to: 'a.txt', mode: 'append' }, { text: 'one\r\ntwo\nthree\n' }],
    ['insert a CRLF line into a CRLF file', { 'a.txt': 'a\r\nc\r\n' }, 'b', { to: 'a.txt', mode: 'insert', line: 2 }, { text: 'a\r\nb\r\nc\r\n' }],
    ['insert --after /re/', { 'a.py': 'import os\nimport re\n\ndef f():\n' }, 'import sys\n', { to: 'a.py', mode: 'insert', after: /^import/ }, { text: 'import os\nimport sys\nimport re\n\ndef f():\n' }],
    ['insert --after the last line without newline', { 'a.txt': 'a\nb' }, 'c', { to: 'a.txt', mode: 'insert', after: /b/ }, { text: 'a\nb\nc\n' }],
    ['insert --after, no match', { 'a.txt': 'a\n' }, 'c', { to: 'a.txt', mode: 'insert', after: /zz/ }, { text: 'a\n', error: 'Pattern /zz/ not found in a.txt' }],
    ['insert needs --line or --after', { 'a.txt': 'a\n' }, 'c', { to: 'a.txt', mode: 'insert' }, { text: 'a\n', error: '--mode insert needs exactly one of --line N and --after /regex/' }],
    ['a folder is no file', { 'd/x': '' }, 'c', { to: 'd', force: true }, { text: null, error: '--to names a folder (d); give a file path' }],
    ['a folder is no file to append to', { 'd/x': '' }, 'c', { to: 'd', mode: 'append' }, { text: null, error: '--to names a folder (d); give a file path' }],
    ['a path ending in / names a folder', {}, 'c', { to: 'new/' }, { text: null, error: '--to names a folder (new/); give a file path' }],
    ['. names a folder', {}, 'c', { to: '.' }, { text: null, error: '--to names a folder (.); give a file path' }],
    ['a path ending in /. names a folder', { 'd/x': '' }, 'c', { to: 'd/.' }, { text: null, error: '--to names a folder (d/.); give a file path' }],
  ])('%s', async (_name, files, content, opts, expected) => {
    expect(await run(files, content, opts)).toEqual(expected);
  });
});

describe('safeWrite: the root', () => {
  it.each<[string, string]>([
    ['../x.txt', '../x.txt is outside'],
    ['sub/../../x.txt', 'sub/../../x.txt is outside'],
    ['/tmp/refcat-outside-test.txt', '/tmp/refcat-outside-test.txt is outside'],
  ])('refuses %s', async (to, message) => {
    const r = await run({}, 'x', { to });
    expect(r.error).toContain(message);
    expect(r.error).toContain('(use --allow-outside to write there anyway)');
  });

  it('refuses a symlinked folder that leads outside, and a symlinked file', async () => {
    const outside = tmpDir({ 'secret.txt': 'keep\n' });
    const dir = tmpDir({});
    fs.symlinkSync(outside, path.join(dir, 'link'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'file-link'));
    const ctx = testCtx(dir);
    await expect(safeWrite(src('x'), { to: 'link/new.txt', mode: 'write' }, ctx)).rejects.toThrow('link/new.txt leads outside');
    await expect(safeWrite(src('x'), { to: 'file-link', mode: 'write', force: true }, ctx)).rejects.toThrow('file-link leads outside');
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep\n');
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('writes through a symlink inside the root and keeps the link', async () => {
    const dir = tmpDir({ 'real.txt': 'old\n' });
    fs.symlinkSync('real.txt', path.join(dir, 'link.txt'));
    await safeWrite(src('new\n'), { to: 'link.txt', mode: 'write', force: true }, testCtx(dir));
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'real.txt'), 'utf8')).toBe('new\n');
  });

  it('refuses a dangling symlink that leads outside the root as outside (exit 2), one inside as dangling', async () => {
    const dir = tmpDir({ 'in/keep.txt': 'x' });
    fs.symlinkSync('/nonexistent/refcat/x', path.join(dir, 'in', 'out-link'));
    fs.symlinkSync('missing.txt', path.join(dir, 'in', 'in-link'));
    const ctx = testCtx(path.join(dir, 'in'));
    await expect(safeWrite(src('x'), { to: 'out-link', mode: 'append' }, ctx)).rejects.toThrow(/out-link leads outside .* through a symlink/);
    await expect(safeWrite(src('x'), { to: 'in-link', mode: 'append' }, ctx)).rejects.toThrow('in-link is a symlink to a missing file');
    expect(fs.existsSync(path.join(dir, 'in', 'missing.txt'))).toBe(false);
  });

  it('refuses a dangling symlink', async () => {
    const dir = tmpDir({});
    fs.symlinkSync('/nonexistent/refcat/x', path.join(dir, 'dangling'));
    await expect(safeWrite(src('x'), { to: 'dangling', mode: 'write', allowOutside: true }, testCtx(dir))).rejects.toThrow('dangling is a symlink to a missing file');
  });

  it('--root moves the fence; --allow-outside lifts it', async () => {
    const dir = tmpDir({ 'sub/.keep': '' });
    const ctx = testCtx(dir);
    await expect(safeWrite(src('x'), { to: 'a.txt', mode: 'write', root: 'sub' }, ctx)).rejects.toThrow(/a\.txt is outside .*sub/);
    await safeWrite(src('x'), { to: 'sub/a.txt', mode: 'write', root: 'sub' }, ctx);
    const other = tmpDir({});
    await safeWrite(src('y'), { to: path.join(other, 'b.txt'), mode: 'write', allowOutside: true }, ctx);
    expect(fs.readFileSync(path.join(other, 'b.txt'), 'utf8')).toBe('y');
  });
});

describe('safeWrite: atomicity and modes', () => {
  it('keeps the permission bits of the file it replaces', async () => {
    const dir = tmpDir({ 'run.sh': 'echo old\n' });
    fs.chmodSync(path.join(dir, 'run.sh'), 0o751);
    await safeWrite(src('echo new\n'), { to: 'run.sh', mode: 'write', force: true }, testCtx(dir));
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o751);
  });

  it('a failure between the temp file and the rename leaves the old file and no temp file', async () => {
    const dir = tmpDir({ 'a.txt': 'old\n' });
    let sawTemp = '';
    await expect(safeWrite(src('new\n'), { to: 'a.txt', mode: 'write', force: true }, testCtx(dir), {
        beforeRename: (temp) => {
          sawTemp = temp;
          expect(fs.readFileSync(temp, 'utf8')).toBe('new\n');
          expect(path.dirname(temp)).toBe(dir);
          throw new Error('disk on fire');
        },
      })).rejects.toThrow('Cannot write a.txt: disk on fire');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('old\n');
    expect(fs.existsSync(sawTemp)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['a.txt']);
  });
});

/** Every name in `dir` that a write may leave behind by mistake: temp files and lock files. */
const leftovers = (dir: string) => fs.readdirSync(dir).filter((f) => TEMP_RE.test(f) || f.endsWith('.refcat-lock'));

describe('safeWrite: races', () => {
  it.each([
    ['write without --force (link, not rename)', 'write', 'a.txt exists (use --force to overwrite)'],
    ['append to a missing file', 'append', 'a.txt was created by another program while refcat was writing it; nothing written (run again)'],
  ] as const)('%s never replaces a file created after the check', async (_name, mode, message) => {
    const dir = tmpDir({});
    await expect(safeWrite(src('mine\n'), { to: 'a.txt', mode }, testCtx(dir), {
        beforeRename: () => fs.writeFileSync(path.join(dir, 'a.txt'), 'theirs\n'),
      })).rejects.toThrow(message);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('theirs\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('write without --force never replaces a file that appears between its two checks', async () => {
    const dir = tmpDir({});
    const target = path.join(dir, 'a.txt');
    const statSync = fs.statSync;
    const spy = vi.spyOn(fs, 'statSync').mockImplementation(((p: fs.PathLike, o?: fs.StatSyncOptions) => {
      try {
        return statSync(p, o);
      } catch (err) {
        if (p === target && !fs.existsSync(target)) fs.writeFileSync(target, 'theirs\n');
        throw err;
      }
    }) as typeof fs.statSync);
    try {
      await expect(safeWrite(src('mine\n'), { to: 'a.txt', mode: 'write' }, testCtx(dir))).rejects.toThrow('a.txt exists (use --force to overwrite)');
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('theirs\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('a file created between realpath and lstat is not taken for a dangling symlink', async () => {
    const dir = tmpDir({ 'a.txt': 'theirs\n' });
    const target = path.join(dir, 'a.txt');
    const realpathSync = fs.realpathSync;
    let raced = false;
    const spy = vi.spyOn(fs, 'realpathSync').mockImplementation(((p: fs.PathLike, o?: fs.EncodingOption) => {
      if (p === target && !raced) {
        raced = true; // as if the file did not exist yet when realpath ran
        throw Object.assign(new Error(`ENOENT: no such file or directory, realpath '${target}'`), { code: 'ENOENT' });
      }
      return realpathSync(p, o);
    }) as typeof fs.realpathSync);
    try {
      await expect(safeWrite(src('mine\n'), { to: 'a.txt', mode: 'write' }, testCtx(dir))).rejects.toThrow('a.txt exists (use --force to overwrite)');
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(target, 'utf8')).toBe('theirs\n');
  });

  describe('on a file system without hard links (O_EXCL copy instead)', () => {
    afterEach(() => vi.restoreAllMocks());
    const noLinks = () =>
      vi.spyOn(fs, 'linkSync').mockImplementation(() => {
        throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
      });

    it.each<[string, string]>([
      ['EPERM', 'EPERM'],
      ['ENOTSUP', 'ENOTSUP'],
    ])('%s: creates the file', async (_name, code) => {
      vi.spyOn(fs, 'linkSync').mockImplementation(() => {
        throw Object.assign(new Error(`${code}: link`), { code });
      });
      const dir = tmpDir({});
      await safeWrite(src('new\n'), { to: 'a.txt', mode: 'write' }, testCtx(dir));
      expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('new\n');
      expect(leftovers(dir)).toEqual([]);
    });

    it('still refuses a file created after the check', async () => {
      noLinks();
      const dir = tmpDir({});
      await expect(safeWrite(src('mine\n'), { to: 'a.txt', mode: 'write' }, testCtx(dir), {
          beforeRename: () => fs.writeFileSync(path.join(dir, 'a.txt'), 'theirs\n'),
        })).rejects.toThrow('a.txt exists (use --force to overwrite)');
      expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('theirs\n');
      expect(leftovers(dir)).toEqual([]);
    });
  });
});

describe('safeWrite: the lock of append, insert and --force', () => {
  const proc = (alive: boolean) => ({ pid: 4242, isAlive: () => alive });
  const ctxWith = (dir: string, alive: boolean) => ({ ...testCtx(dir), proc: proc(alive) });

  it('is held while the file is replaced and removed after', async () => {
    const dir = tmpDir({ 'a.txt': 'one\n' });
    let held = '';
    await safeWrite(src('two\n'), { to: 'a.txt', mode: 'append' }, ctxWith(dir, true), {
      beforeRename: () => (held = fs.readFileSync(path.join(dir, 'a.txt.refcat-lock'), 'utf8')),
    });
    expect(held).toMatch(/^4242 [0-9a-f]{16}\n$/);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it.each<[string, Partial<SafeWriteOptions>, string]>([
    ['append', { mode: 'append' }, 'one\n'],
    ['insert', { mode: 'insert', line: 1 }, 'one\n'],
    ['write --force', { mode: 'write', force: true }, 'one\n'],
  ])('%s waits for a live lock, then gives up naming the lock file', async (_name, opts, kept) => {
    const dir = tmpDir({ 'a.txt': 'one\n', 'a.txt.refcat-lock': '999999 00112233aabbccdd\n' });
    const lock = path.join(dir, 'a.txt.refcat-lock');
    const t0 = Date.now();
    await expect(safeWrite(src('two\n'), { to: 'a.txt', ...opts } as SafeWriteOptions, ctxWith(dir, true), { lockWaitMs: 150 })).rejects.toThrow(
      `a.txt is being written by another refcat (pid 999999); try again, or remove ${lock} if no refcat is running`,
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe(kept);
    expect(fs.readFileSync(lock, 'utf8')).toBe('999999 00112233aabbccdd\n');
    expect(fs.readdirSync(dir).filter((f) => TEMP_RE.test(f))).toEqual([]);
  });

  it('takes over the lock of a writer that no longer runs', async () => {
    const dir = tmpDir({ 'a.txt': 'one\n', 'a.txt.refcat-lock': '999999 00112233aabbccdd\n' });
    await safeWrite(src('two\n'), { to: 'a.txt', mode: 'append' }, ctxWith(dir, false), { lockWaitMs: 150 });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('takes over a lock bearing its own pid (left by a crashed run with the same pid)', async () => {
    const dir = tmpDir({ 'a.txt': 'one\n', 'a.txt.refcat-lock': '4242 00112233aabbccdd\n' });
    await safeWrite(src('two\n'), { to: 'a.txt', mode: 'append' }, ctxWith(dir, true), { lockWaitMs: 150 });
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\ntwo\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('without ProcessInfo never judges a lock stale', async () => {
    const dir = tmpDir({ 'a.txt': 'one\n', 'a.txt.refcat-lock': '999999 00112233aabbccdd\n' });
    await expect(safeWrite(src('two\n'), { to: 'a.txt', mode: 'append' }, testCtx(dir), { lockWaitMs: 50 })).rejects.toThrow('is being written by another refcat');
  });

  it('goes when the write fails', async () => {
    const dir = tmpDir({ 'a.txt': 'one\n' });
    await expect(safeWrite(src('two\n'), { to: 'a.txt', mode: 'insert', after: /zz/ }, ctxWith(dir, true))).rejects.toThrow('Pattern /zz/ not found');
    await expect(safeWrite(src('two\n'), { to: 'a.txt', mode: 'append' }, ctxWith(dir, true), {
        beforeRename: () => {
          throw new Error('disk on fire');
        },
      })).rejects.toThrow('Cannot write a.txt: disk on fire');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it('lockPathFor: beside the target, hashed when the name would pass NAME_MAX', async () => {
    expect(lockPathFor('/d/a.txt')).toBe('/d/a.txt.refcat-lock');
    const long = lockPathFor(`/d/${'x'.repeat(250)}`);
    expect(path.dirname(long)).toBe('/d');
    expect(path.basename(long)).toMatch(/^\.[0-9a-f]{32}\.refcat-lock$/);
  });
});

describe('safeWrite: odd targets', () => {
  it('a name of 250 bytes: the temp and lock names stay under NAME_MAX', async () => {
    const name = 'n'.repeat(250);
    const dir = tmpDir({ [name]: 'one\n' });
    let temp = '';
    await safeWrite(src('two\n'), { to: name, mode: 'append' }, testCtx(dir), { beforeRename: (t) => (temp = t) });
    expect(path.basename(temp)).toMatch(TEMP_RE);
    expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe('one\ntwo\n');
    expect(leftovers(dir)).toEqual([]);
  });

  it.skipIf(process.platform === 'win32').each<[string, Partial<SafeWriteOptions>]>([
    ['write', { mode: 'write' }],
    ['write --force', { mode: 'write', force: true }],
    ['append', { mode: 'append' }],
    ['insert', { mode: 'insert', line: 1 }],
  ])('a FIFO is refused at once (%s), never opened', async (_name, opts) => {
    const dir = tmpDir({});
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    await expect(safeWrite(src('x\n'), { to: 'pipe', ...opts } as SafeWriteOptions, testCtx(dir))).rejects.toThrow(
      'pipe is not a regular file (a FIFO); refcat only writes regular files',
    );
    expect(fs.statSync(path.join(dir, 'pipe')).isFIFO()).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['pipe']);
  });

  it.skipIf(process.platform === 'win32')('a socket and a device are refused', async () => {
    const dir = tmpDir({});
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'sock'), resolve));
    try {
      await expect(safeWrite(src('x\n'), { to: 'sock', mode: 'append' }, testCtx(dir))).rejects.toThrow('sock is not a regular file (a socket)');
    } finally {
      server.close();
    }
    let code = '';
    try {
      await safeWrite(src('x\n'), { to: '/dev/null', mode: 'write', force: true, allowOutside: true }, testCtx(dir));
    } catch (err) {
      code = (err as RefcatError).code;
      expect((err as Error).message).toBe('/dev/null is not a regular file (a device); refcat only writes regular files');
    }
    expect(code).toBe('not_regular');
  });
});

describe('makeDirs', () => {
  it.each([
    ['a/b/c', {}, null],
    ['a/b', { 'a/b/keep.txt': 'x' }, null],
    ['f/sub', { f: 'a file' }, /ENOTDIR|EEXIST/],
    ['f', { f: 'a file' }, /EEXIST/],
  ])('%s in %j', async (rel, files, error) => {
    const dir = tmpDir(files);
    const target = path.join(dir, rel);
    if (error) {
      expect(() => makeDirs(target)).toThrow(error);
    } else {
      makeDirs(target);
      expect(fs.statSync(target).isDirectory()).toBe(true);
    }
  });

  it.runIf(process.platform === 'linux' && fs.existsSync('/proc/self'))('fails at once where mkdir answers ENOENT under an existing parent (procfs)', async () => {
    // fs.mkdirSync('/proc/x', { recursive: true }) loops forever on this; makeDirs must not.
    expect(() => makeDirs('/proc/refcat-test/x')).toThrow(/ENOENT/);
  });
});
