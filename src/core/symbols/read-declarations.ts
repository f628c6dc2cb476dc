import type { Node } from 'web-tree-sitter';
import { type Declaration, FUNCTION_KINDS, type SymbolKind, TYPE_KINDS } from './declaration.js';
import type { DefinitionsQuery } from './type-tests.js';

/**
 * The shared walker: reads any language's definitions query (queries/*.scm) into a declaration
 * table. The capture convention (docs/symbols.md#adding-a-language): `@definition.<kind>` on the
 * declaration node, `@name` on its name, `@receiver` on the type a Go-style method belongs to. A
 * definition without `@name` is a scope whose members belong to the declaration around it (a
 * Kotlin companion object); `@definition.extension` names the type its members belong to;
 * `@definition.accessor` is a getter or setter, one property with its neighbour of the same name;
 * `@definition.locals` is a body without a name (a callback, a closure) whose variables are locals;
 * `@definition.prototype` declares a function (C's `int f(void);`) unless it is in a function body
 * or such a body without a name, where it is a local (C++'s `std::string s(name);` reads as one);
 * `@extent` is a node after the declaration's that is part of it (Kotlin's getter and setter, which
 * its grammar puts beside the property): the declaration ends with it, and its body is the
 * declaration's when the declaration has none of its own.
 */

const KINDS: ReadonlySet<string> = new Set<SymbolKind | 'accessor' | 'prototype' | 'scope' | 'locals'>([
  'function', 'method', 'class', 'struct', 'enum', 'interface', 'protocol', 'trait', 'object', 'type',
  'module', 'constant', 'variable', 'property', 'field', 'enum_case', 'extension', 'accessor', 'prototype', 'scope', 'locals',
]);

interface Found {
  node: Node;
  /** The `@extent` nodes, in file order: the declaration ends with the last. */
  extent: Node[];
  /** null: a transparent scope. */
  name: Node | null;
  receiver: string | null;
  kind: SymbolKind | 'accessor' | 'prototype' | 'scope' | 'locals';
  start: number;
  end: number;
  pattern: number;
}

/** The declarations of a parse tree, every field read: the tree may be deleted after. */
export function readDeclarations(root: Node, definitions: DefinitionsQuery): Declaration[] {
  return tableOfMatches(root, definitions, false).table;
}

/**
 * The declarations of a parse tree, with the lines that cost calls into the tree per declaration
 * (`startLine`, `endLine`, `bodyStart`) read when first asked for: a symbol ref asks for them
 * only on the declarations it names. The tree must live until settle() has read the rest.
 */
export function readDeclarationsLazily(root: Node, definitions: DefinitionsQuery): LazyTable {
  return tableOfMatches(root, definitions, true);
}

export interface LazyTable {
  table: Declaration[];
  /** Reads the lines not asked for yet: the tree may be deleted after. */
  settle: () => void;
  /**
   * Whether a getter and a setter were read as one property: they are when no declaration comes
   * between them, which a read of some of the tree's declarations cannot tell (declaration-table.ts).
   */
  merged: boolean;
}

/**
 * The name V8 knows the walker by: an outline asks V8 not to optimize it (src/cli/tiering.ts;
 * docs/design/symbols.md#the-walker-left-unoptimized). It runs once per file, mostly calling into
 * tree-sitter, and compiling it took V8's optimizing compiler 40-100 ms in each thread, more than
 * the compiled code saved.
 */
export function declarationWalkerName(): string {
  return tableOfMatches.name;
}

function tableOfMatches(root: Node, definitions: DefinitionsQuery, lazy: boolean): LazyTable {
  const found = findDefinitions(root, definitions);
  // Outermost first at equal starts, so a stack walk nests by containment; one node that declares
  // two names (`int a, f(void);`) in the order of its names: an order that does not depend on the
  // order of the matches (a compiled query and its walk give them in different orders).
  found.sort((a, b) => a.start - b.start || b.end - a.end || (a.name?.startIndex ?? -1) - (b.name?.startIndex ?? -1) || a.pattern - b.pattern);
  const out: Declaration[] = [];
  const stack: { found: Found; decl: Declaration | null }[] = [];
  const accessors = new Map<Declaration, true>();
  let merged = false;
  for (const f of found) {
    // Popped when it ends before this one starts, or is this very node (`case up, down` names two).
    while (stack.length > 0 && (stack[stack.length - 1]!.found.end <= f.start || stack[stack.length - 1]!.found.node.id === f.node.id)) stack.pop();
    // The declaration this one is in, through transparent scopes; inside a body without a name
    // (a callback, a closure, a computed property's accessors) on the way, it is a local.
    let owner: Declaration | null = null;
    let inLocals = false;
    for (let i = stack.length - 1; i >= 0 && owner === null; i--) {
      owner = stack[i]!.decl;
      if (owner === null && stack[i]!.found.kind === 'locals') inLocals = true;
    }
    if (f.name === null || f.kind === 'scope' || f.kind === 'locals') {
      stack.push({ found: f, decl: null });
      continue;
    }
    let kind = f.kind;
    const ownerKind = owner?.kind;
    // A getter's or setter's body is a function body too.
    const inBody = inLocals || (ownerKind !== undefined && FUNCTION_KINDS.has(ownerKind)) || (owner !== null && accessors.has(owner));
    if (inBody && (kind === 'variable' || kind === 'constant' || kind === 'field' || kind === 'property' || kind === 'prototype')) {
      // A local of a function body is not a declaration a ref names.
      stack.push({ found: f, decl: null });
      continue;
    }
    if (kind === 'prototype') kind = 'function';
    if (ownerKind && TYPE_KINDS.has(ownerKind)) {
      if (kind === 'function') kind = 'method';
      else if (kind === 'variable' || kind === 'constant') kind = 'property';
    } else if (!owner && kind === 'method' && f.receiver === null) kind = 'function';
    const name = unquote(f.name.text);
    // A receiver (`func (s *Store) Save`, `bool Store::load()`) is the type inside the owner.
    const prefix = f.receiver === null ? (owner?.path ?? null) : owner ? `${owner.path}.${f.receiver}` : f.receiver;
    const parent = owner;
    const previous = out[out.length - 1];
    const path = prefix ? `${prefix}.${name}` : name;
    if (kind === 'accessor' && previous && accessors.has(previous) && previous.path === path && previous.parent === (parent?.index ?? null)) {
      // A getter and its setter, next to each other: one property.
      previous.endLine = Math.max(previous.endLine, endLineOf(f.node, f.extent));
      merged = true;
      stack.push({ found: f, decl: previous });
      continue;
    }
    const fields: Fields = {
      index: out.length,
      path,
      name,
      kind: kind === 'accessor' ? 'property' : kind,
      declLine: f.node.startPosition.row + 1,
      nameLine: f.name.startPosition.row + 1,
      parent: parent?.index ?? null,
    };
    const decl: Declaration = lazy ? new LazyDeclaration(fields, f.node, f.extent) : plain(fields, leadingStart(f.node), endLineOf(f.node, f.extent), bodyStartOf(f.node, f.extent));
    if (kind === 'accessor') accessors.set(decl, true);
    out.push(decl);
    stack.push({ found: f, decl });
  }
  // Settled: every entry plain data, read while the tree lives (a LazyDeclaration already handed
  // out keeps its lines too).
  const settle = () => {
    for (let i = 0; i < out.length; i++) {
      const d = out[i]!;
      if (d instanceof LazyDeclaration) out[i] = d.settle();
    }
  };
  return { table: out, settle, merged };
}

type Fields = Omit<Declaration, 'startLine' | 'endLine' | 'bodyStart'>;

function plain(f: Fields, startLine: number, endLine: number, bodyStart: number | null): Declaration {
  return { index: f.index, path: f.path, name: f.name, kind: f.kind, startLine, declLine: f.declLine, nameLine: f.nameLine, endLine, bodyStart, parent: f.parent };
}

/**
 * A declaration whose first and last lines and body start are read from the tree when first
 * asked for. Its lines are accessors of the class, so making one costs no more than a plain
 * object; settle() reads the rest and gives the plain declaration that replaces it in its table.
 */
class LazyDeclaration implements Declaration {
  index: number;
  path: string;
  name: string;
  kind: Declaration['kind'];
  declLine: number;
  nameLine: number;
  parent: number | null;
  #node: Node | null;
  #extent: Node[];
  #startLine: number | undefined;
  #endLine: number | undefined;
  #bodyStart: number | null | undefined;

  constructor(f: Fields, node: Node, extent: Node[]) {
    this.index = f.index;
    this.path = f.path;
    this.name = f.name;
    this.kind = f.kind;
    this.declLine = f.declLine;
    this.nameLine = f.nameLine;
    this.parent = f.parent;
    this.#node = node;
    this.#extent = extent;
  }

  get startLine(): number {
    return (this.#startLine ??= leadingStart(this.#node!));
  }
  set startLine(v: number) {
    this.#startLine = v;
  }
  get endLine(): number {
    return (this.#endLine ??= endLineOf(this.#node!, this.#extent));
  }
  /** A getter's setter widens the property it shares with the getter. */
  set endLine(v: number) {
    this.#endLine = v;
  }
  get bodyStart(): number | null {
    if (this.#bodyStart === undefined) this.#bodyStart = bodyStartOf(this.#node!, this.#extent);
    return this.#bodyStart;
  }
  set bodyStart(v: number | null) {
    this.#bodyStart = v;
  }

  /** Its lines too, when serialized before it is settled. */
  toJSON(): Declaration {
    return plain(this, this.startLine, this.endLine, this.bodyStart);
  }

  settle(): Declaration {
    const settled = plain(this, this.startLine, this.endLine, this.bodyStart);
    this.#node = null;
    this.#extent = [];
    return settled;
  }
}

function findDefinitions(root: Node, definitions: DefinitionsQuery): Found[] {
  const seen = new Map<string, Found>();
  for (const match of definitions.matches(root)) {
    let def: { name: string; node: Node } | undefined;
    let name: Node | null = null;
    let receiver: string | null = null;
    const extent: Node[] = [];
    for (const c of match.captures) {
      if (c.name.startsWith('definition.')) def = c;
      else if (c.name === 'name') name = c.node;
      else if (c.name === 'receiver') receiver = c.node.text;
      else if (c.name === 'extent') extent.push(c.node);
    }
    if (!def) continue;
    const kind = def.name.slice('definition.'.length);
    if (!KINDS.has(kind)) continue;
    // One declaration per node and name: the first pattern of the query that matches it wins.
    const key = `${def.node.id}:${name?.startIndex ?? ''}`;
    const earlier = seen.get(key);
    if (earlier && earlier.pattern <= match.patternIndex) continue;
    extent.sort((a, b) => a.startIndex - b.startIndex);
    const end = Math.max(def.node.endIndex, extent.at(-1)?.endIndex ?? 0);
    seen.set(key, { node: def.node, extent, name, receiver, kind: kind as Found['kind'], start: def.node.startIndex, end, pattern: match.patternIndex });
  }
  return [...seen.values()];
}

/**
 * A name as a path says it: a quoted identifier (Swift's and Kotlin's `` `default` ``) without its
 * backticks, C++'s nested namespace `a::b` as `a.b`.
 */
function unquote(name: string): string {
  if (name.includes('::')) return name.split('::').map((part) => part.trim()).join('.');
  return name.length > 2 && name.startsWith('`') && name.endsWith('`') ? name.slice(1, -1) : name;
}

/** A declaration's last line, its `@extent`'s if it has one: one that ends at column 0 ended on the line before. */
function endLineOf(node: Node, extent: readonly Node[]): number {
  const start = node.startPosition;
  node = extent.at(-1) ?? node;
  const end = node.endPosition;
  return end.column === 0 && end.row > start.row ? end.row : end.row + 1;
}

const LEADING = /comment|attribute|decorator|annotation/;
/** Wrappers that start where the declaration starts: their leading comments are its own. */
const WRAPPERS = /^(export_statement|decorated_definition|template_declaration|ambient_declaration)$/;
/** Go's `type`, `const` and `var`: the keyword line is the spec's own when the spec is not in a group. */
const LINE_WRAPPERS = /^(type_declaration|const_declaration|var_declaration)$/;

/** The first line of the doc comment, attributes or decorators directly above (no blank line between). */
function leadingStart(node: Node): number {
  let row = node.startPosition.row;
  let cur: Node = node;
  for (;;) {
    const prev = cur.previousNamedSibling;
    if (prev && LEADING.test(prev.type)) {
      const comment = prev.type.includes('comment');
      const adjacent = prev.endPosition.row === row - 1 || (!comment && prev.endPosition.row === row);
      // A comment after code on its line (`x = 1 // note`) belongs to that code.
      const before = prev.previousNamedSibling;
      const trailing = comment && before !== null && before.endPosition.row === prev.startPosition.row;
      if (adjacent && !trailing) {
        row = prev.startPosition.row;
        cur = prev;
        continue;
      }
    }
    // A C++ template's parameter list (`template <typename T>`) is the head of the wrapper it opens.
    const head = prev !== null && prev.type === 'template_parameter_list' && prev.previousNamedSibling === null;
    if ((!prev || head) && cur.parent && (WRAPPERS.test(cur.parent.type) || (LINE_WRAPPERS.test(cur.parent.type) && cur.parent.startPosition.row === cur.startPosition.row))) {
      cur = cur.parent;
      row = Math.min(row, cur.startPosition.row);
      continue;
    }
    return row + 1;
  }
}

/**
 * Grammars without a `body` field (Kotlin) name the body by its node type; a Swift computed
 * property's accessors are its body (docs/refs.md#outlines---outline: a property's body is code).
 */
const BODY = /(^|_)(body|block)$|^(declaration_list|field_declaration_list|enum_variant_list|statements|computed_property)$/;

/** The line a declaration's body begins on: its own, else the first of its `@extent`'s (a Kotlin `get() {`). */
function bodyStartOf(node: Node, extent: readonly Node[]): number | null {
  for (const n of [node, ...extent]) {
    const line = ownBodyStart(n);
    if (line !== null) return line;
  }
  return null;
}

function ownBodyStart(node: Node): number | null {
  let body = node.childForFieldName('body');
  if (!body) {
    for (let i = node.namedChildCount - 1; i >= 0 && !body; i--) {
      const child = node.namedChild(i);
      if (child && BODY.test(child.type)) body = child;
    }
  }
  // `const f = () => {…}`: the body of the function its declarator holds.
  body ??= node.namedChild(0)?.childForFieldName('value')?.childForFieldName('body') ?? null;
  // Statements without a node for their braces (Kotlin's `constructor() {`): the body opens at the `{`.
  const open = body?.type === 'statements' && body.previousSibling?.type === '{' ? body.previousSibling : body;
  return open ? open.startPosition.row + 1 : null;
}
