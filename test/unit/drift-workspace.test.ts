import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDrift } from '../../src/core/drift/detect-drift.js';
import type { DriftRefInput } from '../../src/core/drift/drift-types.js';
import { GitRunner } from '../../src/core/git/git-runner.js';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Drift on a workspace as real ones are: branch and tag pins, clones that only have
// remote-tracking branches, damaged repositories, many unrelated changes between pins.

interface DriftRefJson {
  file: string;
  ref: string;
  status: string;
  base: string | null;
  new_ref: string | null;
  reason: string | null;
}

async function drift(cwd: string, extra: string[] = []): Promise<{ code: number | null; refs: DriftRefJson[]; stderr: string }> {
  const r = await refcatInProcess(['verify', 'refs', '--drift', '--json', ...extra], { cwd });
  const doc = JSON.parse(r.stdout) as { drift: { refs: DriftRefJson[] } };
  return { code: r.code, refs: doc.drift.refs, stderr: r.stderr };
}

const A = numbered('a', 10);
const lock = (ref: string) => JSON.stringify({ repos: [{ alias: 'ext', name: 'ext', ref }] }, null, 2) + '\n';

describe('--drift: pins that name a branch or a tag (docs/drift.md#branch-and-tag-pins)', () => {
  it('a branch pin is the branch as it was at the base date, in a clone that has only origin/main; a tag, a SHA, a name found nowhere', async () => {
    const up = GitRepo.init();
    up.day = 1;
    const c1 = up.commit('c1', { 'lib/a.js': A }); // day 2
    const root = tmpDir();
    const ws = GitRepo.init({}, root);
    ws.day = 2;
    ws.commit('pin main', { '.gitignore': 'externals/\n', 'workspace.lock.json': lock('main'), 'docs/one.md': 'ext:lib/a.js#L4-L5\n' }); // day 3
    up.day = 4;
    const c2 = up.commit('c2', { 'lib/a.js': 'new 1\n' + A }); // day 5
    up.git('tag', 'v1');
    ws.day = 5;
    ws.commit('pin v1', { 'workspace.lock.json': lock('v1'), 'docs/two.md': 'ext:lib/a.js#L5-L6\n' }); // day 6
    up.day = 6;
    const c3 = up.commit('c3', { 'lib/a.js': 'new 0\nnew 1\n' + A }); // day 7
    ws.day = 7;
    ws.commit('pin a sha', { 'workspace.lock.json': lock(c3), 'docs/three.md': 'ext:lib/a.js#L6-L7\n' }); // day 8
    const last = ws.commit('pin a name found nowhere', { 'workspace.lock.json': lock('nowhere'), 'docs/four.md': 'ext:lib/a.js#L1\n' });
    // The clone: origin/main and the tag, no local branch.
    const ext = path.join(root, 'externals', 'ext');
    ws.git('clone', '-q', up.dir, ext);
    new GitRepo(ext).git('checkout', '-q', '--detach');
    new GitRepo(ext).git('branch', '-q', '-D', 'main');
    const { refs, code } = await drift(root);
    expect(refs.map((r) => [r.file, r.status, r.base, r.new_ref, r.reason])).toEqual([
      ['docs/four.md', 'unknown', null, null, `externals/ext has no branch or tag nowhere (pinned in workspace.lock.json at ${last.slice(0, 7)})`],
      ['docs/one.md', 'moved', c1, 'ext:lib/a.js#L6-L7', null],
      ['docs/three.md', 'unchanged', c3, null, null],
      ['docs/two.md', 'moved', c2, 'ext:lib/a.js#L6-L7', null],
    ]);
    expect(code).toBe(0);
  });

  it('a local branch that moved on since is taken as it was then, not as it is today', async () => {
    const root = tmpDir();
    const ext = GitRepo.init({}, path.join(root, 'externals', 'ext'));
    const c1 = ext.commit('c1', { 'lib/a.js': A }); // day 1
    const ws = GitRepo.init({}, root);
    ws.day = 1;
    ws.commit('docs', { '.gitignore': 'externals/\n', 'workspace.lock.json': lock('main'), 'docs/one.md': 'ext:lib/a.js#L4-L5\n' });
    ext.day = 3;
    ext.commit('c2', { 'lib/a.js': 'new\n' + A });
    const { refs } = await drift(root);
    expect(refs.map((r) => [r.status, r.base, r.new_ref])).toEqual([['moved', c1, 'ext:lib/a.js#L5-L6']]);
  });
});

describe('--drift: one repository failing does not stop the others (docs/reference.md#drift-verdicts)', () => {
  function twoTargets() {
    const root = tmpDir();
    const exts = ['good', 'bad'].map((name) => GitRepo.init({ 'lib/a.js': A }, path.join(root, 'externals', name)));
    const ws = GitRepo.init({}, root);
    ws.day = 2;
    ws.commit('docs', { '.gitignore': 'externals/\n', 'docs/a.md': 'good:lib/a.js#L4-L5\nbad:lib/a.js#L4-L5\n' });
    for (const e of exts) {
      e.day = 5;
      e.commit('insert', { 'lib/a.js': 'new\n' + A });
    }
    const aliases = exts.flatMap((e) => ['--alias', `${path.basename(e.dir)}=${e.dir}`]);
    return { root, bad: exts[1]!, aliases };
  }

  it('a target missing an object (a loose object deleted): its refs are unknown with git\'s reason, the other target is judged', async () => {
    const { root, bad, aliases } = twoTargets();
    const blob = bad.git('rev-parse', 'HEAD~1:lib/a.js').trim();
    fs.rmSync(path.join(bad.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
    const { refs, code, stderr } = await drift(root, aliases);
    expect(stderr).toBe('');
    expect(refs.map((r) => [r.ref, r.status])).toEqual([
      ['good:lib/a.js#L4-L5', 'moved'],
      ['bad:lib/a.js#L4-L5', 'unknown'],
    ]);
    expect(refs[1]!.reason).toMatch(new RegExp(`^git diff failed in ${bad.dir}: fatal: unable to read ${blob}`));
    expect(code).toBe(0); // unknown is a warning
    expect((await drift(root, [...aliases, '--strict'])).code).toBe(1);
  });

  it('a corrupt object: one UNKNOWN line naming the repository, no stack trace, the others judged', async () => {
    const { root, bad, aliases } = twoTargets();
    const blob = bad.git('rev-parse', 'HEAD~1:lib/a.js').trim();
    const object = path.join(bad.dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    fs.chmodSync(object, 0o644);
    fs.writeFileSync(object, 'not a zlib stream');
    const r = await refcatInProcess(['verify', 'refs', '--drift', ...aliases], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[1]).toBe('  MOVED docs/a.md:1: good:lib/a.js#L4-L5 → good:lib/a.js#L5-L6 (since ' + lines[1]!.slice(-8));
    expect(lines[2]).toMatch(new RegExp(`^ {2}UNKNOWN docs/a\\.md:2: bad:lib/a\\.js#L4-L5: git \\S+ failed in ${bad.dir}: `));
  });
});

describe('--drift reads only the referenced paths\' content', () => {
  /** A repository with lib/a.js referenced and 500 unrelated files, all changed after the doc. */
  function repoWith(unrelated: number, rename: boolean): { repo: GitRepo; refs: DriftRefInput[] } {
    const files: Record<string, string> = { 'lib/a.js': A, 'docs/a.md': '@lib/a.js#L4-L5\n' };
    for (let i = 0; i < unrelated; i++) files[`other/f${i}.txt`] = numbered(`f${i}`, 40);
    const repo = GitRepo.init(files);
    const later: Record<string, string | null> = { 'lib/a.js': 'new\n' + A };
    for (let i = 0; i < unrelated; i++) later[`other/f${i}.txt`] = numbered(`g${i}`, 40);
    if (rename) {
      later['lib/a.js'] = null;
      later['lib/b.js'] = 'new\n' + A;
    }
    repo.commit('change everything', later);
    const file = path.join(repo.dir, 'docs/a.md');
    return { repo, refs: [{ file, line: 1, ref: '@lib/a.js#L4-L5', spec: parseRef('@lib/a.js#L4-L5'), alias: null, searchDirs: [repo.dir] }] };
  }
  const run = async (x: { repo: GitRepo; refs: DriftRefInput[] }) => {
    const git = new GitRunner(testCtx(x.repo.dir, { PATH: process.env.PATH ?? '' }));
    const report = await detectDrift(x.refs, testCtx(x.repo.dir, { PATH: process.env.PATH ?? '' }), { git });
    return { entry: report.entries[0]!, bytes: git.bytesRead };
  };

  it('500 unrelated changed files add no byte to what git outputs; a rename among them costs their names only', async () => {
    const alone = await run(repoWith(0, false));
    const crowded = await run(repoWith(500, false));
    expect([alone.entry.status, crowded.entry.status]).toEqual(['moved', 'moved']);
    expect(crowded.bytes).toBe(alone.bytes);
    const renamed = await run(repoWith(500, true));
    expect([renamed.entry.status, renamed.entry.newRef]).toEqual(['moved', '@lib/b.js#L5-L6']);
    // Their content diff would be 500 x 80 changed lines (over 500 KB); their names are 20 KB at most.
    expect(renamed.bytes - alone.bytes).toBeLessThan(500 * 40);
  });
});
