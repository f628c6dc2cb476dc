import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDrift, type DriftRefInput, fixDrift, parseRef, verifyRefs } from '../../src/index.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const X = numbered('x', 30);
const ctxFor = (dir: string) => testCtx(dir, { PATH: process.env.PATH ?? '' });

/** `docs` docs, each with `perDoc` line refs into lib/a.js or lib/b.js, committed, then the code edited. */
function workspace(docs: number, perDoc: number): GitRepo {
  const files: Record<string, string> = { 'lib/a.js': numbered('a', 40), 'lib/b.js': numbered('b', 40) };
  for (let d = 0; d < docs; d++) {
    let doc = `# Doc ${d}\n`;
    for (let k = 0; k < perDoc; k++) doc += `- @lib/${k % 2 ? 'b' : 'a'}.js#L${1 + ((d * 7 + k * 3) % 35)}-L${3 + ((d * 7 + k * 3) % 35)}\n`;
    files[`docs/doc${d}.md`] = doc;
  }
  const repo = GitRepo.init(files);
  repo.commit('edit', { 'lib/a.js': 'top\n' + numbered('a', 40), 'lib/b.js': 'b 0\n' + numbered('b', 40) });
  return repo;
}

describe('detectDrift: the library call, and git run a bounded number of times (docs/reference.md#drift-verdicts)', () => {
  it('the exported detectDrift and fixDrift judge and fix refs found by the caller', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': 'See @lib/x.js#L4-L5 and @lib/x.js#/x 9/\n' });
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    const file = path.join(repo.dir, 'notes.md');
    const refs: DriftRefInput[] = ['@lib/x.js#L4-L5', '@lib/x.js#/x 9/'].map((ref) => ({ file, line: 1, ref, spec: parseRef(ref), alias: null, searchDirs: [repo.dir] }));
    const report = await detectDrift(refs, ctxFor(repo.dir));
    expect(report.entries.map((e) => [e.status, e.newRef])).toEqual([
      ['moved', '@lib/x.js#L5-L6'],
      ['anchored', null],
    ]);
    // The lines each ref selected at its base, for a caller comparing text (cited snippets).
    expect(report.entries.map((e) => e.baseLines)).toEqual([['x 4', 'x 5'], undefined]);
    // One config read (the repository's filter drivers, switched off), one blame (one doc), one
    // cat-file of the old contents, one diff.
    expect(report.gitProcesses).toBe(4);
    expect(await fixDrift(report, ctxFor(repo.dir))).toEqual([{ file, line: 1, oldRef: '@lib/x.js#L4-L5', newRef: '@lib/x.js#L5-L6' }]);
    expect(repo.read('notes.md')).toBe('See @lib/x.js#L5-L6 and @lib/x.js#/x 9/\n');
    expect(report.counts).toMatchObject({ moved: 0, fixed: 1, anchored: 1 });
  });

  it('at most one blame per doc, whatever the number of refs: 3 docs of 4 refs and of 40 refs cost the same', async () => {
    const processes = async (perDoc: number, editDocs: boolean) => {
      const repo = workspace(3, perDoc);
      if (editDocs) {
        for (let d = 0; d < 3; d++) repo.write({ [`docs/doc${d}.md`]: repo.read(`docs/doc${d}.md`) + 'More.\n' });
        repo.commit('edit the docs');
      }
      const report = await verifyRefs(['docs'], ctxFor(repo.dir), { drift: {} });
      expect(report.drift!.counts.moved + report.drift!.counts.changed).toBe(3 * perDoc);
      return report.drift!.gitProcesses;
    };
    // Three docs (fewer than the four from which docs added once are found without a blame,
    // test/unit/drift-bases.test.ts): one blame per doc, 1 cat-file --batch (old contents), 1 diff
    // (one repository, one base), and one config read, edited or not.
    expect(await processes(4, false)).toBe(6);
    expect(await processes(40, false)).toBe(6);
    expect(await processes(4, true)).toBe(6);
    expect(await processes(40, true)).toBe(6);
  });

  it('docs written at different commits: one diff per (repository, base), still not one per ref', async () => {
    const repo = workspace(2, 10);
    repo.commit('third doc', { 'docs/doc2.md': '# Doc 2\n- @lib/a.js#L5-L6\n- @lib/b.js#L7\n' });
    repo.commit('edit again', { 'lib/a.js': 'top 2\n' + repo.read('lib/a.js') });
    const report = await verifyRefs(['docs'], ctxFor(repo.dir), { drift: {} });
    expect(report.drift!.counts).toMatchObject({ moved: 21, unchanged: 1 }); // lib/b.js did not change after doc 2
    // 1 config read, 3 blames, 1 cat-file, 2 diffs (docs 0-1 against the first commit, doc 2 against the third).
    expect(report.drift!.gitProcesses).toBe(7);
  });
});

describe('verify refs --drift: the base of a doc git did not blame', () => {
  it('a doc renamed since its refs were written keeps the commit that wrote them (blame follows the rename)', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': 'See @lib/x.js#L3\n' });
    const first = repo.head();
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    repo.mv('notes.md', 'docs/notes.md');
    repo.commit('move the doc');
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd: repo.dir });
    const refs = (JSON.parse(r.stdout) as { drift: { refs: { status: string; base: string; new_ref: string }[] } }).drift.refs;
    expect(refs.map((x) => [x.status, x.base, x.new_ref])).toEqual([['moved', first, '@lib/x.js#L4']]);
  });

  it('a doc added on a branch and merged: its refs were written on the branch', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X });
    repo.git('checkout', '-q', '-b', 'docs');
    const written = repo.commit('doc', { 'notes.md': 'See @lib/x.js#L3\n' });
    repo.git('checkout', '-q', 'main');
    repo.commit('insert', { 'lib/x.js': 'new\n' + X });
    repo.git('-c', 'user.name=T', '-c', 'user.email=t@e', 'merge', '-q', '--no-edit', 'docs');
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd: repo.dir });
    const refs = (JSON.parse(r.stdout) as { drift: { refs: { status: string; base: string; new_ref: string }[] } }).drift.refs;
    expect(refs.map((x) => [x.status, x.base, x.new_ref])).toEqual([['moved', written, '@lib/x.js#L4']]);
  });
});

describe('verify refs --drift: git failures and git configuration (docs/reference.md#drift-verdicts)', () => {
  it('a blame that fails for any reason but an uncommitted file is one error naming the repository, not a silent unchanged', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    repo.commit('insert', { 'lib/x.js': 'new\n' + X, 'notes.md': '@lib/x.js#L3\nmore\n' });
    repo.git('config', 'blame.ignoreRevsFile', '.git-blame-ignore-revs'); // a file that does not exist
    const r = await refcatInProcess(['verify', 'refs', '--drift'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: git blame failed in ${repo.dir}: fatal: could not open object name list: .git-blame-ignore-revs\n`);
  });

  it('diff prefixes from the user\'s config (noprefix, mnemonicPrefix) do not change the verdicts', async () => {
    const block = 'same\nsame too\n';
    const repo = GitRepo.init({ 'lib/x.js': numbered('a', 5) + block + numbered('b', 5), 'notes.md': '@lib/x.js#L6-L7\n' });
    repo.commit('insert', { 'lib/x.js': 'top\n' + numbered('a', 5) + block + numbered('b', 5) + block });
    for (const [key, value] of [['diff.noprefix', 'true'], ['diff.mnemonicPrefix', 'true']] as const) {
      repo.git('config', key, value);
      const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd: repo.dir });
      const refs = (JSON.parse(r.stdout) as { drift: { refs: { status: string; new_ref: string }[] } }).drift.refs;
      // Two copies of the block: only git's diff (parsed by path) says which one is the old one.
      expect(refs.map((x) => [x.status, x.new_ref])).toEqual([['moved', '@lib/x.js#L7-L8']]);
    }
  });

  it('--since never reaches git as an option', async () => {
    const repo = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    const out = path.join(tmpDir(), 'written');
    const r = await refcatInProcess(['verify', 'refs', `--since=--output=${out}`], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`Error: Unknown revision for --since: --output=${out} (a revision, not an option)\n`);
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);
  });

  it('a worktree of a shallow clone (its .git is a file) is a shallow clone too: unknown, not judged from the cut', async () => {
    const origin = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    origin.commit('insert', { 'lib/x.js': 'new\n' + X });
    const clone = path.join(tmpDir(), 'clone');
    origin.git('clone', '-q', '--depth', '1', `file://${origin.dir}`, clone);
    const wt = path.join(tmpDir(), 'wt');
    new GitRepo(clone).git('worktree', 'add', '-q', '--detach', wt, 'HEAD');
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd: wt });
    const refs = (JSON.parse(r.stdout) as { drift: { refs: { status: string; reason: string }[] } }).drift.refs;
    expect(refs.map((x) => [x.status, x.reason])).toEqual([['unknown', '. is a shallow clone: fetch the full history (actions/checkout: fetch-depth: 0)']]);
  });

  it('--since on a shallow clone says the history is missing', async () => {
    const origin = GitRepo.init({ 'lib/x.js': X, 'notes.md': '@lib/x.js#L3\n' });
    origin.commit('insert', { 'lib/x.js': 'new\n' + X });
    const clone = path.join(tmpDir(), 'clone');
    origin.git('clone', '-q', '--depth', '1', `file://${origin.dir}`, clone);
    const r = await refcatInProcess(['verify', 'refs', '--since', 'HEAD~1'], { cwd: clone });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Error: Unknown revision for --since: HEAD~1 (in ., a shallow clone: fetch the full history)\n');
  });
});
