import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, isRefcatError, RefError, toDiagnostic } from '../../shared/errors.js';
import { displayRelative, expandHome } from '../../shared/paths.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { languageOf } from './language.js';
import { formatRef, specOf } from '../ref-spec/format-ref-spec.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { expandGlob, hasGlobChars, type WalkWarning } from '../walk/glob.js';
import { WalkCache } from '../walk/walk-cache.js';
import { PatternBudget } from '../regex/pattern-search.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { type Confinement, outside } from '../safe-read/confinement.js';
import type { ContentSpan } from './content-span.js';
import { selectSymbolRef, type SymbolInfo } from './symbol-select.js';
import { type OutlineInfo, outlineExtraction } from './outline-select.js';
import { BinaryContentError, DEFAULT_MAX_LINE_BYTES, LineReader, LineTooLongError } from './line-reader.js';
import { MAX_CACHED_FILE_BYTES, type ReadCache } from './read-cache.js';
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

export interface ExtractOptions {
  /** Base folder for relative refs and displayed paths (`--relative-to`); default ctx.cwd. */
  base?: string;
  /**
   * Folders a relative ref is looked up in, in order (default: [base]). A workflow passes
   * [its own folder, cwd] (docs/reference.md#validate).
   */
  searchDirs?: string[];
  aliases?: AliasResolver;
  /** `-C N`. */
  context?: number;
  /** Do not skip .gitignore'd files, node_modules/ and .git/ when expanding globs. */
  noIgnore?: boolean;
  /**
   * The CPU-time budget of every pattern search (shared: pass one budget to every extract() call of
   * a command). Default: a new budget of DEFAULT_PATTERN_BUDGET_MS for this call.
   */
  patternBudget?: PatternBudget;
  /** Only check refs and count lines; `lines` of the results stay empty. */
  checkOnly?: boolean;
  /**
   * With checkOnly: a whole-file ref is not opened (a named one is only checked to be a regular
   * file) and its `totalLines` is null. For `--list-files`, which needs the files, not their
   * contents: a binary file is listed, as a glob's walk found it (docs/reference.md).
   */
  probeWholeFiles?: boolean;
  /** Most characters one selection may hold (default 64 MiB): past it, a `too_large` error. */
  maxSelectionChars?: number;
  /** Longest `:block` / `:function` / `:class` body (default 10000 lines): past it, cut with a warning. */
  maxBlockLines?: number;
  /**
   * Read only the files this allows: any other is refused (`outside_root`) before it is looked at,
   * so the answer never depends on what it holds (refcat mcp, docs/reference.md#refcat-mcp). It is
   * also what messages may quote; without it, the root and the alias targets defined outside it.
   */
  confine?: Confinement;
  /** Checks: a pattern ref to a file no message may quote is not searched (docs/reference.md#limits-and-hostile-input). */
  unjudgedOutside?: boolean;
  /**
   * Small files read once for a whole command (read-cache.ts): for a caller that checks many refs
   * into the same files against one snapshot of them, such as `verify refs`. Not for streaming.
   */
  readCache?: ReadCache;
  /** `--outline`: each file's outline instead of its lines (docs/refs.md#outlines---outline; prepareOutline() first). */
  outline?: boolean;
  /** What walks read of the tree, kept for a whole command (walk-cache.ts): many globs, one read of each folder. */
  walkCache?: WalkCache;
}

/** One file's extracted lines with everything a renderer needs. */
export interface Extraction {
  /** The ref as the user wrote it (for a glob: the glob ref). */
  ref: string;
  /** Normalized spec of exactly the selected lines (docs/reference.md#ref-specs); null when nothing was selected. */
  spec: string | null;
  alias: string | null;
  /** Absolute path of the file read. */
  path: string;
  /** Path relative to `displayBase`, `/`-separated. */
  relPath: string;
  /** Path to show: `relPath`, or `alias:relPath` for alias refs. */
  displayPath: string;
  /** The folder `displayPath` is relative to (the alias root for alias refs). */
  displayBase: string;
  language: string;
  /** True when no selector was given: the whole file. */
  wholeFile: boolean;
  lineStart: number;
  /** Last selected line; `lineStart - 1` when nothing was selected. */
  lineEnd: number;
  totalLines: number | null;
  wasClamped: boolean;
  /** The selected lines, without their terminators (empty when `onDisk` is set). */
  lines: string[];
  /**
   * Set only by extractSteps() with `onDisk`: the lines are still in the file, to be streamed
   * (docs/reference.md#streaming-and-memory). Valid until the next step is taken: its descriptor
   * is closed then, and the buffer its `bytes` view is read into again.
   */
  onDisk?: ContentSpan;
  /** Set for a symbol ref: the declaration it named. */
  symbol?: SymbolInfo;
  /** Set with `outline`: `lines` are the outline's. */
  outline?: OutlineInfo;
}

export interface ExtractReport {
  results: Extraction[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/**
 * The files a ref names, each made when it is asked for: a glob's thousands of ResolvedFiles are
 * never all held at once (they would outlive a few collections and grow the heap, page by page).
 */
interface FileList {
  readonly length: number;
  at(i: number): ResolvedFile;
}

/** A file a ref names, found on disk (or not yet checked). */
export interface ResolvedFile {
  ref: RefSpec;
  /** The ref text for messages about this one file (for globs: the concrete file). */
  refText: string;
  path: string;
  /** Path relative to `displayBase`, `/`-separated (the path part of normalized specs). */
  relPath: string;
  displayPath: string;
  displayBase: string;
  /** The file is one match of a glob. */
  glob: boolean;
}


/**
 * Extract every ref (docs/reference.md#reading-files and 4). Never throws for a bad ref: every ref is processed, each
 * failure becomes an entry of `errors` (a malformed alias file included, naming the file), each
 * clamp an entry of `warnings`, in the order given. Only a bug escapes.
 *
 * Decision: a pattern after a glob selects in the files it matches; files without a match are
 * skipped, and only a pattern that matches in none of them is an error.
 */
export function extract(refs: readonly (string | RefSpec)[], ctx: Context, given: ExtractOptions = {}): ExtractReport {
  const report: ExtractReport = { results: [], errors: [], warnings: [] };
  for (const step of extractSteps(refs, ctx, given)) {
    if (step.result) report.results.push(step.result);
    report.warnings.push(...step.warnings);
    report.errors.push(...step.errors);
  }
  return report;
}

/** What one file of a ref gave (a result and its warnings), or what a ref failed with. */
export interface ExtractStep {
  result?: Extraction;
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

/** How extractSteps() hands out what it reads. */
export interface StreamOptions {
  /**
   * Whole files and line ranges are measured, not read into memory: their results carry `onDisk`
   * (the file stays open until the next step is taken) instead of `lines`.
   */
  onDisk?: boolean;
  /**
   * With onDisk: `onDisk.bytes` is lent, a view of a read buffer that is read into again once the
   * next step is taken, so whatever keeps bytes past it copies them (the CLI's writer does). A
   * glob then reads its thousands of files into a few buffers. Without it each result's bytes are
   * its own.
   */
  lendBytes?: boolean;
}

/**
 * extract(), one step at a time, in the same order: for output that is written while the refs are
 * read. With `onDisk`, whole files and line ranges are measured, not read into memory: their
 * results carry `onDisk` (the file stays open until the next step is taken) instead of `lines`,
 * and no size cap applies to them (docs/reference.md#streaming-and-memory).
 */
export function* extractSteps(
  refs: readonly (string | RefSpec)[],
  ctx: Context,
  given: ExtractOptions & StreamOptions = {},
): Generator<ExtractStep> {
  const budgeted = given.patternBudget ? given : { ...given, patternBudget: new PatternBudget() };
  // The globs of all the refs of one call read each folder once (walk-cache.ts).
  const options = budgeted.walkCache ? budgeted : { ...budgeted, walkCache: new WalkCache() };
  const aliases = options.aliases ?? new AliasResolver(ctx);
  // Built when a message would quote a line: the alias files are read only then.
  let quoting: Confinement | undefined;
  const quotable = (abs: string) => (quoting ??= options.confine ?? confinementOf(ctx, aliases)).allows(abs);
  for (const input of refs) {
    const refText = typeof input === 'string' ? input : input.raw;
    let spec: RefSpec;
    let files: FileList;
    const walked: WalkWarning[] = [];
    try {
      spec = typeof input === 'string' ? parseRef(input) : input;
      files = fileList(spec, ctx, { ...options, aliases }, walked);
    } catch (err) {
      yield { warnings: [], errors: [asDiagnostic(err, refText)] };
      continue;
    }
    // Mapped only when there are some: V8 compiles this generator for the arrays it has seen, and
    // an empty one beside a full one of another kind would throw the compiled code away.
    if (walked.length > 0) {
      yield { warnings: walked.map((w): Diagnostic => ({ code: w.code, message: `${w.message} in ${spec.raw}`, details: [], ref: spec.raw })), errors: [] };
    }
    let skipped = 0;
    // One options object for all the files of a glob, not a copy per file.
    const fileOptions = { ...options, quotable };
    for (let i = 0; i < files.length; i++) {
      const file = files.at(i);
      let found: { extraction: Extraction; warnings: SelectWarning[] };
      try {
        found = readExtraction(file, fileOptions);
      } catch (err) {
        // A pattern applied to a glob picks the files it matches: the others are not errors.
        if (file.glob && isRefcatError(err) && err.code === 'pattern_not_found') skipped++;
        else yield { warnings: [], errors: [asDiagnostic(err, file.refText)] };
        continue;
      }
      const result = found.extraction;
      const warnings = found.warnings.map((w): Diagnostic => ({ ...w, message: `${w.message} in ${file.refText}`, ref: file.refText }));
      if (result.wasClamped) warnings.unshift(clampWarning(file.refText, result));
      try {
        yield { result, warnings, errors: [] };
      } finally {
        if (result.onDisk) {
          fs.closeSync(result.onDisk.fd);
          result.onDisk.release?.();
        }
      }
    }
    if (skipped > 0 && skipped === files.length && spec.selector?.kind === 'pattern') {
      const message = `Pattern /${spec.selector.source}/ not found in any of the ${files.length} files of ${spec.raw}`;
      yield { warnings: [], errors: [{ code: 'pattern_not_found', message, details: [], ref: spec.raw }] };
    }
  }
}

/** A ref's failure as a diagnostic: every RefcatError (a malformed alias file too) stays with its ref. */
function asDiagnostic(err: unknown, ref: string): Diagnostic {
  if (isRefcatError(err)) return { ...toDiagnostic(err), ref: err.ref ?? ref };
  throw err;
}

/**
 * The files a ref names: one for a plain path, every match for a glob. Throws RefError for an
 * unknown alias, a missing file (with every place searched) or a glob that matches nothing.
 */
export function resolveFiles(
  spec: RefSpec,
  ctx: Context,
  options: ExtractOptions & { aliases: AliasResolver },
  walkWarnings: WalkWarning[] = [],
): ResolvedFile[] {
  const files = fileList(spec, ctx, options, walkWarnings);
  return Array.from({ length: files.length }, (_, i) => files.at(i));
}

/** resolveFiles(), each file made when it is asked for. */
function fileList(
  spec: RefSpec,
  ctx: Context,
  options: ExtractOptions & { aliases: AliasResolver },
  walkWarnings: WalkWarning[],
): FileList {
  const base = options.base ?? ctx.cwd;
  let dirs: string[];
  let displayBase = base;
  if (spec.alias) {
    const root = options.aliases.resolve(spec.alias, spec.raw);
    dirs = [root];
    displayBase = root;
  } else {
    dirs = options.searchDirs ?? [base];
  }
  // A glob's matches are normalized paths: those inside a normalized base are shown by cutting it off.
  const inside = path.resolve(displayBase) === displayBase ? (displayBase.endsWith(path.sep) ? displayBase : displayBase + path.sep) : null;
  const fileOf = (abs: string, glob: boolean): ResolvedFile => {
    // An absolute ref stays absolute in what is shown: `../../tmp/x` would help nobody.
    const cut = glob && !isAbsoluteRef && inside !== null && abs.startsWith(inside) ? abs.slice(inside.length) : null;
    const relPath = isAbsoluteRef ? abs.split(path.sep).join('/') : cut !== null ? toSlashes(cut) : displayRelative(displayBase, abs);
    const displayPath = spec.alias ? `${spec.alias}:${relPath}` : relPath;
    const refText = glob ? formatRef({ alias: spec.alias, path: relPath, selector: spec.selector }) : spec.raw;
    return { ref: spec, refText, path: abs, relPath, displayPath, displayBase, glob };
  };
  const refPath = expandHome(spec.path, ctx.home);
  const isAbsoluteRef = !spec.alias && path.isAbsolute(refPath);

  // With `confine`, a place outside is refused before it is looked at: stat, walk or read.
  const confine = options.confine;
  let refused = false;
  const allowed = (abs: string) => {
    if (!confine || confine.allows(abs)) return true;
    refused = true;
    return false;
  };
  const refuse = () => outside(spec.raw, confine!.root);

  if (hasGlobChars(refPath)) {
    const walks = options.walkCache ?? new WalkCache();
    // A folder searched twice ([its folder, cwd] when they are one) would only count its ignored files twice.
    for (const dir of new Set(dirs)) {
      // A file literally named like a glob (`app/[id]/page.tsx`) is taken as it is.
      const literal = path.resolve(dir, refPath);
      if (!allowed(path.resolve(dir, globBase(refPath))) || !allowed(literal)) continue;
      if (fs.existsSync(literal)) return one(fileOf(literal, false));
      const matches = expandGlob(refPath, dir, options.noIgnore ?? false, walkWarnings, confine, walks);
      // A symlink leading out that the glob reaches refuses the whole ref, before any file is read;
      // the refusal names the ref as written, never a name from outside.
      if (confine && matches.some((abs) => !confine.allows(abs))) throw refuse();
      if (matches.length > 0) return { length: matches.length, at: (i) => fileOf(matches[i]!, true) };
    }
    if (refused) throw refuse();
    const ignored = options.noIgnore ? 0 : [...new Set(dirs)].reduce((n, dir) => n + expandGlob(refPath, dir, true, [], confine, walks).length, 0);
    const hint = ignored > 0 ? [`${ignored} ignored file(s) match (.gitignore, node_modules/, .git/): use --no-ignore to include them`] : [];
    throw new RefError('glob_no_match', `Glob matched no files: ${spec.raw}`, spec.raw, hint);
  }

  const candidates = [...new Set(dirs.map((d) => path.resolve(d, refPath)))];
  for (const candidate of candidates) {
    if (allowed(candidate) && (options.readCache ? options.readCache.exists(candidate, exists) : exists(candidate))) return one(fileOf(candidate, false));
  }
  if (refused) throw refuse();
  throw new RefError(
    'not_found',
    `REFCAT ref not found: ${spec.raw}`,
    spec.raw,
    candidates.map((c) => `Searched: ${c}`),
  );
}

function one(file: ResolvedFile): FileList {
  return { length: 1, at: () => file };
}

/** The folder a glob walks from: its segments before the first with glob characters. */
function globBase(pattern: string): string {
  const segments = pattern.split(/[\\/]/);
  const first = segments.findIndex(hasGlobChars);
  return segments.slice(0, first).join('/') || '.';
}

function toSlashes(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

function exists(p: string): boolean {
  try {
    // No exception for the usual miss: a doc's ref is looked up in several folders.
    return fs.statSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch (err) {
    // Anything but "no such file" (a permission problem, say) is reported when the file is read.
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}

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
function readExtraction(
  file: ResolvedFile,
  options: ExtractOptions & StreamOptions & { quotable?: (abs: string) => boolean },
): { extraction: Extraction; warnings: SelectWarning[] } {
  const { ref, refText } = file;
  if (options.outline && !options.checkOnly) {
    // The ref's lines are counted as for --validate-only (the same errors and warnings), then outlined.
    const checked = readExtraction(file, { ...options, outline: false, checkOnly: true, onDisk: false });
    return { extraction: outlineExtraction(checked.extraction, ref.selector !== null), warnings: checked.warnings };
  }
  const language = languageOf(file.path);
  if (ref.selector?.kind === 'symbol') {
    let named: ReturnType<typeof selectSymbolRef>;
    try {
      named = selectSymbolRef(file.path, ref.selector, refText, { context: options.context ?? 0, countOnly: options.checkOnly ?? false });
    } catch (err) {
      throw (err as NodeJS.ErrnoException).code && !isRefcatError(err) ? readError(err, refText) : err;
    }
    return { extraction: { ...extractionOf(file, language, named.selection, named.count), symbol: named.symbol }, warnings: [] };
  }
  if (options.checkOnly && options.probeWholeFiles && !ref.selector) {
    // --list-files opens no whole file: a glob's walk found a regular file, a named one is stat'ed.
    if (!file.glob) checkRegular(file.path, refText);
    return { extraction: extractionOf(file, language, { start: 1, lines: [], totalLines: null, clamped: false }, 0), warnings: [] };
  }
  if (options.unjudgedOutside && ref.selector?.kind === 'pattern' && !options.quotable?.(file.path)) {
    // No verdict: whether it matches would say what the file holds.
    checkRegular(file.path, refText);
    return { extraction: extractionOf(file, language, { start: 1, lines: [], totalLines: null, clamped: false }, 0), warnings: [PATTERN_OUTSIDE] };
  }
  // A held file is never streamed (onDisk wants a descriptor), nor read with a line cap below its size.
  const held = options.onDisk || (options.maxSelectionChars ?? Infinity) < MAX_CACHED_FILE_BYTES ? null : (options.readCache?.file(file.path) ?? null);
  const { fd, size } = held ? { fd: -1, size: held.size } : openFile(file.path, refText);
  let sel: Selection | undefined;
  let reader: LineReader | undefined;
  try {
    // Reads as large as the file, within bounds: a small file is read in one call into a small
    // buffer (globs read thousands), and a selection left on disk, only measured (no lines
    // decoded), reads faster in larger pieces.
    const measured = options.onDisk && !options.checkOnly && ref.selector?.kind !== 'pattern';
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
      onDisk: (options.onDisk && !options.checkOnly) ?? false,
    };
    const s = ref.selector;
    if (!s) sel = selectWhole(reader, selectOpts);
    else if (s.kind === 'range') sel = selectRange(reader, s, selectOpts);
    else if (s.kind === 'pattern') {
      sel = selectPattern(reader, s, language, { ...selectOpts, budget: options.patternBudget ?? new PatternBudget() });
    } else throw new Error('unreachable: symbol selectors are read above');
  } catch (err) {
    if (err instanceof BinaryContentError) throw new RefError('binary', `Binary file: ${refText}`, refText);
    const s = ref.selector;
    if (err instanceof LineTooLongError && s?.kind === 'pattern') {
      // A pattern search reads every line until it matches: one longer than the cap stops it.
      const mib = Math.round((options.maxSelectionChars ?? DEFAULT_MAX_LINE_BYTES) / (1024 * 1024));
      throw new RefError('too_large', `A line longer than ${mib} MiB stopped the search for /${s.source}/ in ${refText}`, refText, [
        'A pattern is searched line by line; page through the file with `refcat fd read` instead',
      ]);
    }
    const tooLarge = err instanceof LineTooLongError || (err instanceof SelectError && err.code === 'too_large');
    if (tooLarge) {
      const mib = Math.round((options.maxSelectionChars ?? DEFAULT_MAX_SELECTION_CHARS) / (1024 * 1024));
      throw new RefError('too_large', `Selection larger than ${mib} MiB: ${refText}`, refText, [
        'Select a line range (#L1-L500), or page through it with `refcat fd read`',
      ]);
    }
    if (err instanceof SelectError) {
      // A line is quoted only from a file under the root or an alias target: a ref in a workflow
      // or doc could otherwise print any readable file into a CI log (docs/reference.md#limits-and-hostile-input).
      const quote = err.excerpt !== undefined && options.quotable?.(file.path) ? `: ${err.excerpt}` : '';
      const message = err.code === 'not_a_declaration' ? `${err.message}${quote} (in ${refText})` : `${err.message} in ${refText}`;
      throw new RefError(err.code, message, refText);
    }
    throw readError(err, refText);
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
  if (sel.onDisk) {
    // The bytes of a selection the reader still holds are written from memory, not read again.
    // Lent, they are a view of the reader's buffer, given back when the step ends (extractSteps).
    const bytes = reader?.held(sel.onDisk.start, sel.onDisk.end) ?? undefined;
    if (bytes && options.lendBytes) {
      const lent = reader!;
      extraction.onDisk = { fd, ...sel.onDisk, bytes, release: () => lent.release() };
    } else {
      extraction.onDisk = bytes ? { fd, ...sel.onDisk, bytes: Buffer.from(bytes) } : { fd, ...sel.onDisk };
      reader?.release();
    }
  }
  return { extraction, warnings: sel.warnings ?? [] };
}

/** The Extraction of `count` lines of `file` selected as `sel` says. */
function extractionOf(file: ResolvedFile, language: string, sel: Selection, count: number): Extraction {
  const { ref, refText } = file;
  const lineEnd = sel.start + count - 1;
  const empty = lineEnd < sel.start;
  const extraction: Extraction = {
    ref: refText,
    spec: empty && ref.selector ? null : specOf(ref.alias, file.relPath, ref.selector ? { start: sel.start, end: lineEnd } : null),
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
    if (stat.isDirectory()) throw new RefError('is_directory', `Is a directory: ${refText}`, refText);
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
  if (stat.isDirectory()) throw new RefError('is_directory', `Is a directory: ${refText}`, refText);
  if (!stat.isFile()) throw new RefError('not_regular', `Not a regular file: ${refText}`, refText);
}

function readError(err: unknown, refText: string): RefError {
  if (err instanceof RefError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return new RefError('is_directory', `Is a directory: ${refText}`, refText);
  if (code === 'ELOOP') return new RefError('unreadable', `Cannot read ${refText}: a symlink loop (each link leads to another, never to a file)`, refText);
  if (code === 'EACCES' || code === 'EPERM') {
    return new RefError('unreadable', `Cannot read ${refText}: permission denied`, refText);
  }
  if (code === 'ENOENT') return new RefError('not_found', `REFCAT ref not found: ${refText}`, refText);
  return new RefError('unreadable', `Cannot read ${refText}: ${(err as Error).message}`, refText);
}

function clampWarning(refText: string, r: Extraction): Diagnostic {
  const total = r.totalLines ?? 0;
  const has = `File has ${total} ${total === 1 ? 'line' : 'lines'}`;
  const detail = r.lineEnd < r.lineStart ? `${has}, nothing left to select` : `${has}, will clamp to L${r.lineStart}-L${r.lineEnd}`;
  return { code: 'clamped', message: `REFCAT line range exceeds file bounds: ${refText}`, details: [detail], ref: refText };
}
