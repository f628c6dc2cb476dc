import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base';
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { heapWork, LONG_PIECE, mergeCount, mergeParts, type Ranks, ranksOf } from '../../src/core/tokens/long-pieces.js';
import { type Encoding, ENCODINGS, loadTokenizer, PieceCounter } from '../../src/core/tokens/tokenizer.js';

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
    // \s+(?!\S) looks ahead: before a long piece, two tabs are two pre-tokens (alone, one).
    ['tabs before a long piece', '\t\t' + '/'.repeat(600)],
    ['whitespace of every kind before a long piece', 'x \n\t  \r\n ' + "'".repeat(600) + '\t\t' + '='.repeat(700)],
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

// A long pre-token is merged a chunk at a time (long-pieces.ts): chunks merged apart, joined where
// their edge tokens are compatible, a window merged again where they are not. Exact against the
// reference with chunks as small as a byte, so that nearly every join is tested.
describe('long pre-tokens merged in chunks', () => {
  const ranks: Record<Encoding, Ranks> = { o200k_base: ranksOf(o200kRanks), cl100k_base: ranksOf(cl100kRanks) };
  const whole = (bytes: Buffer, enc: Encoding) => mergeParts(bytes, 0, bytes.length, ranks[enc]).length;
  // Each is one pre-token of both encodings, so the reference's count is BPE's of the whole.
  const pieces: [string, string][] = [
    ['blank lines', '\n'.repeat(1500)],
    ['a', 'a'.repeat(1500)],
    ['=', '='.repeat(1500)],
    ['mixed whitespace runs', '\n\n \t\n'.repeat(300)],
    ['spaces', ' '.repeat(1500)],
    ['tabs', '\t'.repeat(1500)],
    ['two-byte letters', 'é'.repeat(700)],
    ['CamelCase', 'Ab'.repeat(700)],
    ['a word repeated', 'thing'.repeat(300)],
  ];
  for (const enc of ENCODINGS) {
    it.each(pieces)(`${enc}: %s, in chunks of 1, 7 and 100 bytes`, (_name, text) => {
      const expected = refCount(enc, text);
      for (const chunk of [1, 7, 100]) expect(mergeCount(Buffer.from(text), ranks[enc], chunk)).toBe(expected);
    }, 60_000);

    it(`${enc}: random pieces from a hostile alphabet, any chunk size, count as merged whole`, () => {
      const unit = fc.constantFrom('\n', ' ', '\t', '\r\n', 'a', 'b', 'th', 'ing', 'é', '日', '🚀', '=', '-', '/', '0', '.', "'");
      const part = fc.tuple(unit, fc.integer({ min: 1, max: 80 })).map(([u, n]) => u.repeat(n));
      fc.assert(
        fc.property(fc.array(fc.oneof(unit, part), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 300 }), (parts, chunk) => {
          const bytes = Buffer.from(parts.join(''));
          expect(mergeCount(bytes, ranks[enc], chunk)).toBe(whole(bytes, enc));
        }),
        { numRuns: 300 },
      );
    });

    it(`${enc}: tens of KB of each run count as merged whole, through the tokenizer`, async () => {
      const tok = await loadTokenizer(enc);
      for (const text of ['\n'.repeat(40_000), 'a'.repeat(40_000), '='.repeat(40_000), '\n\n \t\n'.repeat(8_000), 'ab'.repeat(20_000)]) {
        expect(tok.count(text)).toBe(whole(Buffer.from(text), enc));
      }
    }, 60_000);
  }

  // The work is counted, not timed: bytes that go through the heap. A run repeats its chunks and
  // each is merged once, so megabytes of blank lines cost a few chunks; text that does not repeat
  // goes through once, plus the windows at the joins.
  const work = (f: () => void) => {
    const before = heapWork.bytes;
    f();
    return heapWork.bytes - before;
  };
  const runs: [string, (mb: number) => string][] = [
    ['blank lines', (mb) => '\n'.repeat(mb * 1_000_000)],
    ['a', (mb) => 'a'.repeat(mb * 1_000_000)],
    ['=', (mb) => '='.repeat(mb * 1_000_000)],
    ['mixed whitespace runs', (mb) => '\n\n \t\n'.repeat(mb * 200_000)],
  ];
  it.each(runs)('%s, 1 to 10 MB: the heap merges a few chunks, whatever the size', async (_name, make) => {
    const tok = await loadTokenizer('o200k_base');
    for (const mb of [1, 2, 4, 10]) expect(work(() => tok.count(make(mb)))).toBeLessThan(100_000);
  }, 120_000);

  it('text that does not repeat: the heap merges each byte about once', async () => {
    const tok = await loadTokenizer('o200k_base');
    // One pre-token of letters that never repeats a chunk (a counter in base 26).
    const letters = (n: number) => {
      let s = '';
      for (let i = 0; s.length < n; i++) s += i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
      return s.slice(0, n);
    };
    for (const n of [250_000, 1_000_000]) expect(work(() => tok.count(letters(n)))).toBeLessThan(1.5 * n);
  }, 120_000);
});

describe('text streamed without a place to cut is counted in linear time', () => {
  const cpu = (f: () => void) => {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };
  // Blank lines hold no safe cut (tokenizer.ts): the waiting text grows, and must not be joined
  // and searched again at every piece. The count itself is a stand-in here, so that only
  // PieceCounter's own work is measured.
  it('blank lines in 64 KiB pieces, 1 MB to 8 MB', () => {
    const piece = '\n'.repeat(64 * 1024);
    const stream = (mb: number) => {
      const counter = new PieceCounter((t) => t.length);
      for (let i = 0; i < (mb * 1_000_000) / piece.length; i++) counter.add(piece);
      return counter.total();
    };
    stream(1);
    const [one, eight] = [1, 8].map((mb) => Math.min(cpu(() => stream(mb)), cpu(() => stream(mb))));
    // Linear is 8x; joining everything at every piece was 64x.
    expect(eight! / one!).toBeLessThan(24);
  }, 120_000);
});
