import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { readDeclarations } from '../../src/core/symbols/read-declarations.js';
import { compileDefinitions, moveTypeTests } from '../../src/core/symbols/type-tests.js';

/**
 * Type tests moved out of a definitions query (type-tests.ts) keep its matches: each language's
 * table, read with the query as written and with its tests moved, is the same, on the sample of
 * each language and on that sample repeated with its copies nested in nothing.
 */

const samples = path.join(import.meta.dirname, '..', '..', 'fixtures', 'symbols');
const queries = path.join(import.meta.dirname, '..', '..', 'src', 'core', 'symbols', 'queries');
const SAMPLE: Record<string, string> = { typescript: 'store.ts', tsx: 'store.tsx', javascript: 'store.js', python: 'store.py', swift: 'store.swift', kotlin: 'store.kt', java: 'Store.java', go: 'store.go', rust: 'store.rs', c: 'store.c', cpp: 'store.cpp', c_sharp: 'store.cs', ruby: 'store.rb' };

describe('moveTypeTests', () => {
  it('moves the test of a node in a field to a capture, and keeps tests it cannot move', () => {
    const { text, tests } = moveTypeTests(
      [
        '; a comment (with brackets]',
        '(function_declaration name: (identifier) @name) @definition.function',
        '(m receiver: [(a) (b)] @r body: (_)) @definition.method',
        '(d declarator: (f declarator: (identifier) @name)) @definition.function',
        '(u (t) @name .)',
        '(x name: (y)? @name)',
        '(s name: (expression) @name)',
        '(p (q name: (z) @name) (#eq? @name "k"))',
        '"init" @name',
      ].join('\n'),
      (type) => type === 'expression',
    );
    expect(text).toBe(
      [
        '(function_declaration name: _ @_type0_1 @name) @definition.function',
        '(m receiver: _ @_type0_1 @r body: _ @_type1_5) @definition.method',
        '(d declarator: (_ declarator: _ @_type1_1 @name) @_type0_1) @definition.function',
        '(u (t) @name .)',
        '(x name: (y) ? @name)',
        '(s name: (expression) @name)',
        '(p (q name: _ @_type0_1 @name) (#eq? @name "k"))',
        '"init" @name',
      ].join(' '),
    );
    expect(tests).toEqual([
      [{ capture: '_type0_1', types: ['identifier'] }],
      [{ capture: '_type0_1', types: ['a', 'b'] }, { capture: '_type1_5', types: null }],
      [{ capture: '_type0_1', types: ['f'] }, { capture: '_type1_1', types: ['identifier'] }],
      [],
      [],
      [],
      [{ capture: '_type0_1', types: ['z'] }],
      [],
    ]);
  });

  for (const language of SYMBOL_LANGUAGES) {
    it(`reads the same ${language.id} table with the tests moved as with the query as written`, async () => {
      // The build the loader initialised (its CommonJS one, see grammar-loader.ts): the ES module is
      // another instance, whose runtime this process never started.
      const ts = createRequire(import.meta.url)('web-tree-sitter') as typeof import('web-tree-sitter');
      const grammar = await loadGrammar(language);
      const source = fs.readFileSync(path.join(queries, `${language.query ?? language.id}.scm`), 'utf8');
      const text = fs.readFileSync(path.join(samples, SAMPLE[language.id]!), 'utf8');
      const lang = grammar.parser.language!;
      const asWritten = compileDefinitions(ts, lang, source, false);
      const moved = compileDefinitions(ts, lang, source, true);
      for (const input of [text, text.repeat(3)]) {
        const tree = grammar.parser.parse(input)!;
        try {
          const want = readDeclarations(tree.rootNode, asWritten);
          expect(want.length).toBeGreaterThan(5);
          expect(readDeclarations(tree.rootNode, moved)).toEqual(want);
        } finally {
          tree.delete();
        }
      }
    });
  }
});
