import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { LONG_PIECE } from '../../src/core/tokens/long-pieces.js';
import { type Encoding, ENCODINGS, loadTokenizer } from '../../src/core/tokens/tokenizer.js';

// Degenerate content (docs/reference.md#token-counts-and-budgets): one pre-token hundreds of KB
// long. Counts must equal the reference (js-tiktoken, a port of OpenAI's tiktoken) and take time
// linear in the length: CPU time (process.cpuUsage, not the wall clock) at 1x, 2x, 4x and 8x.

const reference: Record<Encoding, Tiktoken> = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
const refCount = (enc: Encoding, text: string) => reference[enc].encode(text, [], []).length;

describe('long pre-tokens are counted exactly', () => {
  // The reference merges quadratically too: these stay short, but past LONG_PIECE.
  const runs: [string, string][] = [
    ['a line of a', 'a'.repeat(1000)],
    ['a line of =', '='.repeat(1000)],
    ['blank lines', '\n'.repeat(1000)],
    ['spaces then a word', ' '.repeat(700) + 'word\n'],
    ['= then newlines and slashes', '=' + '\n/'.repeat(600)],
    ['CamelCase letters', 'Ab'.repeat(600)],
    ['two-byte letters', 'é'.repeat(400)],
    ['three-byte letters', '日本'.repeat(200)],
    ['emoji', '🚀'.repeat(300)],
    ['letters with a contraction', 'x'.repeat(700) + "'ll go"],
    ['long runs between ordinary text', `const x = 1;\n${'a'.repeat(700)} end\n${'-'.repeat(600)}\n\n${'\t'.repeat(600)}y\n`],
  ];
  for (const enc of ENCODINGS) {
    it.each(runs)(`${enc}: %s`, async (_name, text) => {
      const tok = await loadTokenizer(enc);
      expect(tok.count(text)).toBe(refCount(enc, text));
      expect(tok.countWithin(text, 1e9)).toBe(refCount(enc, text));
    });

    it(`${enc}: random texts of long runs and ordinary words`, async () => {
      const tok = await loadTokenizer(enc);
      const run = fc.tuple(fc.constantFrom('a', 'B', '=', '/', '\n', ' ', '\t', '\r\n', 'é', '日', '9', '.', "'", '🚀'), fc.integer({ min: 1, max: 700 })).map(([c, n]) => c.repeat(n));
      const word = fc.constantFrom('the ', 'x', ' ', '\n', 'Hello', ' world', '//', '42', "'s", '<|endoftext|>');
      fc.assert(
        fc.property(fc.array(fc.oneof(run, word), { minLength: 1, maxLength: 6 }), (parts) => {
          const text = parts.join('');
          expect(tok.count(text)).toBe(refCount(enc, text));
        }),
        { numRuns: 8 },
      );
    }, 120_000);
  }

  it('the long path is taken', () => expect(LONG_PIECE).toBeLessThan(600));
});

describe('long pre-tokens are counted in linear time', () => {
  const cpu = (f: () => void) => {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };

  // [input, its text at size x]: up to the sizes that took seconds to minutes (400 KB of a, 200 KB of =);
  // blank lines stop at 1 MB here, the bench counts 10 MB.
  const inputs: [string, (x: number) => string][] = [
    ['a line of a, 50 KB to 400 KB', (x) => 'a'.repeat(50_000 * x)],
    ['a line of =, 25 KB to 200 KB', (x) => '='.repeat(25_000 * x)],
    ['blank lines, 125 KB to 1 MB', (x) => '\n'.repeat(125_000 * x)],
  ];

  it.each(inputs)('%s', async (_name, make) => {
    const tok = await loadTokenizer('o200k_base');
    tok.count(make(1)); // the rank index is built once
    const times = [1, 2, 4, 8].map((x) => {
      const text = make(x);
      // The best of two: a pause of this process (a GC) only ever adds time.
      return Math.min(cpu(() => tok.count(text)), cpu(() => tok.count(text)));
    });
    // Linear is 8x from 1x to 8x (n log n a little more); quadratic would be 64x.
    expect(times[3]! / times[0]!).toBeLessThan(20);
    expect(times[2]! / times[0]!).toBeLessThan(10);
  }, 300_000);
});
