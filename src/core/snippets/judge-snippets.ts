import path from 'node:path';
import type { Extraction } from '../extract/extract.js';
import { compareSnippet, findRunIn, type SnippetStatus } from './compare-snippet.js';
import { SnippetFiles } from './snippet-files.js';
import { type FencedBlock, fencedBlocks, mayHoldFence } from './fenced-blocks.js';
import { type Citation, type CitationForm, findCitations } from './find-citations.js';
import { MARKER_OFF, regionMarker } from '../doc-refs/find-doc-refs.js';
import { isFile } from '../../shared/paths.js';
import { utf8Of } from '../../shared/byte-text.js';
import { lineEnd, lineStarts } from '../../shared/line-starts.js';
import { scanText } from '../secrets/secret-scan.js';

/**
 * The snippet half of `verify refs` (docs/snippets.md): find a document's citations, and judge each
 * snippet against the lines its ref selects. Checking the ref itself stays with verify refs, so a
 * citation's ref is checked like every other ref.
 */

/** One cited snippet's verdict (docs/snippets.md#output). */
export interface SnippetEntry {
  /** Absolute path of the markdown file. */
  file: string;
  /** 1-based line of the ref. */
  line: number;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  /** The ref as written. */
  ref: string;
  form: CitationForm;
  status: SnippetStatus;
  /** Snippet lines that count (blank and elision lines aside). */
  snippetLines: number;
  missing: number;
  missingLines: string[];
  /** Where the snippet's lines now occur, as a ref of the same form; null when nowhere or ambiguous. */
  nowAt: string | null;
  /** With drift: whether the snippet matched (verbatim or excerpt) at the ref's base; null without a base. */
  matchedAtBase?: boolean | null;
  /** With drift: whether it was a verbatim copy at base (what --fix-snippets may refresh). */
  verbatimAtBase?: boolean | null;
  /** With drift: the ref's base (full sha in the target's repository). */
  base?: string | null;
  /** The citation, for --fix-snippets. */
  citation: Citation;
  /** Folders its ref is looked up in (to select its lines again after --fix). */
  searchDirs: readonly string[];
}

export interface SnippetReport {
  verbatim: number;
  excerpt: number;
  stale: number;
  entries: SnippetEntry[];
  /** With --fix-snippets: what was refreshed (or would be, with dryRun) and what was left. */
  refresh?: { refreshed: SnippetRefresh[]; left: SnippetLeft[]; dryRun: boolean };
}

/** A snippet --fix-snippets rewrote (or, with dryRun, would). */
export interface SnippetRefresh {
  file: string;
  line: number;
  oldRef: string;
  newRef: string;
  oldLines: number;
  newLines: number;
}

/** A stale snippet --fix-snippets left alone, and why. */
export interface SnippetLeft {
  file: string;
  line: number;
  ref: string;
  reason: string;
}

export function emptySnippetReport(): SnippetReport {
  return { verbatim: 0, excerpt: 0, stale: 0, entries: [] };
}

export interface DocCitations {
  citations: Citation[];
  /** The fenced blocks' line ranges (0-based, end exclusive): refs there are examples. */
  fenced: { open: number; end: number }[];
}

/**
 * The citations of a markdown document. Bare paths (embedme's form) without a selector are
 * citations only when the file exists, looked up in `bareDirs` in order. With `bytes`, `text` is
 * byte text (shared/byte-text.ts); what is returned is decoded.
 */
export function docCitations(text: string, bareDirs: readonly string[], isKnownAlias: (name: string) => boolean, bytes = false): DocCitations {
  if (!mayHoldFence(text)) return { citations: [], fenced: [] };
  const starts = lineStarts(text);
  const blocks = fencedBlocks(text, starts, bytes);
  if (blocks.length === 0) return { citations: [], fenced: [] };
  // Only the lines around fences are read: no string for every line of the doc.
  const line = lineReader(text, starts, bytes);
  const off = text.includes(MARKER_OFF) ? offLines(text.split('\n'), blocks) : new Set<number>();
  const citations = findCitations(line, blocks, {
    isKnownAlias,
    bareFileExists: (p) => bareDirs.some((dir) => isFile(path.resolve(dir, p))),
  }).filter((c) => !off.has(c.line - 1));
  return { citations, fenced: blocks };
}

/**
 * Judge `citation`'s snippet against what its ref selected now (`selected`: one extraction per
 * file; a glob's files in order). A stale snippet that is not elided is looked for in the file as a
 * whole (`now_at`), through `files`: pass one for a whole command, so each file is read once.
 */
export function judgeSnippet(file: string, citation: Citation, selected: readonly Extraction[], searchDirs: readonly string[] = [], files = new SnippetFiles()): SnippetEntry {
  const snippet = redactedSnippet(citation.snippet, selected[0]?.path ?? file);
  const verdict = compareSnippet(
    snippet,
    selected.flatMap((s) => s.lines),
  );
  let nowAt: string | null = null;
  if (verdict.status === 'stale' && !verdict.elided && selected.length === 1) {
    const run = findRunIn(snippet, files.index(selected[0]!.path));
    if (run) nowAt = withLines(citation.text, run.start, run.end);
  }
  return {
    file,
    line: citation.line,
    fenceLine: citation.fenceLine,
    ref: citation.text,
    form: citation.form,
    status: verdict.status,
    snippetLines: verdict.snippetLines,
    missing: verdict.missing,
    missingLines: verdict.missingLines,
    nowAt,
    citation,
    searchDirs,
  };
}

export function addSnippetEntry(report: SnippetReport, entry: SnippetEntry): void {
  report.entries.push(entry);
  report[entry.status]++;
}

/**
 * Lines (a snippet's, or the code's at a drift base) with their secrets redacted, found on them as a
 * text of their own (named as the file cited, whose name some rules read): a snippet is compared with
 * the code's redacted lines, so a doc that copied a secret, or holds its `[REDACTED <rule>]`, still
 * matches the code, and a line it quotes as missing never shows one (docs/refs.md#secrets).
 */
export function redactedSnippet(snippet: readonly string[], name: string): readonly string[] {
  return scanText(snippet.join('\n'), name)?.lines ?? snippet;
}

/** `ref` (as written) with its selector replaced by a line range. */
export function withLines(ref: string, start: number, end: number): string {
  const hash = ref.indexOf('#');
  return `${hash === -1 ? ref : ref.slice(0, hash)}#L${start}${end > start ? `-L${end}` : ''}`;
}



/** Line `i` (0-based) of `text`, as `text.split('\n')[i]` (its `\r` kept), found through an index of line starts. */
function lineReader(text: string, starts: readonly number[], bytes: boolean): (i: number) => string {
  return (i) => {
    if (i < 0 || i >= starts.length) return '';
    const line = text.slice(starts[i], lineEnd(text, starts, i));
    return bytes ? utf8Of(line) : line;
  };
}

/**
 * Lines inside `verify-refs: off` ... `verify-refs: on` regions (docs/reference.md#verify-refs). A
 * marker in a fenced block or in inline code is an example of one, as findDocRefs() reads it.
 */
function offLines(lines: readonly string[], blocks: readonly FencedBlock[]): Set<number> {
  const off = new Set<number>();
  let inside = false;
  let block = 0;
  lines.forEach((line, i) => {
    while (block < blocks.length && blocks[block]!.end <= i) block++;
    const marker = block < blocks.length && blocks[block]!.open <= i ? null : regionMarker(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (marker !== null) inside = marker === 'off';
    if (inside || marker !== null) off.add(i);
  });
  return off;
}

/**
 * `snippet differs from <ref> (stale since 1a2b3c4: the code changed): 1 of 6 lines not in the
 * code: <line> | <line>; now at <ref>` (docs/snippets.md#output).
 */
export function staleText(e: SnippetEntry): string {
  let text = `snippet differs from ${e.ref}`;
  if (e.matchedAtBase !== undefined && e.matchedAtBase !== null && e.base) {
    const short = e.base.slice(0, 7);
    text += e.matchedAtBase ? ` (stale since ${short}: the code changed)` : ` (never matched the code at ${short})`;
  }
  if (e.missing > 0) {
    text += `: ${e.missing} of ${e.snippetLines} lines not in the code: ${e.missingLines.join(' | ')}`;
  } else {
    text += ': its lines are in the code, but not in this order';
  }
  if (e.nowAt) text += `; now at ${e.nowAt}`;
  return text;
}

