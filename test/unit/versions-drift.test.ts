import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { driftNotes } from '../../src/core/editor/drift-findings.js';
import { documentRefs } from '../../src/core/editor/document-refs.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx } from '../helpers/tmp.js';

// Drift's current version for a pinned alias is the pin (docs/drift.md#pinned-aliases): a clone
// that lags its pin gives the verdicts a clone at the pin gives.

const MIRROR = '/work/.mirror/pallets+click/repo';
const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

interface History {
  ext: GitRepo;
  /** The old pin and the new one. */
  a: string;
  b: string;
  file: string;
}

/**
 * The external's history: a fetched public repository's own commits when its mirror is here
 * (click's src/click/utils.py across the commits that moved and changed its lines), else a
 * history built in the test.
 */
function history(dir: string): History {
  if (fs.existsSync(MIRROR)) {
    execFileSync(realGit, ['clone', '-q', '--no-checkout', MIRROR, dir], { stdio: 'ignore' });
    const ext = new GitRepo(dir);
    return { ext, a: ext.git('rev-parse', '7a0a3447^').trim(), b: ext.git('rev-parse', '0f4738df').trim(), file: 'src/click/utils.py' };
  }
  const ext = GitRepo.init({}, dir);
  const a = ext.commit('a', { 'src/lib.py': numbered('line', 300) });
  const lines = numbered('line', 300).split('\n');
  lines.splice(20, 0, 'inserted 1', 'inserted 2', 'inserted 3');
  lines[150] = 'edited';
  const b = ext.commit('b', { 'src/lib.py': lines.join('\n') });
  return { ext, a, b, file: 'src/lib.py' };
}

/** Line refs spread over the file at the old pin. */
function refsInto(h: History): string[] {
  const count = h.ext.git('show', `${h.a}:${h.file}`).split('\n').length - 1;
  const refs: string[] = [];
  for (let start = 5; start + 3 <= count; start += Math.max(7, Math.floor(count / 40))) refs.push(`ext:${h.file}#L${start}-L${start + 2}`);
  return refs;
}

function workspace(pick: (refs: string[]) => string[] = (refs) => refs): { ws: GitRepo; h: History } {
  const ws = GitRepo.init({ '.gitignore': 'externals/\n' });
  const h = history(path.join(ws.dir, 'externals', 'ext'));
  const lock = (pin: string) => JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }) + '\n';
  const doc = '# Notes\n\n' + pick(refsInto(h)).map((r) => `- ${r}`).join('\n') + '\n';
  // The doc is written against the old pin; the lockfile is re-pinned later.
  ws.commit('docs at the old pin', { 'workspace.lock.json': lock(h.a), 'doc.md': doc });
  ws.commit('re-pin', { 'workspace.lock.json': lock(h.b) });
  return { ws, h };
}

async function verdicts(ws: GitRepo, ...flags: string[]) {
  const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--drift', '--json', ...flags], { cwd: ws.dir });
  const out = JSON.parse(r.stdout);
  const d = out.drift;
  return { code: r.code, entries: d.refs.map((e: { ref: string; status: string; new_ref: string | null; reason: string | null }) => [e.ref, e.status, e.new_ref, e.reason]), counts: d };
}

describe('--drift judges a pinned alias at its pin', () => {
  it('a clone that lags its pin gives the same verdicts as a clone at the pin (real history)', async () => {
    const { ws, h } = workspace();
    h.ext.git('checkout', '-q', h.b);
    const atPin = await verdicts(ws);
    // The re-pin moved and changed lines: drift has something to say.
    expect(atPin.counts.moved + atPin.counts.changed).toBeGreaterThan(0);
    expect(atPin.counts.unknown).toBe(0);
    h.ext.git('checkout', '-q', h.a);
    const lagging = await verdicts(ws);
    expect(lagging.entries).toEqual(atPin.entries);
    // --worktree judges the checkout, at the old pin: nothing moved there.
    const worktree = await verdicts(ws, '--worktree');
    expect(worktree.counts.moved + worktree.counts.changed).toBe(0);
  }, 60_000);

  it('--fix rewrites against the pin, whatever the checkout', async () => {
    const { ws, h } = workspace();
    h.ext.git('checkout', '-q', h.b);
    await refcatInProcess(['verify', 'refs', 'doc.md', '--fix'], { cwd: ws.dir });
    const fixedAtPin = ws.read('doc.md');
    ws.git('checkout', '-q', '--', 'doc.md');
    h.ext.git('checkout', '-q', h.a);
    await refcatInProcess(['verify', 'refs', 'doc.md', '--fix'], { cwd: ws.dir });
    expect(ws.read('doc.md')).toBe(fixedAtPin);
    expect(fixedAtPin).not.toBe(ws.git('show', 'HEAD:doc.md'));
  }, 60_000);

  it('the git processes a --drift run starts do not grow with the refs into a pinned repository', async () => {
    const counted = async (pick: (refs: string[]) => string[]) => {
      const { ws, h } = workspace(pick);
      h.ext.git('checkout', '-q', h.a);
      const bin = fs.mkdtempSync(path.join(ws.dir, '..', 'shim-'));
      const log = path.join(bin, 'log');
      fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> "$SHIM_LOG"\nexec "$REAL_GIT" "$@"\n`, { mode: 0o755 });
      const env = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, SHIM_LOG: log, REAL_GIT: realGit };
      const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--drift'], { cwd: ws.dir, env });
      expect(r.stdout).toContain('drift:');
      const n = fs.readFileSync(log, "utf8").trim().split("\n").length;
      fs.rmSync(bin, { recursive: true, force: true });
      return n;
    };
    let total = 0;
    const few = await counted((refs) => refs.slice(0, 3));
    const many = await counted((refs) => {
      total = refs.length * 2;
      return refs.flatMap((r) => [r, r.replace(/#L(\d+)-L(\d+)$/, (_m, a, b) => `#L${Number(a) + 1}-L${Number(b) + 1}`)]);
    });
    expect(total).toBeGreaterThan(20);
    expect(many).toBe(few);
  }, 60_000);

  it('a revision ref at a commit or a tag is anchored; at a branch it is unknown, saying why', async () => {
    const { ws, h } = workspace();
    h.ext.git('tag', 'pinned-tag', h.a);
    h.ext.git('branch', '-f', 'side', h.a);
    ws.commit('revision refs', { 'rev.md': `- ext@${h.a.slice(0, 9)}:${h.file}#L5-L7\n- ext@pinned-tag:${h.file}#L5-L7\n- ext@side:${h.file}#L5-L7\n` });
    const r = await refcatInProcess(['verify', 'refs', 'rev.md', '--drift', '--json'], { cwd: ws.dir });
    const statuses = JSON.parse(r.stdout).drift.refs.map((e: { status: string }) => e.status);
    expect(statuses).toEqual(['anchored', 'anchored', 'unknown']);
  }, 60_000);

  it('a ref by name into a pinned alias is judged by its declaration at the pin, whatever the checkout', async () => {
    const ws = GitRepo.init({ '.gitignore': 'externals/\n' });
    const ext = GitRepo.init({}, path.join(ws.dir, 'externals', 'ext'));
    const a = ext.commit('a', { 'a.py': 'def foo():\n    return 1\n\n\ndef bar():\n    return 3\n' });
    const b = ext.commit('b', { 'a.py': 'def foo():\n    return 2\n\n\ndef bar():\n    return 3\n' });
    const lock = (pin: string) => JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }) + '\n';
    ws.commit('doc', { 'workspace.lock.json': lock(a), 'doc.md': '- ext:a.py#foo\n- ext:a.py#bar\n' });
    ws.commit('re-pin', { 'workspace.lock.json': lock(b) });
    ext.git('checkout', '-q', a);
    const lagging = await verdicts(ws);
    expect(lagging.entries.map((e: unknown[]) => e[1])).toEqual(['changed', 'unchanged']);
    ext.git('checkout', '-q', b);
    expect((await verdicts(ws)).entries).toEqual(lagging.entries);
  }, 60_000);

  it('a pin the clone lacks: the checkout is judged, with the scan\'s warning naming the fetch; --pinned makes the refs unknown', async () => {
    const ws = GitRepo.init({ '.gitignore': 'externals/\n' });
    const ext = GitRepo.init({}, path.join(ws.dir, 'externals', 'ext'));
    const a = ext.commit('a', { 'f.txt': 'one\ntwo\nthree\n' });
    const missing = 'b'.repeat(40);
    const lock = (pin: string) => JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref: pin }] }) + '\n';
    ws.commit('doc', { 'workspace.lock.json': lock(a), 'doc.md': '- ext:f.txt#L2\n' });
    ws.commit('re-pin', { 'workspace.lock.json': lock(missing) });
    const r = await refcatInProcess(['verify', 'refs', 'doc.md', '--drift', '--json'], { cwd: ws.dir });
    const out = JSON.parse(r.stdout);
    expect(out.drift.refs.map((e: { status: string }) => e.status)).toEqual(['unchanged']);
    expect(out.warnings).toEqual([expect.objectContaining({ code: 'pin_missing', details: [expect.stringContaining(`fetch origin ${missing}`)] })]);
    const pinned = JSON.parse((await refcatInProcess(['verify', 'refs', 'doc.md', '--drift', '--json', '--pinned'], { cwd: ws.dir })).stdout);
    expect(pinned.drift.refs.map((e: { status: string }) => e.status)).toEqual(['unknown']);
  }, 60_000);
});


// `.@REV:path` is the working repository's own file at a revision (docs/refs.md#revision-refs):
// drift judges it as an `alias@REV:` ref, never as an alias no source defines.
describe('--drift judges a `.@REV:` ref as an `alias@REV:` ref', () => {
  /** A repository with a tag t1, a branch side and two commits after it; the doc in docs/. */
  function repoWithRevisions(refs: (tag: string, sha: string) => string[]): GitRepo {
    const repo = GitRepo.init({ 'src/app.py': 'a = 1\nb = 2\nc = 3\n' });
    const sha = repo.head();
    repo.git('tag', 't1');
    repo.commit('a line on top', { 'src/app.py': 'z = 0\na = 1\nb = 2\nc = 3\n' });
    repo.git('branch', 'side');
    repo.commit('doc', { 'docs/notes.md': refs('t1', sha).map((r) => `- ${r}\n`).join('') });
    return repo;
  }

  const noBase = (rev: string, ref: string) => `${rev} is no commit or tag: ${ref} reads it as it is now, and drift has nothing to compare (write a commit or a tag)`;

  it('at a tag or a full sha it is anchored; at ~N or a branch it is unknown, saying why', async () => {
    let sha = '';
    const repo = repoWithRevisions((tag, s) => {
      sha = s;
      return [`.@${tag}:src/app.py#L1`, `.@${s}:src/app.py#L1`, '.@HEAD~1:src/app.py#L1-L2', '.@side:src/app.py#L1'];
    });
    const r = await refcatInProcess(['verify', 'refs', 'docs/notes.md', '--drift', '--json'], { cwd: repo.dir });
    const out = JSON.parse(r.stdout);
    expect(out.drift.refs.map((e: { ref: string; status: string; reason: string | null }) => [e.ref, e.status, e.reason])).toEqual([
      ['.@t1:src/app.py#L1', 'anchored', null],
      [`.@${sha}:src/app.py#L1`, 'anchored', null],
      ['.@HEAD~1:src/app.py#L1-L2', 'unknown', noBase('HEAD~1', '.@HEAD~1:src/app.py#L1-L2')],
      ['.@side:src/app.py#L1', 'unknown', noBase('side', '.@side:src/app.py#L1')],
    ]);
    expect(r.code).toBe(0);
  }, 60_000);

  it('--strict passes a doc whose every ref is a `.@REV:` ref at a tag or a commit', async () => {
    const repo = repoWithRevisions((tag, sha) => [`.@${tag}:src/app.py#L1`, `.@${sha}:src/app.py#L1-L2`]);
    const r = await refcatInProcess(['verify', 'refs', 'docs/notes.md', '--drift', '--strict'], { cwd: repo.dir });
    expect(r.stdout).toContain('2 valid, 0 broken; drift: 0 unchanged, 0 moved, 0 changed, 0 deleted, 0 unknown, 2 anchored');
    expect(r.code).toBe(0);
  }, 60_000);

  it('the editor gives the same verdicts: nothing at a tag, UNKNOWN with the reason at a branch', async () => {
    const repo = repoWithRevisions((tag) => [`.@${tag}:src/app.py#L1`, '.@side:src/app.py#L1']);
    const session = new EditorSession(testCtx(repo.dir));
    const file = path.join(repo.dir, 'docs', 'notes.md');
    const text = repo.read('docs/notes.md');
    const notes = await driftNotes({ path: file, kind: 'markdown', text, version: 1, lines: text.split('\n'), refs: documentRefs(text, 'markdown', session.isKnownAlias, file) }, session);
    expect(notes.map((n) => n.finding.message)).toEqual([`UNKNOWN .@side:src/app.py#L1: ${noBase('side', '.@side:src/app.py#L1')}`]);
  }, 60_000);
});
