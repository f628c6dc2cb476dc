import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDrift } from '../../src/core/drift/detect-drift.js';
import type { DriftRefInput } from '../../src/core/drift/drift-types.js';
import { fileStamp, fixDrift } from '../../src/core/drift/fix-drift.js';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import { BIN, refcat } from '../helpers/cli.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// `--fix` rewrites files in place: it must never lose a user's edit, never replace a link by a
// copy, say what it did when stopped or refused, and leave no temp file that stays forever
// (docs/reference.md#drift-verdicts).

const X = numbered('x', 30);
const moved = () => 'top\n' + X;

describe('--fix: links, edits during the run, unwritable folders, temp files', () => {
  it('a symlinked doc is written through to its target: the link stays a link, the real file gets the new ref', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'real/notes.md': 'See @../lib/x.js#L4.\n' });
    fs.mkdirSync(path.join(repo.dir, 'docs'));
    fs.symlinkSync('../real/notes.md', path.join(repo.dir, 'docs/notes.md'));
    repo.commit('link');
    repo.commit('insert', { 'lib/x.js': moved() });
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'docs'], { cwd: repo.dir });
    expect(r.stdout).toContain('FIXED docs/notes.md:1: @../lib/x.js#L4 → @../lib/x.js#L5');
    expect(fs.lstatSync(path.join(repo.dir, 'docs/notes.md')).isSymbolicLink()).toBe(true);
    expect(repo.read('real/notes.md')).toBe('See @../lib/x.js#L5.\n');
  });

  it('a symlinked doc whose target is outside the repository is refused, with a line saying so, exit 1', async () => {
    const outside = tmpDir({ 'notes.md': 'See @lib/x.js#L4.\n' });
    const repo = GitRepo.init({ 'lib/x.js': X });
    fs.symlinkSync(path.join(outside, 'notes.md'), path.join(repo.dir, 'notes.md'));
    repo.commit('link');
    repo.commit('insert', { 'lib/x.js': moved() });
    // The link's target is read through it: the ref is found and judged moved.
    const r = await refcatInProcess(['verify', 'refs', '--fix', 'notes.md', '--alias', `lib=${repo.dir}/lib`], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/NOT FIXED notes\.md: a link to .*notes\.md, outside the working directory and the repository: not written \(1 moved ref left as written\)/);
    expect(fs.readFileSync(path.join(outside, 'notes.md'), 'utf8')).toBe('See @lib/x.js#L4.\n');
  });

  it('a doc reached through a symlinked folder that leads outside the repository is refused too', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X });
    const outside = tmpDir({ 'notes.md': `See @${repo.dir}/lib/x.js#L4.\n` });
    fs.symlinkSync(outside, path.join(repo.dir, 'docs'));
    repo.commit('link');
    repo.commit('insert', { 'lib/x.js': moved() });
    // git blames the link, not the doc behind it: the base is given.
    const r = await refcatInProcess(['verify', 'refs', '--fix', '--since', 'HEAD~1', 'docs'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/NOT FIXED docs\/notes\.md: a link to .*notes\.md, outside the working directory and the repository: not written/);
    expect(fs.readFileSync(path.join(outside, 'notes.md'), 'utf8')).toBe(`See @${repo.dir}/lib/x.js#L4.\n`);
  });

  it('a doc edited after the scan is skipped with a warning; the others are fixed', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'a.md': 'See @lib/x.js#L4.\n', 'b.md': 'See @lib/x.js#L6.\n' });
    repo.commit('insert', { 'lib/x.js': moved() });
    const ctx = testCtx(repo.dir, { PATH: process.env.PATH ?? '' });
    const input = (rel: string, ref: string): DriftRefInput => {
      const file = path.join(repo.dir, rel);
      return { file, line: 1, ref, spec: parseRef(ref), alias: null, searchDirs: [repo.dir], stamp: fileStamp(file) };
    };
    const report = await detectDrift([input('a.md', '@lib/x.js#L4'), input('b.md', '@lib/x.js#L6')], ctx);
    // Someone edits a.md between the scan and the write: a new line 1 holding the same ref text.
    fs.writeFileSync(path.join(repo.dir, 'a.md'), 'New intro @lib/x.js#L4.\nSee @lib/x.js#L4.\n');
    const fixes = await fixDrift(report, ctx);
    expect(fixes.map((f) => path.basename(f.file))).toEqual(['b.md']);
    expect(repo.read('a.md')).toBe('New intro @lib/x.js#L4.\nSee @lib/x.js#L4.\n');
    expect(repo.read('b.md')).toBe('See @lib/x.js#L7.\n');
    expect(report.notFixed).toEqual([{ file: path.join(repo.dir, 'a.md'), refs: 1, reason: 'changed since it was scanned: run again', kind: 'changed' }]);
  });

  it('an unwritable folder: one line naming it, the other docs are written and reported, exit 1', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'docs/a.md': 'See @../lib/x.js#L4.\n', 'locked/b.md': 'See @../lib/x.js#L4.\n' });
    repo.commit('insert', { 'lib/x.js': moved() });
    const locked = path.join(repo.dir, 'locked');
    // Root writes anywhere a mode forbids; an immutable folder stops it too.
    const root = process.getuid?.() === 0;
    if (root) execFileSync('chattr', ['+i', locked]);
    else fs.chmodSync(locked, 0o555);
    try {
      const r = await refcatInProcess(['verify', 'refs', '--fix'], { cwd: repo.dir });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('  FIXED docs/a.md:1: @../lib/x.js#L4 → @../lib/x.js#L5\n');
      expect(r.stdout).toMatch(/\n {2}NOT FIXED locked\/b\.md: cannot write in locked\/: (permission denied|operation not permitted) \(1 moved ref left as written\)\n/);
      expect(repo.read('docs/a.md')).toBe('See @../lib/x.js#L5.\n');
      expect(repo.read('locked/b.md')).toBe('See @../lib/x.js#L4.\n');
    } finally {
      if (root) execFileSync('chattr', ['-i', locked]);
      else fs.chmodSync(locked, 0o755);
    }
  });

  it('temp files carry the pid of the writer; one left by a dead refcat is reclaimed by the next --fix', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'docs/a.md': 'See @../lib/x.js#L4.\n' });
    repo.commit('insert', { 'lib/x.js': moved() });
    const stale = path.join(repo.dir, 'docs', '.refcat-999999999-abcdef012345.tmp');
    fs.writeFileSync(stale, 'left by a crash');
    // The bin: the process edge gives refcat its pid and a way to tell who still runs.
    const r = refcat(['verify', 'refs', '--fix'], { cwd: repo.dir });
    expect(r.stdout).toContain('FIXED docs/a.md:1');
    expect(fs.readdirSync(path.join(repo.dir, 'docs'))).toEqual(['a.md']);
  });

  it('SIGINT between files: the files already written are reported, the rest left, exit 130', async () => {
    const docs: Record<string, string> = { 'lib/x.js': X };
    for (let i = 0; i < 400; i++) docs[`docs/d${String(i).padStart(3, '0')}.md`] = 'See @../lib/x.js#L4.\n';
    const repo = GitRepo.init(docs);
    repo.commit('insert', { 'lib/x.js': moved() });
    const child = spawn(process.execPath, [BIN, 'verify', 'refs', '--fix', '--json'], { cwd: repo.dir, env: { PATH: process.env.PATH, HOME: repo.dir } });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    // Send SIGINT as soon as the first file is rewritten.
    const first = path.join(repo.dir, 'docs', 'd000.md');
    const timer = setInterval(() => {
      if (fs.readFileSync(first, 'utf8').includes('#L5')) {
        clearInterval(timer);
        child.kill('SIGINT');
      }
    }, 2);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearInterval(timer);
    expect(code).toBe(130);
    const doc = JSON.parse(out) as { drift: { fixed: number; not_fixed: { kind: string; refs: number }[] } };
    const written = fs.readdirSync(path.join(repo.dir, 'docs')).filter((f) => fs.readFileSync(path.join(repo.dir, 'docs', f), 'utf8').includes('#L5'));
    expect(doc.drift.fixed).toBe(written.length);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(400);
    expect(doc.drift.not_fixed.every((n) => n.kind === 'interrupted')).toBe(true);
    expect(doc.drift.not_fixed.length).toBe(400 - written.length);
    expect(fs.readdirSync(path.join(repo.dir, 'docs')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);
});

// An INCLUDE reaches a file the way a link does: --fix writes it only inside the working directory
// or the including workflow's repository (docs/reference.md#drift-verdicts).
describe('--fix: files reached through an INCLUDE', () => {
  const other = () => {
    const repo = GitRepo.init({ 'b.txt': X, 'p.conv': 'REFCAT @b.txt#L4\n' });
    const sha = repo.head().slice(0, 7);
    repo.commit('insert', { 'b.txt': moved() });
    return { repo, sha };
  };

  it('outside the working directory and the includer\'s repository: not written, NOT FIXED with the reason, the verdict shown, exit 1', () => {
    const { repo, sha } = other();
    const ws = GitRepo.init({ 'flows/main.conv': `INCLUDE ${path.join(repo.dir, 'p.conv')}\nPROMPT go\n` });
    const shown = path.join(repo.dir, 'p.conv');
    const r = refcat(['verify', 'refs', 'flows', '--fix'], { cwd: ws.dir });
    expect(r).toEqual({
      code: 1,
      stdout:
        '✗ FAILED: Scanned 1 file(s), found 1 reference(s): 1 valid, 0 broken; drift: 0 unchanged, 1 moved, 0 changed, 0 deleted, 0 unknown, 0 anchored\n' +
        `  MOVED ${shown}:1: @b.txt#L4 → @b.txt#L5 (since ${sha})\n` +
        `  NOT FIXED ${shown}: included by flows/main.conv, outside the working directory and that workflow's repository: not written (1 moved ref left as written)\n`,
      stderr: '',
    });
    expect(repo.read('p.conv')).toBe('REFCAT @b.txt#L4\n');
    const json = JSON.parse(refcat(['verify', 'refs', 'flows', '--fix', '--json'], { cwd: ws.dir }).stdout);
    expect(json.drift.not_fixed).toEqual([{ file: shown, refs: 1, kind: 'outside', reason: "included by flows/main.conv, outside the working directory and that workflow's repository: not written" }]);
    expect(json.drift.refs.map((e: { status: string }) => e.status)).toEqual(['moved']);
    expect(refcat(['verify', 'refs', 'flows', '--dry-run'], { cwd: ws.dir }).stdout).toContain(`NOT FIXED ${shown}: included by flows/main.conv`);
    expect(repo.read('p.conv')).toBe('REFCAT @b.txt#L4\n');
  });

  it('named on the command line as well: written as any file scanned', async () => {
    const { repo } = other();
    const ws = GitRepo.init({ 'flows/main.conv': `INCLUDE ${path.join(repo.dir, 'p.conv')}\nPROMPT go\n` });
    const r = await refcatInProcess(['verify', 'refs', 'flows', path.join(repo.dir, 'p.conv'), '--fix'], { cwd: ws.dir });
    expect(r.code).toBe(0);
    expect(repo.read('p.conv')).toBe('REFCAT @b.txt#L5\n');
  });

  it('outside the working directory but in the includer\'s repository: written', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'parts/p.conv': 'REFCAT @../lib/x.js#L4\n', 'flows/main.conv': 'INCLUDE ../parts/p.conv\nPROMPT go\n' });
    repo.commit('insert', { 'lib/x.js': moved() });
    const r = await refcatInProcess(['verify', 'refs', '.', '--fix'], { cwd: path.join(repo.dir, 'flows') });
    expect(r.stdout).toContain(`  FIXED ${path.join(repo.dir, 'parts/p.conv')}:1: @../lib/x.js#L4 → @../lib/x.js#L5\n`);
    expect(r.code).toBe(0);
    expect(repo.read('parts/p.conv')).toBe('REFCAT @../lib/x.js#L5\n');
  });
});
