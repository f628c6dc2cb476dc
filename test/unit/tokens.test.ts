import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import o200kApi from 'gpt-tokenizer/encoding/o200k_base';
import cl100kApi from 'gpt-tokenizer/encoding/cl100k_base';
import { countBySafePieces, type Encoding, ENCODINGS, loadTokenizer, PieceCounter, preTokenCounter } from '../../src/core/tokens/tokenizer.js';
import { mayHoldLongPiece, mayHoldLongPieceByRegex } from '../../src/core/tokens/long-pieces.js';

// The reference: js-tiktoken, a port of OpenAI's tiktoken, special-token strings read as text.
const reference: Record<Encoding, Tiktoken> = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
const refCount = (enc: Encoding, text: string) => reference[enc].encode(text, [], []).length;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.(ts|md)$/.test(e.name) ? [p] : [];
  });
}

const repo = path.resolve(__dirname, '../..');
const repoText = [...sources(path.join(repo, 'src')), ...sources(path.join(repo, 'docs'))].map((f) => fs.readFileSync(f, 'utf8')).join('\n');

const samples: [string, string][] = [
  ['empty', ''],
  ['unicode', 'naïve café — Grüße, 日本語のテキスト, Ελληνικά, עברית, русский\n'],
  ['emoji', 'ship it 🚀🚀 👩‍👩‍👧‍👦 family, flags 🇫🇷🇯🇵, skin 👍🏽\n✅ done\n'],
  ['special token strings', 'before <|endoftext|> after <|fim_prefix|>\n'],
  ['newlines and slashes', 'a\n\n/path\n  indented\n\t\ttab\n// comment\n\r\nwin\r\n'],
  ['numbers', '12345678901234567890 3.14159 1,234,567\n'],
];

describe('token counts equal tiktoken', () => {
  for (const enc of ENCODINGS) {
    it(`${enc}: this repository's src and docs (${(repoText.length / 1e6).toFixed(1)} MB), counted in pieces`, async () => {
      const tok = await loadTokenizer(enc);
      expect(repoText.length).toBeGreaterThan(200_000);
      expect(tok.count(repoText)).toBe(refCount(enc, repoText));
    });
    for (const [name, text] of samples) {
      it(`${enc}: ${name}`, async () => {
        expect((await loadTokenizer(enc)).count(text)).toBe(refCount(enc, text));
      });
    }
  }

  it.each(ENCODINGS)('%s: long runs inside ordinary text (the lines around them pre-split, the rest not)', async (enc) => {
    const tok = await loadTokenizer(enc);
    const ordinary = repoText.slice(0, 150_000);
    for (const run of ['='.repeat(3000), 'a'.repeat(900), ' '.repeat(700) + 'x', '\n'.repeat(600), '/'.repeat(800) + '\n', 'https://example.com/' + 'x'.repeat(600)]) {
      for (const at of [0, 5_000, 70_000, 149_990]) {
        const text = ordinary.slice(0, at) + run + ordinary.slice(at);
        expect(tok.count(text), `${JSON.stringify(run.slice(0, 5))} at ${at}`).toBe(refCount(enc, text));
        expect(tok.countWithin(text, 1e9)).toBe(refCount(enc, text));
      }
    }
  });

  it.each(ENCODINGS)('%s: cutting at safe places never changes the count (small pieces, tricky text)', async (enc) => {
    const tok = await loadTokenizer(enc);
    const bits = ['\n', '\n\n', ' ', '  ', '\t', '/', '//', 'a', 'Word', "'s", '123', '```', '#', '## From', '🚀', 'é', '\r\n', '| ', '<|endoftext|>', '\u00a0', '\u3000'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...bits), { maxLength: 200 }), fc.integer({ min: 1, max: 40 }), (parts, size) => {
        const text = parts.join('');
        const whole = refCount(enc, text);
        // tok.count is the whole-text count for short texts; countBySafePieces with tiny pieces cuts often.
        expect(tok.count(text)).toBe(whole);
        expect(countBySafePieces(text, (p) => refCount(enc, p), size)).toBe(whole);
      }),
      { numRuns: 300 },
    );
  });
});

describe("the pre-tokens in one array (preTokenCounter), as gpt-tokenizer's countTokens counts them", () => {
  const apis = { o200k_base: o200kApi, cl100k_base: cl100kApi };
  const options = { disallowedSpecial: new Set<string>() };

  it.each(ENCODINGS)('%s: read from the encoder gpt-tokenizer builds, so loadTokenizer() counts with it', (enc) => {
    expect(preTokenCounter(apis[enc])).toBeTypeOf('function');
  });

  it.each(ENCODINGS)('%s: this repository, the samples and any text (fast-check) count the same', (enc) => {
    const count = preTokenCounter(apis[enc])!;
    for (const text of [repoText.slice(0, 400_000), ...samples.map(([, t]) => t)]) expect(count(text)).toBe(apis[enc].countTokens(text, options));
    const bits = ['\n', ' ', '\t', '/', 'a', 'Word', "'s", "'LL", '123456', '```', '🚀', 'é', '\r\n', '<|endoftext|>', '<|fim_prefix|>', '\u00a0', '\u3000', '日本', 'ǅ', '\u0301'];
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.array(fc.constantFrom(...bits), { maxLength: 80 }).map((p) => p.join(''))), (text) => {
        expect(count(text)).toBe(apis[enc].countTokens(text, options));
      }),
      { numRuns: 400 },
    );
  });

  it.each(ENCODINGS)('%s: countWithin() answers the count at the limit and null one under it, over many pieces', async (enc) => {
    const tok = await loadTokenizer(enc);
    const text = repoText.slice(0, 300_000);
    const n = refCount(enc, text);
    expect(tok.countWithin(text, n)).toBe(n);
    expect(tok.countWithin(text, n - 1)).toBeNull();
    expect(tok.countWithin(text, 10)).toBeNull();
    expect(tok.countWithin('', 0)).toBe(0);
  });

  it('an encoder without the fields it reads (another gpt-tokenizer) is left to countTokens', () => {
    expect(preTokenCounter({ countTokens: () => 0 })).toBeUndefined();
    expect(preTokenCounter({ bytePairEncodingCoreProcessor: { tokenSplitRegex: /x/gu, bytePairStringRankEncoder: {} } })).toBeUndefined();
  });
});

describe('a text counted in pieces as it is written (PieceCounter)', () => {
  it.each(ENCODINGS)('%s: pieces cut anywhere, as strings or as bytes cut inside characters, count as the whole text', async (enc) => {
    const tok = await loadTokenizer(enc);
    const text = samples.map(([, s]) => s).join('') + repoText.slice(0, 20_000);
    const whole = refCount(enc, text);
    const bytes = Buffer.from(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 40 }), fc.boolean(), fc.integer({ min: 8, max: 4096 }), (cuts, asBytes, size) => {
        const at = [0, ...[...new Set(cuts)].sort((a, b) => a - b), bytes.length];
        const counter = new PieceCounter((p) => tok.count(p), size);
        for (let i = 0; i + 1 < at.length; i++) {
          const piece = bytes.subarray(at[i], at[i + 1]);
          // As strings, pieces are cut at character boundaries (a string holds whole characters).
          counter.add(asBytes ? piece : text.slice(bytes.subarray(0, at[i]).toString().length, bytes.subarray(0, at[i + 1]).toString().length));
        }
        expect(counter.total()).toBe(whole);
      }),
      { numRuns: 60 },
    );
  });
});

describe('which texts may hold a long pre-token (one pass, as the regex says)', () => {
  it('reads every UTF-16 code unit as \\s does', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const text = (String.fromCharCode(c) + ' ').repeat(300);
      expect(mayHoldLongPiece(text), c.toString(16)).toBe(mayHoldLongPieceByRegex(text));
    }
  });

  it.each([
    ['127 letters in a row', 'ab '.repeat(200) + 'a'.repeat(127) + ' x'.repeat(200), false],
    ['128 letters in a row', 'ab '.repeat(200) + 'a'.repeat(128) + ' x'.repeat(200), true],
    ['128 letters at the very end', 'ab '.repeat(200) + 'a'.repeat(128), true],
    ['128 letters at the very start', 'a'.repeat(128) + ' x'.repeat(300), true],
    ['127 spaces then a letter', 'a b'.repeat(200) + ' '.repeat(127) + 'b' + ' a'.repeat(10), false],
    ['128 spaces of two kinds', 'a b'.repeat(200) + ' \t'.repeat(64) + 'b a'.repeat(10), true],
    ['128 newlines and slashes, the slashes no spaces', 'ab '.repeat(200) + '\n/'.repeat(64) + 'ab '.repeat(10), true],
    ['127 newlines and slashes', 'ab '.repeat(200) + '\n/'.repeat(63) + '\n' + 'ab '.repeat(10), false],
    ['ordinary source', repoText.slice(0, 100_000), mayHoldLongPieceByRegex(repoText.slice(0, 100_000))],
  ])('a run of 128 found where it is: %s', (_name, text, expected) => {
    expect(mayHoldLongPieceByRegex(text)).toBe(expected);
    expect(mayHoldLongPiece(text)).toBe(expected);
  });

  it('finds the same runs (fast-check)', () => {
    const run = fc.tuple(fc.constantFrom('a', ' ', '\n', '\r', '/', '\t', '\u3000', '=', '😀', '\n/', 'a b', 'a\n'), fc.integer({ min: 1, max: 140 })).map(([c, n]) => c.repeat(n));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 30 }), (runs) => {
        const text = runs.join('');
        expect(mayHoldLongPiece(text)).toBe(mayHoldLongPieceByRegex(text));
      }),
      { numRuns: 3000 },
    );
  });
});
