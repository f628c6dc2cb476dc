import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capReport } from '../../src/core/agents/answer-caps.js';
import { readFd } from '../../src/core/paging/fd-read.js';
import { Store } from '../../src/core/paging/fd-store.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// verify_refs answers past the cap (docs/agents.md#large-answers-and-citations).

async function* none(): AsyncIterable<string> {}

describe('capReport', () => {
  const report = (refs: number) => ({
    version: 1,
    passed: false,
    files_scanned: 1,
    not_scanned: 0,
    refs_found: refs + 2,
    valid: refs,
    broken: 2,
    errors: [
      { code: 'not_found', message: 'REFCAT ref not found: @a.py', file: 'd.md', line: 1, ref: '@a.py' },
      { code: 'not_found', message: 'REFCAT ref not found: @b.py', file: 'd.md', line: 2, ref: '@b.py' },
    ],
    warnings: [],
    skipped: [],
    drift: {
      moved: 3,
      unchanged: refs - 3,
      refs: Array.from({ length: refs }, (_, i) => ({ file: 'd.md', line: i + 3, ref: `@x.py#L${i + 1}`, status: i % 100 === 50 ? 'moved' : 'unchanged', new_ref: null })),
    },
  });

  it('a report that fits is answered as it is', async () => {
    const text = JSON.stringify(report(10), null, 2) + '\n';
    expect(await capReport(text, 400_000, () => Store.at(testCtx(tmpDir()), path.join(tmpDir(), 'store')))).toBe(text);
  });

  it('past the cap: the counts whole, the cut, the errors, the drift verdicts that ask something (unchanged left out), the whole report stored', async () => {
    const dir = tmpDir();
    const ctx = testCtx(dir);
    const store = path.join(dir, 'store');
    const text = JSON.stringify(report(300), null, 2) + '\n';
    const answer = await capReport(text, 10_000, () => Store.at(ctx, store));
    expect(answer.length).toBeLessThanOrEqual(10_000);
    const cut = JSON.parse(answer) as ReturnType<typeof report> & { cut: { fd: string; shown: Record<string, number>; total: Record<string, number>; chars: number } };
    expect(Object.keys(cut).slice(0, 8)).toEqual(['version', 'passed', 'files_scanned', 'not_scanned', 'refs_found', 'valid', 'broken', 'cut']);
    expect(cut.errors).toHaveLength(2);
    expect(cut.drift.refs.map((r) => r.status)).toEqual(['moved', 'moved', 'moved']);
    expect(cut.drift).toMatchObject({ moved: 3, unchanged: 297 });
    expect(cut.cut).toMatchObject({ chars: text.length, shown: { errors: 2, 'drift.refs': 3, warnings: 0, skipped: 0 }, total: { errors: 2, 'drift.refs': 300, warnings: 0, skipped: 0 } });
    const stored = await readFd({ source: cut.cut.fd, all: true, store }, ctx, none());
    try {
      expect([...stored.text].join('')).toBe(text);
    } finally {
      stored.close();
    }
  });

  it('a list too long for the cap is cut to the items that fit, errors first', async () => {
    const big = report(0);
    big.errors = Array.from({ length: 2000 }, (_, i) => ({ code: 'not_found', message: `REFCAT ref not found: @f${i}.py`, file: 'd.md', line: i + 1, ref: `@f${i}.py` }));
    const text = JSON.stringify(big, null, 2) + '\n';
    const dir = tmpDir();
    const answer = await capReport(text, 20_000, () => Store.at(testCtx(dir), path.join(dir, 'store')));
    expect(answer.length).toBeLessThanOrEqual(20_000);
    const cut = JSON.parse(answer) as { errors: { ref: string }[]; cut: { shown: { errors: number } } };
    expect(cut.errors.length).toBe(cut.cut.shown.errors);
    expect(cut.errors.length).toBeGreaterThan(50);
    expect(cut.errors.map((e) => e.ref)).toEqual(big.errors.slice(0, cut.errors.length).map((e) => e.ref));
    // Nearly full: the estimate of each item's size is close.
    expect(answer.length).toBeGreaterThan(19_000);
  });
});
