import fs from 'node:fs';
import { type Diagnostic, directoryError, isRefcatError, RefError } from '../../shared/errors.js';
import { specOf } from '../ref-spec/format-ref-spec.js';
import type { RedactedText } from '../secrets/secret-scan.js';
import { PatternBudget } from '../regex/pattern-search.js';
import type { ContentSpan } from './content-span.js';
import type { Extraction, ExtractOptions, ResolvedFile, StreamOptions } from './extraction.js';
import { languageOf } from './language.js';
import { BinaryContentError, DEFAULT_MAX_LINE_BYTES, LineReader, LineTooLongError } from './line-reader.js';
import { outlineExtraction } from './outline-select.js';
import { cleanAsRead, markOutlined, markRedacted, outlineSecrets, redactSymbolLines, scanLargeSelection, secretRead } from './extract-secrets.js';
import { MAX_CACHED_FILE_BYTES } from './read-cache.js';
import {
  DEFAULT_MAX_SELECTION_CHARS,
  PATTERN_OUTSIDE,
  type Selection,
  SelectError,
  type SelectWarning,
  selectPattern,
  selectRange,
  selectWhole,
} from './select.js';
import { selectSymbolRef } from './symbol-select.js';

/** Read one resolved file and select its lines. Throws RefError. */
export function extractFile(file: ResolvedFile, options: ExtractOptions = {}): Extraction {
  return extractFileWithWarnings(file, options).extraction;
}

/** extractFile, with the selection's warnings (a block that never closes) besides. */
export function extractFileWithWarnings(
  file: ResolvedFile,
  options: ExtractOptions = {},
): { extraction: Extraction; warnings: SelectWarning[] } {
  return readExtraction(file, { ...options, onDisk: false });
}

/**
 * Read one resolved file and select its lines. With `onDisk`, a whole file or a range is only
 * measured and its descriptor is left open in `extraction.onDisk` for the caller to close.
 */
export function readExtraction(
  file: ResolvedFile,
  options: ExtractOptions & StreamOptions & { quotable?: (abs: string) => boolean },
): { extraction: Extraction; warnings: SelectWarning[] } {
  const { ref } = file;
  if (options.outline && !options.checkOnly) {
    // The ref's lines are counted as for --validate-only (the same errors and warnings), then outlined.
    const checked = readExtraction(file, { ...options, outline: false, checkOnly: true, onDisk: false });
    // Its secrets are found on the text the outline reads (no read of their own), if it prints any of it.
    const secrets: { found: RedactedText | null } = { found: null };
    const redact = (text: string) => (secrets.found = outlineSecrets(file, options, text))?.lines;
    const outlined = outlineExtraction(checked.extraction, ref.selector !== null, file.version?.bytes ?? undefined, redact);
    if (secrets.found) markOutlined(outlined, secrets.found);
    return { extraction: outlined, warnings: checked.warnings };
  }
  const language = languageOf(file.path);
  const early = readUnselected(file, language, options);
  if (early) {
    // A symbol ref's lines are read by its declaration table: redacted after (extract-secrets.ts).
    if (ref.selector?.kind === 'symbol') redactSymbolLines(early.extraction, file, options);
    return early;
  }
  return readSelected(file, language, options);
}

/** A file's lines read (from disk, the run's cache or a version's bytes) and selected by a range, a pattern or nothing. */
function readSelected(
  file: ResolvedFile,
  language: ReturnType<typeof languageOf>,
  options: ExtractOptions & StreamOptions & { quotable?: (abs: string) => boolean },
): { extraction: Extraction; warnings: SelectWarning[] } {
  const { ref, refText } = file;
  // A held file is never streamed (onDisk wants a descriptor), nor read with a line cap below its size.
  // A file read at a version is held: its bytes came from git (docs/refs.md#refs-at-a-version).
  const cached = file.version?.bytes
    ? versionedLines(file.version.bytes, refText)
    : options.onDisk || (options.maxSelectionChars ?? Infinity) < MAX_CACHED_FILE_BYTES ? null : (options.readCache?.file(file.path) ?? null);
  // A file that holds a secret is read from its redacted lines (extract-secrets.ts); a version's
  // lines are checked as the version holds them.
  const secrets = secretRead(file, options, cached);
  const redacted = secrets && 'redacted' in secrets ? secrets.redacted : null;
  const held = redacted ?? cached;
  const { fd, size } = held ? { fd: -1, size: held.size } : openFile(file.path, refText);
  let sel: Selection | undefined;
  let reader: LineReader | undefined;
  try {
    // Reads as large as the file, within bounds: a small file is read in one call into a small
    // buffer (globs read thousands), and a selection left on disk, only measured (no lines
    // decoded), reads faster in larger pieces.
    const measured = options.onDisk && !held && !options.checkOnly && ref.selector?.kind !== 'pattern';
    const chunkSize = Math.min(Math.max(size + 1, 4096), measured ? 1 << 20 : 1 << 16);
    reader = held
      ? LineReader.ofLines(held.lines, held.size)
      : new LineReader(fd, { maxLineBytes: options.maxSelectionChars, chunkSize, size });
    const selectOpts = {
      context: options.context ?? 0,
      countOnly: options.checkOnly ?? false,
      maxChars: options.maxSelectionChars,
      fileSize: size,
      maxBlockLines: options.maxBlockLines,
      onDisk: (options.onDisk && !options.checkOnly && !held) ?? false,
    };
    sel = selectLines(reader, ref.selector, language, selectOpts, options.patternBudget);
  } catch (err) {
    throw selectionError(err, file, options);
  } finally {
    // A selection left on disk keeps its descriptor (extraction.onDisk); every other one closes it,
    // and its lines are strings now: the read buffer goes back.
    if (!sel?.onDisk && !held) {
      fs.closeSync(fd);
      reader?.release();
    }
  }

  const count = options.checkOnly && !ref.selector ? (sel.totalLines ?? 0) : (sel.onDisk?.lines ?? sel.lines.length);
  const extraction = extractionOf(file, language, sel, count);
  if (sel.onDisk) extraction.onDisk = onDiskSpan(sel.onDisk, fd, reader, options.lendBytes ?? false);
  if (redacted) markRedacted(extraction, redacted);
  else if (secrets && 'deferred' in secrets) {
    if (!cleanAsRead(extraction, file, size)) return readExtraction(file, { ...options, onDisk: false });
  } else if (secrets && !options.checkOnly) scanLargeSelection(extraction, file);
  return { extraction, warnings: sel.warnings ?? [] };
}

/** The lines a ref's selector (none, a range, a pattern) takes from `reader`; symbol refs are read before (readUnselected). */
function selectLines(
  reader: LineReader,
  s: ResolvedFile['ref']['selector'],
  language: ReturnType<typeof languageOf>,
  selectOpts: Parameters<typeof selectWhole>[1],
  budget: PatternBudget | undefined,
): Selection {
  if (!s) return selectWhole(reader, selectOpts);
  if (s.kind === 'range') return selectRange(reader, s, selectOpts);
  if (s.kind === 'pattern') return selectPattern(reader, s, language, { ...selectOpts, budget: budget ?? new PatternBudget() });
  throw new Error('unreachable: symbol selectors are read above');
}

/**
 * The span of a selection left on disk, with its descriptor. The bytes of a selection the reader
 * still holds are written from memory, not read again. Lent, they are a view of the reader's
 * buffer, given back when the step ends (extractSteps), and the pieces of a larger selection,
 * read again from the file, share one buffer.
 */
function onDiskSpan(span: NonNullable<Selection['onDisk']>, fd: number, reader: LineReader | undefined, lend: boolean): ContentSpan {
  const bytes = reader?.held(span.start, span.end) ?? undefined;
  if (bytes && lend) {
    const lent = reader!;
    return { fd, ...span, bytes, release: () => lent.release() };
  }
  const kept: ContentSpan = bytes ? { fd, ...span, bytes: Buffer.from(bytes) } : { fd, ...span, shareReads: lend };
  reader?.release();
  return kept;
}

/**
 * What is read without selecting lines from an open file: a symbol ref (read by its declaration
 * table), a file --list-files only checks, a pattern ref outside the confinement; else null.
 */
function readUnselected(
  file: ResolvedFile,
  language: string,
  options: ExtractOptions & { quotable?: (abs: string) => boolean },
): { extraction: Extraction; warnings: SelectWarning[] } | null {
  const { ref, refText } = file;
  if (ref.selector?.kind === 'symbol') {
    let named: ReturnType<typeof selectSymbolRef>;
    // A file read at a version is parsed as that version holds it.
    const text = file.version?.bytes ? versionedLines(file.version.bytes, refText).lines.join('\n') + '\n' : undefined;
    try {
      named = selectSymbolRef(file.path, ref.selector, refText, { context: options.context ?? 0, countOnly: options.checkOnly ?? false, text });
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code && !isRefcatError(err) ? readError(err, refText) : err;
    }
    return { extraction: { ...extractionOf(file, language, named.selection, named.count), symbol: named.symbol }, warnings: [] };
  }
  if (options.checkOnly && options.probeWholeFiles && !ref.selector) {
    // --list-files opens no whole file: a glob's walk found a regular file, a named one is stat'ed.
    if (!file.glob && !file.version?.bytes) checkRegular(file.path, refText);
    return { extraction: extractionOf(file, language, { start: 1, lines: [], totalLines: null, clamped: false }, 0), warnings: [] };
  }
  if (options.unjudgedOutside && ref.selector?.kind === 'pattern' && !options.quotable?.(file.path)) {
    // No verdict: whether it matches would say what the file holds.
    if (!file.version?.bytes) checkRegular(file.path, refText);
    return { extraction: extractionOf(file, language, { start: 1, lines: [], totalLines: null, clamped: false }, 0), warnings: [PATTERN_OUTSIDE] };
  }
  return null;
}

/** What a failed read or selection of `file` is reported as. */
function selectionError(err: unknown, file: ResolvedFile, options: ExtractOptions & { quotable?: (abs: string) => boolean }): RefError {
  const { refText } = file;
  if (err instanceof BinaryContentError) return new RefError('binary', `Binary file: ${refText}`, refText);
  const s = file.ref.selector;
  if (err instanceof LineTooLongError && s?.kind === 'pattern') {
    // A pattern search reads every line until it matches: one longer than the cap stops it.
    const mib = Math.round((options.maxSelectionChars ?? DEFAULT_MAX_LINE_BYTES) / (1024 * 1024));
    return new RefError('too_large', `A line longer than ${mib} MiB stopped the search for /${s.source}/ in ${refText}`, refText, [
      'A pattern is searched line by line; page through the file with `refcat fd read` instead',
    ]);
  }
  const tooLarge = err instanceof LineTooLongError || (err instanceof SelectError && err.code === 'too_large');
  if (tooLarge) {
    const mib = Math.round((options.maxSelectionChars ?? DEFAULT_MAX_SELECTION_CHARS) / (1024 * 1024));
    return new RefError('too_large', `Selection larger than ${mib} MiB: ${refText}`, refText, [
      'Select a line range (#L1-L500), or page through it with `refcat fd read`',
    ]);
  }
  if (err instanceof SelectError) {
    // A line is quoted only from a file under the root or an alias target: a ref in a workflow
    // or doc could otherwise print any readable file into a CI log (docs/reference.md#limits-and-hostile-input).
    const quote = err.excerpt !== undefined && options.quotable?.(file.path) ? `: ${err.excerpt}` : '';
    const message = err.code === 'not_a_declaration' ? `${err.message}${quote} (in ${refText})` : `${err.message} in ${refText}`;
    return new RefError(err.code, message, refText);
  }
  return readError(err, refText);
}

/** A file's bytes read at a version, as a ReadCache holds a file: its lines and its size. */
/** A blob's lines, decoded once however many refs read it (they are handed the same bytes). */
const decodedBlobs = new WeakMap<Buffer, { lines: string[]; size: number }>();

function versionedLines(bytes: Buffer, refText: string): { lines: string[]; size: number } {
  try {
    let held = decodedBlobs.get(bytes);
    if (!held) decodedBlobs.set(bytes, (held = { lines: LineReader.linesOf(bytes), size: bytes.length }));
    return held;
  } catch (err) {
    if (err instanceof BinaryContentError) throw new RefError('binary', `Binary file: ${refText}`, refText);
    throw err;
  }
}

/** The Extraction of `count` lines of `file` selected as `sel` says. */
function extractionOf(file: ResolvedFile, language: string, sel: Selection, count: number): Extraction {
  const { ref, refText } = file;
  const lineEnd = sel.start + count - 1;
  const empty = lineEnd < sel.start;
  // A ref that named its revision keeps it in its spec, as the full sha; `--at` names `.`'s.
  const rev = file.version?.revision ? (file.version.commit ?? undefined) : undefined;
  const alias = rev !== undefined && !ref.alias ? '.' : ref.alias;
  const extraction: Extraction = {
    ref: refText,
    spec: empty && ref.selector ? null : specOf(alias, file.relPath, ref.selector ? { start: sel.start, end: lineEnd } : null, rev),
    alias: ref.alias,
    path: file.path,
    relPath: file.relPath,
    displayPath: file.displayPath,
    displayBase: file.displayBase,
    language,
    wholeFile: !ref.selector,
    lineStart: sel.start,
    lineEnd,
    totalLines: sel.totalLines,
    wasClamped: sel.clamped,
    lines: sel.lines,
  };
  if (file.version?.commit) extraction.commit = file.version.commit;
  if (rev !== undefined) extraction.fileSpec = specOf(alias, file.relPath, null, rev);
  return extraction;
}

/**
 * Open a file to read. O_NONBLOCK so that a FIFO does not block the open (waiting for a writer
 * forever); anything but a regular file is then refused. It has no effect on regular files.
 */
function openFile(abs: string, refText: string): { fd: number; size: number } {
  let fd: number;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    throw readError(err, refText);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw directoryError(refText);
    if (!stat.isFile()) throw new RefError('not_regular', `Not a regular file: ${refText}`, refText);
    return { fd, size: stat.size };
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

/** A named file that --list-files lists without opening it: refused as openFile() would. */
function checkRegular(abs: string, refText: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (err) {
    throw readError(err, refText);
  }
  if (stat.isDirectory()) throw directoryError(refText);
  if (!stat.isFile()) throw new RefError('not_regular', `Not a regular file: ${refText}`, refText);
}

/** What a failed read of the file `refText` names is reported as (an errno error: ENOENT, EACCES, ELOOP, ...). */
export function readError(err: unknown, refText: string): RefError {
  if (err instanceof RefError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return directoryError(refText);
  if (code === 'ELOOP') return new RefError('unreadable', `Cannot read ${refText}: a symlink loop (each link leads to another, never to a file)`, refText);
  if (code === 'EACCES' || code === 'EPERM') {
    return new RefError('unreadable', `Cannot read ${refText}: permission denied`, refText);
  }
  if (code === 'ENOENT') return new RefError('not_found', `REFCAT ref not found: ${refText}`, refText);
  return new RefError('unreadable', `Cannot read ${refText}: ${(err as Error).message}`, refText);
}

export function clampWarning(refText: string, r: Extraction): Diagnostic {
  const total = r.totalLines ?? 0;
  const has = `File has ${total} ${total === 1 ? 'line' : 'lines'}`;
  const detail = r.lineEnd < r.lineStart ? `${has}, nothing left to select` : `${has}, will clamp to L${r.lineStart}-L${r.lineEnd}`;
  return { code: 'clamped', message: `REFCAT line range exceeds file bounds: ${refText}`, details: [detail], ref: refText };
}

