import { RefParseError } from '../../shared/errors.js';
import { CONTROL_CHARS } from '../../shared/visible.js';
import { compilePattern } from './pattern-syntax.js';
import { revisionProblem } from './revision-syntax.js';
import type { PatternExtent, RefSpec, Selector, Window } from './ref-spec.js';

const ALIAS_RE = /^([A-Za-z][A-Za-z0-9_-]*):(.*)$/s;
/** `alias@rev:` or `.@rev:` (docs/refs.md#refs-at-a-version): the revision up to the first `:`. */
const VERSIONED_RE = /^([A-Za-z][A-Za-z0-9_-]*|\.)@([^:#]*):(.*)$/s;
const WHITESPACE_RE = /\s/;

/**
 * Parse a ref spec (docs/reference.md#ref-specs):
 *   [alias ':'] ['@'] path ['#' selector]
 * Throws RefParseError (exit 2) naming the reason.
 *
 * Decision (spec silent): `@alias:path` is read like `alias:path`, because a POSIX path starting
 * with `word:` is far less likely than a user putting the `@` first. Windows drives (`C:/x`,
 * `@C:\x`) are never aliases.
 *
 * Decision (the spec bans whitespace in refs): whitespace is an error everywhere except between
 * the slashes of a pattern, so the design's own examples (`#/def my_func/`) work when quoted.
 */
export function parseRef(raw: string): RefSpec {
  const fail = (reason: string): never => {
    throw new RefParseError(raw, reason);
  };
  if (raw.length === 0) fail('empty ref');
  if (raw.includes('\0')) fail('a NUL character in the ref');
  if (WHITESPACE_RE.test(outsidePattern(raw))) fail('whitespace inside the ref');

  let rest = raw;
  let alias: string | null = null;
  let rev: string | undefined;
  const withoutAt = rest.startsWith('@') ? rest.slice(1) : rest;
  const m = ALIAS_RE.exec(withoutAt);
  const v = m ? null : VERSIONED_RE.exec(withoutAt);
  if (v) {
    const problem = revisionProblem(v[2]!);
    if (problem) fail(problem);
    alias = v[1]!;
    rev = v[2]!;
    rest = v[3]!.startsWith('@') ? v[3]!.slice(1) : v[3]!;
  } else if (m && !isWindowsDrive(m[1]!, m[2]!)) {
    alias = m[1]!;
    rest = m[2]!;
    if (rest.startsWith('@')) rest = rest.slice(1);
  } else {
    rest = withoutAt;
  }

  const hash = rest.indexOf('#');
  const path = unescapePath(hash === -1 ? rest : rest.slice(0, hash));
  if (path.length === 0) fail(alias ? `no path after alias '${alias}:'` : 'empty path');
  if (path.startsWith('@')) fail("more than one '@'");

  let selector: Selector | null = null;
  if (hash !== -1) selector = parseSelector(rest.slice(hash + 1), fail);
  return rev === undefined ? { raw, alias, path, selector } : { raw, alias, rev, path, selector };
}

/**
 * Undo escapePath: a run of `%XX` escapes that decodes to `#`, `%`, whitespace and control
 * characters only is decoded; any other `%` sequence is part of the file name as written.
 */
const DECODED = new RegExp(`^[#%\\s${CONTROL_CHARS}]+$`, 'u');

function unescapePath(p: string): string {
  if (!p.includes('%')) return p;
  return p.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      const text = decodeURIComponent(run);
      return DECODED.test(text) ? text : run;
    } catch {
      return run;
    }
  });
}

/** The ref with the text between a pattern's slashes removed. */
function outsidePattern(raw: string): string {
  const hash = raw.indexOf('#');
  if (hash === -1 || raw[hash + 1] !== '/') return raw;
  const sel = raw.slice(hash + 1);
  const close = findPatternEnd(sel);
  return close === -1 ? raw : raw.slice(0, hash + 1) + sel.slice(close);
}

function isWindowsDrive(alias: string, after: string): boolean {
  return alias.length === 1 && (after.startsWith('/') || after.startsWith('\\'));
}

type Fail = (reason: string) => never;

function parseSelector(sel: string, fail: Fail): Selector {
  if (sel.length === 0) fail("empty selector after '#'");
  if (isRangeSelector(sel)) return parseRangeSelector(sel, fail);
  if (sel[0] === '/') return parsePatternSelector(sel, fail);
  // A lone `L` is a line range being typed, as it always was, not a name (docs/symbols.md#grammar).
  if (sel === 'L' || sel.startsWith('L:')) fail("a line range needs a number after 'L' (L10); a declaration named L is L~1");
  return parseSymbolSelector(sel, fail);
}

/** `L` then a digit or `-`: a line range; any other `L…` (`#Loop`) is a name. */
export function isRangeSelector(sel: string): boolean {
  return sel[0] === 'L' && (sel[1] === '-' || (sel[1] !== undefined && sel[1] >= '0' && sel[1] <= '9'));
}

const SYMBOL_RE = /^([\p{L}\p{N}_$]+[!?]?(?:(?:\.|::)[\p{L}\p{N}_$]+[!?]?)*)(?:~(\d+))?(?::(.*))?$/su;

/** Whether a selector is written as a symbol path (`Store.save`, `parse~2:-1..`). */
export function isSymbolSelector(sel: string): boolean {
  return !isRangeSelector(sel) && sel[0] !== '/' && sel !== 'L' && !sel.startsWith('L:') && SYMBOL_RE.test(sel);
}

function parseSymbolSelector(sel: string, fail: Fail): Selector {
  const m = SYMBOL_RE.exec(sel);
  if (!m) {
    return fail(`selector must be a line range (L10), a pattern (/re/) or a symbol name (Class.method), got '${sel}'`);
  }
  let index: number | null = null;
  if (m[2] !== undefined) {
    index = count(m[2], fail);
    if (index === 0) fail('~N counts from 1: ~1 is the first declaration');
  }
  const window = m[3] === undefined ? null : parseWindow(m[3], fail);
  return { kind: 'symbol', path: m[1]!.replaceAll('::', '.'), index, window };
}

const RANGE_RE = /^L(?:(\d+)(?:(-)(?:L?(\d+))?)?|-L?(\d+))$/;

function parseRangeSelector(sel: string, fail: Fail): Selector {
  const colon = sel.indexOf(':');
  const rangeText = colon === -1 ? sel : sel.slice(0, colon);
  const m = RANGE_RE.exec(rangeText);
  if (!m) return fail(`bad line range '${rangeText}' (expected L10, L10-L20, L10-, or L-20)`);
  let start: number;
  let end: number | null;
  if (m[4] !== undefined) {
    start = 1;
    end = lineNumber(m[4], fail);
  } else {
    start = lineNumber(m[1]!, fail);
    end = m[2] === undefined ? start : m[3] === undefined ? null : lineNumber(m[3], fail);
  }
  if (end !== null && start > end) fail(`start line ${start} is after end line ${end}`);

  let window: Window | null = null;
  if (colon !== -1) {
    const suffix = sel.slice(colon + 1);
    if (/^\+\d+$/.test(suffix)) {
      fail(`':${suffix}' applies to patterns; around a line range write ':..${suffix}'`);
    }
    window = parseWindow(suffix, fail);
  }
  return { kind: 'range', start, end, window };
}

function lineNumber(digits: string, fail: Fail): number {
  const n = Number(digits);
  if (n === 0) fail('line numbers start at 1; L0 is not a line');
  if (!Number.isSafeInteger(n)) fail(`line number ${digits} is too large`);
  return n;
}

const WINDOW_RE = /^(?:[+-]?(\d+))?\.\.(?:[+-]?(\d+))?$/;

function parseWindow(text: string, fail: Fail): Window {
  const m = WINDOW_RE.exec(text);
  if (!m || (m[1] === undefined && m[2] === undefined)) {
    return fail(`bad relative window ':${text}' (expected :-5..+10, :-10.. or :..+20)`);
  }
  return {
    before: m[1] === undefined ? 0 : count(m[1], fail),
    after: m[2] === undefined ? null : count(m[2], fail),
  };
}

function count(digits: string, fail: Fail): number {
  const n = Number(digits);
  if (!Number.isSafeInteger(n)) fail(`count ${digits} is too large`);
  return n;
}

function parsePatternSelector(sel: string, fail: Fail): Selector {
  const close = findPatternEnd(sel);
  if (close === -1) fail("pattern has no closing '/'");
  const source = sel.slice(1, close);
  if (source.length === 0) fail('empty pattern');
  try {
    compilePattern(source);
  } catch (err) {
    fail(`invalid regex /${source}/: ${regexProblem(err)}`);
  }
  const after = sel.slice(close + 1);
  let extent: PatternExtent = { kind: 'paragraph' };
  if (after.length > 0) {
    if (after[0] !== ':') fail(`unexpected '${after}' after the pattern (write a '/' inside it as '\\/')`);
    extent = parseExtent(after.slice(1), fail);
  }
  return { kind: 'pattern', source, extent };
}

/** Index of the '/' that closes a pattern starting at index 0, or -1. Honours `\/` and `[/]`. */
export function findPatternEnd(sel: string): number {
  let inClass = false;
  for (let i = 1; i < sel.length; i++) {
    const c = sel[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i;
  }
  return -1;
}

function regexProblem(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // V8: "Invalid regular expression: /(/: Unterminated group" -> "Unterminated group"
  const m = /: \/.*\/[a-z]*: (.*)$/s.exec(msg);
  return m ? m[1]! : msg;
}

function parseExtent(text: string, fail: Fail): PatternExtent {
  if (text === 'block' || text === 'function' || text === 'class') return { kind: 'semantic', unit: text };
  const plus = /^\+(\d+)$/.exec(text);
  if (plus) return { kind: 'lines', count: count(plus[1]!, fail) };
  if (text.includes('..')) return { kind: 'window', window: parseWindow(text, fail) };
  return fail(`bad pattern suffix ':${text}' (expected :+N, :-B..+A, :block, :function or :class)`);
}
