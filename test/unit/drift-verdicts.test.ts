import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

interface DriftRefJson {
  file: string;
  line: number;
  ref: string;
  status: string;
  base: string | null;
  new_ref: string | null;
  edited_lines: number;
  inserted_lines: number;
  deleted_lines: number;
  reason: string | null;
}

async function driftJson(cwd: string, extra: string[] = []): Promise<{ code: number | null; refs: DriftRefJson[]; counts: Record<string, number> }> {
  const r = await refcatInProcess(['verify', 'refs', '--drift', '--json', ...extra], { cwd });
  expect(r.stderr).toBe('');
  const doc = JSON.parse(r.stdout) as { drift: Record<string, number> & { refs: DriftRefJson[] } };
  const { refs, ...counts } = doc.drift;
  return { code: r.code, refs, counts };
}

const X = numbered('x', 30);
const lines = (text: string) => text.split('\n');
const withoutLines = (text: string, from: number, to: number) => lines(text).filter((_, i) => i + 1 < from || i + 1 > to).join('\n');
/** `text` with lines from..to (1-based) moved to the end. */
const blockToEnd = (text: string, from: number, to: number) => {
  const l = lines(text.replace(/\n$/, ''));
  const block = l.splice(from - 1, to - from + 1);
  return [...l, ...block].join('\n') + '\n';
};

// One doc ref, `@lib/x.js#L10-L12` written against a 30-line file, then one change to the code.
const CASES: { name: string; change: (repo: GitRepo) => void; status: string; newRef: string | null; edited?: number; deleted?: number }[] = [
  { name: 'nothing near the lines changed', change: (r) => r.write({ 'lib/x.js': X + 'x tail\n' }), status: 'unchanged', newRef: null },
  { name: 'lines inserted above the range', change: (r) => r.write({ 'lib/x.js': 'top 1\ntop 2\n' + X }), status: 'moved', newRef: '@lib/x.js#L12-L14' },
  { name: 'lines deleted above the range', change: (r) => r.write({ 'lib/x.js': withoutLines(X, 1, 4) }), status: 'moved', newRef: '@lib/x.js#L6-L8' },
  { name: 'a line deleted inside the range', change: (r) => r.write({ 'lib/x.js': withoutLines(X, 11, 11) }), status: 'changed', newRef: '@lib/x.js#L10-L11', edited: 1, deleted: 1 },
  { name: 'a line edited inside the range', change: (r) => r.write({ 'lib/x.js': X.replace('x 12\n', 'x twelve\n') }), status: 'changed', newRef: '@lib/x.js#L10-L12', edited: 1 },
  { name: 'the block moved within the file', change: (r) => r.write({ 'lib/x.js': blockToEnd(X, 10, 12) }), status: 'moved', newRef: '@lib/x.js#L28-L30' },
  { name: 'the file renamed', change: (r) => r.mv('lib/x.js', 'src/y.js'), status: 'moved', newRef: '@src/y.js#L10-L12' },
  {
    name: 'the file renamed and edited',
    change: (r) => {
      r.mv('lib/x.js', 'src/y.js');
      r.write({ 'src/y.js': 'top\n' + X });
    },
    status: 'moved',
    newRef: '@src/y.js#L11-L13',
  },
  { name: 'the file deleted', change: (r) => fs.rmSync(path.join(r.dir, 'lib/x.js')), status: 'deleted', newRef: null },
];

describe('verify refs --drift: verdicts against real git history (docs/reference.md#drift-verdicts)', () => {
  for (const c of CASES) {
    for (const committed of [true, false]) {
      it(`${c.name} (${committed ? 'committed' : 'in the working tree'})`, async () => {
        const repo = GitRepo.init({ 'lib/x.js': X, 'docs/notes.md': 'See @lib/x.js#L10-L12.\n' });
        const base = repo.head();
        c.change(repo);
        if (committed) repo.commit('change');
        const { refs, counts } = await driftJson(repo.dir);
        expect(refs).toEqual([
          {
            file: 'docs/notes.md',
            line: 1,
            ref: '@lib/x.js#L10-L12',
            status: c.status,
            base,
            new_ref: c.newRef,
            edited_lines: c.edited ?? 0,
            inserted_lines: 0,
            deleted_lines: c.deleted ?? 0,
            reason: null,
          },
        ]);
        expect(counts[c.status]).toBe(1);
      });
    }
  }

  it('text output: MOVED, CHANGED, DELETED lines and the drift summary; exit 1 for changed/deleted', async () => {
    const repo = GitRepo.init({
      'lib/x.js': X,
      'lib/y.js': numbered('y', 9),
      'lib/old.js': 'old\n',
      'docs/notes.md': 'A @lib/x.js#L10-L20 and @lib/x.js#/x 3/\n\nB @lib/y.js#L5-L9\n',
      'docs/flow.conv': 'PROMPT hi\nREFCAT @../lib/old.js#L1\n',
    });
    const sha = repo.head().slice(0, 7);
    repo.commit('change', { 'lib/x.js': 'a\nb\nc\nd\n' + X, 'lib/y.js': numbered('y', 6) + 'Y 7\nY 8\nY 9\nmore\n', 'lib/old.js': null });
    const r = await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '✗ FAILED: Scanned 2 file(s), found 4 reference(s): 3 valid, 1 broken; drift: 0 unchanged, 1 moved, 1 changed, 1 deleted, 0 unknown, 1 anchored',
        '  ERROR docs/flow.conv:2: Broken reference: @../lib/old.js#L1',
        `  DELETED docs/flow.conv:2: @../lib/old.js#L1 (since ${sha})`,
        `  MOVED docs/notes.md:1: @lib/x.js#L10-L20 → @lib/x.js#L14-L24 (since ${sha})`,
        `  CHANGED docs/notes.md:3: @lib/y.js#L5-L9: 3 of 5 lines edited since ${sha} (now about @lib/y.js#L5-L9)`,
        '',
      ].join('\n'),
    );
  });

  it('a ref to a file there neither now nor at the base: one ERROR line; --json keeps its unknown verdict', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': 'See @lib/gone.js#L2 and @lib/x.js#L3.\nThen @lib/later.js#L1.\n' });
    const sha = repo.head().slice(0, 7);
    repo.write({ 'lib/later.js': 'added after the doc\n' });
    const r = await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        '✗ FAILED: Scanned 1 file(s), found 3 reference(s): 2 valid, 1 broken; drift: 1 unchanged, 0 moved, 0 changed, 0 deleted, 2 unknown, 0 anchored',
        '  ERROR notes.md:1: Broken reference: @lib/gone.js#L2',
        // Not broken (the file came after the doc): its unknown verdict is the only word on it.
        `  UNKNOWN notes.md:2: @lib/later.js#L1: lib/later.js did not exist at ${sha}`,
        '',
      ].join('\n'),
    );
    const github = await refcatInProcess(['verify', 'refs', '--drift', '--format', 'github'], { cwd: repo.dir });
    expect(github.stdout.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::error file=notes.md,line=1::Broken reference: @lib/gone.js#L2',
      `::warning file=notes.md,line=2::Unknown reference: @lib/later.js#L1: lib/later.js did not exist at ${sha}`,
    ]);
    const { refs, counts } = await driftJson(repo.dir);
    expect(refs.map((x) => [x.ref, x.status, x.reason])).toEqual([
      ['@lib/gone.js#L2', 'unknown', `lib/gone.js did not exist at ${sha}`],
      ['@lib/x.js#L3', 'unchanged', null],
      ['@lib/later.js#L1', 'unknown', `lib/later.js did not exist at ${sha}`],
    ]);
    expect(counts.unknown).toBe(2);
  });

  it('moved only is a warning: exit 0, and exit 1 with --strict', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    expect((await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir })).code).toBe(0);
    expect((await refcatInProcess(['verify', 'refs', '--drift', '--strict'], { cwd: repo.dir })).code).toBe(1);
  });

  it('--format github: moved is a ::warning, changed and deleted are ::error', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'lib/z.js': 'z\n', 'notes.md': '@lib/x.js#L3\n@lib/x.js#L20\n@lib/z.js#L1\n' });
    const sha = repo.head().slice(0, 7);
    repo.commit('change', { 'lib/x.js': 'new\n' + X.replace('x 20\n', 'x XX\n'), 'lib/z.js': null });
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--format', 'github'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toEqual([
      '::error file=notes.md,line=3::Broken reference: @lib/z.js#L1',
      `::warning file=notes.md,line=1::Moved reference: @lib/x.js#L3 → @lib/x.js#L4 (since ${sha})`,
      `::error file=notes.md,line=2::Changed reference: @lib/x.js#L20: 1 of 1 lines edited since ${sha} (now about @lib/x.js#L21)`,
      `::error file=notes.md,line=3::Deleted reference: @lib/z.js#L1 (since ${sha})`,
    ]);
  });

  it('CRLF files: \\r\\n and \\n are the same line, the block is found', async () => {
    const crlf = X.replace(/\n/g, '\r\n');
    const repo = GitRepo.init({ 'lib/x.js': crlf, 'notes.md': 'See @lib/x.js#L5-L6\r\n' });
    repo.commit('insert', { 'lib/x.js': 'new\r\n' + crlf });
    const { refs } = await driftJson(repo.dir);
    expect(refs.map((r) => [r.status, r.new_ref])).toEqual([['moved', '@lib/x.js#L6-L7']]);
  });

  it('a ref on a line not committed yet is unchanged (written against the working tree)', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': 'old line\n' });
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    repo.write({ 'notes.md': 'old line\nSee @lib/x.js#L4\n' });
    const { refs } = await driftJson(repo.dir);
    expect(refs.map((r) => [r.status, r.base])).toEqual([['unchanged', null]]);
  });

  it('--since REV compares every ref with REV instead of its line\'s commit', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': 'intro\n' });
    const first = repo.head();
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    repo.commit('doc', { 'notes.md': 'intro\n@lib/x.js#L5\n' });
    expect((await driftJson(repo.dir)).refs.map((r) => r.status)).toEqual(['unchanged']);
    const since = await driftJson(repo.dir, ['--since', first.slice(0, 10)]);
    expect(since.refs.map((r) => [r.status, r.base, r.new_ref])).toEqual([['moved', first, '@lib/x.js#L6']]);
    const bad = await refcatInProcess(['verify', 'refs', '--since', 'no-such-rev'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('Unknown revision for --since: no-such-rev');
  });

  it('a moved ref keeps its form and spelling: windows, open ends, L10-20', async () => {
    const refs = ['@lib/x.js#L10:-2..+3', '@lib/x.js#L10:2..3', '@lib/x.js#L10-20', '@lib/x.js#L25-', '@lib/x.js#L-5', '@lib/x.js#L2:-5..+1'];
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': refs.join('\n') + '\n' });
    repo.commit('insert', { 'lib/x.js': 'a\nb\n' + X });
    expect((await driftJson(repo.dir)).refs.map((r) => [r.ref, r.status, r.new_ref])).toEqual([
      ['@lib/x.js#L10:-2..+3', 'moved', '@lib/x.js#L12:-2..+3'],
      ['@lib/x.js#L10:2..3', 'moved', '@lib/x.js#L12:2..3'],
      ['@lib/x.js#L10-20', 'moved', '@lib/x.js#L12-22'],
      ['@lib/x.js#L25-', 'moved', '@lib/x.js#L27-'],
      ['@lib/x.js#L-5', 'moved', '@lib/x.js#L3-L7'],
      // Clipped at line 1, the window no longer selects the same lines: a concrete range.
      ['@lib/x.js#L2:-5..+1', 'moved', '@lib/x.js#L3-L5'],
    ]);
  });

  it('a repeated block: the copy git maps the old start to', async () => {
    const block = 'same\nsame too\n';
    const repo = GitRepo.init({ 'lib/x.js': numbered('a', 5) + block + numbered('b', 5), 'notes.md': '@lib/x.js#L6-L7\n' });
    repo.commit('insert', { 'lib/x.js': 'top\n' + numbered('a', 5) + block + numbered('b', 5) + block });
    expect((await driftJson(repo.dir)).refs.map((r) => [r.status, r.new_ref])).toEqual([['moved', '@lib/x.js#L7-L8']]);
  });

  it('a scanned file outside any git repository: unknown, with the reason', async () => {
    const dir = tmpDir({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    const { refs } = await driftJson(dir);
    expect(refs.map((r) => [r.status, r.reason])).toEqual([['unknown', 'notes.md is not in a git repository']]);
  });

  it('a shallow clone: unknown, with the reason', async () => {
    const origin = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    origin.commit('insert', { 'lib/x.js': 'new\n' + X });
    const clone = path.join(tmpDir(), 'clone');
    origin.git('clone', '-q', '--depth', '1', `file://${origin.dir}`, clone);
    const { refs } = await driftJson(clone);
    expect(refs.map((r) => [r.status, r.reason])).toEqual([['unknown', '. is a shallow clone: fetch the full history (actions/checkout: fetch-depth: 0)']]);
  });

  it('no git on PATH: one clear error, exit 2', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    const r = await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir, env: { PATH: path.join(repo.dir, 'no-bin') } });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: git is not installed \(or not on PATH\)[^\n]*\n$/);
  });
});

describe('verify refs --drift: alias targets (docs/reference.md#drift-verdicts)', () => {
  /** A workspace repo with externals/ext (its own repository, ignored by the workspace). */
  function workspace(pinned: boolean) {
    const root = tmpDir();
    const ext = GitRepo.init({ 'lib/a.js': numbered('a', 10) }, path.join(root, 'externals', 'ext'));
    const first = ext.head();
    const lock = (ref: string | null) => JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ...(ref ? { ref } : {}) }] }, null, 2) + '\n';
    const ws = GitRepo.init({ '.gitignore': 'externals/\n', 'workspace.lock.json': lock(pinned ? first : null), 'docs/notes.md': 'See ext:lib/a.js#L4-L5\n' }, root);
    return { ws, ext, first, lock };
  }

  it('a re-pin in workspace.lock.json is the change --drift explains', async () => {
    const { ws, ext, first, lock } = workspace(true);
    ext.day = 10;
    const second = ext.commit('insert', { 'lib/a.js': 'new 1\nnew 2\n' + numbered('a', 10) });
    ws.day = 10;
    ws.commit('re-pin', { 'workspace.lock.json': lock(second) });
    const { refs, code } = await driftJson(ws.dir);
    expect(code).toBe(0);
    expect(refs.map((r) => [r.status, r.base, r.new_ref])).toEqual([['moved', first, 'ext:lib/a.js#L6-L7']]);
  });

  it('an alias without a pin: its last commit at or before the base commit\'s date', async () => {
    const { ws, ext, first } = workspace(false);
    ext.day = 10;
    ext.commit('later edit', { 'lib/a.js': numbered('a', 3) + 'A 4\n' + numbered('a', 6, 5) });
    const { refs } = await driftJson(ws.dir);
    expect(refs.map((r) => [r.status, r.base, r.edited_lines])).toEqual([['changed', first, 1]]);
  });

  it('an alias target that is not a git repository: unknown', async () => {
    const repo = GitRepo.init({ 'notes.md': 'plain:lib/p.js#L1\n' });
    const plain = tmpDir({ 'lib/p.js': 'p\n' });
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json', '--alias', `plain=${plain}`], { cwd: repo.dir });
    const doc = JSON.parse(r.stdout) as { drift: { refs: DriftRefJson[] } };
    expect(doc.drift.refs.map((x) => [x.status, x.reason])).toEqual([['unknown', `${plain} is not a git repository`]]);
    expect(r.code).toBe(0);
  });
});
