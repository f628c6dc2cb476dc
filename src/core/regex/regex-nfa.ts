import {
  BOL,
  CHAR,
  CLASS,
  classTest,
  EOL,
  F_ASSERT,
  F_CHAR,
  F_CLASS,
  F_LOOK,
  F_NOT_LOOK,
  type FixedLook,
  isWordUnit,
  JMP,
  LOOK,
  MATCH,
  MAX_CONDITIONS,
  MAX_DFA_STATES,
  MAX_OTHER,
  MAX_SET,
  newPending,
  nextStamp,
  NONWORD,
  type Pending,
  type Program,
  ProgramBuilder,
  SPLIT,
  type StateSet,
  WORD,
} from './regex-program.js';
import { fixedSequences, type LookNode, MAX_PROGRAM, type Node, parseAlternatives, programSize, requiredText, startsAnchored, Unsupported } from './regex-syntax.js';

/**
 * The regular expressions picomatch makes from globs, run without backtracking
 * (docs/reference.md#limits-and-hostile-input): V8 backtracks exponentially on `*a*a*a*a*ab*`
 * against a long run of `a`, while this simulation (Thompson's NFA, each state once per position)
 * takes time linear in the name for each state of the pattern. Lookaheads are run as machines of
 * their own, each at most once per position of a name, so no pattern costs more than
 * O(name² × pattern). Only the flag-less, non-Unicode syntax is read, and what V8 itself decides
 * (character classes, `\d`, `.`) is asked of V8 one character at a time.
 */

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

