import type { Language, Node } from 'web-tree-sitter';
import { type Group, type Part, parseParts } from './query-text.js';

/**
 * A definitions query read without compiling it (docs/design/symbols.md#reading-a-query-without-compiling-it).
 * tree-sitter's query compile analyses the grammar's whole parse table: 60-120 ms in Swift, C++
 * and Kotlin with the baseline compiler, most of a cold symbol ref's time, for one file read once.
 * The patterns refcat's queries use are few (nodes, fields, keywords, `_`, alternations, anchors,
 * captures, `#eq?`), so they are matched here instead, against the nodes of their root types that
 * tree-sitter lists in one call. The matches are the query's, pattern for pattern:
 * test/unit/query-walk.test.ts holds this reading to tree-sitter's own on every language. A query
 * with anything else (a quantifier, a negated field, another predicate) is refused when read, so
 * that it is compiled instead.
 */

/** A match: the pattern's index in the query and its captures, as tree-sitter's `QueryMatch`. */
export interface WalkMatch {
  patternIndex: number;
  captures: { name: string; node: Node }[];
}

type Pattern =
  | { kind: 'node'; type: string; children: Child[]; captures: string[] }
  | { kind: 'keyword'; text: string; captures: string[] }
  | { kind: 'any'; captures: string[] }
  | { kind: 'choice'; options: Pattern[]; captures: string[] };
type NodePattern = Extract<Pattern, { kind: 'node' }>;
/** A child pattern, with its field; `.` is an anchor between named children. */
type Child = { field: string | null; pattern: Pattern } | '.';

interface TopPattern {
  root: NodePattern;
  equal: { capture: string; text: string }[];
}

/** The patterns of a query's text, or an Error naming what this reading does not do. */
export function readPatterns(source: string): TopPattern[] | Error {
  try {
    const top: TopPattern[] = [];
    for (const part of parseParts(source)) {
      if (typeof part === 'string') {
        if (!part.startsWith('@') || top.length === 0) throw new Error(`'${part}' at the top of a query`);
        top[top.length - 1]!.root.captures.push(part.slice(1));
      } else if (isPredicate(part)) {
        if (top.length === 0) throw new Error('a predicate before any pattern');
        top[top.length - 1]!.equal.push(...predicate(part));
      } else {
        if (part.open !== '(') throw new Error('an alternation at the top of a query');
        const equal: TopPattern['equal'] = [];
        top.push({ root: nodePattern(part, equal), equal });
      }
    }
    return top;
  } catch (err) {
    return err as Error;
  }
}

function isPredicate(g: Group): boolean {
  return g.open === '(' && typeof g.parts[0] === 'string' && g.parts[0].startsWith('#');
}

function predicate(g: Group): TopPattern['equal'] {
  const [op, capture, text] = g.parts;
  if (op !== '#eq?' || g.parts.length !== 3 || typeof capture !== 'string' || !capture.startsWith('@') || typeof text !== 'string' || !text.startsWith('"')) {
    throw new Error(`the predicate (${g.parts.map((p) => (typeof p === 'string' ? p : '...')).join(' ')})`);
  }
  return [{ capture: capture.slice(1), text: JSON.parse(text) as string }];
}

function nodePattern(g: Group, equal: TopPattern['equal']): NodePattern {
  const [type, ...rest] = g.parts;
  if (typeof type !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(type)) throw new Error('a node pattern without a type');
  const children: Child[] = [];
  let last: Pattern | null = null;
  for (let i = 0; i < rest.length; i++) {
    const part = rest[i]!;
    if (typeof part === 'string') {
      if (part.startsWith('@')) {
        if (!last) throw new Error(`a capture '${part}' before any child`);
        last.captures.push(part.slice(1));
        continue;
      }
      if (part === '.') {
        children.push('.');
        last = null;
        continue;
      }
      if (part.endsWith(':') && !part.startsWith('!')) {
        const next = rest[++i];
        if (next === undefined) throw new Error(`the field '${part}' without a node`);
        last = element(next, equal);
        children.push({ field: part.slice(0, -1), pattern: last });
        continue;
      }
    } else if (isPredicate(part)) {
      equal.push(...predicate(part));
      last = null;
      continue;
    }
    last = element(part, equal);
    children.push({ field: null, pattern: last });
  }
  return { kind: 'node', type, children, captures: [] };
}

function element(part: Part, equal: TopPattern['equal']): Pattern {
  if (typeof part !== 'string') {
    if (part.open === '[') {
      const options: Pattern[] = [];
      for (const p of part.parts) {
        // A capture after an option is that option's.
        if (typeof p === 'string' && p.startsWith('@') && options.length > 0) options[options.length - 1]!.captures.push(p.slice(1));
        else options.push(element(p, equal));
      }
      return { kind: 'choice', options, captures: [] };
    }
    return nodePattern(part, equal);
  }
  if (part === '_') return { kind: 'any', captures: [] };
  if (part.startsWith('"')) return { kind: 'keyword', text: JSON.parse(part) as string, captures: [] };
  return bad(part);
}

function bad(word: string): never {
  throw new Error(`'${word}'`);
}

/** What is known of a node while one tree is read: its type, whether named, its children. */
interface Seen {
  node: Node;
  type: string;
  named: boolean;
  children?: Seen[];
  /** Per field asked for: the children in it. */
  fields?: Map<string, Seen[]>;
}

type Capture = { name: string; node: Node };

/** A query's patterns, matched by walking a tree. */
export class WalkQuery {
  private readonly rootTypes: string[];
  private readonly named: (boolean | undefined)[] = [];
  /** The nodes read in the tree being matched, by id: a candidate and a child share what is read of them. */
  private readonly known = new Map<number, Seen>();

  constructor(
    private readonly language: Language,
    private readonly patterns: readonly TopPattern[],
  ) {
    this.rootTypes = [...new Set(patterns.map((p) => p.root.type))];
  }

  /** Every match in the tree under `root` (itself included), pattern by pattern. */
  matches(root: Node): WalkMatch[] {
    const candidates = root.descendantsOfType(this.rootTypes).filter((c): c is Node => c !== null);
    if (!candidates.some((c) => c.id === root.id) && this.rootTypes.includes(root.type)) candidates.unshift(root);
    return this.matchesAt(candidates);
  }

  /**
   * The matches whose pattern's root is one of `candidates` (each node once): the matches of a
   * tree's nodes that a symbol ref's names may be in (named-nodes.ts).
   */
  matchesAt(candidates: readonly Node[]): WalkMatch[] {
    try {
      return this.matchAll(candidates);
    } finally {
      this.known.clear();
    }
  }

  private matchAll(candidates: readonly Node[]): WalkMatch[] {
    const out: WalkMatch[] = [];
    const byType = new Map<string, Seen[]>();
    for (const node of candidates) {
      const seen = this.seen(node);
      if (!seen.named) continue;
      let list = byType.get(seen.type);
      if (!list) byType.set(seen.type, (list = []));
      list.push(seen);
    }
    // Captures are pushed while a pattern is tried and popped as it backs out: a match copies them.
    const captures: Capture[] = [];
    this.patterns.forEach((p, patternIndex) => {
      for (const seen of byType.get(p.root.type) ?? []) {
        const found = () => {
          const all = captures.slice();
          for (const name of p.root.captures) all.push({ name, node: seen.node });
          for (const e of p.equal) if (!all.some((c) => c.name === e.capture) || all.some((c) => c.name === e.capture && c.node.text !== e.text)) return;
          out.push({ patternIndex, captures: all });
        };
        this.match(p.root, seen, captures, found);
      }
    });
    return out;
  }

  private seen(node: Node): Seen {
    let seen = this.known.get(node.id);
    if (seen) return seen;
    const id = node.typeId;
    let named = this.named[id];
    if (named === undefined) this.named[id] = named = this.language.nodeTypeIsNamed(id);
    seen = { node, type: this.language.types[id] ?? 'ERROR', named };
    this.known.set(node.id, seen);
    return seen;
  }

  /** Calls `then` once for each way `pattern` matches `seen`, its inner captures pushed (its own are the caller's). */
  private match(pattern: Pattern, seen: Seen, captures: Capture[], then: () => void): void {
    switch (pattern.kind) {
      case 'any':
        then();
        return;
      case 'keyword':
        if (!seen.named && seen.type === pattern.text) then();
        return;
      case 'choice':
        for (const option of pattern.options) {
          this.match(option, seen, captures, () => {
            for (const name of option.captures) captures.push({ name, node: seen.node });
            then();
            captures.length -= option.captures.length;
          });
        }
        return;
      case 'node':
        if (!seen.named || (pattern.type !== '_' && seen.type !== pattern.type)) return;
        if (pattern.children.length === 0) {
          then();
          return;
        }
        // One child in a field: only that field's children are read, not the node's whole list.
        const only = pattern.children.length === 1 ? pattern.children[0]! : '.';
        const kids = only !== '.' && only.field !== null ? this.fieldKids(seen, only.field) : this.childrenOf(seen);
        this.children(pattern.children, 0, kids, 0, seen, false, captures, then);
    }
  }

  /**
   * Calls `then` for each way `children[k..]` match the node's children from index `from` on, in
   * order, each to a later child than the one before; after an anchor the next named child must be
   * the one, and after a trailing anchor no named child may follow.
   */
  private children(children: readonly Child[], k: number, kids: readonly Seen[], from: number, parent: Seen, anchored: boolean, captures: Capture[], then: () => void): void {
    if (k === children.length) {
      if (anchored) for (let i = from; i < kids.length; i++) if (kids[i]!.named) return;
      then();
      return;
    }
    const child = children[k]!;
    if (child === '.') {
      this.children(children, k + 1, kids, from, parent, true, captures, then);
      return;
    }
    const field = child.field === null ? null : this.fieldKids(parent, child.field);
    for (let i = from; i < kids.length; i++) {
      const kid = kids[i]!;
      if ((field === null || field.includes(kid)) && mayMatch(child.pattern, kid)) {
        this.match(child.pattern, kid, captures, () => {
          for (const name of child.pattern.captures) captures.push({ name, node: kid.node });
          this.children(children, k + 1, kids, i + 1, parent, false, captures, then);
          captures.length -= child.pattern.captures.length;
        });
      }
      // Anchored: the first named child from here had to match.
      if (anchored && kid.named) return;
    }
  }

  private childrenOf(seen: Seen): Seen[] {
    return (seen.children ??= seen.node.children.filter((c): c is Node => c !== null).map((c) => this.seen(c)));
  }

  /** The children in `field` (one call, not the node's whole children list). */
  private fieldKids(seen: Seen, field: string): Seen[] {
    seen.fields ??= new Map();
    let kids = seen.fields.get(field);
    if (!kids) seen.fields.set(field, (kids = seen.node.childrenForFieldName(field).flatMap((c) => (c ? [this.seen(c)] : []))));
    return kids;
  }
}

/** Whether `pattern` may match `seen`, by its type alone: most children fail here, before any call or closure is made. */
function mayMatch(pattern: Pattern, seen: Seen): boolean {
  switch (pattern.kind) {
    case 'any':
      return true;
    case 'keyword':
      return !seen.named && seen.type === pattern.text;
    case 'node':
      return seen.named && (pattern.type === '_' || seen.type === pattern.type);
    case 'choice':
      return pattern.options.some((o) => mayMatch(o, seen));
  }
}
