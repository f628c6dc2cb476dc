import { compilePattern } from '../ref-spec/pattern-syntax.js';
import type { PatternSelector, RangeSelector } from '../ref-spec/ref-spec.js';
import { DEFAULT_MAX_BLOCK_LINES, LOOKBACK_LINES, scanSemantic } from './block.js';
import type { LineReader } from './line-reader.js';
import { type PatternBudget, PatternTimeout } from '../regex/pattern-search.js';

/** Lines chosen from one file, before any rendering. */
export interface Selection {
  /** 1-based number of the first selected line (`end < start`: nothing selected). */
  start: number;
  lines: string[];
  /** Total lines in the file when the reader reached its end, else null (not counted). */
  totalLines: number | null;
  /** The explicitly requested range went past the end of the file. */
  clamped: boolean;
  /** Problems worth a warning that did not stop the selection (a block that never closes). */
  warnings?: SelectWarning[];
  /**
   * With `SelectOptions.onDisk`: where the selected lines are in the file (`lines` stays empty),
   * for output that streams them (docs/reference.md#streaming-and-memory).
   */
  onDisk?: { start: number; end: number; lines: number };
}

export interface SelectWarning {
  code: 'block_unclosed' | 'block_truncated' | 'pattern_outside';
  message: string;
  details: string[];
}

/** A pattern ref to a file outside the root (and every alias target), left unsearched by the checks. */
export const PATTERN_OUTSIDE: SelectWarning = { code: 'pattern_outside', message: 'Pattern not checked: the file is outside the root and every alias target, or in a git directory', details: [] };

export interface SelectOptions {
  /** `-C N`: extra lines before and after the selection. */
  context: number;
  /** Lines are only counted, not kept (validation). */
  countOnly?: boolean;
  /** Most characters one selection may hold (default DEFAULT_MAX_SELECTION_CHARS). */
  maxChars?: number;
  /** Size of the file at open, to decide whether counting the rest of it is cheap. */
  fileSize?: number;
  /** Longest `:block` / `:function` / `:class` body before it is cut (default DEFAULT_MAX_BLOCK_LINES). */
  maxBlockLines?: number;
  /**
   * A whole file or a line range is measured, not read into memory: the selection says where its
   * lines are (`Selection.onDisk`), and no size cap applies. Patterns still keep their lines.
   */
  onDisk?: boolean;
}

/**
 * After a range, the rest of the file is counted (for `total_lines`) when it is this small: every
 * source file gets its total, while a range near the top of a 1 GB file still stops reading.
 */
const COUNT_REST_BYTES = 1024 * 1024;

/**
 * refcat makes prompt context, which is never this big; the cap turns `refcat @huge.log` into a
 * clear error instead of an out-of-memory crash (use a range, or `refcat fd read`, instead).
 */
export const DEFAULT_MAX_SELECTION_CHARS = 64 * 1024 * 1024;

/** Thrown by select functions; turned into RefErrors by the caller, which knows the ref text. */
export class SelectError extends Error {
  constructor(
    readonly code: 'pattern_not_found' | 'pattern_timeout' | 'not_a_declaration' | 'too_large',
    message: string,
    /** The file's line the message is about, for the caller to quote or not (docs/reference.md#limits-and-hostile-input). */
    readonly excerpt?: string,
  ) {
    super(message);
  }
}

/** Reads the lines a selection keeps, failing once they pass the size cap. */
function keeper(reader: LineReader, opts: SelectOptions): () => string | null {
  const max = opts.maxChars ?? DEFAULT_MAX_SELECTION_CHARS;
  let used = 0;
  return () => {
    const line = reader.next();
    if (line !== null) {
      used += line.length + 1;
      if (used > max) {
        const mib = Math.round(max / (1024 * 1024));
        throw new SelectError('too_large', `Selection larger than ${mib} MiB`);
      }
    }
    return line;
  };
}

export function selectWhole(reader: LineReader, opts: SelectOptions): Selection {
  if (opts.countOnly) {
    const total = reader.countRemaining();
    return { start: 1, lines: [], totalLines: total, clamped: false };
  }
  if (opts.onDisk) {
    const start = reader.position();
    const total = reader.countRemaining();
    return { start: 1, lines: [], totalLines: total, clamped: false, onDisk: { start, end: reader.position(), lines: total } };
  }
  const next = keeper(reader, opts);
  const lines: string[] = [];
  for (let line = next(); line !== null; line = next()) lines.push(line);
  return { start: 1, lines, totalLines: lines.length, clamped: false };
}

export function selectRange(reader: LineReader, sel: RangeSelector, opts: SelectOptions): Selection {
  const before = (sel.window?.before ?? 0) + opts.context;
  let last: number;
  if (sel.end === null || (sel.window && sel.window.after === null)) last = Number.POSITIVE_INFINITY;
  else last = sel.end + (sel.window?.after ?? 0) + opts.context;
  const first = Math.max(1, sel.start - before);

  reader.skipTo(first);
  const lines: string[] = [];
  let atEof = false;
  let onDisk: Selection['onDisk'];
  if (opts.onDisk) {
    const start = reader.position();
    reader.skipTo(last + 1);
    atEof = reader.lineNo < last;
    onDisk = { start, end: reader.position(), lines: Math.max(0, reader.lineNo - first + 1) };
  } else {
    const next = keeper(reader, opts);
    while (reader.lineNo < last) {
      const line = next();
      if (line === null) {
        atEof = true;
        break;
      }
      lines.push(line);
    }
  }
  const totalLines = atEof ? reader.lineNo : totalIfCheap(reader, opts);
  const clamped = totalLines !== null && (sel.start > totalLines || (sel.end !== null && sel.end > totalLines));
  // A start past the end selects nothing, whatever the window or -C would add (docs/reference.md#reading-files).
  if (totalLines !== null && sel.start > totalLines) {
    // On disk too: no bytes, not the lines the window would have added before the end.
    return { start: sel.start, lines: [], totalLines, clamped, ...(onDisk ? { onDisk: { start: onDisk.end, end: onDisk.end, lines: 0 } } : {}) };
  }
  return { start: first, lines, totalLines, clamped, ...(onDisk ? { onDisk } : {}) };
}

/**
 * The file's line count when the rest of it is small enough to count (COUNT_REST_BYTES), else
 * null. Reads the rest of the file: call it last.
 */
function totalIfCheap(reader: LineReader, opts: SelectOptions): number | null {
  if (opts.fileSize === undefined || reader.remainingBytes(opts.fileSize) > COUNT_REST_BYTES) return null;
  return reader.countRemaining();
}

/** Lines read per regex batch: bounds both memory and the cost of the timeout watchdog. */
const BATCH_LINES = 8192;
const BATCH_CHARS = 1 << 20;

export function selectPattern(
  reader: LineReader,
  sel: PatternSelector,
  language: string,
  opts: SelectOptions & { budget: PatternBudget },
): Selection {
  const re = compilePattern(sel.source);
  const windowBefore = sel.extent.kind === 'window' ? sel.extent.window.before : 0;
  // A declaration's decorators are above its match line: keep enough lines to find them.
  const lookback = sel.extent.kind === 'semantic' ? LOOKBACK_LINES : 0;
  const keep = windowBefore + opts.context + lookback;

  let history: string[] = [];
  for (;;) {
    const batchStart = reader.lineNo + 1;
    const batch = readBatch(reader);
    if (batch.length === 0) throw new SelectError('pattern_not_found', `Pattern /${sel.source}/ not found`);
    let idx: number;
    try {
      // The budget counts regex time only: reading a big file is slow but finite, a catastrophic
      // regex is not (docs/reference.md#reading-files).
      idx = opts.budget.search(re, batch);
    } catch (err) {
      if (err instanceof PatternTimeout) {
        const secs = (opts.budget.totalMs / 1000).toFixed(1);
        throw new SelectError('pattern_timeout', `Pattern /${sel.source}/ timed out after ${secs} s of CPU time`);
      }
      throw err;
    }
    if (idx === -1) {
      history = keep > 0 ? history.concat(batch).slice(-keep) : history;
      continue;
    }
    const matchNo = batchStart + idx;
    const matchLine = batch[idx]!;
    reader.unread(batch.slice(idx + 1));
    const earlier = keep > 0 ? history.concat(batch.slice(0, idx)).slice(-keep) : [];

    const next = keeper(reader, opts);
    const { after, leading, warnings } = linesAfterMatch(reader, next, sel, matchNo, matchLine, earlier, language, opts);
    const ownLines = earlier.slice(earlier.length - leading);
    const wanted = windowBefore + opts.context;
    const beforeLines = wanted > 0 ? earlier.slice(0, earlier.length - leading).slice(-wanted) : [];
    const trailing = takeLines(next, opts.context);
    const lines = [...beforeLines, ...ownLines, matchLine, ...after, ...trailing];
    const selection: Selection = { start: matchNo - ownLines.length - beforeLines.length, lines, totalLines: totalIfCheap(reader, opts), clamped: false };
    if (warnings.length > 0) selection.warnings = warnings;
    return selection;
  }
}

interface AfterMatch {
  after: string[];
  /** How many of the lines before the match belong to the selection itself (decorators). */
  leading: number;
  warnings: SelectWarning[];
}

function linesAfterMatch(
  reader: LineReader,
  next: () => string | null,
  sel: PatternSelector,
  matchNo: number,
  matchLine: string,
  earlier: readonly string[],
  language: string,
  opts: SelectOptions,
): AfterMatch {
  const extent = sel.extent;
  const plain = (after: string[]): AfterMatch => ({ after, leading: 0, warnings: [] });
  switch (extent.kind) {
    case 'paragraph': {
      const out: string[] = [];
      for (let line = next(); line !== null; line = next()) {
        if (line.trim() === '') {
          reader.unread([line]);
          break;
        }
        out.push(line);
      }
      return plain(out);
    }
    case 'lines':
      return plain(takeLines(next, extent.count));
    case 'window':
      return plain(takeLines(next, extent.window.after ?? Number.POSITIVE_INFINITY));
    case 'semantic': {
      const maxLines = opts.maxBlockLines ?? DEFAULT_MAX_BLOCK_LINES;
      const block = scanSemantic(earlier, matchLine, next, language, extent.unit, maxLines);
      if (block === null) {
        throw new SelectError(
          'not_a_declaration',
          `Line ${matchNo} matched by /${sel.source}/ does not look like a ${extent.unit} declaration`,
          matchLine.trim(),
        );
      }
      reader.unread(block.lookahead);
      const span = `L${matchNo - block.leading}-L${matchNo + block.body.length}`;
      const warnings: SelectWarning[] = [];
      if (block.problem === 'unclosed') {
        warnings.push({
          code: 'block_unclosed',
          message: `Block at line ${matchNo} never closes`,
          details: [`Selected to the end of the file (${span}); an unbalanced bracket, string or comment may have hidden its end`],
        });
      } else if (block.problem === 'truncated') {
        warnings.push({
          code: 'block_truncated',
          message: `Block at line ${matchNo} is longer than ${maxLines} lines`,
          details: [`Cut at ${span}; select a line range for more`],
        });
      }
      return { after: block.body, leading: block.leading, warnings };
    }
  }
}

function takeLines(next: () => string | null, n: number): string[] {
  const out: string[] = [];
  while (out.length < n) {
    const line = next();
    if (line === null) break;
    out.push(line);
  }
  return out;
}

function readBatch(reader: LineReader): string[] {
  const batch: string[] = [];
  let chars = 0;
  while (batch.length < BATCH_LINES && chars < BATCH_CHARS) {
    const line = reader.next();
    if (line === null) break;
    batch.push(line);
    chars += line.length;
  }
  return batch;
}

