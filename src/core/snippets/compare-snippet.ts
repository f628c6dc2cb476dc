/**
 * Comparing a cited snippet with the lines its ref selects (docs/snippets.md#comparing). Pure: lines
 * in, a verdict out, in time linear in the snippet and the selected lines (a line with `...` inside
 * is tried against each selected line only when it is not found by its exact text).
 *
 * - Lines are compared trimmed; blank lines on either side are ignored; `\r` before `\n` is no text.
 * - An elision line (`...` or `…`, alone or in a comment, optionally followed by words) stands
 *   for any number of lines.
 * - Inside a line, `...` or `…` stands for any text.
 */

export type SnippetStatus = 'verbatim' | 'excerpt' | 'stale';

export interface SnippetVerdict {
  status: SnippetStatus;
  /** Snippet lines that count: not blank, not elision lines. */
  snippetLines: number;
  /** How many of those match no selected line at all. */
  missing: number;
  /** The first three of them, as written (trimmed, each cut at 120 characters with `…`). */
  missingLines: string[];
  /** The snippet has an elision line or a `...` inside a line (it cannot be found elsewhere as a run). */
  elided: boolean;
}

/** How many missing lines a verdict quotes, and how many characters of each. */
export const QUOTED_MISSING_LINES = 3;
export const QUOTED_LINE_CHARS = 120;

/** A comment opener an elision line may start with. */
const COMMENT_OPENER = /^(?:\/\/+|#+|--|;+|%%?|'|\/\*+|<!--|\*)\s*/;
const ELLIPSIS = /^(?:\.\.\.|\u2026)(?:\s|$|\*\/|-->)/;

/** A snippet line prepared for matching. */
interface SnippetLine {
  text: string;
  /** The pieces between `...`/`…` when the line has any; null for a plain line. */
  pieces: string[] | null;
}

/** Whether a trimmed line is an elision line: `...`, `// ...`, `# … 40 more lines`, `/* ... *\/`. */
export function isElisionLine(trimmed: string): boolean {
  return ELLIPSIS.test(trimmed.replace(COMMENT_OPENER, ''));
}

/** The lines that count, trimmed: blank lines dropped (a `\r` left by a CRLF file is whitespace). */
export function significantLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t !== '') out.push(t);
  }
  return out;
}

function prepare(snippet: readonly string[]): { lines: SnippetLine[]; elided: boolean } {
  const lines: SnippetLine[] = [];
  let elided = false;
  for (const text of significantLines(snippet)) {
    if (isElisionLine(text)) {
      elided = true;
      continue;
    }
    const pieces = text.includes('...') || text.includes('…') ? text.split(/\.\.\.|\u2026/) : null;
    if (pieces) elided = true;
    lines.push({ text, pieces });
  }
  return { lines, elided };
}

/** Whether `line` (trimmed code) matches a snippet line, `...`/`…` standing for any text. */
function matches(s: SnippetLine, line: string): boolean {
  if (s.text === line) return true;
  const p = s.pieces;
  if (!p) return false;
  const first = p[0]!;
  const last = p[p.length - 1]!;
  if (!line.startsWith(first) || line.length < first.length + last.length || !line.endsWith(last)) return false;
  let at = first.length;
  const stop = line.length - last.length;
  for (let i = 1; i < p.length - 1; i++) {
    const found = line.indexOf(p[i]!, at);
    if (found === -1 || found + p[i]!.length > stop) return false;
    at = found + p[i]!.length;
  }
  return true;
}

/** Compare `snippet` (the block's lines) with `selected` (the lines the ref selects now). */
export function compareSnippet(snippet: readonly string[], selected: readonly string[]): SnippetVerdict {
  const code = significantLines(selected);
  // Verbatim is judged on the text as it is: code that itself holds `...` (`Checking...`, a
  // Python `...` body) copied exactly is a copy, not an excerpt.
  const exact = significantLines(snippet);
  if (exact.length === code.length && exact.every((s, i) => s === code[i])) {
    return { status: 'verbatim', snippetLines: exact.length, missing: 0, missingLines: [], elided: false };
  }
  const { lines, elided } = prepare(snippet);
  // A subsequence: matching each snippet line to the first code line after the previous match is
  // enough (if any assignment exists, the greedy one does).
  let at = 0;
  let inOrder = true;
  for (const s of lines) {
    while (at < code.length && !matches(s, code[at]!)) at++;
    if (at === code.length) {
      inOrder = false;
      break;
    }
    at++;
  }
  if (inOrder) return { status: 'excerpt', snippetLines: lines.length, missing: 0, missingLines: [], elided };
  const known = new Set(code);
  const missingLines: string[] = [];
  let missing = 0;
  for (const s of lines) {
    if (known.has(s.text) || (s.pieces && code.some((c) => matches(s, c)))) continue;
    missing++;
    if (missingLines.length < QUOTED_MISSING_LINES) missingLines.push(s.text.length > QUOTED_LINE_CHARS ? s.text.slice(0, QUOTED_LINE_CHARS) + '…' : s.text);
  }
  return { status: 'stale', snippetLines: lines.length, missing, missingLines, elided };
}

/**
 * Where the snippet's lines now occur as one run (blank lines aside) in `fileLines`: the 1-based
 * first and last line of the only such run, or null when there is none or more than one, or when
 * the snippet is elided (it names no exact run).
 */
export function findSnippetRun(snippet: readonly string[], fileLines: readonly string[]): { start: number; end: number } | null {
  return findRunIn(snippet, runIndex(fileLines));
}

/**
 * A file's lines as findRunIn() searches them: its non-blank lines, trimmed, with their 1-based
 * numbers; and, made on the first search, where each text occurs. Made once per file, it answers
 * every stale snippet of that file (snippet-files.ts).
 */
export interface RunIndex {
  text: string[];
  numbers: number[];
  places?: Map<string, number[]>;
}

export function runIndex(fileLines: readonly string[]): RunIndex {
  const text: string[] = [];
  const numbers: number[] = [];
  fileLines.forEach((line, i) => {
    const t = line.trim();
    if (t === '') return;
    text.push(t);
    numbers.push(i + 1);
  });
  return { text, numbers };
}

/**
 * findSnippetRun() over an index: the snippet's rarest line is looked up, and each of its places
 * tried, so a search costs what that line's places do, not the file's length. When even the
 * rarest line is everywhere (a file of one repeated line), a single pass over the file instead.
 */
export function findRunIn(snippet: readonly string[], index: RunIndex): { start: number; end: number } | null {
  const { lines, elided } = prepare(snippet);
  if (elided || lines.length === 0) return null;
  const want = lines.map((l) => l.text);
  const places = (index.places ??= placesOf(index.text));
  let anchor = 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (let j = 0; j < want.length; j++) {
    const n = places.get(want[j]!)?.length ?? 0;
    if (n === 0) return null;
    if (n < fewest) {
      fewest = n;
      anchor = j;
    }
  }
  if (fewest * want.length > index.text.length + want.length) return scanRun(want, index);
  const { text, numbers } = index;
  let found: { start: number; end: number } | null = null;
  for (const p of places.get(want[anchor]!)!) {
    const start = p - anchor;
    if (start < 0 || start + want.length > text.length) continue;
    let same = true;
    for (let j = 0; j < want.length && same; j++) same = text[start + j] === want[j];
    if (!same) continue;
    if (found) return null;
    found = { start: numbers[start]!, end: numbers[start + want.length - 1]! };
  }
  return found;
}

function placesOf(text: readonly string[]): Map<string, number[]> {
  const places = new Map<string, number[]>();
  text.forEach((t, i) => {
    const list = places.get(t);
    if (list) list.push(i);
    else places.set(t, [i]);
  });
  return places;
}

/** The only run of `want` in the index, in one pass however repetitive the file is. */
export function scanRun(want: readonly string[], index: RunIndex): { start: number; end: number } | null {
  const { text, numbers } = index;
  // Knuth-Morris-Pratt over whole lines: linear however repetitive the file is.
  const fail = new Int32Array(want.length);
  for (let i = 1, k = 0; i < want.length; i++) {
    while (k > 0 && want[i] !== want[k]) k = fail[k - 1]!;
    if (want[i] === want[k]) k++;
    fail[i] = k;
  }
  let found: { start: number; end: number } | null = null;
  for (let i = 0, k = 0; i < text.length; i++) {
    while (k > 0 && text[i] !== want[k]) k = fail[k - 1]!;
    if (text[i] === want[k]) k++;
    if (k < want.length) continue;
    if (found) return null;
    found = { start: numbers[i - want.length + 1]!, end: numbers[i]! };
    k = fail[k - 1]!;
  }
  return found;
}
