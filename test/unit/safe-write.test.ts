import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BufferSource } from '../../src/core/fd/bytes.js';
import { safeWrite, type SafeWriteOptions } from '../../src/core/files/safe-write.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const src = (s: string) => new BufferSource(Buffer.from(s));

/** Run safeWrite in a fresh folder holding `files`; return the error message or the target's text. */
function run(files: Record<string, string>, content: string, opts: Partial<SafeWriteOptions> & { to: string }) {
  const dir = tmpDir(files);
  try {
    safeWrite(src(content), { mode: 'write', ...opts }, testCtx(dir));
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

describe('safeWrite: modes (SPEC 7.3)', () => {
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
    ['insert --after /re/', { 'a.py': 'import os\nimport re\n\ndef f():\n' }, 'import sys\n', { to: 'a.py', mode: 'insert', after: /^import/ }, { text: 'import os\nimport sys\nimport re\n\ndef f():\n' }],
    ['insert --after the last line without newline', { 'a.txt': 'a\nb' }, 'c', { to: 'a.txt', mode: 'insert', after: /b/ }, { text: 'a\nb\nc\n' }],
    ['insert --after, no match', { 'a.txt': 'a\n' }, 'c', { to: 'a.txt', mode: 'insert', after: /zz/ }, { text: 'a\n', error: 'Pattern /zz/ not found in a.txt' }],
    ['insert needs --line or --after', { 'a.txt': 'a\n' }, 'c', { to: 'a.txt', mode: 'insert' }, { text: 'a\n', error: '--mode insert needs exactly one of --line N and --after /regex/' }],
    ['a folder is no file', { 'd/x': '' }, 'c', { to: 'd', force: true }, { text: null, error: 'd is a directory' }],
  ])('%s', (_name, files, content, opts, expected) => {
    expect(run(files, content, opts)).toEqual(expected);
  });
});

describe('safeWrite: the root', () => {
  it.each<[string, string]>([
    ['../x.txt', '../x.txt is outside'],
    ['sub/../../x.txt', 'sub/../../x.txt is outside'],
    ['/tmp/refcat-outside-test.txt', '/tmp/refcat-outside-test.txt is outside'],
    ['.', '. is outside'],
  ])('refuses %s', (to, message) => {
    const r = run({}, 'x', { to });
    expect(r.error).toContain(message);
    expect(r.error).toContain('(use --allow-outside to write there anyway)');
  });

  it('refuses a symlinked folder that leads outside, and a symlinked file', () => {
    const outside = tmpDir({ 'secret.txt': 'keep\n' });
    const dir = tmpDir({});
    fs.symlinkSync(outside, path.join(dir, 'link'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'file-link'));
    const ctx = testCtx(dir);
    expect(() => safeWrite(src('x'), { to: 'link/new.txt', mode: 'write' }, ctx)).toThrow('link/new.txt leads outside');
    expect(() => safeWrite(src('x'), { to: 'file-link', mode: 'write', force: true }, ctx)).toThrow('file-link leads outside');
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep\n');
    expect(fs.existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('writes through a symlink inside the root and keeps the link', () => {
    const dir = tmpDir({ 'real.txt': 'old\n' });
    fs.symlinkSync('real.txt', path.join(dir, 'link.txt'));
    safeWrite(src('new\n'), { to: 'link.txt', mode: 'write', force: true }, testCtx(dir));
    expect(fs.lstatSync(path.join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'real.txt'), 'utf8')).toBe('new\n');
  });

  it('refuses a dangling symlink', () => {
    const dir = tmpDir({});
    fs.symlinkSync('/nonexistent/refcat/x', path.join(dir, 'dangling'));
    expect(() => safeWrite(src('x'), { to: 'dangling', mode: 'write', allowOutside: true }, testCtx(dir))).toThrow('dangling is a symlink to a missing file');
  });

  it('--root moves the fence; --allow-outside lifts it', () => {
    const dir = tmpDir({ 'sub/.keep': '' });
    const ctx = testCtx(dir);
    expect(() => safeWrite(src('x'), { to: 'a.txt', mode: 'write', root: 'sub' }, ctx)).toThrow(/a\.txt is outside .*sub/);
    safeWrite(src('x'), { to: 'sub/a.txt', mode: 'write', root: 'sub' }, ctx);
    const other = tmpDir({});
    safeWrite(src('y'), { to: path.join(other, 'b.txt'), mode: 'write', allowOutside: true }, ctx);
    expect(fs.readFileSync(path.join(other, 'b.txt'), 'utf8')).toBe('y');
  });
});

describe('safeWrite: atomicity and modes', () => {
  it('keeps the permission bits of the file it replaces', () => {
    const dir = tmpDir({ 'run.sh': 'echo old\n' });
    fs.chmodSync(path.join(dir, 'run.sh'), 0o751);
    safeWrite(src('echo new\n'), { to: 'run.sh', mode: 'write', force: true }, testCtx(dir));
    expect(fs.statSync(path.join(dir, 'run.sh')).mode & 0o777).toBe(0o751);
  });

  it('a failure between the temp file and the rename leaves the old file and no temp file', () => {
    const dir = tmpDir({ 'a.txt': 'old\n' });
    let sawTemp = '';
    expect(() =>
      safeWrite(src('new\n'), { to: 'a.txt', mode: 'write', force: true }, testCtx(dir), {
        beforeRename: (temp) => {
          sawTemp = temp;
          expect(fs.readFileSync(temp, 'utf8')).toBe('new\n');
          expect(path.dirname(temp)).toBe(dir);
          throw new Error('disk on fire');
        },
      }),
    ).toThrow('Cannot write a.txt: disk on fire');
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('old\n');
    expect(fs.existsSync(sawTemp)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['a.txt']);
  });
});
