import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extract } from '../../src/core/extract/extract.js';
import { backtrackFree, PatternBudget, PatternTimeout } from '../../src/core/regex/pattern-search.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

const EVIL = 'a'.repeat(40) + 'b\n';
const CATASTROPHIC = /^(a+)+$/;

describe('one CPU-time budget for every pattern of a call', () => {
  it('a catastrophic pattern over a 30-file glob spends one budget, not one per file', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, '0')}.txt`] = EVIL;
    const dir = tmpDir(files);
    const started = process.cpuUsage();
    const report = extract(['@*.txt#/^(a+)+$/'], testCtx(dir), { patternBudget: new PatternBudget(300) });
    const used = process.cpuUsage(started);
    expect(report.errors.map((e) => e.code)).toEqual(Array(30).fill('pattern_timeout'));
    // 30 budgets would spend at least 9 s of CPU; one spends a fraction of that (CPU time: a busy
    // machine's waits are not counted).
    expect((used.user + used.system) / 1000).toBeLessThan(9000);
  });

  it('a healthy pattern is not failed when the machine is busy: wall time lost to others is not charged', () => {
    // A clock that says this process got a tenth of the wall time: the watchdog fires, but only a
    // tenth of the budget is charged, and the search is tried again with what is left.
    let fake = 0;
    let reads = 0;
    let last = performance.now();
    const busyClock = () => {
      reads++;
      const now = performance.now();
      fake += ((now - last) * 1000) / 10;
      last = now;
      return fake;
    };
    const budget = new PatternBudget(50, busyClock);
    expect(() => budget.search(CATASTROPHIC, [EVIL.trim()])).toThrow(PatternTimeout);
    // It gave up only after several tries (two clock reads each), each charged a tenth of its wall time.
    expect(reads).toBeGreaterThan(6);
    const healthy = new PatternBudget(50, busyClock);
    expect(healthy.search(/b$/, ['x', 'ab'])).toBe(1);
  });

  it('--after on ref export has the same budget', async () => {
    const dir = tmpDir({ 'a.md': '<ref id="x">\nnew\n</ref>\n', 'target.txt': EVIL.repeat(3) });
    const r = await refcatInProcess(['ref', 'export', 'x', '--from', 'a.md', '--to', 'target.txt', '--after', '/^(a+)+$/'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('Error: Pattern /^(a+)+$/ timed out after 1.5 s of CPU time in target.txt\n');
  });
});

describe('patterns searched without the watchdog', () => {
  it.each([
    [/function gone1/, true],
    [/^export const \w/u, true],
    [/\p{Lu}\d/u, true],
    [/(?<name>ab)\k<name>/, true],
    [/(?:a)(?=b)(?<!c)[*+?{|]\*\+\?\{\|/, true],
    [/a*/, false],
    [/a+b/, false],
    [/colou?r/, false],
    [/a{2}/, false],
    [/\u{3}/, false],
    [/(a|b)c/, false],
    [/^(a+)+$/, false],
    [/[a-z]+/, false],
    [/\b/u, true],
    [/[\]]+/, false],
    [/x/v, false],
  ])('%s: %s', (re, free) => {
    expect(backtrackFree(re)).toBe(free);
  });

  it('finds the first matching line, as the guarded search does (fast-check)', () => {
    const atom = fc.constantFrom('a', 'b', '\\d', '[ab]', '(?:ab)', '(?=a)', '(?<!b)', '^', '$', '\\.', '.', '\\b', '(a)\\1');
    const line = fc.array(fc.constantFrom('a', 'b', '1', '.', ' '), { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(atom, { minLength: 1, maxLength: 5 }), fc.array(line, { maxLength: 8 }), (atoms, lines) => {
        const re = new RegExp(atoms.join(''));
        expect(backtrackFree(re)).toBe(true);
        expect(new PatternBudget().search(re, lines)).toBe(lines.findIndex((l) => re.test(l)));
      }),
      { numRuns: 500 },
    );
  });

  it('a spent budget still refuses a backtrack-free pattern', () => {
    let now = 0;
    const budget = new PatternBudget(1, () => (now += 5000));
    expect(budget.search(/b/, ['a', 'b'])).toBe(1);
    expect(() => budget.search(/b/, ['b'])).toThrow(PatternTimeout);
  });
});
