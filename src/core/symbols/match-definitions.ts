import type { Node } from 'web-tree-sitter';
import type { ChildPattern, DefinitionPattern, DefinitionPatterns, Pattern, Predicate } from './definition-patterns.js';

/**
 * Matching the definitions patterns (definition-patterns.ts) with tree-sitter's query semantics:
 * a pattern's children match the node's children in order, others may come between, and every
 * way of matching is a match of its own (`let a, b` matches twice). The nodes a pattern can start
 * at are found in one walk inside tree-sitter (descendantsOfType); only those are read from here.
 */

export interface Capture {
  name: string;
  node: Node;
}

export interface DefinitionMatch {
  patternIndex: number;
  captures: Capture[];
}

/** Every match of the patterns in the tree under `root`, by start node in file order, then pattern. */
export function matchDefinitions(root: Node, definitions: DefinitionPatterns): DefinitionMatch[] {
  const byType = new Map<string, DefinitionPattern[]>();
  for (const p of definitions.patterns) {
    const list = byType.get(p.root.type) ?? [];
    list.push(p);
    byType.set(p.root.type, list);
  }
  const reader = new NodeReader(definitions);
  const starts = root.descendantsOfType(definitions.rootTypes).filter((n): n is Node => n !== null);
  // The walk may or may not include `root` itself; a file-level pattern starts there.
  if (byType.has(root.type) && !starts.some((n) => n.id === root.id)) starts.unshift(root);
  const out: DefinitionMatch[] = [];
  for (const node of starts) {
    // descendantsOfType goes by name, and a keyword can share a node type's name (Ruby's `class`).
    if (!reader.named(node)) continue;
    // What is read of one start node is not asked again for another: let it go young.
    reader.forget();
    for (const p of byType.get(reader.type(node)) ?? []) {
      for (const captures of matchPattern(p.root, node, reader)) {
        if (p.predicates.every((pr) => holds(pr, captures))) out.push({ patternIndex: p.index, captures });
      }
    }
  }
  return out;
}

/**
 * Node facts, each asked of tree-sitter once per node: every question is a call into WebAssembly
 * (the node copied in, the answer copied out), which is most of what matching costs.
 */
class NodeReader {
  // By node id: unique within a tree, and cheaper to look up than the Node objects.
  private typeIds = new Map<number, number>();
  private fields = new Map<number, Map<string, Node[]>>();
  private positions = new Map<number, Map<number, number>>();

  constructor(private readonly definitions: DefinitionPatterns) {}

  forget(): void {
    if (this.typeIds.size > 64) this.typeIds.clear();
    this.fields.clear();
    this.positions.clear();
  }

  private typeId(node: Node): number {
    let id = this.typeIds.get(node.id);
    if (id === undefined) {
      id = node.typeId;
      this.typeIds.set(node.id, id);
    }
    return id;
  }

  type(node: Node): string {
    return this.definitions.typeNames[this.typeId(node)] || 'ERROR';
  }

  /** Named-ness follows the (aliased) type; ERROR, beyond the table, is named. */
  named(node: Node): boolean {
    return this.definitions.namedTypes[this.typeId(node)] ?? true;
  }

  /** The children of `parent` in `field`, in order. */
  inField(parent: Node, field: string): Node[] {
    let byField = this.fields.get(parent.id);
    if (!byField) {
      byField = new Map();
      this.fields.set(parent.id, byField);
    }
    let nodes = byField.get(field);
    if (!nodes) {
      nodes = parent.childrenForFieldId(this.definitions.fieldIds.get(field)!).filter((c): c is Node => c !== null);
      byField.set(field, nodes);
    }
    return nodes;
  }

  /** The position of each child of `parent` among all its children, by node id. */
  childPositions(parent: Node): Map<number, number> {
    let positions = this.positions.get(parent.id);
    if (!positions) {
      positions = new Map(parent.children.map((c, i) => [c?.id ?? -1, i]));
      this.positions.set(parent.id, positions);
    }
    return positions;
  }
}

function matchPattern(p: Pattern, node: Node, reader: NodeReader): Capture[][] {
  let found: Capture[][];
  if (p.form === 'alternatives') {
    found = p.options.flatMap((o) => matchPattern(o, node, reader));
  } else if (p.form === 'token') {
    if (p.text !== null && (reader.named(node) || reader.type(node) !== p.text)) return [];
    found = [[]];
  } else {
    if (!reader.named(node) || (p.type !== null && reader.type(node) !== p.type)) return [];
    found = p.children.length === 0 ? [[]] : matchChildren(node, p.children, reader);
  }
  if (p.captures.length === 0 || found.length === 0) return found;
  const own = p.captures.map((name) => ({ name, node }));
  return found.map((c) => [...own, ...c]);
}

/** Every way the child patterns match a subsequence of the node's children, in order. */
function matchChildren(node: Node, patterns: ChildPattern[], reader: NodeReader): Capture[][] {
  const only = patterns.length === 1 ? patterns[0]! : null;
  // One child pattern in a field (`name: (identifier)`, the usual case): no order to keep.
  if (only?.field != null) return reader.inField(node, only.field).flatMap((c) => matchPattern(only.pattern, c, reader));
  const children = node.children.filter((c): c is Node => c !== null);
  const out: Capture[][] = [];
  const walk = (i: number, from: number, acc: Capture[]): void => {
    if (i === patterns.length) {
      out.push(acc);
      return;
    }
    const { field, pattern } = patterns[i]!;
    if (field !== null) {
      const positions = reader.childPositions(node);
      for (const child of reader.inField(node, field)) {
        const k = positions.get(child.id) ?? -1;
        if (k < from) continue;
        for (const c of matchPattern(pattern, child, reader)) walk(i + 1, k + 1, [...acc, ...c]);
      }
      return;
    }
    for (let k = from; k < children.length; k++) {
      for (const c of matchPattern(pattern, children[k]!, reader)) walk(i + 1, k + 1, [...acc, ...c]);
    }
  };
  walk(0, 0, []);
  return out;
}

function holds(p: Predicate, captures: Capture[]): boolean {
  const texts = (name: string) => captures.filter((c) => c.name === name).map((c) => c.node.text);
  const left = texts(p.capture);
  const right = typeof p.value === 'string' ? [p.value] : texts(p.value.capture);
  // As tree-sitter: every node of the capture compares, against any of the other side.
  return left.every((l) => right.some((r) => (l === r) !== p.negated));
}
