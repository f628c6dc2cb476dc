import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { declarationsOfText, fileDeclarations, loadFileDeclarations } from '../../src/core/symbols/declaration-table.js';
import { loadGrammars } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES, symbolLanguageOf } from '../../src/core/symbols/languages.js';
import { tmpDir } from '../helpers/tmp.js';

/**
 * fileDeclarations() reads a declaration's first and last lines and its body's start when first
 * asked for, and the rest when the next file is parsed (docs/symbols.md#cost). Its tables equal
 * the tables read whole, whichever lines were asked for first and however many files came after.
 */

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures', 'symbols');
const files = fs.readdirSync(FIXTURES);
const LINES = ['startLine', 'endLine', 'bodyStart'] as const;

describe('lines read when asked for', () => {
  it('gives the tables read whole, for every language, asked in any order and across files', async () => {
    await loadGrammars(SYMBOL_LANGUAGES);
    const dir = tmpDir(Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(FIXTURES, f), 'utf8')])));
    const whole = new Map<string, unknown>();
    for (const f of files) whole.set(f, await declarationsOfText(fs.readFileSync(path.join(FIXTURES, f), 'utf8'), symbolLanguageOf(f)!));
    const lazy = files.map((f) => {
      const table = fileDeclarations(path.join(dir, f), f);
      // Not read yet: accessors stand in for the lines until asked (not data of the entry's own).
      expect(Object.getOwnPropertyDescriptor(table[0]!, 'startLine'), f).toBeUndefined();
      // One declaration of the file asked before the next file is parsed, the rest after.
      const last = table[table.length - 1]!;
      expect(LINES.map((k) => last[k]), f).toEqual(LINES.map((k) => (whole.get(f) as typeof table)[table.length - 1]![k]));
      return { f, table };
    });
    // JSON of an entry not settled yet has its lines.
    const lastFile = lazy[lazy.length - 1]!;
    expect(JSON.parse(JSON.stringify(lastFile.table[0]))).toEqual((whole.get(lastFile.f) as typeof lastFile.table)[0]);
    // The async read (servers, `symbols`, drift) gets the cached table settled, without a parse.
    const again = await loadFileDeclarations(path.join(dir, lastFile.f), lastFile.f);
    expect(again).toBe(lastFile.table);
    expect(Object.getPrototypeOf(again[0]), lastFile.f).toBe(Object.prototype);
    // Another parse settles the last table too.
    await declarationsOfText('x = 1\n', symbolLanguageOf('x.py')!);
    for (const { f, table } of lazy) {
      expect(table, f).toEqual(whole.get(f));
      // Plain data once settled: what a worker posts and a cache keeps.
      for (const d of table) for (const k of LINES) expect(Object.getOwnPropertyDescriptor(d, k)?.writable, `${f} ${d.path} ${k}`).toBe(true);
      expect(Object.getPrototypeOf(table[0]), f).toBe(Object.prototype);
      expect(structuredClone(table), f).toEqual(whole.get(f));
    }
  });
});
