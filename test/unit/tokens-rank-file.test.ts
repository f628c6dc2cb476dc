import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import o200kTable from 'gpt-tokenizer/bpeRanks/o200k_base';
import cl100kTable from 'gpt-tokenizer/bpeRanks/cl100k_base';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { afterAll, describe, expect, it } from 'vitest';
import { installedVersion, type RankTable, rankFileFor, rankFileName, rankFileText, readRankFile } from '../../src/core/tokens/rank-file.js';
import type { Encoding } from '../../src/core/tokens/tokenizer.js';

// The rank table read as JSON (src/core/tokens/rank-file.ts) must be gpt-tokenizer's own table,
// entry for entry, and a tokenizer built from it must count as tiktoken does.
const tables: Record<Encoding, RankTable> = { o200k_base: o200kTable, cl100k_base: cl100kTable };
const reference: Record<Encoding, Tiktoken> = { o200k_base: new Tiktoken(o200k), cl100k_base: new Tiktoken(cl100k) };
const repo = path.resolve(__dirname, '../..');
const version = installedVersion(pathToFileURL(path.join(repo, 'package.json')));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-ranks-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The index of the first entry where `a` and `b` differ (an entry is a string or an array of bytes), or -1. */
function firstDifference(a: RankTable, b: RankTable): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === 'string' || typeof y === 'string' ? x !== y : x!.length !== y!.length || x!.some((byte, j) => byte !== y![j])) return i;
  }
  return -1;
}

const texts = [
  fs.readFileSync(path.join(repo, 'src/core/tokens/tokenizer.ts'), 'utf8'),
  fs.readFileSync(path.join(repo, 'docs/refs.md'), 'utf8'),
  'naïve café — Grüße, 日本語のテキスト, Ελληνικά, עברית, русский\n',
  'ship it 🚀🚀 👩‍👩‍👧‍👦 family, flags 🇫🇷🇯🇵, skin 👍🏽\n✅ done\n',
  'before <|endoftext|> after <|fim_prefix|>\n',
  // Bytes that are not UTF-8 in the table: the pieces of characters split across tokens.
  '\u{10348}\u{1F9D1}\u200D\u{1F9AF} \u0F00\u0FB5\u0FB9 ꧁꧂ \uFFFD\n',
];

describe('the rank table as JSON', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`${encoding}: read back, entry for entry gpt-tokenizer's table, and counted as tiktoken counts`, () => {
      const file = path.join(tmp, rankFileName(encoding));
      fs.writeFileSync(file, rankFileText(encoding, version, tables[encoding]));
      const table = readRankFile(file, encoding, version);
      expect(table).toBeDefined();
      expect(table!.some((entry) => typeof entry !== 'string')).toBe(true);
      expect(firstDifference(table!, tables[encoding])).toBe(-1);
      const api = GptEncoding.getEncodingApi(encoding, () => table!);
      for (const text of texts) expect(api.countTokens(text, { disallowedSpecial: new Set() })).toBe(reference[encoding].encode(text, [], []).length);
    });
  }

  it('a file of another version or encoding, one that does not parse, or none, is not used', () => {
    const file = path.join(tmp, 'other.ranks.json');
    fs.writeFileSync(file, rankFileText('cl100k_base', version, ['a', 'b']));
    expect(readRankFile(file, 'cl100k_base', version)).toEqual(['a', 'b']);
    expect(readRankFile(file, 'cl100k_base', `${version}-next`)).toBeUndefined();
    expect(readRankFile(file, 'o200k_base', version)).toBeUndefined();
    fs.writeFileSync(file, rankFileText('cl100k_base', version, ['a', 'b']).slice(0, -3));
    expect(readRankFile(file, 'cl100k_base', version)).toBeUndefined();
    fs.writeFileSync(file, JSON.stringify({ gptTokenizer: version, encoding: 'cl100k_base' }));
    expect(readRankFile(file, 'cl100k_base', version)).toBeUndefined();
    expect(readRankFile(path.join(tmp, 'none.json'), 'cl100k_base', version)).toBeUndefined();
  });

  it('a table with a hole is refused: JSON would bring a null back in its place', () => {
    const holed: RankTable = ['a'];
    holed[2] = 'c';
    expect(() => rankFileText('o200k_base', version, holed)).toThrow(/holes/);
  });

  it('is looked for beside a bundle, and in dist/bin/ from the compiled modules', () => {
    expect(rankFileFor('o200k_base', pathToFileURL(path.join(repo, 'dist/bin/count-worker.cjs')).href)).toBe(path.join(repo, 'dist/bin/o200k_base.ranks.json'));
    expect(rankFileFor('cl100k_base', pathToFileURL(path.join(repo, 'dist/core/tokens/tokenizer.js')).href)).toBe(path.join(repo, 'dist/bin/cl100k_base.ranks.json'));
  });

  it('the build writes both tables for the installed gpt-tokenizer', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const table = readRankFile(path.join(repo, 'dist/bin', rankFileName(encoding)), encoding, version);
      expect(table, `dist/bin/${rankFileName(encoding)} (npm run build)`).toBeDefined();
      expect(firstDifference(table!, tables[encoding])).toBe(-1);
    }
  });
});
