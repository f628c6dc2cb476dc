import type { Node } from 'web-tree-sitter';

/**
 * The nodes of a parse tree that a declaration named by a symbol ref can be matched at
 * (docs/design/symbols.md#a-symbol-ref-reads-its-own-names). A declaration's name is text of the
 * file, and the node a definitions pattern matches holds every node it captures: so the
 * declarations a ref `#Store.save` can resolve to, and every declaration they are in, are matched
 * at ancestors of a place where `Store` or `save` is written. Those are found from the text alone
 * and a climb up the tree from each place, instead of reading every node of the tree.
 */

/** More places than this, and the tree is read whole: the climbs would cost what the walk does. */
const MAX_PLACES = 2000;

export interface Place {
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}_$]/u;

/**
 * Where each of `names` is written in `text` as a whole token (a name that starts or ends with a
 * letter, digit, `_` or `$` is not part of a longer word there), in UTF-16 offsets as the tree's
 * indices are in JavaScript; null when there are more than MAX_PLACES.
 */
export function namePlaces(text: string, names: readonly string[]): Place[] | null {
  const places: Place[] = [];
  for (const name of new Set(names)) {
    if (name.length === 0) continue;
    const wordStart = WORD.test(name[0]!);
    const wordEnd = WORD.test(name[name.length - 1]!);
    for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
      const end = at + name.length;
      if (wordStart && at > 0 && WORD.test(text[at - 1]!)) continue;
      if (wordEnd && end < text.length && WORD.test(text[end]!)) continue;
      if (places.length === MAX_PLACES) return null;
      places.push({ start: at, end });
    }
  }
  return places;
}

/** The smallest node over each place and all its ancestors up to `root`, each node once. */
export function nodesOver(root: Node, places: readonly Place[]): Node[] {
  const ids = new Set<number>();
  const nodes: Node[] = [];
  for (const place of places) {
    for (let node: Node | null = root.descendantForIndex(place.start, place.end); node !== null; node = node.parent) {
      if (ids.has(node.id)) break;
      ids.add(node.id);
      nodes.push(node);
    }
  }
  return nodes;
}
