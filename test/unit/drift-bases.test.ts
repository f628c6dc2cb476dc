import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectDrift } from '../../src/core/drift/detect-drift.js';
import type { DriftRefInput } from '../../src/core/drift/drift-types.js';
import { GitRunner } from '../../src/core/git/git-runner.js';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import { GitRepo, numbered } from '../helpers/git-repo.js';
import { testCtx } from '../helpers/tmp.js';

// With many scanned files, files whose whole history is the one commit that added them get their
// base without a blame each. The bases (and so the verdicts) must be exactly what a blame of each
// file gives, whatever the file's history: edited, renamed, re-added, merged, uncommitted.

const doc = (i: number) => `# Doc ${i}\n\nSee @lib/x.js#L${i + 1}-L${i + 3}.\nAnd @lib/x.js#L${i + 10}.\n`;

function inputs(repo: GitRepo, files: string[]): DriftRefInput[] {
  return files.flatMap((rel) => {
    const file = path.join(repo.dir, rel);
    return [3, 4].map((line, k) => {
      const i = Number(/\d+/.exec(rel)![0]);
      const ref = k === 0 ? `@lib/x.js#L${i + 1}-L${i + 3}` : `@lib/x.js#L${i + 10}`;
      return { file, line, ref, spec: parseRef(ref), alias: null, searchDirs: [repo.dir] };
    });
  });
}

describe('drift bases for many files at once', () => {
  it('equal the bases a blame of each file gives, in few git runs', async () => {
    const docs = Array.from({ length: 12 }, (_, i) => `docs/d${i}.md`);
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 40) });
    repo.commit('docs', Object.fromEntries(docs.slice(0, 8).map((d, i) => [d, doc(i)])));
    repo.commit('more docs', { [docs[8]!]: doc(8), [docs[9]!]: doc(9) });
    repo.commit('code moves', { 'lib/x.js': 'top\n' + numbered('x', 40) });
    repo.commit('d1 edited', { [docs[1]!]: doc(1) + 'more\n' });
    // d2 renamed (its lines blame to the commit that wrote them, not to the rename).
    repo.mv(docs[2]!, 'docs/d2-renamed.md');
    repo.commit('d2 renamed');
    // d3 deleted and written again.
    repo.commit('d3 gone', { [docs[3]!]: null });
    repo.commit('d3 back', { [docs[3]!]: doc(3) });
    // d10 added on a branch, changed by the merge.
    repo.git('checkout', '-q', '-b', 'side');
    repo.commit('d10 on a side branch', { [docs[10]!]: doc(10) });
    repo.git('checkout', '-q', 'main');
    repo.commit('d11 on main', { [docs[11]!]: doc(11) });
    repo.git('merge', '-q', '--no-ff', '--no-commit', 'side');
    repo.write({ [docs[10]!]: doc(10).replace('See', 'Merged: see') });
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'merge side');
    // d4 has an uncommitted change on the line of its first ref; d5 one elsewhere.
    repo.write({ [docs[4]!]: doc(4).replace('See', 'Look at'), [docs[5]!]: doc(5) + 'tail\n' });

    const files = docs.map((d) => (d === docs[2] ? 'docs/d2-renamed.md' : d));
    const ctx = testCtx(repo.dir);
    const git = new GitRunner(ctx);
    const together = await detectDrift(inputs(repo, files), ctx, { git });
    const single = await Promise.all(files.map((f) => detectDrift(inputs(repo, [f]), ctx)));
    expect(together.entries).toEqual(single.flatMap((r) => r.entries));
    // Every status is there, and the bases differ between files (the test would catch a mix-up).
    expect(new Set(together.entries.map((e) => e.base)).size).toBeGreaterThan(4);
    expect(together.entries.filter((e) => e.status === 'unchanged').length).toBeGreaterThan(0);
    expect(together.entries.filter((e) => e.status === 'moved').length).toBeGreaterThan(0);
    // Fewer git runs than file by file.
    expect(together.gitProcesses).toBeLessThan(single.reduce((n, r) => n + r.gitProcesses, 0) / 2);
  });

  it('are found for 200 files added once without a blame each', async () => {
    const docs = Array.from({ length: 200 }, (_, i) => `docs/d${i}.md`);
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 300) });
    repo.commit('docs', Object.fromEntries(docs.map((d, i) => [d, doc(i)])));
    repo.commit('code moves', { 'lib/x.js': 'top\n' + numbered('x', 300) });
    const ctx = testCtx(repo.dir);
    const report = await detectDrift(inputs(repo, docs), ctx);
    expect(report.counts.moved).toBe(400);
    // Three runs find the bases, then one diff and one batch read of the old file.
    expect(report.gitProcesses).toBeLessThanOrEqual(8);
  });

  it('are found for 200 files edited since from logs, not a blame each, and equal the blames', async () => {
    const docs = Array.from({ length: 200 }, (_, i) => `docs/d${i}.md`);
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 300) });
    repo.commit('docs', Object.fromEntries(docs.map((d, i) => [d, doc(i)])));
    // Every doc edited twice: a line above its refs, then one of its refs rewritten (half of them).
    repo.commit('intro', Object.fromEntries(docs.map((d, i) => [d, doc(i).replace('# Doc', '# The doc')])));
    repo.commit('code moves', { 'lib/x.js': 'top\n' + numbered('x', 300) });
    repo.commit('review', Object.fromEntries(docs.map((d, i) => [d, i % 2 ? repo.read(d).replace('\nAnd', '\nAlso') : repo.read(d) + 'Reviewed.\n'])));
    const ctx = testCtx(repo.dir);
    const report = await detectDrift(inputs(repo, docs), ctx);
    // A ref rewritten in 'review' was written against the moved code.
    expect(report.counts).toMatchObject({ moved: 300, unchanged: 100 });
    // Four runs find the bases (one of them the diffs of the docs' commits), then one diff and
    // one batch read of the old file, and the config read.
    expect(report.gitProcesses).toBeLessThanOrEqual(8);
    const blamed = await detectDrift(inputs(repo, docs), ctx, { blameEveryFile: true });
    expect(blamed.gitProcesses).toBeGreaterThan(200);
    expect(report.entries).toEqual(blamed.entries);
    expect(new Set(report.entries.map((e) => e.base)).size).toBe(2); // 'docs' and 'review'
  });

  it('are left to blame where the config changes how blame diffs', async () => {
    const docs = Array.from({ length: 6 }, (_, i) => `docs/d${i}.md`);
    const repo = GitRepo.init({ 'lib/x.js': numbered('x', 40) });
    repo.commit('docs', Object.fromEntries(docs.map((d, i) => [d, doc(i)])));
    repo.commit('review', Object.fromEntries(docs.map((d, i) => [d, doc(i) + 'Reviewed.\n'])));
    const ctx = testCtx(repo.dir);
    const before = await detectDrift(inputs(repo, docs), ctx);
    repo.git('config', 'diff.algorithm', 'histogram');
    const after = await detectDrift(inputs(repo, docs), ctx);
    expect(after.entries).toEqual(before.entries);
    // A blame per doc instead of the two logs that follow the docs' commits.
    expect(after.gitProcesses).toBe(before.gitProcesses - 2 + docs.length);
  });

  // Each doc is a few lines from a small alphabet (refs, blank and indented lines repeat, so that
  // git's diffs have choices to make), edited by random commits: the bases found from the logs
  // are the bases blame gives.
  it('equal a blame of each file over random edit histories', async () => {
    const lineArb = fc.constantFrom('- @lib/x.js#L2', '- @lib/x.js#L5-L6', '- @lib/x.js#L9', '', '  v', 'v', '}');
    const editArb = fc.record({ doc: fc.nat(4), at: fc.nat(), remove: fc.nat(2), insert: fc.array(lineArb, { maxLength: 3 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(lineArb, { minLength: 1, maxLength: 8 }), { minLength: 5, maxLength: 5 }), fc.array(fc.array(editArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), async (start, commits) => {
        const files = start.map((lines) => [...lines, '- @lib/x.js#L3']);
        const docs = files.map((_, i) => `docs/d${i}.md`);
        const text = (lines: string[]) => lines.map((l) => l + '\n').join('');
        const repo = GitRepo.init({ 'lib/x.js': numbered('x', 40), ...Object.fromEntries(docs.map((d, i) => [d, text(files[i]!)])) });
        for (const edits of commits) {
          for (const e of edits) {
            const lines = files[e.doc]!;
            lines.splice(e.at % (lines.length + 1), e.remove, ...e.insert);
          }
          repo.commit('edit', Object.fromEntries(docs.map((d, i) => [d, text(files[i]!)])));
        }
        repo.commit('code moves', { 'lib/x.js': 'top\n' + numbered('x', 40) });
        const refs: DriftRefInput[] = files.flatMap((lines, i) =>
          lines.flatMap((l, k) => (l.startsWith('- @') ? [{ file: path.join(repo.dir, docs[i]!), line: k + 1, ref: l.slice(2), spec: parseRef(l.slice(2)), alias: null, searchDirs: [repo.dir] }] : [])),
        );
        const ctx = testCtx(repo.dir);
        const logs = await detectDrift(refs, ctx);
        const blamed = await detectDrift(refs, ctx, { blameEveryFile: true });
        expect(logs.entries).toEqual(blamed.entries);
      }),
      { numRuns: 12 },
    );
  }, 180_000); // 12 temp repositories, each committed up to 6 times and judged twice
});
