import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { argBatches, lineRanges } from '../../src/core/git/arg-batches.js';
import { detectDrift } from '../../src/core/drift/detect-drift.js';
import type { DriftRefInput } from '../../src/core/drift/drift-types.js';
import { GitRunner } from '../../src/core/git/git-runner.js';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// Git's command line is bounded whatever a doc or a lockfile holds (docs/reference.md#limits-and-hostile-input):
// a run never ends in `spawn E2BIG`, and git still runs a bounded number of times.

/** A drift input for `ref` on line `line` of `doc`, looked up from the repository root. */
function input(repo: GitRepo, doc: string, line: number, ref: string): DriftRefInput {
  return { file: path.join(repo.dir, doc), line, ref, spec: parseRef(ref), alias: null, searchDirs: [repo.dir] };
}

describe('a doc with tens of thousands of line refs', () => {
  it('80,000 refs on lines far apart: one blame of the whole file, every ref judged', async () => {
    const count = 80_000;
    // A ref on every other line: no two ref lines are neighbours, so no `-L` range can merge them.
    const doc = Array.from({ length: count }, () => 'See @lib/x.js#L2-L3\n').join('\n');
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 10), 'docs/big.md': doc });
    repo.commit('insert on top', { 'lib/x.js': 'top\n' + numbered('x', 10) });
    const git = new GitRunner(testCtx(repo.dir));
    const refs = Array.from({ length: count }, (_, i) => input(repo, 'docs/big.md', 2 * i + 1, '@lib/x.js#L2-L3'));
    const report = await detectDrift(refs, testCtx(repo.dir), { git });
    expect(report.counts.moved).toBe(count);
    expect(report.entries[count - 1]!.newRef).toBe('@lib/x.js#L3-L4');
    // config, blame, old contents, diff: as for one ref.
    expect(report.gitProcesses).toBeLessThanOrEqual(5);
  });

  it('a whole-file blame gives each ref the commit of its own line, as -L ranges do', async () => {
    const lines = 1200;
    const text = (edited: (i: number) => boolean) => Array.from({ length: lines }, (_, i) => (edited(i) ? `Edited @lib/x.js#L${(i % 5) + 1}\n` : `See @lib/x.js#L${(i % 5) + 1}\n`)).join('\n');
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 10), 'docs/d.md': text(() => false) });
    const first = repo.head();
    const second = repo.commit('edit every seventh ref line', { 'docs/d.md': text((i) => i % 7 === 0) });
    const refs = Array.from({ length: lines }, (_, i) => input(repo, 'docs/d.md', 2 * i + 1, `@lib/x.js#L${(i % 5) + 1}`));
    const whole = await detectDrift(refs, testCtx(repo.dir));
    expect(whole.entries.map((e) => e.base)).toEqual(refs.map((_, i) => (i % 7 === 0 ? second : first)));
    // The same refs in fewer ranges (one -L each): the same bases.
    const few = refs.filter((_, i) => i % 50 === 0);
    const ranged = await detectDrift(few, testCtx(repo.dir));
    expect(ranged.entries.map((e) => e.base)).toEqual(few.map((r) => whole.entries[refs.indexOf(r)]!.base));
  });
});

describe('a pin no revision could be', () => {
  it('a 200,000-character pin: unknown with its reason, never on a command line; the other refs are judged', async () => {
    const root = tmpDir();
    GitRepo.init({ 'lib/a.js': numbered('a', 10) }, path.join(root, 'externals', 'ext'));
    GitRepo.init({ 'lib/b.js': numbered('b', 10) }, path.join(root, 'externals', 'other'));
    const pin = 'x'.repeat(200_000);
    const lock = { repos: [{ alias: 'ext', name: 'ext', ref: pin }, { alias: 'other', name: 'other', ref: 'main' }] };
    const ws = GitRepo.init({ '.gitignore': 'externals/\n', 'workspace.lock.json': JSON.stringify(lock), 'docs/a.md': 'ext:lib/a.js#L2\nother:lib/b.js#L3\n' }, root);
    const r = await refcatInProcess(['verify', 'refs', '--drift', '--json'], { cwd: ws.dir });
    expect(r.stderr).toBe('');
    const refs = (JSON.parse(r.stdout) as { drift: { refs: { ref: string; status: string; reason: string | null }[] } }).drift.refs;
    expect(refs.map((x) => [x.ref, x.status, x.reason])).toEqual([
      ['ext:lib/a.js#L2', 'unknown', `the pin of externals/ext, a name of 200000 characters, is no revision (at most 1024) (pinned in workspace.lock.json at ${ws.head().slice(0, 7)})`],
      ['other:lib/b.js#L3', 'unchanged', null],
    ]);
  });

  it('--since longer than any revision: a usage error, exit 2', async () => {
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 3), 'notes.md': '@lib/x.js#L1\n' });
    const r = await refcatInProcess(['verify', 'refs', '--since', 'y'.repeat(5000)], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('Error: Unknown revision for --since: a name of 5000 characters is no revision (at most 1024)\n');
  });
});

describe('argument batches', () => {
  it('cut by count and by bytes, in order, an oversized item alone', () => {
    expect(argBatches(['a', 'b', 'c', 'd', 'e'], 2)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const big = 'p'.repeat(100);
    expect(argBatches(['a', big, 'b', 'c'], 10, 110)).toEqual([['a'], [big], ['b', 'c']]);
    expect(argBatches([], 3)).toEqual([]);
  });

  it('line ranges merge neighbours', () => {
    expect(lineRanges([1, 2, 3, 5, 7, 8])).toEqual([[1, 3], [5, 5], [7, 8]]);
  });
});
