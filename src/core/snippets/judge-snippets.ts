import fs from 'node:fs';
import path from 'node:path';
import type { Extraction } from '../extract/extract.js';
import { MAX_TEXT_FILE_BYTES, readTextFile } from '../safe-read/read-text-file.js';
import { compareSnippet, findSnippetRun, type SnippetStatus } from './compare-snippet.js';
import { fencedBlocks } from './fenced-blocks.js';
import { type Citation, type CitationForm, findCitations } from './find-citations.js';
import type { SnippetLeft, SnippetRefresh } from './snippet-drift.js';

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
 * citations only when the file exists, looked up in `bareDirs` in order.
 */
export function docCitations(text: string, bareDirs: readonly string[], isKnownAlias: (name: string) => boolean): DocCitations {
  const blocks = fencedBlocks(text);
  if (blocks.length === 0) return { citations: [], fenced: [] };
  const lines = text.split('\n');
  const off = offLines(lines);
  const citations = findCitations(lines, blocks, {
    isKnownAlias,
    bareFileExists: (p) => bareDirs.some((dir) => isFile(path.resolve(dir, p))),
  }).filter((c) => !off.has(c.line - 1));
  return { citations, fenced: blocks };
}

/**
 * Judge `citation`'s snippet against what its ref selected now (`selected`: one extraction per
 * file; a glob's files in order). A stale snippet that is not elided is looked for in the file as a
 * whole (`now_at`).
 */
export function judgeSnippet(file: string, citation: Citation, selected: readonly Extraction[], searchDirs: readonly string[] = []): SnippetEntry {
  const verdict = compareSnippet(
    citation.snippet,
    selected.flatMap((s) => s.lines),
  );
  let nowAt: string | null = null;
  if (verdict.status === 'stale' && !verdict.elided && selected.length === 1) {
    const run = findSnippetRun(citation.snippet, readLines(selected[0]!.path));
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

/** `ref` (as written) with its selector replaced by a line range. */
export function withLines(ref: string, start: number, end: number): string {
  const hash = ref.indexOf('#');
  return `${hash === -1 ? ref : ref.slice(0, hash)}#L${start}${end > start ? `-L${end}` : ''}`;
}

function readLines(file: string): string[] {
  try {
    return readTextFile(file, MAX_TEXT_FILE_BYTES).split('\n');
  } catch {
    return [];
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Lines inside `verify-refs: off` ... `verify-refs: on` regions (docs/reference.md#verify-refs). */
function offLines(lines: readonly string[]): Set<number> {
  const off = new Set<number>();
  let inside = false;
  lines.forEach((line, i) => {
    const starts = line.includes('verify-refs: off');
    if (starts) inside = true;
    if (line.includes('verify-refs: on')) inside = false;
    if (inside || starts) off.add(i);
  });
  return off;
}
