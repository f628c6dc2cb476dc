import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';

// Real history: the code is committed, the doc copies it (or paraphrases it), then the code moves
// on in later commits.
const CODE = ['def dose(carbs, ratio):', '    wanted = carbs / ratio', '    return max(0.0, wanted)', '', 'def other():', '    pass'];
const code = (lines: string[]) => lines.join('\n') + '\n';
const fence = (...lines: string[]) => ['```py', ...lines, '```'].join('\n');

const VERBATIM = fence('# @src/dose.py#L1-L3', ...CODE.slice(0, 3));
const PARAPHRASE = fence('# @src/dose.py#L1-L3', 'def dose(carbs, ratio):', '    # 1. check the cap first', '    return carbs / ratio');

function json(stdout: string) {
  return JSON.parse(stdout) as { passed: boolean; snippets: { refs: Record<string, unknown>[]; refreshed?: unknown[]; left?: unknown[]; verbatim: number; stale: number }; drift: { refs: Record<string, unknown>[] } };
}

describe('snippets with --drift: stale since, or never matched', () => {
  it('a verbatim copy whose code is then edited is stale since its base; a paraphrase never matched', async () => {
    const repo = GitRepo.init({ 'src/dose.py': code(CODE) });
    const base = repo.commit('docs', { 'docs/a.md': VERBATIM + '\n\n' + PARAPHRASE + '\n' });
    repo.commit('cap the dose', { 'src/dose.py': code(CODE.map((l) => l.replace('max(0.0, wanted)', 'max(0.0, min(wanted, 10))'))) });
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--drift'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const short = repo.git('rev-parse', '--short=7', 'HEAD~1').trim();
    expect(r.stdout).toContain(`  STALE docs/a.md:2: snippet differs from @src/dose.py#L1-L3 (stale since ${short}: the code changed): 1 of 3 lines not in the code: return max(0.0, wanted)`);
    expect(r.stdout).toContain(`  STALE docs/a.md:9: snippet differs from @src/dose.py#L1-L3 (never matched the code at ${short})`);
    const j = json((await refcatInProcess(['verify', 'refs', 'docs', '--drift', '--json'], { cwd: repo.dir })).stdout);
    expect(j.snippets.refs.map((s) => [s.line, s.status, s.matched_at_base, s.base])).toEqual([
      [2, 'stale', true, base],
      [9, 'stale', false, base],
    ]);
  });

  it('moved code: --fix moves the ref and the snippet stays verbatim', async () => {
    const repo = GitRepo.init({ 'src/dose.py': code(CODE) });
    repo.commit('docs', { 'docs/a.md': VERBATIM + '\n' });
    repo.commit('insert above', { 'src/dose.py': code(['import math', '', ...CODE]) });
    const drift = await refcatInProcess(['verify', 'refs', 'docs', '--drift'], { cwd: repo.dir });
    expect(drift.stdout).toContain('now at @src/dose.py#L3-L5');
    const fixed = await refcatInProcess(['verify', 'refs', 'docs', '--fix', '--json'], { cwd: repo.dir });
    const j = json(fixed.stdout);
    expect(fixed.code).toBe(0);
    expect(j.snippets.refs.map((s) => [s.ref, s.status])).toEqual([['@src/dose.py#L3-L5', 'verbatim']]);
    expect(fs.readFileSync(path.join(repo.dir, 'docs/a.md'), 'utf8')).toBe(VERBATIM.replace('#L1-L3', '#L3-L5') + '\n');
  });
});

describe('--fix-snippets', () => {
  const edited = () => {
    const repo = GitRepo.init({ 'src/dose.py': code(CODE) });
    const doc = '# Dosing\r\n\r\n' + [VERBATIM, PARAPHRASE, fence('# @src/dose.py#L1-L3', 'def dose(carbs, ratio):', '    # ...')].join('\r\n\r\n').replace(/\n(?!\r)/g, '\r\n').replace(/\r\r/g, '\r') + '\r\n  trailing spaces stay   \r\n';
    repo.commit('docs', { 'docs/a.md': doc });
    repo.commit('cap the dose', { 'src/dose.py': code(['def dose(carbs, ratio):', '    wanted = carbs / ratio', '    wanted = min(wanted, 10)', '    return max(0.0, wanted)', '', 'def other():', '    pass']) });
    return { repo, doc };
  };

  it('refreshes only the snippet that was a verbatim copy at base, changes no other byte, and finds nothing the second time', async () => {
    const { repo, doc } = edited();
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets'], { cwd: repo.dir });
    const short = repo.git('rev-parse', '--short=7', 'HEAD~1').trim();
    expect(r.stdout).toContain('  REFRESHED docs/a.md:4: @src/dose.py#L1-L3 → @src/dose.py#L1-L4 (snippet 3 → 4 lines)');
    expect(r.stdout).toContain(`  LEFT docs/a.md:11: @src/dose.py#L1-L3: not a verbatim copy at ${short}`);
    expect(r.stdout).not.toContain('FIXED');
    const after = fs.readFileSync(path.join(repo.dir, 'docs/a.md'), 'utf8');
    const expected = doc.replace(
      '# @src/dose.py#L1-L3\r\ndef dose(carbs, ratio):\r\n    wanted = carbs / ratio\r\n    return max(0.0, wanted)\r\n',
      '# @src/dose.py#L1-L4\r\ndef dose(carbs, ratio):\r\n    wanted = carbs / ratio\r\n    wanted = min(wanted, 10)\r\n    return max(0.0, wanted)\r\n',
    );
    expect(after).not.toBe(doc);
    expect(after).toBe(expected);
    // The paraphrase is still stale (the excerpt at line 18 is fine), so the run fails; a second
    // run refreshes nothing more.
    expect(r.code).toBe(1);
    const again = await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets', '--json'], { cwd: repo.dir });
    const j = json(again.stdout);
    expect(j.snippets.refreshed).toEqual([]);
    expect(fs.readFileSync(path.join(repo.dir, 'docs/a.md'), 'utf8')).toBe(expected);
  });

  it('--dry-run shows what would change and writes nothing', async () => {
    const { repo, doc } = edited();
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets', '--dry-run'], { cwd: repo.dir });
    expect(r.stdout).toContain('  WOULD REFRESH docs/a.md:4: @src/dose.py#L1-L3 → @src/dose.py#L1-L4 (snippet 3 → 4 lines)');
    expect(r.stdout).toMatch(/snippets: 0 verbatim, 1 excerpt, 2 stale \(1 to refresh, --dry-run\)/);
    expect(fs.readFileSync(path.join(repo.dir, 'docs/a.md'), 'utf8')).toBe(doc);
  });

  it('a deleted target is never refreshed', async () => {
    const repo = GitRepo.init({ 'src/dose.py': code(CODE) });
    repo.commit('docs', { 'docs/a.md': VERBATIM + '\n' });
    repo.commit('delete', { 'src/dose.py': null });
    const r = await refcatInProcess(['verify', 'refs', 'docs', '--fix-snippets', '--json'], { cwd: repo.dir });
    expect(json(r.stdout).snippets.refreshed ?? []).toEqual([]);
    expect(fs.readFileSync(path.join(repo.dir, 'docs/a.md'), 'utf8')).toBe(VERBATIM + '\n');
  });
});
