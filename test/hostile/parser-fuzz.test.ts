import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRef } from '../../src/core/ref-spec/parse-ref-spec.js';
import { parseResponseRefs } from '../../src/core/response-refs/parse-response-refs.js';
import { parseConv } from '../../src/core/workflow/parse-conv.js';
import { RefcatError } from '../../src/shared/errors.js';

// Random and adversarial text into the three parsers that read what others wrote: no exception
// other than our own error classes escapes, and the time stays linear in the input's size.

const pieces = (alphabet: string[]) => fc.array(fc.constantFrom(...alphabet), { maxLength: 200 }).map((a) => a.join(''));

const REF_BITS = ['@', '#', 'L', '1', '9', '-', ':', '/', '\\', '.', '..', '+', '(', ')', '[', ']', '{', '}', '*', '?', '%20', '%', ' ', 'a', 'loop', '\u0000', 'é', '(?i)', '(?P<n>', '\\w'];
const CONV_BITS = ['PROMPT ', 'RUN ', 'INCLUDE ', 'REFCAT ', 'CONTEXT @', 'ON-FAILURE', 'END', 'ELIDE', 'ALIAS a=b', 'MAX-CYCLES x', '\n', '  ', '# ', 'text', '@a.py#L1', '\u001b[2J', '\r\n', '\u0000'];
const REF_TAG_BITS = ['<ref id="a">', "<ref id='b' x=1>", '<ref>', '</ref>', '<ref id="c"/>', '```\n', '~~~\n', '`', '\n', 'text ', '<', '>', '"', 'id=', '<ref id="a"'];

describe('parsers never throw anything but their own errors', () => {
  it('parseRef', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), pieces(REF_BITS)), (raw) => {
        try {
          parseRef(raw);
        } catch (err) {
          expect(err).toBeInstanceOf(RefcatError);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('parseConv', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), pieces(CONV_BITS)), (text) => {
        const conv = parseConv(text, { file: 'x.conv' });
        expect(Array.isArray(conv.problems)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('parseResponseRefs', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), pieces(REF_TAG_BITS)), (text) => {
        const r = parseResponseRefs(text);
        for (const ref of r.refs) expect(text.length).toBeGreaterThanOrEqual(ref.content.length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('parse time stays linear in the input size', () => {
  // The work for 8n must stay far under the 64x a quadratic parser would take. Time is the
  // process's CPU time (not wall time, which a busy machine inflates at random), the best of five
  // runs, and the bound (32x) leaves a 4x margin over linear for the noise that remains.
  const ratio = (make: (n: number) => string, parse: (s: string) => unknown, n: number) => {
    const cpu = (s: string) => {
      const started = process.cpuUsage();
      parse(s);
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000;
    };
    const small = make(n);
    const big = make(8 * n);
    cpu(small); // warm up
    cpu(big);
    const best = (s: string) => Math.min(...Array.from({ length: 5 }, () => cpu(s)));
    return best(big) / Math.max(best(small), 1);
  };

  it.each([
    ['<ref> unclosed', (n: number) => '<ref id="a">\n'.repeat(n), parseResponseRefs],
    ['<ref> nested', (n: number) => '<ref id="a">\n'.repeat(n) + '</ref>\n'.repeat(n), parseResponseRefs],
    ['<ref> in backticks', (n: number) => '`<ref id="a">` text\n'.repeat(n), parseResponseRefs],
    ['.conv orphan text', (n: number) => 'RUN x\n' + 'text line\n'.repeat(n), (s: string) => parseConv(s)],
    ['.conv long prompt', (n: number) => 'PROMPT\n' + 'PROMTP text\n'.repeat(n), (s: string) => parseConv(s)],
  ] as const)('%s', (_name, make, parse) => {
    expect(ratio(make, parse as (s: string) => unknown, 2500)).toBeLessThan(32);
  });
});
