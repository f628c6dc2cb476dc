import path from 'node:path';
import { RefError } from '../../shared/errors.js';
import { lazyRequire } from '../../shared/lazy.js';
import { DEFAULT_PATTERN_BUDGET_MS, PatternBudget, PatternTimeout } from '../regex/pattern-search.js';
import { compileRegex, holdsAny } from '../regex/regex-nfa.js';

const picomatch = lazyRequire<typeof import('picomatch')>('picomatch');

export interface GlobMatcher {
  glob: string;
  /** Texts one of which every name the glob matches holds (but the glob itself), or null. */
  needles: string[] | null;
  test: (s: string) => boolean;
}

/**
 * A glob's matcher, true exactly where picomatch's (`picomatch(glob, options)`) is, in time
 * polynomial in the name whatever the glob (docs/reference.md#limits-and-hostile-input). Plain
 * globs of one `*` a segment run picomatch's regex in V8, which has nothing there to backtrack
 * over; other plain globs are matched segment by segment, and the rest by picomatch's regex run
 * in regex/regex-nfa.ts. `windows` (picomatch's option) defaults, as there, to whether this is Windows.
 */
export function compileGlob(glob: string, options: { dot: boolean; windows?: boolean }): GlobMatcher {
  if (glob.length > MAX_GLOB_CHARS) throw globTooLong(glob);
  const windows = options.windows ?? path.sep === '\\';
  const re = picomatch().makeRe(glob, { dot: options.dot, windows });
  const compiled = re.flags === '' ? compileRegex(re.source) : null;
  const run = compiled ? compiled.test : budgeted(glob, re);
  const plain = windows ? null : segmentGlob(glob, options.dot);
  const needles = compiled?.needles ?? null;
  if (plain?.tame) {
    // One `*` a segment, one `**` and at most 32 brace words leave V8 nothing to backtrack over
    // but one segment at a time (a `*` stops at its `/`): picomatch's regex runs natively.
    return { glob, needles, test: (s) => s !== '' && (s === glob || re.test(s)) };
  }
  const segments = plain?.match;
  // As picomatch.test(): the empty name matches nothing, the glob itself always, and on Windows a
  // name is read with `/` for its backslashes.
  const test = (s: string) => {
    if (s === '') return false;
    if (s === glob) return true;
    if (windows) {
      const name = s.replace(/\\(?![*+?^${}(|)[\]])/g, '/');
      return name === glob || run(name);
    }
    if (segments === undefined) return run(s);
    // Cheaper than splitting the name: most names a walk tests hold none of the texts.
    if (needles !== null && !holdsAny(s, needles)) return false;
    return segments(s) ?? run(s);
  };
  return { glob, needles, test };
}

/**
 * The longest glob compiled (docs/reference.md#limits-and-hostile-input): the longest path Linux
 * takes. No real glob comes near it; picomatch throws past 65,536, and compiling a glob costs
 * time in proportion to its length.
 */
export const MAX_GLOB_CHARS = 4096;

export function globTooLong(glob: string): RefError {
  const shown = `${glob.slice(0, 40)}...`;
  return new RefError('glob_too_long', `Glob too long: ${glob.length} characters (at most ${MAX_GLOB_CHARS}): ${shown}`, shown);
}

// Globs of plain characters, `*`, `?` and `/`, with at most one `**` segment, and braces of plain
// words (`*.{ts,js}`): the globs of walks and .gitignore files. Brackets, extglobs, escapes and
// `./` go to the regex.
const PLAIN_CHAR = String.raw`\w\-. ~#%=:\u0080-\u2027\u202a-\uffff`;
const PLAIN_GLOB = new RegExp(`^[${PLAIN_CHAR}*?/]+$`);
const PLAIN_WORD = new RegExp(`^[${PLAIN_CHAR}]+$`);
const MAX_ALTERNATIVES = 32;
// The names whose matches the segment rules below decide as picomatch does: relative paths of
// non-empty segments, none `.` or `..`, without line breaks (which `.` in picomatch's regex refuses).
const NOT_A_PLAIN_PATH = /^$|[\n\r\u2028\u2029]|^\/|\/$|\/\/|(?:^|\/)\.\.?(?:\/|$)/;
const STAR = 42;
const QMARK = 63;
const DOT = 46;

/**
 * The matcher of a plain glob by segments, each `*` and `?` kept inside one segment and `**`
 * standing for any number of them: true or false for a plain path, undefined for any other name;
 * `tame` when no segment has two `*`.
 * Without `dot`, `**` and a segment opening with `*` or `?` refuse a name segment opening with `.`.
 * Null for the other globs, and for those whose picomatch regex says more: `*.*` and `**\/*.*`
 * want a character after the dot, and `x*\/**` at the end does not match `x`.
 */
export function segmentGlob(glob: string, dot: boolean): { match: (name: string) => boolean | undefined; tame: boolean } | null {
  const alternatives = expandBraces(glob);
  if (alternatives === null) return null;
  const globs: PlainGlob[] = [];
  for (const alternative of alternatives) {
    const plain = plainGlob(alternative, dot);
    if (plain === null) return null;
    globs.push(plain);
  }
  const oneStar = (p: string) => p.indexOf('*') === p.lastIndexOf('*');
  const tame = globs.every((g) => g.head.every(oneStar) && g.tail.every(oneStar));
  const match = (name: string) => {
    if (NOT_A_PLAIN_PATH.test(name)) return undefined;
    for (let k = 0; k < globs.length; k++) if (matchPlain(globs[k]!, name, dot)) return true;
    return false;
  };
  return { match, tame };
}

/**
 * `a{b,c}d` as `abd` and `acd`, for braces of plain words; null for any other brace, and as soon
 * as there would be more than MAX_ALTERNATIVES. Left to right in one loop: a glob of 10,000 braces
 * costs its length, never a stack frame a brace.
 */
function expandBraces(glob: string): string[] | null {
  let out = [''];
  for (let from = 0; ; ) {
    const open = glob.indexOf('{', from);
    const text = glob.slice(from, open < 0 ? glob.length : open);
    if (text.includes('}')) return null;
    if (open < 0) return out.map((o) => o + text);
    const close = glob.indexOf('}', open);
    if (close < 0) return null;
    const words = glob.slice(open + 1, close).split(',');
    // `{a}` is no brace to picomatch, and `{a..c}` a range.
    if (words.length < 2 || out.length * words.length > MAX_ALTERNATIVES) return null;
    if (words.some((w) => !PLAIN_WORD.test(w) || w.includes('..'))) return null;
    out = out.flatMap((o) => words.map((w) => o + text + w));
    from = close + 1;
  }
}

interface PlainGlob {
  /** The segments before `**`, or all of them when `star` is false; then those after it. */
  head: string[];
  tail: string[];
  star: boolean;
  headNoDot: boolean[];
  tailNoDot: boolean[];
}

function plainGlob(glob: string, dot: boolean): PlainGlob | null {
  if (!PLAIN_GLOB.test(glob) || glob === '*.*' || glob === '**/*.*') return null;
  const parts = glob.split('/');
  let star = -1;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    if (part === '' || part === '.' || part === '..') return null;
    if (part === '**') {
      if (star >= 0) return null;
      star = k;
    } else if (part.includes('**')) return null;
  }
  if (star > 0 && star === parts.length - 1 && parts[star - 1]!.endsWith('*')) return null;
  const head = star < 0 ? parts : parts.slice(0, star);
  const tail = star < 0 ? [] : parts.slice(star + 1);
  const noDot = (p: string) => !dot && (p.charCodeAt(0) === STAR || p.charCodeAt(0) === QMARK);
  return { head, tail, star: star >= 0, headNoDot: head.map(noDot), tailNoDot: tail.map(noDot) };
}

/** Whether a plain path matches: the head's segments from the start, the tail's from the end. */
function matchPlain(g: PlainGlob, name: string, dot: boolean): boolean {
  const n = name.length;
  let pos = 0;
  for (let k = 0; k < g.head.length; k++) {
    if (pos > n) return false;
    let end = name.indexOf('/', pos);
    if (end < 0) end = n;
    if (!matchSegment(g.head[k]!, name, pos, end, g.headNoDot[k]!)) return false;
    pos = end + 1;
  }
  if (!g.star) return pos === n + 1;
  let stop = n;
  for (let k = g.tail.length - 1; k >= 0; k--) {
    const begin = stop > 0 ? name.lastIndexOf('/', stop - 1) + 1 : 0;
    if (stop < 0 || begin < pos) return false;
    if (!matchSegment(g.tail[k]!, name, begin, stop, g.tailNoDot[k]!)) return false;
    stop = begin - 1;
  }
  // What `**` covers, name[pos, stop): without `dot`, no segment of it opens with `.`.
  if (dot || pos >= stop) return true;
  if (name.charCodeAt(pos) === DOT) return false;
  const hidden = name.indexOf('/.', pos);
  return hidden < 0 || hidden >= stop;
}

/** `*` and `?` against name[from, to): two pointers, back to the last `*` on a mismatch (O(p × s)). */
function matchSegment(p: string, name: string, from: number, to: number, noDot: boolean): boolean {
  if (noDot && name.charCodeAt(from) === DOT) return false;
  let pi = 0;
  let si = from;
  let starP = -1;
  let starS = 0;
  while (si < to) {
    const pc = pi < p.length ? p.charCodeAt(pi) : -1;
    if (pc === STAR) {
      starP = pi++;
      starS = si;
    } else if (pc === QMARK || pc === name.charCodeAt(si)) {
      pi++;
      si++;
    } else if (starP >= 0) {
      pi = starP + 1;
      si = ++starS;
    } else return false;
  }
  while (pi < p.length && p.charCodeAt(pi) === STAR) pi++;
  return pi === p.length;
}

/**
 * What regex/regex-nfa.ts leaves to V8 (a glob holding `\1`, `(?<=`, `\x41`: regex syntax no ordinary
 * glob has) runs under the CPU budget of user patterns, one budget per glob.
 */
function budgeted(glob: string, re: RegExp): (s: string) => boolean {
  const budget = new PatternBudget();
  return (s) => {
    try {
      return budget.search(re, [s]) === 0;
    } catch (err) {
      if (!(err instanceof PatternTimeout)) throw err;
      const secs = (DEFAULT_PATTERN_BUDGET_MS / 1000).toFixed(1);
      throw new RefError('glob_timeout', `Glob ${glob} timed out after ${secs} s of CPU time`, glob);
    }
  };
}
