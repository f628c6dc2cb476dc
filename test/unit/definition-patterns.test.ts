import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { compileDefinitions, parseDefinitions } from '../../src/core/symbols/definition-patterns.js';
import { loadGrammar } from '../../src/core/symbols/grammar-loader.js';
import { SYMBOL_LANGUAGES } from '../../src/core/symbols/languages.js';
import { matchDefinitions } from '../../src/core/symbols/match-definitions.js';

/**
 * refcat reads its definitions queries itself instead of compiling them with tree-sitter
 * (docs/symbols.md#cost). These tests hold that reading to tree-sitter's own query engine: on
 * each language's sample, and on the snippets below that exercise every form the queries use,
 * the matches (pattern and captured nodes) are exactly tree-sitter's.
 */

const queries = path.join(import.meta.dirname, '../../src/core/symbols/queries');
const samples = path.join(import.meta.dirname, '../../fixtures/symbols');
const SAMPLES: Record<string, string> = {
  typescript: 'store.ts', tsx: 'store.tsx', javascript: 'store.js', python: 'store.py', swift: 'store.swift',
  kotlin: 'store.kt', java: 'Store.java', go: 'store.go', rust: 'store.rs', c: 'store.c', cpp: 'store.cpp',
  c_sharp: 'store.cs', ruby: 'store.rb',
};

/** Snippets for what the samples do not show: several matches of one node, predicates that fail, alternatives. */
const EXTRA: Record<string, string> = {
  javascript: 'let a = 1, b = () => 2;\nmodule.exports.f = function () {};\nexports.g = 1;\nfoo.exports.h = 2;\nmodule.other.i = 3;\n',
  c_sharp: 'class A { int a = b, c; }\n',
  go: 'func (s *Store[T]) Save() {}\nfunc (s Store) Load() {}\nconst a, b = 1, 2\n',
  cpp: 'int Store::load() { return 0; }\nint *f() { return 0; }\nint &g() { static int x; return x; }\nstruct S { void m(); int x, *y; };\n',
  ruby: 'class A::B\n  X = 1\n  def self.make; end\nend\n',
  swift: 'enum D { case a, b(Int), c }\nlet (x, y) = (1, 2)\nextension Array where Element == Int { func s() {} }\n',
};

/**
 * Where refcat matches more than tree-sitter, on purpose: tree-sitter's engine stops at the first
 * name of a Go `var_spec` or `const_spec` (`const a, b = 1, 2` would declare only `a`), though it
 * takes every name of a Go struct field or a C declaration. Each entry: the extra names.
 */
const MORE_THAN_TREE_SITTER: Record<string, string[]> = { go: ['b'] };

function key(m: { patternIndex: number; captures: { name: string; node: Node }[] }): string {
  const caps = m.captures.map((c) => `${c.name}@${c.node.startIndex}-${c.node.endIndex}:${c.node.type}`).sort();
  return `${m.patternIndex} ${caps.join(' ')}`;
}

describe('definitions patterns match as tree-sitter queries do', () => {
  for (const language of SYMBOL_LANGUAGES) {
    it(language.id, async () => {
      const { Query } = await import('web-tree-sitter');
      const grammar = await loadGrammar(language);
      const lang = grammar.parser.language!;
      const source = fs.readFileSync(path.join(queries, `${language.id}.scm`), 'utf8');
      const query = new Query(lang, source);
      expect(grammar.definitions.patterns.length).toBe(query.patternCount());
      const texts = [fs.readFileSync(path.join(samples, SAMPLES[language.id]!), 'utf8'), ...(EXTRA[language.id] ? [EXTRA[language.id]!] : [])];
      for (const text of texts) {
        const tree = grammar.parser.parse(text)!;
        try {
          const theirs = query.matches(tree.rootNode).map(key).sort();
          const matches = matchDefinitions(tree.rootNode, grammar.definitions);
          const extra = new Set(MORE_THAN_TREE_SITTER[language.id] ?? []);
          const isExtra = (m: (typeof matches)[number]) => m.captures.some((c) => c.name === 'name' && extra.has(c.node.text));
          const ours = matches.filter((m) => !isExtra(m)).map(key).sort();
          expect(theirs.length).toBeGreaterThan(0);
          if (text === EXTRA[language.id] && extra.size > 0) expect(matches.filter(isExtra).length).toBe(extra.size);
          expect(ours.join('\n')).toEqual(theirs.filter((k) => !matches.some((m) => isExtra(m) && key(m) === k)).join('\n'));
        } finally {
          tree.delete();
        }
      }
      query.delete();
    });
  }
});

describe('reading a definitions query', () => {
  it('reads fields, tokens, wildcards, alternatives, several captures and predicates', () => {
    const [p] = parseDefinitions('; a comment\n(a "kw" f: [(b) @x (_)] _ (c (d) @y @z) (#eq? @y "t") (#not-eq? @x @y)) @def', 'demo');
    expect(p!.root).toEqual({
      form: 'node',
      type: 'a',
      captures: ['def'],
      children: [
        { field: null, pattern: { form: 'token', text: 'kw', captures: [] } },
        {
          field: 'f',
          pattern: {
            form: 'alternatives',
            captures: [],
            options: [
              { form: 'node', type: 'b', children: [], captures: ['x'] },
              { form: 'node', type: null, children: [], captures: [] },
            ],
          },
        },
        { field: null, pattern: { form: 'token', text: null, captures: [] } },
        { field: null, pattern: { form: 'node', type: 'c', captures: [], children: [{ field: null, pattern: { form: 'node', type: 'd', children: [], captures: ['y', 'z'] } }] } },
      ],
    });
    expect(p!.predicates).toEqual([
      { negated: false, capture: 'y', value: 't' },
      { negated: true, capture: 'x', value: { capture: 'y' } },
    ]);
  });

  const errors: [string, RegExp][] = [
    ['(a (#match? @x "y"))', /only #eq\? and #not-eq\?/],
    ['"kw" @x', /does not start at a named node type/],
    ['(a', /unexpected end/],
    ['(a "x)', /unreadable character/],
  ];
  for (const [source, message] of errors) {
    it(`rejects ${source}`, () => expect(() => parseDefinitions(source, 'demo')).toThrow(message));
  }

  it('rejects a node type or field the grammar does not have, as tree-sitter does', async () => {
    const grammar = await loadGrammar(SYMBOL_LANGUAGES.find((l) => l.id === 'python')!);
    const lang = grammar.parser.language!;
    expect(() => compileDefinitions('(class_definition name: (identifer) @name) @definition.class', lang, 'python')).toThrow(/node type identifer/);
    expect(() => compileDefinitions('(class_definition nam: (identifier) @name) @definition.class', lang, 'python')).toThrow(/field nam/);
    expect(() => compileDefinitions('(class_definition "klass" (identifier) @name) @definition.class', lang, 'python')).toThrow(/token "klass"/);
  });
});
