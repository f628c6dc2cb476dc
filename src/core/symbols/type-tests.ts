import type { Language, Node, Query, QueryMatch } from 'web-tree-sitter';
import { type Group, type Part, parseParts, show } from './query-text.js';

/**
 * Compiling a definitions query costs most where its patterns test the type of a nested node:
 * tree-sitter analyses the grammar's parse table for each such test, and in WebAssembly compiled
 * by the baseline compiler that took 60-70% of a symbol ref's time in Swift and C++
 * (docs/symbols.md#cost). A test of a node in a field, `name: (simple_identifier) @name` or
 * `declarator: (function_declarator …)`, is moved out of the query: the query gets `name: _`
 * (`(_ …)` where the node has children of its own) and a capture, and accepts() checks the captured
 * node's type after matching, one call a match. The matches accepts() keeps are the ones the
 * query as written finds. The queries stay as written (queries/*.scm); this happens when one is
 * compiled.
 */

/** A moved test: the node captured as `capture` must be of one of `types` (null: any named node). */
interface TypeTest {
  capture: string;
  types: readonly string[] | null;
}

/** A definitions query ready to match: compiled (here), or read without compiling (query-walk.ts). */
export interface DefinitionsQuery {
  /** Its matches in the tree under `root`, as tree-sitter gives them (in any order). */
  matches(root: Node): Iterable<{ patternIndex: number; captures: readonly { name: string; node: Node }[] }>;
}

/** Compile `source` for `language`, with its type tests moved out of the query when `move` is set. */
export function compileDefinitions(ts: { Query: new (language: Language, source: string) => Query }, language: Language, source: string, move: boolean): DefinitionsQuery {
  if (!move) {
    const query = new ts.Query(language, source);
    return { matches: (root) => query.matches(root) };
  }
  const supertypes = new Set(language.supertypes.map((id) => language.types[id]));
  const { text, tests } = moveTypeTests(source, (type) => supertypes.has(type));
  const query = new ts.Query(language, text);
  const ids = new Map<string, number>();
  const idOf = (type: string): number => {
    let id = ids.get(type);
    if (id === undefined) {
      const found = language.idForNodeType(type, true);
      // The query as written would not compile either.
      if (found === null) throw new Error(`Bad node name '${type}' in a definitions query`);
      ids.set(type, (id = found));
    }
    return id;
  };
  const resolved = tests.map((list) => list.map((t) => ({ capture: t.capture, ids: t.types === null ? null : new Set(t.types.map(idOf)) })));
  const named = new Map<number, boolean>();
  const isNamed = (id: number): boolean => {
    let n = named.get(id);
    if (n === undefined) named.set(id, (n = language.nodeTypeIsNamed(id)));
    return n;
  };
  const accepts = (match: QueryMatch): boolean => {
    const list = resolved[match.patternIndex];
    if (!list || list.length === 0) return true;
    for (const test of list) {
      const capture = match.captures.find((c) => c.name === test.capture);
      // Not captured: the node is in a branch of an alternation the match did not take.
      if (!capture) continue;
      const id = capture.node.typeId;
      if (test.ids === null ? !isNamed(id) : !test.ids.has(id)) return false;
    }
    return true;
  };
  return { matches: (root) => query.matches(root).filter(accepts) };
}

const CAPTURE_LIMIT = 3;

/**
 * The query text with the type tests of nodes in fields replaced by captures, and the tests, one
 * list per pattern in the order of the patterns. `isSupertype` names types a test cannot move
 * (a supertype matches its subtypes, which a type id does not show).
 */
export function moveTypeTests(source: string, isSupertype: (type: string) => boolean = () => false): { text: string; tests: TypeTest[][] } {
  const top = parseParts(source);
  const tests: TypeTest[][] = [];
  for (const part of top) {
    if (typeof part === 'string') {
      // `"kw" @x` and `_ @x` are patterns too; a capture or quantifier belongs to the one before.
      if (part.startsWith('"') || part === '_') tests.push([]);
      continue;
    }
    // A predicate at the top level belongs to the pattern before it.
    if (part.open === '(' && typeof part.parts[0] === 'string' && part.parts[0].startsWith('#')) continue;
    const list: TypeTest[] = [];
    moveIn(part, list, isSupertype);
    tests.push(list);
  }
  return { text: top.map(show).join(' '), tests };
}

function moveIn(group: Group, tests: TypeTest[], isSupertype: (type: string) => boolean): void {
  const parts = group.parts;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (typeof part !== 'string') {
      moveIn(part, tests, isSupertype);
      continue;
    }
    const next = parts[i + 1];
    if (!part.endsWith(':') || part.startsWith('!') || next === undefined || typeof next === 'string') continue;
    // Captures after the node, then what follows them: a quantifier or an anchor keeps the test.
    let j = i + 2;
    while (typeof parts[j] === 'string' && (parts[j] as string).startsWith('@')) j++;
    const after = parts[j];
    const anchored = parts[i - 1] === '.' || after === '.' || (typeof after === 'string' && /^[*+?]$/.test(after));
    const captures = j - (i + 2);
    const types = anchored || captures >= CAPTURE_LIMIT ? null : movableTypes(next, isSupertype);
    if (types === null) continue;
    const capture = `_type${tests.length}_${i}`;
    tests.push({ capture, types: types.length === 1 && types[0] === '_' ? null : types });
    if (next.open === '(' && next.parts.length > 1) next.parts[0] = '_';
    else parts[i + 1] = '_';
    parts.splice(i + 2, 0, `@${capture}`);
  }
}

/** The types a node in a field may be, when the test can move: `(T)`, `(T …)`, `(_)`, `[(A) (B)]`. */
function movableTypes(node: Group, isSupertype: (type: string) => boolean): string[] | null {
  const typeOf = (g: Part): string | null => {
    if (typeof g === 'string' || g.open !== '(') return null;
    const head = g.parts[0];
    if (typeof head !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(head) || isSupertype(head)) return null;
    return head;
  };
  if (node.open === '(') {
    const type = typeOf(node);
    // `(_ …)` with children tests nothing `_` does not; a leaf `(_)` is any named node.
    return type === null || (type === '_' && node.parts.length > 1) ? null : [type];
  }
  const types: string[] = [];
  for (const alt of node.parts) {
    const type = typeof alt === 'string' ? null : alt.parts.length === 1 ? typeOf(alt) : null;
    if (type === null || type === '_') return null;
    types.push(type);
  }
  return types.length > 0 ? types : null;
}
