import type { Language } from 'web-tree-sitter';

/**
 * The definitions queries (queries/*.scm) read as data, not compiled by tree-sitter
 * (docs/symbols.md#cost): tree-sitter's query compiler analyses every pattern against the whole
 * grammar, which under the baseline compiler costs up to a second for a large grammar (Swift),
 * more than parsing a 50 KB file. The patterns use a small part of the query language, read here:
 * `(type child…)` with `field:` children, `"keyword"`, `(_)` and `_`, `[alternatives]`, `@captures`,
 * and `(#eq? @capture "text")` / `(#not-eq? …)`. match-definitions.ts matches them.
 */

export type Pattern =
  /** `(type …)`: a named node (`type` null: `(_)`, any named node), its children in order. */
  | { form: 'node'; type: string | null; children: ChildPattern[]; captures: string[] }
  /** `"text"`: an anonymous node; `_` (text null): any node. */
  | { form: 'token'; text: string | null; captures: string[] }
  | { form: 'alternatives'; options: Pattern[]; captures: string[] };

export interface ChildPattern {
  field: string | null;
  pattern: Pattern;
}

export interface Predicate {
  negated: boolean;
  capture: string;
  /** A text, or another capture (`{ capture }`). */
  value: string | { capture: string };
}

export interface DefinitionPattern {
  /** Its position in the query: the first pattern that matches a node wins. */
  index: number;
  root: Pattern & { form: 'node'; type: string };
  predicates: Predicate[];
}

export interface DefinitionPatterns {
  patterns: DefinitionPattern[];
  /** The node types the patterns start at. */
  rootTypes: string[];
  /** The grammar's node types by id (web-tree-sitter's `typeId`), and whether each is named. */
  typeNames: readonly string[];
  namedTypes: readonly boolean[];
  /** Field ids by name. */
  fieldIds: ReadonlyMap<string, number>;
}

/**
 * The patterns of a definitions query, checked against the grammar as tree-sitter's compiler
 * checks them: an unknown node type or field name is an error, not a pattern that never matches.
 */
export function compileDefinitions(source: string, language: Language, id: string): DefinitionPatterns {
  const patterns = parseDefinitions(source, id);
  // From the names tree-sitter lists at load, not idForNodeType(): that allocates in the
  // WebAssembly heap, and a Swift parse after any heap allocation is freed is many times slower
  // (docs/symbols.md#cost).
  const typeNames = language.types.map((t) => t ?? '');
  const namedTypes = typeNames.map((_, i) => language.nodeTypeIsNamed(i));
  const named = new Set(typeNames.filter((t, i) => t && namedTypes[i]));
  const tokens = new Set(typeNames.filter((t, i) => t && !namedTypes[i]));
  const fieldIds = new Map<string, number>();
  language.fields.forEach((f, i) => f && fieldIds.set(f, i));
  const fail = (what: string) => {
    throw new Error(`refcat's definitions query for ${id} names ${what}, which its grammar does not have`);
  };
  const check = (p: Pattern): void => {
    if (p.form === 'node') {
      if (p.type !== null && !named.has(p.type)) fail(`the node type ${p.type}`);
      for (const c of p.children) {
        if (c.field !== null && !fieldIds.has(c.field)) fail(`the field ${c.field}`);
        check(c.pattern);
      }
    } else if (p.form === 'token') {
      if (p.text !== null && !tokens.has(p.text)) fail(`the token "${p.text}"`);
    } else p.options.forEach(check);
  };
  for (const p of patterns) check(p.root);
  return { patterns, rootTypes: [...new Set(patterns.map((p) => p.root.type))], typeNames, namedTypes, fieldIds };
}

/** Parses the query text; exported for tests. */
export function parseDefinitions(source: string, id: string): DefinitionPattern[] {
  const tokens = tokenize(source);
  let pos = 0;
  const fail = (msg: string): never => {
    throw new Error(`refcat's definitions query for ${id} does not parse: ${msg} at token ${pos + 1} (${tokens[pos] ?? 'end'})`);
  };
  const peek = () => tokens[pos];
  const next = () => tokens[pos++] ?? fail('unexpected end');

  const captures = (): string[] => {
    const out: string[] = [];
    while (peek()?.startsWith('@')) out.push(next().slice(1));
    return out;
  };

  // One pattern; predicates met inside it are added to `predicates`.
  const pattern = (predicates: Predicate[]): Pattern => {
    const t = next();
    if (t === '[') {
      const options: Pattern[] = [];
      while (peek() !== ']') options.push(pattern(predicates));
      next();
      return { form: 'alternatives', options, captures: captures() };
    }
    if (t.startsWith('"')) return { form: 'token', text: JSON.parse(t) as string, captures: captures() };
    if (t === '_') return { form: 'token', text: null, captures: captures() };
    if (t !== '(') fail(`unexpected ${t}`);
    const type = next();
    if (type.startsWith('#')) fail('a predicate outside a pattern');
    const children: ChildPattern[] = [];
    while (peek() !== ')') {
      if (peek() === '(' && tokens[pos + 1]?.startsWith('#')) {
        predicates.push(predicate());
        continue;
      }
      let field: string | null = null;
      if (peek()?.endsWith(':')) field = next().slice(0, -1);
      children.push({ field, pattern: pattern(predicates) });
    }
    next();
    return { form: 'node', type: type === '_' ? null : type, children, captures: captures() };
  };

  const predicate = (): Predicate => {
    next();
    const op = next();
    if (op !== '#eq?' && op !== '#not-eq?') fail(`the predicate ${op} (only #eq? and #not-eq? are read)`);
    const capture = next();
    const value = next();
    if (!capture.startsWith('@')) fail('a predicate without a capture');
    if (next() !== ')') fail('a predicate with more than two arguments');
    return {
      negated: op === '#not-eq?',
      capture: capture.slice(1),
      value: value.startsWith('@') ? { capture: value.slice(1) } : (JSON.parse(value) as string),
    };
  };

  const out: DefinitionPattern[] = [];
  while (pos < tokens.length) {
    const predicates: Predicate[] = [];
    const root = pattern(predicates);
    if (root.form !== 'node' || root.type === null) fail('a pattern that does not start at a named node type');
    out.push({ index: out.length, root: root as DefinitionPattern['root'], predicates });
  }
  return out;
}

/** `(`, `)`, `[`, `]`, strings, `field:`, `@capture`, `#predicate?` and names; `;` comments dropped. */
function tokenize(source: string): string[] {
  const re = /\s+|;[^\n]*|([()[\]])|("(?:[^"\\]|\\.)*")|([^\s()[\]";]+)/gy;
  const tokens: string[] = [];
  let at = 0;
  while (at < source.length) {
    const m = re.exec(source);
    if (m === null) throw new Error(`a definitions query has an unreadable character at offset ${at}`);
    const t = m[1] ?? m[2] ?? m[3];
    if (t !== undefined) tokens.push(t);
    at = re.lastIndex;
  }
  return tokens;
}
