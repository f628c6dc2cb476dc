import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Declaration } from '../../src/core/symbols/declaration.js';
import { fileDeclarations, fileDeclarationsNamed, textDeclarations, textDeclarationsNamed } from '../../src/core/symbols/declaration-table.js';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES, type SymbolLanguage } from '../../src/core/symbols/languages.js';
import { namePlaces } from '../../src/core/symbols/named-nodes.js';
import { resolveSymbol } from '../../src/core/symbols/resolve-symbol.js';
import { selectSymbol, selectSymbolInText } from '../../src/core/symbols/select-symbol.js';
import { keptTable, useTableCache } from '../../src/core/symbols/table-cache.js';
import type { SymbolSelector } from '../../src/core/ref-spec/ref-spec.js';
import { tmpDir } from '../helpers/tmp.js';

/**
 * A symbol ref reads the declarations its names are written in, not the whole table
 * (docs/design/symbols.md#a-symbol-ref-reads-its-own-names). Whatever it names, it resolves to
 * what the whole table resolves it to: every path of every language's sample (the sample, the
 * sample three times, this repository's own sources), every overload `~N` of it, and names that
 * are not there (whose errors, did-you-mean included, are the whole table's).
 */

const root = path.join(import.meta.dirname, '..', '..');
const samples = path.join(root, 'fixtures', 'symbols');
const SAMPLE: Record<string, string> = { typescript: 'store.ts', tsx: 'store.tsx', javascript: 'store.js', python: 'store.py', swift: 'store.swift', kotlin: 'store.kt', java: 'Store.java', go: 'store.go', rust: 'store.rs', c: 'store.c', cpp: 'store.cpp', c_sharp: 'store.cs', ruby: 'store.rb' };

afterEach(() => useTableCache(null));

function textsOf(language: SymbolLanguage): string[] {
  const sample = fs.readFileSync(path.join(samples, SAMPLE[language.id]!), 'utf8');
  const texts = [sample, sample.repeat(3)];
  if (language.extensions.includes('ts')) {
    for (const file of ['src/core/symbols/read-declarations.ts', 'src/core/extract/extract.ts', 'src/cli/io.ts', 'src/core/symbols/query-walk.ts']) texts.push(fs.readFileSync(path.join(root, file), 'utf8'));
  }
  if (language.extensions.includes('js')) {
    texts.push(fs.readFileSync(path.join(root, 'bench', 'lib.js'), 'utf8'));
    // A getter and setter with a declaration between them are two declarations, not one property:
    // a read of the names alone does not see what is between (read-declarations.ts, `merged`).
    texts.push('class A {\n  get x() { return 1; }\n  y = 2;\n  set x(v) {}\n}\nclass B {\n  get x() {\n    function h() {}\n    return 1;\n  }\n  set x(v) {}\n  get z() { return 1; }\n  set z(v) {}\n}\n');
  }
  return texts;
}

const sel = (p: string, index: number | null = null): SymbolSelector => ({ kind: 'symbol', path: p, index, window: null });

/** A declaration's fields but where it is in its table (a table of some declarations numbers them its own way). */
function fields(d: Declaration): unknown {
  const { index: _index, parent: _parent, ...rest } = JSON.parse(JSON.stringify(d)) as Declaration;
  return rest;
}

/** What a resolution comes to: the declaration's fields, or the error's message and details. */
function outcome(table: readonly Declaration[], s: SymbolSelector): unknown {
  try {
    return fields(resolveSymbol(table, s, 'r'));
  } catch (err) {
    return { error: (err as Error).message, details: (err as { details?: unknown }).details };
  }
}

describe('a symbol ref reads its own names', () => {
  for (const language of SYMBOL_LANGUAGES) {
    it(`resolves every path as the whole table does, in ${language.id}`, async () => {
      await loadGrammar(language);
      let partial = 0;
      let checked = 0;
      for (const text of textsOf(language)) {
        const whole = textDeclarations(text, language, 'r');
        const paths = [...new Set(whole.map((d) => d.path))];
        for (const p of paths) {
          const read = textDeclarationsNamed(text, language, p.split('.'), 'r');
          if (!read.whole) {
            partial++;
            expect(read.table.length).toBeLessThanOrEqual(whole.length);
          }
          const count = whole.filter((d) => d.path === p && d.kind !== 'extension').length || whole.filter((d) => d.path === p).length;
          for (const index of [null, ...Array.from({ length: count + 1 }, (_, i) => i + 1)]) {
            const s = sel(p, index);
            const want = outcome(whole, s);
            // The ref as selectSymbolInText() reads it: a miss in the names' table is answered by the whole one.
            let got: unknown;
            try {
              const picked = selectSymbolInText(text, `/x/f.${language.extensions[0]}`, s, 'r').declaration;
              got = fields(picked);
            } catch (err) {
              got = { error: (err as Error).message, details: (err as { details?: unknown }).details };
            }
            expect(got, `${p}~${index}`).toEqual(want);
            // Found in the names' own table, it is the whole table's declaration.
            if (!read.whole && !('error' in (want as object))) expect(outcome(read.table, s)).toEqual(want);
            checked++;
          }
        }
        // Names that are not there, and one that is, under a parent that is not.
        for (const p of ['Nope', 'Nope.x', `${paths[0]}.nope`, `Nope.${paths[paths.length - 1]!.split('.').pop()}`]) {
          const s = sel(p);
          expect(outcome(whole, s)).toMatchObject({ error: expect.stringContaining('not found') });
          expect(() => selectSymbolInText(text, `/x/f.${language.extensions[0]}`, s, 'r')).toThrow((outcome(whole, s) as { error: string }).error);
        }
      }
      expect(checked).toBeGreaterThan(20);
      // Most reads are of the names' own nodes, not the whole tree.
      expect(partial).toBeGreaterThan(0);
    });
  }
});

describe('namePlaces', () => {
  it.each([
    ['save(); saved(); unsave(); save', ['save'], [[0, 4], [27, 31]]],
    ['a.save!; save', ['save!'], [[2, 7]]],
    ['`default` default_x', ['default'], [[1, 8]]],
    ['Store::load Store', ['Store', 'load'], [[0, 5], [12, 17], [7, 11]]],
    ['$save _save save$ save', ['save'], [[18, 22]]],
    ['ésave save', ['save'], [[6, 10]]],
  ])('%s %j', (text, names, want) => {
    expect(namePlaces(text, names)?.map((p) => [p.start, p.end])).toEqual(want);
  });

  it('gives up past 2,000 places (the tree is then read whole)', () => {
    expect(namePlaces('x '.repeat(2000), ['x'])).toHaveLength(2000);
    expect(namePlaces('x '.repeat(2001), ['x'])).toBeNull();
  });
});

describe('reading a file by its names', () => {
  it('parses once for a second ref with other names (the whole table, from the same tree) and keeps each table on disk', async () => {
    const swift = SYMBOL_LANGUAGES.find((l) => l.id === 'swift')!;
    const grammar = await loadGrammar(swift);
    const text = fs.readFileSync(path.join(samples, 'store.swift'), 'utf8').repeat(2);
    const file = path.join(tmpDir(), 'a.swift');
    fs.writeFileSync(file, text);
    const cache = path.join(tmpDir(), 'cache');
    useTableCache(cache);
    const parse = vi.spyOn(grammar.parser, 'parse');
    try {
      const first = fileDeclarationsNamed(file, ['free'], 'r');
      expect(first.whole).toBe(false);
      expect(selectSymbol(file, sel('free', 2), 'r').declaration.path).toBe('free');
      const second = fileDeclarationsNamed(file, ['Store', 'save'], 'r');
      expect(second.whole).toBe(true);
      expect(parse).toHaveBeenCalledTimes(1);
      expect(second.table).toEqual(fileDeclarations(file, 'r'));
    } finally {
      parse.mockRestore();
    }
    // Kept apart: the names' table under its names, the whole one under none.
    expect(keptTable(text, swift, ['free'])!.length).toBeGreaterThan(0);
    expect(keptTable(text, swift, ['free'])!.length).toBeLessThan(keptTable(text, swift)!.length);
    expect(keptTable(text, swift, ['save'])).toBeNull();
  });
});
