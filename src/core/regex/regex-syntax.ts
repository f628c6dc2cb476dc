/**
 * The syntax of the regexes regex-nfa.ts runs (picomatch's, flag-less and non-Unicode), read into a
 * tree, and what can be known of a tree before it runs: its size, the texts every match holds, the
 * fixed sequences a loop-free part matches.
 */

/** Syntax this machine leaves to V8: backreferences, lookbehinds, escapes like `\1` or `\x41`. */
export class Unsupported extends Error {}

export type Node =
  | { t: 'char'; code: number }
  | { t: 'class'; source: string }
  | { t: 'bol' | 'eol' | 'word' | 'nonword' }
  | { t: 'look'; negated: boolean; body: Node; key: string }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'repeat'; body: Node; min: number; max: number };
export type LookNode = Extract<Node, { t: 'look' }>;

// Deeper nesting or longer programs than any glob needs are left to V8 (under its time budget).
const MAX_DEPTH = 200;
const MAX_COUNT = 100;
export const MAX_PROGRAM = 1_000_000;
// A lookahead without loops and with at most this many alternatives is tried directly, sequence by
// sequence: picomatch's own (`(?!\.)`, `(?!(?:^|\/)\.)`) are tested at every position of a name.
const MAX_SEQUENCES = 64;

interface Parser {
  src: string;
  i: number;
}

export function parseAlternatives(p: Parser, depth: number): Node {
  if (depth > MAX_DEPTH) throw new Unsupported();
  const alts = [parseSequence(p, depth)];
  while (p.src[p.i] === '|') {
    p.i++;
    alts.push(parseSequence(p, depth));
  }
  return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
}

function parseSequence(p: Parser, depth: number): Node {
  const items: Node[] = [];
  while (p.i < p.src.length && p.src[p.i] !== '|' && p.src[p.i] !== ')') {
    const { node, quantifiable } = parseAtom(p, depth);
    const q = parseQuantifier(p);
    if (q === null) {
      items.push(node);
      continue;
    }
    // Annex B lets a lookahead be quantified; no glob makes one.
    if (!quantifiable || q.min > MAX_COUNT || (q.max !== Infinity && q.max > MAX_COUNT)) throw new Unsupported();
    items.push({ t: 'repeat', body: node, ...q });
  }
  return items.length === 1 ? items[0]! : { t: 'seq', items };
}

function parseAtom(p: Parser, depth: number): { node: Node; quantifiable: boolean } {
  const { src } = p;
  const c = src[p.i]!;
  switch (c) {
    case '^':
      p.i++;
      return { node: { t: 'bol' }, quantifiable: false };
    case '$':
      p.i++;
      return { node: { t: 'eol' }, quantifiable: false };
    case '.':
      p.i++;
      return { node: { t: 'class', source: '.' }, quantifiable: true };
    case '(': {
      let look: boolean | null = null;
      const open = p.i;
      if (src.startsWith('(?:', p.i)) p.i += 3;
      else if (src.startsWith('(?=', p.i) || src.startsWith('(?!', p.i)) {
        look = src[p.i + 2] === '!';
        p.i += 3;
      } else if (src.startsWith('(?<', p.i) && src[p.i + 3] !== '=' && src[p.i + 3] !== '!') {
        // A named group: only a `\k` backreference (left to V8) could tell it from a plain one.
        const end = src.indexOf('>', p.i);
        if (end < 0) throw new Unsupported();
        p.i = end + 1;
      } else if (src[p.i + 1] === '?') throw new Unsupported();
      else p.i++;
      const body = parseAlternatives(p, depth + 1);
      if (src[p.i] !== ')') throw new Unsupported();
      p.i++;
      if (look === null) return { node: body, quantifiable: true };
      return { node: { t: 'look', negated: look, body, key: src.slice(open + 3, p.i - 1) }, quantifiable: false };
    }
    case '[': {
      let j = p.i + 1;
      if (src[j] === '^') j++;
      // Without the `u` flag a `[` inside a class is a plain character; `[]` matches nothing.
      while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new Unsupported();
      const source = src.slice(p.i, j + 1);
      p.i = j + 1;
      return { node: { t: 'class', source }, quantifiable: true };
    }
    case '\\': {
      const e = src[p.i + 1];
      if (e === undefined) throw new Unsupported();
      p.i += 2;
      if ('dDwWsS'.includes(e)) return { node: { t: 'class', source: `\\${e}` }, quantifiable: true };
      if (e === 'b' || e === 'B') return { node: { t: e === 'b' ? 'word' : 'nonword' }, quantifiable: false };
      const control = CONTROL_ESCAPES[e];
      if (control !== undefined) return { node: { t: 'char', code: control }, quantifiable: true };
      if (/[A-Za-z0-9]/.test(e)) throw new Unsupported();
      return { node: { t: 'char', code: e.charCodeAt(0) }, quantifiable: true };
    }
    default:
      // `{`, `}` and `]` that open no quantifier or class are plain characters (Annex B).
      p.i++;
      return { node: { t: 'char', code: c.charCodeAt(0) }, quantifiable: true };
  }
}

const CONTROL_ESCAPES: Record<string, number> = { f: 12, n: 10, r: 13, t: 9, v: 11 };

function parseQuantifier(p: Parser): { min: number; max: number } | null {
  const c = p.src[p.i];
  let q: { min: number; max: number } | null = null;
  if (c === '*') q = { min: 0, max: Infinity };
  else if (c === '+') q = { min: 1, max: Infinity };
  else if (c === '?') q = { min: 0, max: 1 };
  if (q !== null) p.i++;
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(p.src.slice(p.i, p.i + 24));
    if (m === null) return null;
    const min = Number(m[1]);
    q = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
    p.i += m[0].length;
  } else return null;
  // Lazy or greedy decides which match is found, never whether one is.
  if (p.src[p.i] === '?') p.i++;
  return q;
}

const MAX_NEEDLES = 16;

/** Texts one of which every match contains (`.ts` for `**\/*.ts`), or null when none is known. */
export function requiredText(node: Node): string[] | null {
  switch (node.t) {
    case 'char':
      return [String.fromCharCode(node.code)];
    case 'alt': {
      const all: string[] = [];
      for (const alt of node.alts) {
        const texts = requiredText(alt);
        if (texts === null) return null;
        all.push(...texts);
      }
      return all.length <= MAX_NEEDLES ? [...new Set(all)] : null;
    }
    case 'repeat':
      return node.min > 0 ? requiredText(node.body) : null;
    case 'seq': {
      // Characters in a row (assertions between them read nothing), or one group's texts.
      let best: string[] | null = null;
      const better = (texts: string[] | null) => {
        if (texts === null) return;
        const shortest = (t: string[]) => Math.min(...t.map((x) => x.length));
        if (best === null || shortest(texts) > shortest(best) || (shortest(texts) === shortest(best) && texts.length < best.length)) best = texts;
      };
      let run = '';
      for (const item of node.items) {
        if (item.t === 'char') run += String.fromCharCode(item.code);
        else if (item.t === 'bol' || item.t === 'eol' || item.t === 'word' || item.t === 'nonword' || item.t === 'look') continue;
        else {
          if (run !== '') better([run]);
          run = '';
          better(requiredText(item));
        }
      }
      if (run !== '') better([run]);
      return best;
    }
    default:
      return null;
  }
}

/** At least the states of the programs the node compiles to, but their final match state. */
export function programSize(node: Node): number {
  switch (node.t) {
    case 'seq':
      return node.items.reduce((n, item) => n + programSize(item), 0);
    case 'alt':
      return node.alts.reduce((n, alt) => n + programSize(alt) + 2, 0);
    case 'repeat': {
      const body = programSize(node.body) + 2;
      return node.min * body + (node.max === Infinity ? body : (node.max - node.min) * body);
    }
    case 'look':
      return programSize(node.body) + 2;
    default:
      return 1;
  }
}

export function startsAnchored(node: Node): boolean {
  if (node.t === 'bol') return true;
  if (node.t === 'seq') return node.items.length > 0 && startsAnchored(node.items[0]!);
  if (node.t === 'alt') return node.alts.every(startsAnchored);
  return false;
}

/** The fixed sequences a loop-free node matches one of, or null (a loop, or too many). */
export function fixedSequences(node: Node): Node[][] | null {
  switch (node.t) {
    case 'seq': {
      let out: Node[][] = [[]];
      for (const item of node.items) {
        const tails = fixedSequences(item);
        if (tails === null || out.length * tails.length > MAX_SEQUENCES) return null;
        out = out.flatMap((head) => tails.map((tail) => [...head, ...tail]));
      }
      return out;
    }
    case 'alt': {
      const out: Node[][] = [];
      for (const alt of node.alts) {
        const seqs = fixedSequences(alt);
        if (seqs === null || out.length + seqs.length > MAX_SEQUENCES) return null;
        out.push(...seqs);
      }
      return out;
    }
    case 'repeat': {
      if (node.max === Infinity) return null;
      const alts: Node[] = [];
      for (let k = node.min; k <= node.max; k++) alts.push({ t: 'seq', items: new Array<Node>(k).fill(node.body) });
      return fixedSequences({ t: 'alt', alts });
    }
    default:
      return [[node]];
  }
}
