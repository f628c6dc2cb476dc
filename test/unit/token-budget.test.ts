import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import type { Extraction, ExtractReport } from '../../src/core/extract/extract.js';
import { DEFAULT_RENDER_OPTIONS, renderers } from '../../src/core/output/render-extraction.js';
import { budgetMarkdown } from '../../src/core/tokens/token-budget.js';

const reference = new Tiktoken(o200k);
const count = (s: string) => reference.encode(s, [], []).length;

function extraction(name: string, lines: string[], start: number): Extraction {
  return {
    ref: `@${name}#L${start}-L${start + lines.length - 1}`,
    spec: null,
    alias: null,
    path: `/repo/${name}`,
    relPath: name,
    displayPath: name,
    displayBase: '/repo',
    language: 'typescript',
    wholeFile: false,
    lineStart: start,
    lineEnd: start + lines.length - 1,
    totalLines: null,
    wasClamped: false,
    lines,
  };
}

const line = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '  indented', '/ slash', '// comment', '```', '````js', '🚀 emoji', 'naïve', '\t\ttab', '<|endoftext|>', '123 | x'),
);
const report = fc
  .array(fc.tuple(fc.constantFrom('a.ts', 'src/b.ts', 'c d.ts'), fc.array(line, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 2000 })), {
    minLength: 1,
    maxLength: 6,
  })
  .map((refs): ExtractReport => ({ results: refs.map(([n, l, s]) => extraction(n, l, s)), errors: [], warnings: [] }));
const options = fc.record({ attribution: fc.boolean(), lineNumbers: fc.boolean() }).map((o) => ({ ...DEFAULT_RENDER_OPTIONS, ...o }));

describe('budgetMarkdown', () => {
  it('prints at most the budget, counts exactly, keeps whole blocks first and names the rest', async () => {
    await fc.assert(
      fc.asyncProperty(report, options, fc.integer({ min: 1, max: 600 }), async (rep, opts, max) => {
        let out;
        try {
          out = await budgetMarkdown(rep, opts, { encoding: 'o200k_base', maxTokens: max });
        } catch (err) {
          // Too small for one line of the first ref: the message names a budget above this one.
          const need = Number(/needs at least (\d+) tokens/.exec((err as Error).message)?.[1]);
          expect(need).toBeGreaterThan(max);
          return;
        }
        expect(out.tokens).toBe(count(out.text));
        expect(out.tokens).toBeLessThanOrEqual(max);
        expect(out.refs + out.leftOut.length).toBe(rep.results.length);
        expect(out.leftOut).toEqual(rep.results.slice(rep.results.length - out.leftOut.length).map((r) => r.ref));
        const full = renderers.markdown(rep, opts);
        if (out.leftOut.length === 0 && !out.text.includes('… cut: ')) expect(out.text).toBe(full);
      }),
      { numRuns: 150 },
    );
  });

  it('without a budget: the whole markdown and its exact count', async () => {
    await fc.assert(
      fc.asyncProperty(report, options, async (rep, opts) => {
        const out = await budgetMarkdown(rep, opts, { encoding: 'o200k_base' });
        expect(out.text).toBe(renderers.markdown(rep, opts));
        expect(out.tokens).toBe(count(out.text));
      }),
      { numRuns: 100 },
    );
  });
});
