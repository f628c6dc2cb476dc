/**
 * The regular expressions picomatch makes from globs, run without backtracking
 * (docs/reference.md#limits-and-hostile-input): V8 backtracks exponentially on `*a*a*a*a*ab*`
 * against a long run of `a`, while this simulation (Thompson's NFA, each state once per position)
 * takes time linear in the name for each state of the pattern. Lookaheads are run as machines of
 * their own, each at most once per position of a name, so no pattern costs more than
 * O(name² × pattern). Only the flag-less, non-Unicode syntax is read, and what V8 itself decides
 * (character classes, `\d`, `.`) is asked of V8 one character at a time.
 */

/** Syntax this machine leaves to V8: backreferences, lookbehinds, escapes like `\1` or `\x41`. */
class Unsupported extends Error {}

type Node =
  | { t: 'char'; code: number }
  | { t: 'class'; source: string }
  | { t: 'bol' | 'eol' | 'word' | 'nonword' }
  | { t: 'look'; negated: boolean; body: Node; key: string }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'repeat'; body: Node; min: number; max: number };
type LookNode = Extract<Node, { t: 'look' }>;

// Deeper nesting or longer programs than any glob needs are left to V8 (under its time budget).
const MAX_DEPTH = 200;
const MAX_COUNT = 100;
const MAX_PROGRAM = 1_000_000;

export interface CompiledRegex {
  /** Equivalent to `new RegExp(source).test(s)`. */
  test: (s: string) => boolean;
  /** Texts one of which every string the regex matches holds, or null when none is known. */
  needles: string[] | null;
}

/**
 * The regex, run without backtracking, or null when its source holds syntax this machine does
 * not run (see Unsupported).
 */
export function compileRegex(source: string): CompiledRegex | null {
  try {
    const parser = { src: source, i: 0 };
    const tree = parseAlternatives(parser, 0);
    if (parser.i !== source.length || programSize(tree) >= MAX_PROGRAM) return null;
    // Built on the first name it has to decide: the segment matcher of glob-match.ts decides most.
    let machine: Machine | undefined;
    const run = (s: string) => (machine ??= new Machine(tree)).test(s);
    const needles = requiredText(tree);
    // Most names a walk tests match no rule: a text every match holds turns them away at once.
    const test = needles === null ? run : (s: string) => holdsAny(s, needles) && run(s);
    return { test, needles };
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

/** Whether `s` holds one of `texts` (a loop: no function made per name tested). */
export function holdsAny(s: string, texts: readonly string[]): boolean {
  for (let k = 0; k < texts.length; k++) if (s.includes(texts[k]!)) return true;
  return false;
}

interface Parser {
  src: string;
  i: number;
}

function parseAlternatives(p: Parser, depth: number): Node {
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
function requiredText(node: Node): string[] | null {
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
function programSize(node: Node): number {
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

function startsAnchored(node: Node): boolean {
  if (node.t === 'bol') return true;
  if (node.t === 'seq') return node.items.length > 0 && startsAnchored(node.items[0]!);
  if (node.t === 'alt') return node.alts.every(startsAnchored);
  return false;
}

const CHAR = 0;
const CLASS = 1;
const SPLIT = 2;
const JMP = 3;
const BOL = 4;
const EOL = 5;
const WORD = 6;
const NONWORD = 7;
const LOOK = 8;
const NOT_LOOK = 9;
const MATCH = 10;

// A lookahead without loops and with at most this many alternatives is tried directly, sequence by
// sequence: picomatch's own (`(?!\.)`, `(?!(?:^|\/)\.)`) are tested at every position of a name.
const MAX_SEQUENCES = 64;
// Past these, a program stops caching its sets of states and runs state by state (still linear).
const MAX_DFA_STATES = 2000;
const MAX_SET = 200;
// Characters past ASCII remembered per set of states and per class.
const MAX_OTHER = 1024;
const MAX_CONDITIONS = 30;

interface Program {
  op: Uint8Array;
  a: Int32Array;
  b: Int32Array;
  classes: ((c: number) => boolean)[];
  /** A search may start at any position (no leading `^`). */
  unanchored: boolean;
  /** The states already added for the position being filled: those stamped `stamp`. */
  marks: Uint32Array;
  stamp: number;
  stack: Int32Array;
  now: Int32Array;
  next: Int32Array;
  /** The cache of sets of states (a lazily built DFA), while it stays small. */
  dfa: boolean;
  initial: Pending;
  sets: Map<string, StateSet>;
  pendings: Map<string, Pending>;
}

/** The reading states one position holds, and where each character leads from them. */
interface StateSet {
  pcs: Int32Array;
  matched: boolean;
  dead: boolean;
  ascii: (Pending | undefined)[];
  other: Map<number, Pending>;
}

/**
 * The states a character leads to, before the assertions of the next position are known: the
 * set they close to depends only on which of `conditions` hold there (a bit mask). A condition is
 * an assertion (`op << 24 | arg`) met on the way, once however many states meet it.
 */
interface Pending {
  starts: number[];
  conditions: number[];
  /** The bit of each assertion's condition, by the assertion's state. */
  bits: Map<number, number>;
  closed: (StateSet | undefined)[] | Map<number, StateSet>;
}

/**
 * A lookahead spelled out as fixed sequences (see fixedSequences()), flat: step k is `kinds[k]`
 * with `args[k]`, and sequence q ends before step `ends[q]`.
 */
interface FixedLook {
  kinds: Uint8Array;
  args: Int32Array;
  ends: Int32Array;
  classes: ((c: number) => boolean)[];
}
const F_CHAR = 0;
const F_CLASS = 1;
const F_ASSERT = 2;
const F_LOOK = 3;
const F_NOT_LOOK = 4;

/** The matcher of one regex: its programs, and the name being tested. */
class Machine {
  private s = '';
  private n = 0;
  /** Counts the names tested: a lookahead's remembered answers belong to one name. */
  private generation = 0;
  private readonly looks: ((i: number) => boolean)[] = [];
  private readonly lookIds = new Map<string, number>();
  private readonly main: Program;
  private size = 0;

  constructor(tree: Node) {
    this.main = this.program(tree, !startsAnchored(tree));
  }

  test(s: string): boolean {
    this.s = s;
    this.n = s.length;
    this.generation++;
    return this.search(this.main, 0);
  }

  private program(node: Node, unanchored: boolean): Program {
    const program = new ProgramBuilder((look) => this.addLook(look)).finish(node, unanchored);
    this.size += program.op.length;
    if (this.size > MAX_PROGRAM) throw new Unsupported();
    return program;
  }

  /** The id of a lookahead's test of its body at a position; the same body has one id. */
  private addLook({ body, key }: LookNode): number {
    const known = this.lookIds.get(key);
    if (known !== undefined) return known;
    const fixed = fixedSequences(body);
    let look: (i: number) => boolean;
    if (fixed !== null) {
      const steps = this.fixedLook(fixed);
      look = (i) => this.tryFixed(steps, i);
    } else {
      const program = this.program(body, false);
      let stamps = new Float64Array(0);
      let answers = new Uint8Array(0);
      // Each position is tried once per name: lookaheads with loops (`!(...)` extglobs) stay polynomial.
      look = (i) => {
        if (stamps.length <= this.n) {
          stamps = new Float64Array(this.n + 1);
          answers = new Uint8Array(this.n + 1);
        }
        if (stamps[i] !== this.generation) {
          answers[i] = this.search(program, i) ? 1 : 0;
          stamps[i] = this.generation;
        }
        return answers[i] === 1;
      };
    }
    const id = this.looks.push(look) - 1;
    this.lookIds.set(key, id);
    return id;
  }

  private fixedLook(sequences: Node[][]): FixedLook {
    const kinds: number[] = [];
    const args: number[] = [];
    const ends: number[] = [];
    const classes: ((c: number) => boolean)[] = [];
    for (const seq of sequences) {
      for (const node of seq) {
        let kind: number;
        let arg = 0;
        if (node.t === 'char') [kind, arg] = [F_CHAR, node.code];
        else if (node.t === 'class') [kind, arg] = [F_CLASS, classes.push(classTest(node.source)) - 1];
        else if (node.t === 'look') {
          [kind, arg] = [node.negated ? F_NOT_LOOK : F_LOOK, this.addLook(node)];
        } else if (node.t === 'bol' || node.t === 'eol' || node.t === 'word' || node.t === 'nonword') {
          [kind, arg] = [F_ASSERT, { bol: BOL, eol: EOL, word: WORD, nonword: NONWORD }[node.t]];
        } else throw new Error(`not a step: ${node.t}`);
        kinds.push(kind);
        args.push(arg);
      }
      ends.push(kinds.length);
    }
    return { kinds: Uint8Array.from(kinds), args: Int32Array.from(args), ends: Int32Array.from(ends), classes };
  }

  private tryFixed(look: FixedLook, i: number): boolean {
    const { s, n } = this;
    const { kinds, args, ends, classes } = look;
    let k = 0;
    for (let q = 0; q < ends.length; q++) {
      const end = ends[q]!;
      let j = i;
      for (; k < end; k++) {
        const arg = args[k]!;
        const kind = kinds[k]!;
        if (kind === F_CHAR) {
          if (j < n && s.charCodeAt(j) === arg) j++;
          else break;
        } else if (kind === F_CLASS) {
          if (j < n && classes[arg]!(s.charCodeAt(j))) j++;
          else break;
        } else if (kind === F_ASSERT ? !this.holds(arg, 0, j) : this.looks[arg]!(j) !== (kind === F_LOOK)) break;
      }
      if (k === end) return true;
      k = end;
    }
    return false;
  }

  /** Whether `p` matches from `start` (or, when unanchored, from any later position). */
  private search(p: Program, start: number): boolean {
    if (!p.dfa) return this.searchStates(p, start);
    const { s, n } = this;
    let set = this.resolve(p, p.initial, start);
    for (let i = start; set !== null; i++) {
      if (set.matched) return true;
      if (i === n || set.dead) return false;
      const c = s.charCodeAt(i);
      let pending = c < 128 ? set.ascii[c] : set.other.get(c);
      if (pending === undefined) {
        pending = this.pendingAfter(p, set, c);
        if (c < 128) set.ascii[c] = pending;
        // A name of many scripts must not grow the cache without bound.
        else if (set.other.size < MAX_OTHER) set.other.set(c, pending);
      }
      set = this.resolve(p, pending, i + 1);
    }
    // The cache outgrew its bound during this search: run it again, state by state.
    return this.searchStates(p, start);
  }

  /** The set `pending` closes to at position `i`, or null when the cache is given up. */
  private resolve(p: Program, pending: Pending, i: number): StateSet | null {
    let mask = 0;
    const { conditions } = pending;
    for (let k = 0; k < conditions.length; k++) {
      const c = conditions[k]!;
      if (this.holds(c >>> 24, c & 0xffffff, i)) mask |= 1 << k;
    }
    const { closed } = pending;
    const known = Array.isArray(closed) ? closed[mask] : closed.get(mask);
    if (known !== undefined) return known;
    if (!p.dfa) return null;
    nextStamp(p);
    const list = p.now;
    let count = 0;
    let matched = false;
    for (const pc of pending.starts) {
      count = this.close(p, pc, i, list, count, pending, mask);
      if (count < 0) {
        matched = true;
        break;
      }
    }
    // Sets this large cost more to name than to step through: the program stops caching them.
    if (count > MAX_SET) {
      p.dfa = false;
      return null;
    }
    const pcs = matched ? new Int32Array(0) : list.slice(0, count).sort();
    const key = matched ? 'match' : pcs.join(',');
    let set = p.sets.get(key);
    if (set === undefined) {
      if (p.sets.size >= MAX_DFA_STATES) {
        p.dfa = false;
        return null;
      }
      set = { pcs, matched, dead: pcs.length === 0 && !p.unanchored, ascii: new Array<Pending | undefined>(128), other: new Map() };
      p.sets.set(key, set);
    }
    if (Array.isArray(closed)) closed[mask] = set;
    else closed.set(mask, set);
    return set;
  }

  private pendingAfter(p: Program, set: StateSet, c: number): Pending {
    const starts: number[] = [];
    for (const pc of set.pcs) if (p.op[pc] === CHAR ? p.a[pc] === c : p.classes[p.a[pc]!]!(c)) starts.push(pc + 1);
    if (p.unanchored) starts.push(0);
    const key = starts.join(',');
    let pending = p.pendings.get(key);
    if (pending === undefined) {
      pending = newPending(p, starts);
      if (pending.conditions.length > MAX_CONDITIONS || p.pendings.size >= MAX_DFA_STATES) p.dfa = false;
      else p.pendings.set(key, pending);
    }
    return pending;
  }

  /** The search without the cache: every state stepped at every position (Thompson's NFA). */
  private searchStates(p: Program, start: number): boolean {
    const { s, n } = this;
    const { op, a, classes } = p;
    let now = p.now;
    let next = p.next;
    nextStamp(p);
    let count = this.close(p, 0, start, now, 0);
    if (count < 0) return true;
    for (let i = start; i < n; i++) {
      if (count === 0 && !p.unanchored) return false;
      const c = s.charCodeAt(i);
      nextStamp(p);
      let added = 0;
      for (let k = 0; k < count; k++) {
        const pc = now[k]!;
        if (op[pc] === CHAR ? a[pc] === c : classes[a[pc]!]!(c)) {
          added = this.close(p, pc + 1, i + 1, next, added);
          if (added < 0) return true;
        }
      }
      if (p.unanchored) {
        added = this.close(p, 0, i + 1, next, added);
        if (added < 0) return true;
      }
      const t = now;
      now = next;
      next = t;
      count = added;
    }
    return false;
  }

  /**
   * Adds to `list` (holding `count` states) the reading states reachable from `pc` at position `i`
   * without reading; returns the new count, or -1 when the match state is reachable. With
   * `pending`, its assertions are decided by the bits of `mask` instead of tested.
   */
  private close(p: Program, pc: number, i: number, list: Int32Array, count: number, pending?: Pending, mask = 0): number {
    const { op, a, b, marks, stack, stamp } = p;
    if (marks[pc] === stamp) return count;
    marks[pc] = stamp;
    let sp = 0;
    stack[sp++] = pc;
    while (sp > 0) {
      const at = stack[--sp]!;
      const o = op[at]!;
      let to: number;
      if (o <= CLASS) {
        list[count++] = at;
        continue;
      } else if (o === MATCH) return -1;
      else if (o === JMP) to = a[at]!;
      else if (o === SPLIT) {
        const alt = b[at]!;
        if (marks[alt] !== stamp) {
          marks[alt] = stamp;
          stack[sp++] = alt;
        }
        to = a[at]!;
      } else if (pending ? (mask & (1 << pending.bits.get(at)!)) !== 0 : this.holds(o, a[at]!, i)) to = at + 1;
      else continue;
      if (marks[to] !== stamp) {
        marks[to] = stamp;
        stack[sp++] = to;
      }
    }
    return count;
  }

  private holds(o: number, arg: number, i: number): boolean {
    switch (o) {
      case BOL:
        return i === 0;
      case EOL:
        return i === this.n;
      case WORD:
      case NONWORD: {
        const before = i > 0 && isWordUnit(this.s.charCodeAt(i - 1));
        const after = i < this.n && isWordUnit(this.s.charCodeAt(i));
        return (before !== after) === (o === WORD);
      }
      case LOOK:
        return this.looks[arg]!(i);
      default:
        return !this.looks[arg]!(i);
    }
  }
}

/** The states `starts` may reach without reading, with the assertions met on the way. */
function newPending(p: Program, starts: number[]): Pending {
  const conditions: number[] = [];
  const bits = new Map<number, number>();
  const { op, a, b, marks, stack } = p;
  nextStamp(p);
  const stamp = p.stamp;
  let sp = 0;
  const visit = (pc: number) => {
    if (marks[pc] !== stamp) {
      marks[pc] = stamp;
      stack[sp++] = pc;
    }
  };
  for (const pc of starts) visit(pc);
  while (sp > 0) {
    const at = stack[--sp]!;
    const o = op[at]!;
    if (o === JMP) visit(a[at]!);
    else if (o === SPLIT) {
      visit(a[at]!);
      visit(b[at]!);
    } else if (o >= BOL && o <= NOT_LOOK) {
      const condition = (o << 24) | a[at]!;
      let bit = conditions.indexOf(condition);
      // Past the bound the program gives up its cache (pendingAfter()): no need to look further.
      if (bit < 0 && (bit = conditions.push(condition) - 1) > MAX_CONDITIONS) break;
      bits.set(at, bit);
      visit(at + 1);
    }
  }
  return { starts, conditions, bits, closed: conditions.length <= 8 ? [] : new Map() };
}

function nextStamp(p: Program): void {
  if (++p.stamp === 0xffffffff) {
    p.marks.fill(0);
    p.stamp = 1;
  }
}

/** The fixed sequences a loop-free node matches one of, or null (a loop, or too many). */
function fixedSequences(node: Node): Node[][] | null {
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

class ProgramBuilder {
  private op: number[] = [];
  private a: number[] = [];
  private b: number[] = [];
  private classes: ((c: number) => boolean)[] = [];
  private classIndex = new Map<string, number>();

  constructor(private readonly addLook: (look: LookNode) => number) {}

  finish(node: Node, unanchored: boolean): Program {
    this.emit(node);
    this.push(MATCH);
    const n = this.op.length;
    const program: Program = {
      op: Uint8Array.from(this.op),
      a: Int32Array.from(this.a),
      b: Int32Array.from(this.b),
      classes: this.classes,
      unanchored,
      marks: new Uint32Array(n),
      stamp: 0,
      stack: new Int32Array(n),
      now: new Int32Array(n),
      next: new Int32Array(n),
      dfa: true,
      initial: { starts: [0], conditions: [], bits: new Map(), closed: [] },
      sets: new Map(),
      pendings: new Map(),
    };
    program.initial = newPending(program, [0]);
    if (program.initial.conditions.length > MAX_CONDITIONS) program.dfa = false;
    return program;
  }

  private push(op: number, a = 0, b = 0): number {
    if (this.op.length >= MAX_PROGRAM) throw new Unsupported();
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  private emit(node: Node): void {
    switch (node.t) {
      case 'char':
        this.push(CHAR, node.code);
        return;
      case 'class': {
        let index = this.classIndex.get(node.source);
        if (index === undefined) {
          index = this.classes.push(classTest(node.source)) - 1;
          this.classIndex.set(node.source, index);
        }
        this.push(CLASS, index);
        return;
      }
      case 'bol':
        this.push(BOL);
        return;
      case 'eol':
        this.push(EOL);
        return;
      case 'word':
        this.push(WORD);
        return;
      case 'nonword':
        this.push(NONWORD);
        return;
      case 'look':
        this.push(node.negated ? NOT_LOOK : LOOK, this.addLook(node));
        return;
      case 'seq':
        for (const item of node.items) this.emit(item);
        return;
      case 'alt': {
        const jumps: number[] = [];
        for (let k = 0; k < node.alts.length - 1; k++) {
          const split = this.push(SPLIT, this.op.length + 1);
          this.emit(node.alts[k]!);
          jumps.push(this.push(JMP));
          this.b[split] = this.op.length;
        }
        this.emit(node.alts[node.alts.length - 1]!);
        for (const j of jumps) this.a[j] = this.op.length;
        return;
      }
      case 'repeat': {
        for (let k = 0; k < node.min; k++) this.emit(node.body);
        if (node.max === Infinity) {
          const split = this.push(SPLIT, this.op.length + 1);
          this.emit(node.body);
          this.push(JMP, split);
          this.b[split] = this.op.length;
          return;
        }
        const splits: number[] = [];
        for (let k = node.min; k < node.max; k++) {
          splits.push(this.push(SPLIT, this.op.length + 1));
          this.emit(node.body);
        }
        for (const s of splits) this.b[s] = this.op.length;
        return;
      }
    }
  }
}

const classTests = new Map<string, (c: number) => boolean>();

/** Whether one UTF-16 unit is in a class (`[^/]`, `.`, `\d`), as V8 decides it, remembered per unit. */
function classTest(source: string): (c: number) => boolean {
  let test = classTests.get(source);
  if (test) return test;
  const re = new RegExp(`^${source}$`);
  const ascii = new Uint8Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  const other = new Map<number, boolean>();
  test = (c) => {
    if (c < 128) return ascii[c] === 1;
    let hit = other.get(c);
    if (hit === undefined) {
      hit = re.test(String.fromCharCode(c));
      if (other.size < MAX_OTHER) other.set(c, hit);
    }
    return hit;
  };
  if (classTests.size < 1000) classTests.set(source, test);
  return test;
}

const isWordUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
