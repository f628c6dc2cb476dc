import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { parseDeclarations } from '../../src/core/symbols/declaration-table.js';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { WalkQuery, readPatterns } from '../../src/core/symbols/query-walk.js';
import { readDeclarations } from '../../src/core/symbols/read-declarations.js';
import { compileDefinitions } from '../../src/core/symbols/type-tests.js';

/**
 * A definitions query read without compiling it (query-walk.ts) finds what tree-sitter's compiled
 * query finds: for every language, on its sample, on the sample repeated, and on this
 * repository's own sources, the (pattern, captures) of the matches are the same sets, and so are
 * the declaration tables read from them.
 */

const root = path.join(import.meta.dirname, '..', '..');
const samples = path.join(root, 'fixtures', 'symbols');
const queries = path.join(root, 'src', 'core', 'symbols', 'queries');
const SAMPLE: Record<string, string> = { typescript: 'store.ts', tsx: 'store.tsx', javascript: 'store.js', python: 'store.py', swift: 'store.swift', kotlin: 'store.kt', java: 'Store.java', go: 'store.go', rust: 'store.rs', c: 'store.c', cpp: 'store.cpp', c_sharp: 'store.cs', ruby: 'store.rb' };

/** Every match as one line: its pattern and its captures with where they are, sorted. */
function matchSet(matches: Iterable<{ patternIndex: number; captures: readonly { name: string; node: Node }[] }>): string[] {
  const lines = new Set<string>();
  for (const m of matches) {
    const captures = m.captures
      .map((c) => `${c.name}@${c.node.startIndex}-${c.node.endIndex}`)
      .sort()
      .join(' ');
    lines.add(`${m.patternIndex}: ${captures}`);
  }
  return [...lines].sort();
}

/** Texts to read in `language`: its sample, the sample three times, and files of this repository it reads. */
function textsOf(id: string, extensions: readonly string[]): string[] {
  const sample = fs.readFileSync(path.join(samples, SAMPLE[id]!), 'utf8');
  const texts = [sample, sample.repeat(3)];
  if (extensions.includes('ts')) {
    for (const file of ['src/core/symbols/read-declarations.ts', 'src/core/extract/extract.ts', 'src/cli/io.ts']) texts.push(fs.readFileSync(path.join(root, file), 'utf8'));
  }
  if (extensions.includes('js')) texts.push(fs.readFileSync(path.join(root, 'bench', 'lib.js'), 'utf8'));
  // One declaration that declares two names: the table's order must not follow the matches' order.
  if (extensions.includes('c') || extensions.includes('cpp')) {
    texts.push('int out = 1, format_to(char *buf);\nstatic int b, *g(int), c[4];\n');
    // What tree-sitter could not parse (ERROR nodes) around a header's guarded prototypes and a block a macro wraps.
    texts.push('#ifndef A_H\nint f(int);\nTEST(a, b) {\n#ifdef X\n  int i;\n#else\n  int j = ;\n}\n#endif\nchar *g(void);\n#endif\n');
  }
  return texts;
}

describe('readPatterns', () => {
  it.each([
    ['(a name: (b) @name) @definition.function', null],
    ['(a "kw" [(b) (c)] @name . ) @definition.class (#eq? @name "x")', null],
    ['(a (b)? @name) @definition.function', /'\?'/],
    ['(a (b)* @name) @definition.function', /'\*'/],
    ['(a !body name: (b) @name) @definition.function', /'!body'/],
    ['(a name: (b) @name (#match? @name "^x")) @definition.function', /#match\?/],
    ['[(a) (b)] @definition.function', /alternation at the top/],
  ])('%s', (source, refused) => {
    const read = readPatterns(source);
    if (refused === null) expect(read).not.toBeInstanceOf(Error);
    else expect((read as Error).message).toMatch(refused);
  });
});

describe('a definitions query read without compiling it', () => {
  for (const language of SYMBOL_LANGUAGES) {
    it(`finds the compiled query's matches and table in ${language.id}`, async () => {
      // The build the loader initialised (its CommonJS one, see grammar-loader.ts).
      const ts = createRequire(import.meta.url)('web-tree-sitter') as typeof import('web-tree-sitter');
      const grammar = await loadGrammar(language);
      const lang = grammar.parser.language!;
      const source = fs.readFileSync(path.join(queries, `${language.query ?? language.id}.scm`), 'utf8');
      const compiled = compileDefinitions(ts, lang, source, false);
      const patterns = readPatterns(source);
      if (patterns instanceof Error) throw patterns;
      const walked = new WalkQuery(lang, patterns);
      let declarations = 0;
      for (const text of textsOf(language.id, language.extensions)) {
        const tree = grammar.parser.parse(text)!;
        try {
          const want = matchSet(compiled.matches(tree.rootNode));
          expect(matchSet(walked.matches(tree.rootNode))).toEqual(want);
          const table = readDeclarations(tree.rootNode, compiled);
          expect(readDeclarations(tree.rootNode, walked)).toEqual(table);
          declarations += table.length;
        } finally {
          tree.delete();
        }
      }
      expect(declarations).toBeGreaterThan(10);
    });
  }
});

describe('a grammar that walks its query first (Swift)', () => {
  it('reads the same tables before and after it compiles the query, a few files in', async () => {
    const ts = createRequire(import.meta.url)('web-tree-sitter') as typeof import('web-tree-sitter');
    const swift = SYMBOL_LANGUAGES.find((l) => l.id === 'swift')!;
    expect(swift.walkQuery).toBe(true);
    const grammar = await loadGrammar(swift);
    const compiled = compileDefinitions(ts, grammar.parser.language!, fs.readFileSync(path.join(queries, 'swift.scm'), 'utf8'), true);
    const sample = fs.readFileSync(path.join(samples, SAMPLE.swift!), 'utf8');
    // More files than are walked (grammar-loader.ts): the later ones are read with the compiled query.
    for (let i = 1; i <= 8; i++) {
      const text = sample.repeat(i);
      const tree = grammar.parser.parse(text)!;
      let want;
      try {
        want = readDeclarations(tree.rootNode, compiled);
      } finally {
        tree.delete();
      }
      expect(parseDeclarations(text, grammar)).toEqual(want);
    }
  });
});
