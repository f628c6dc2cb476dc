import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { REPO, refcat } from '../helpers/cli.js';

// Counts are checked against js-tiktoken on the text the bin printed.
const tiktoken = new Tiktoken(o200k);
const count = (text: string) => tiktoken.encode(text, [], []).length;

describe('refcat --outline (the bin)', () => {
  it("outlines this repository's src/ and exits 0", () => {
    const r = refcat(['@src/**/*.ts', '--outline', '--tokens'], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('## Outline: src/')).toBe(true);
    expect(r.stdout).toContain('⋯');
    expect(r.stderr).toMatch(/^refcat: \d+ refs, [\d,]+ tokens \(o200k_base\)\n$/);
    expect(r.stderr).toContain(` ${count(r.stdout).toLocaleString('en-US')} tokens`);
  });

  it('keeps --max-tokens', () => {
    const budget = 4000;
    const r = refcat(['@src/**/*.ts', '--outline', '--max-tokens', String(budget)], { cwd: REPO });
    expect(r.code).toBe(0);
    expect(count(r.stdout)).toBeLessThanOrEqual(budget);
    expect(r.stdout.startsWith('## Outline: src/')).toBe(true);
    // The outline of src/ is far larger than the budget: later files are left out, each named.
    expect(r.stderr).toMatch(/^Warning: left out \(token budget\): @src\//);
  });
});
