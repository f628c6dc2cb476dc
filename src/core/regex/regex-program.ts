import { type LookNode, MAX_PROGRAM, type Node, Unsupported } from './regex-syntax.js';

/**
 * The programs the NFA of regex-nfa.ts runs: a regex's tree compiled to instructions (a Thompson
 * program: reading, splitting, jumping, asserting), and the sets of states a run passes through.
 */

export const CHAR = 0;
export const CLASS = 1;
export const SPLIT = 2;
export const JMP = 3;
export const BOL = 4;
export const EOL = 5;
export const WORD = 6;
export const NONWORD = 7;
export const LOOK = 8;
export const NOT_LOOK = 9;
export const MATCH = 10;

// Past these, a program stops caching its sets of states and runs state by state (still linear).
export const MAX_DFA_STATES = 2000;
export const MAX_SET = 200;
// Characters past ASCII remembered per set of states and per class.
export const MAX_OTHER = 1024;
export const MAX_CONDITIONS = 30;

export interface Program {
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
export interface StateSet {
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
export interface Pending {
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
export interface FixedLook {
  kinds: Uint8Array;
  args: Int32Array;
  ends: Int32Array;
  classes: ((c: number) => boolean)[];
}
export const F_CHAR = 0;
export const F_CLASS = 1;
export const F_ASSERT = 2;
export const F_LOOK = 3;
export const F_NOT_LOOK = 4;

/** The instruction of each assertion a regex may hold. */
const ASSERTIONS = { bol: BOL, eol: EOL, word: WORD, nonword: NONWORD } as const;

export class ProgramBuilder {
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

  /** The index of a class's test, one per class source. */
  private classOf(source: string): number {
    let index = this.classIndex.get(source);
    if (index === undefined) {
      index = this.classes.push(classTest(source)) - 1;
      this.classIndex.set(source, index);
    }
    return index;
  }

  private emit(node: Node): void {
    switch (node.t) {
      case 'char':
        this.push(CHAR, node.code);
        return;
      case 'class':
        this.push(CLASS, this.classOf(node.source));
        return;
      case 'bol':
      case 'eol':
      case 'word':
      case 'nonword':
        this.push(ASSERTIONS[node.t]);
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
export function classTest(source: string): (c: number) => boolean {
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

export const isWordUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** The states `starts` may reach without reading, with the assertions met on the way. */
export function newPending(p: Program, starts: number[]): Pending {
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

export function nextStamp(p: Program): void {
  if (++p.stamp === 0xffffffff) {
    p.marks.fill(0);
    p.stamp = 1;
  }
}
