import fs from 'node:fs';
import path from 'node:path';
import { hasGlobChars } from '../walk/glob.js';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, FdError, isRefcatError, UsageError } from '../../shared/errors.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { extract, resolveFiles } from '../extract/extract.js';
import { BinaryContentError } from '../extract/line-reader.js';
import { readError } from '../extract/read-extraction.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { type Confinement, outside } from '../safe-read/confinement.js';
import { prepareSymbolRefs } from '../symbols/prepare-symbol-refs.js';
import { FileSource, fileChunks, scanFile } from './byte-source.js';
import { redactContent } from './fd-secrets.js';
import type { SecretsMode } from '../secrets/secrets-mode.js';
import { type Content, inMemory, ingest, PRETTY_JSON_LIMIT, prettyJsonChunks, prettyOrWarn, tooLargeForPretty } from './ingest.js';
import { PageIndexDamagedError, pageOfLine } from './page-index.js';
import { checkPageSize, DEFAULT_PAGE_SIZE } from './page-builder.js';
import { isText } from './byte-scanner.js';
import { parseEntryId, Store } from './fd-store.js';
import { type SourceVersions, sourceVersions } from './fd-version.js';

export interface LineRange {
  start: number;
  /** null: to the end. */
  end: number | null;
}

export interface FdReadOptions {
  /** A file, `-` / undefined (stdin), `fd:N`, `ref:ID` or a ref spec. */
  source?: string;
  page?: number;
  all?: boolean;
  lines?: LineRange;
  pageSize?: number;
  prettyJson?: boolean;
  /** Store the content (and answer with an fd) even when it is a file or fits one page. */
  save?: boolean;
  /** `--store DIR`. */
  store?: string;
  /**
   * Read only files this allows, judged by real path: every file a glob, ref or path reaches is
   * refused (`outside_root`) before it is read (refcat mcp, docs/reference.md#refcat-mcp).
   */
  confine?: Confinement;
  /** `allow` pages content as it is; `withhold` and `fail` answer content holding a secret with an fd error; `redact` (the default) redacts (docs/refs.md#secrets). */
  secrets?: SecretsMode;
}

/** What `fd read` answers; renderers turn it into XML, JSON or raw text. */
export interface FdView {
  /** plain: fits one page, shown as is; result: first page and how to get more; page/all/lines: fd_content. */
  kind: 'plain' | 'result' | 'page' | 'all' | 'lines';
  /** The handle to read more with: `fd:7`, `ref:x`, the path or ref spec read, or `stdin`. */
  fd: string;
  page: number | null;
  pages: number;
  pageSize: number;
  continued: boolean;
  truncated: boolean;
  lineStart: number;
  lineEnd: number;
  totalLines: number;
  /** `result`: the command that reads page 2. */
  next: string | null;
  /** The text, in blocks (a 1 GiB `--all` is streamed, never held). */
  text: Iterable<string>;
  warnings: Diagnostic[];
  /** `--tokens`: the tokens of `text` (set by the caller that counted them). */
  tokens?: number;
  /** Release open files once the text has been consumed. */
  close(): void;
}

/**
 * `refcat fd read` (docs/reference.md#fd-and-ref): get the content (storing stdin, or a file with `save`), then answer
 * the page, range or overview asked for. Throws FdError (shown as fd_error) for unknown fds, pages
 * or lines out of range and binary content; UsageError for bad option combinations.
 */
export async function readFd(opts: FdReadOptions, ctx: Context, stdin: AsyncIterable<Buffer | string>): Promise<FdView> {
  const pageSize = checkPageSize(opts.pageSize ?? DEFAULT_PAGE_SIZE);
  const selections = [opts.page !== undefined, opts.all === true, opts.lines !== undefined].filter(Boolean).length;
  if (selections > 1) throw new UsageError('Use only one of --page, --all and --lines');
  const warnings: Diagnostic[] = [];
  const loaded = await load(opts, pageSize, ctx, stdin, warnings);
  const { onTheFly } = loaded;
  // No page spells a secret: the whole content is checked first (fd-secrets.ts).
  const name = opts.source === undefined || opts.source === '-' ? 'stdin' : opts.source;
  const content = opts.secrets === 'allow' ? loaded.content : await redactContent(loaded.content, { pageSize, store: () => Store.at(ctx, opts.store), persist: 'if-large', source: loaded.content.label ?? name, name, mode: opts.secrets }, warnings);
  try {
    return view(content, opts, pageSize, ctx, warnings, onTheFly);
  } catch (err) {
    content.bytes.close();
    content.pages.close();
    if (err instanceof PageIndexDamagedError) {
      const name = content.label ?? 'stdin';
      throw new FdError('damaged', name, `${name} is damaged (${err.message}); close it and read the content again`);
    }
    throw err;
  }
}

/** What a source loads as: its content, and whether its pages are made on the fly (in memory). */
type Loaded = { content: Content; onTheFly: boolean };

async function load(
  opts: FdReadOptions,
  pageSize: number,
  ctx: Context,
  stdin: AsyncIterable<Buffer | string>,
  warnings: Diagnostic[],
): Promise<Loaded> {
  const source = opts.source === undefined || opts.source === '-' ? null : opts.source;
  const store = () => Store.at(ctx, opts.store);
  const persist = opts.save ? 'always' : 'if-large';
  const label = source ?? 'stdin';
  const guard = <T>(p: Promise<T>): Promise<T> => p.catch((err) => Promise.reject(readFailure(binaryError(err, label), label)));
  const keep = (chunks: Iterable<string> | AsyncIterable<Buffer | string>, as: string) => guard(ingest(chunks, { pageSize, store, persist, source: as }));

  if (source === null) {
    const chunks = opts.prettyJson ? prettyJsonChunks(stdin, warnings) : stdin;
    return { content: await guard(ingest(chunks, { pageSize, store, persist, source: 'stdin' })), onTheFly: false };
  }

  if (parseEntryId(source)) return storedEntry(store().open(source), opts, pageSize, warnings);

  const at = await sourceVersions(source, ctx, opts.confine);
  const found = fileOf(source, ctx, opts.confine, at, warnings);
  if (found?.bytes) {
    // A file read at a version whose checkout differs: its bytes at that version are the content.
    if (!isText(found.bytes)) throw binaryError(new BinaryContentError('binary'), source);
    return textContent(found.bytes.toString('utf8'), source, opts, pageSize, warnings, keep);
  }
  const file = found?.path ?? null;
  if (file && isPipe(file, source)) {
    // A pipe (`/dev/stdin`, `<(cmd)`, a FIFO) is read once, as a stream, like stdin: it cannot be
    // read again for a later page, so it is stored when it does not fit one.
    const stream = fs.createReadStream(file);
    const chunks = opts.prettyJson ? prettyJsonChunks(stream, warnings) : stream;
    return { content: await guard(ingest(chunks, { pageSize, store, persist, source: label })), onTheFly: false };
  }
  if (file) {
    if (opts.save) {
      const chunks = opts.prettyJson ? prettyJsonChunks(fileChunks(file), warnings) : fileChunks(file);
      return { content: await guard(ingest(chunks, { pageSize, store, persist, source: path.resolve(ctx.cwd, file) })), onTheFly: false };
    }
    const pretty = opts.prettyJson ? prettyText(file, source, warnings) : null;
    if (pretty !== null) return { content: inMemory(pretty, source, pageSize), onTheFly: true };
    try {
      const { table, totals } = scanFile(file, pageSize);
      return { content: { label: source, stored: false, bytes: new FileSource(file), pages: table, totals }, onTheFly: false };
    } catch (err) {
      throw readFailure(binaryError(err, source), source);
    }
  }

  // A ref spec: its selected lines are the content. A ref by name needs its grammar loaded first.
  await prepareSymbolRefs([source]);
  return textContent(selectedText(source, ctx, warnings, opts.confine, at), source, opts, pageSize, warnings, keep);
}

/** A stored entry (`fd:N`, `ref:ID`) paged from the store, or, re-indented with --pretty-json, from memory. */
function storedEntry(entry: ReturnType<Store['open']>, opts: FdReadOptions, pageSize: number, warnings: Diagnostic[]): Loaded {
  const pretty = opts.prettyJson ? prettyText(entry.contentPath, entry.meta.id, warnings) : null;
  if (pretty !== null) {
    entry.close();
    return { content: inMemory(pretty, entry.meta.id, pageSize), onTheFly: true };
  }
  return { content: { label: entry.meta.id, stored: false, bytes: entry.source(), pages: entry.pages(pageSize), totals: entry.meta }, onTheFly: false };
}

/** Text as the content (a version's bytes, a ref's lines): re-indented with --pretty-json, stored with --save (`keep`), else paged from memory. */
async function textContent(
  text: string,
  source: string,
  opts: FdReadOptions,
  pageSize: number,
  warnings: Diagnostic[],
  keep: (chunks: string[], as: string) => Promise<Content>,
): Promise<Loaded> {
  const shown = opts.prettyJson ? prettyOrWarn(text, warnings) : text;
  if (opts.save) return { content: await keep([shown], source), onTheFly: false };
  return { content: inMemory(shown, source, pageSize), onTheFly: opts.prettyJson === true };
}

/**
 * The file a source names directly: an existing path, or a ref spec without a selector. The path
 * is not normalized first: the file system, not string rules, decides what `fd-../..` names.
 */
function fileOf(
  source: string,
  ctx: Context,
  confine: Confinement | undefined,
  at: SourceVersions | null,
  warnings: Diagnostic[],
): { path: string; bytes: Buffer | null } | null {
  // An empty argument (an unset variable) would name the working folder.
  if (source === '') throw new FdError('not_found', source, "No such file: '' (an empty path)");
  const direct = path.isAbsolute(source) ? source : ctx.cwd + path.sep + source;
  let spec;
  try {
    if (fs.statSync(direct).isDirectory()) throw new FdError('is_directory', source, `Is a directory: ${source}`);
    // Judged by the real path the file system reached, not by the spelling (`link/..`).
    if (confine && !confine.allows(fs.realpathSync(direct))) throw outside(source, confine.root);
    return { path: path.resolve(direct), bytes: null };
  } catch (err) {
    if (isRefcatError(err)) throw err;
    // A link that leads to itself is a file there, unreadable: not a ref to look up (and not found).
    // A confined reader says nothing more of a path than before: it may lie outside.
    if (!confine && (err as NodeJS.ErrnoException).code === 'ELOOP') throw asFdError(readError(err, source), source);
    spec = parseSource(source, ctx);
  }
  if (spec.selector) return null;
  if (spec.alias === null && !hasGlobChars(spec.path) && !exists(path.isAbsolute(spec.path) ? spec.path : ctx.cwd + path.sep + spec.path)) {
    throw new FdError('not_found', source, `REFCAT ref not found: ${source} (Searched: ${path.resolve(ctx.cwd, spec.path)})`);
  }
  try {
    const files = resolveFiles(spec, ctx, { aliases: at?.aliases ?? new AliasResolver(ctx), confine, versions: at?.versions });
    if (files.length !== 1) throw new UsageError(`fd read pages one file; ${source} matches ${files.length} files`);
    // Bytes null: the checkout holds the version's file as it is, paged in place.
    return { path: files[0]!.path, bytes: files[0]!.version?.bytes ?? null };
  } catch (err) {
    throw asFdError(err, source);
  } finally {
    // A pinned alias read at its pin says so, as extraction does.
    if (at) warnings.push(...at.versions.takeWarnings());
  }
}

function exists(p: string): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** A FIFO or socket is a pipe; a device (`/dev/zero`, a terminal) is refused, it may never end. */
function isPipe(file: string, source: string): boolean {
  const st = fs.statSync(file);
  if (st.isFIFO() || st.isSocket()) return true;
  if (st.isDirectory()) throw new FdError('is_directory', source, `Is a directory: ${source}`);
  if (!st.isFile()) throw new FdError('not_regular', source, `Not a regular file: ${source} (a device)`);
  return false;
}

/** A file that cannot be read (no permission, an I/O error) is an fd_error naming it. */
function readFailure(err: unknown, source: string): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return new FdError('unreadable', source, `Cannot read ${source}: permission denied`);
  if (typeof code === 'string' && code.startsWith('E')) return new FdError('unreadable', source, `Cannot read ${source}: ${code}`);
  return err;
}

/** A source that is no existing file must be a ref spec; a plain name that is neither is not found. */
function parseSource(source: string, ctx: Context) {
  try {
    return parseRef(source);
  } catch (err) {
    if (source.startsWith('@') || source.includes('#')) throw err;
    throw new FdError('not_found', source, `REFCAT ref not found: ${source} (Searched: ${path.resolve(ctx.cwd, source)})`);
  }
}

function selectedText(source: string, ctx: Context, warnings: Diagnostic[], confine: Confinement | undefined, at: SourceVersions | null): string {
  const report = extract([source], ctx, at ? { confine, aliases: at.aliases, versions: at.versions } : { confine });
  if (report.errors.length > 0) {
    const e = report.errors[0]!;
    if (e.code === 'invalid_ref' || e.code === 'outside_root') throw new UsageError(e.message, { code: e.code });
    throw fdError(e.code, source, e.message, e.details);
  }
  if (report.results.length !== 1) throw new UsageError(`fd read pages one file; ${source} matches ${report.results.length} files`);
  warnings.push(...report.warnings);
  const lines = report.results[0]!.lines;
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}

/** A stored or named file's JSON re-indented; null (with a warning) when it is too large for that. */
function prettyText(file: string, label: string, warnings: Diagnostic[]): string | null {
  if (fs.statSync(file).size > PRETTY_JSON_LIMIT) {
    warnings.push(tooLargeForPretty(label));
    return null;
  }
  const buf = fs.readFileSync(file);
  if (!isText(buf)) throw binaryError(new BinaryContentError('binary'), label);
  return prettyOrWarn(buf.toString('utf8'), warnings);
}



function binaryError(err: unknown, label: string): unknown {
  if (err instanceof BinaryContentError) return new FdError('binary', label, `Binary content cannot be paged: ${label}`);
  return err;
}

function asFdError(err: unknown, source: string): unknown {
  if (!isRefcatError(err) || err instanceof UsageError || err instanceof FdError) return err;
  return fdError(err.code, source, err.message, err.details);
}

/** An extraction failure as an fd_error: its detail lines (places searched) in parentheses. */
function fdError(code: string, source: string, message: string, details: string[]): FdError {
  return new FdError(code, source, details.length > 0 ? `${message} (${details.join('; ')})` : message);
}

function view(c: Content, opts: FdReadOptions, pageSize: number, ctx: Context, warnings: Diagnostic[], onTheFly: boolean): FdView {
  // Unstored stdin has no handle to come back with; it is named for what it is.
  const fd = c.label ?? 'stdin';
  const count = c.pages.count;
  const base = {
    fd,
    pages: count,
    pageSize,
    totalLines: c.totals.lines,
    warnings,
    close: () => {
      c.bytes.close();
      c.pages.close();
    },
  };

  if (opts.lines) return { ...base, ...linesView(c, fd, opts.lines, warnings) };

  if (opts.all) {
    const first = c.pages.get(1);
    return {
      ...base,
      kind: 'all',
      page: null,
      continued: false,
      truncated: false,
      lineStart: first.lineStart,
      lineEnd: c.totals.lines,
      next: null,
      text: c.bytes.text(0, c.totals.bytes),
    };
  }

  if (opts.page !== undefined && (opts.page < 1 || opts.page > count)) {
    throw new FdError('invalid_page', fd, `Invalid page number. Valid range: 1-${count}`);
  }
  const n = opts.page ?? 1;
  const span = c.pages.get(n);
  const kind = opts.page !== undefined ? 'page' : count <= 1 && !c.stored ? 'plain' : 'result';
  return {
    ...base,
    kind,
    page: n,
    continued: span.continued,
    truncated: span.truncated,
    lineStart: span.lineStart,
    lineEnd: span.lineEnd,
    next: kind === 'result' && count > 1 ? nextCommand(fd, opts, pageSize, ctx, onTheFly) : null,
    text: c.bytes.text(span.start, span.end),
  };
}

/** `--lines START-END`: those lines, an end past the content clamped with a warning. */
function linesView(c: Content, fd: string, lines: NonNullable<FdReadOptions['lines']>, warnings: Diagnostic[]) {
  const total = c.totals.lines;
  const { start } = lines;
  if (start > total) {
    const range = total === 0 ? 'none, the content is empty' : `1-${total}`;
    throw new FdError('invalid_lines', fd, `Invalid line range. Valid range: ${range}`);
  }
  let end = lines.end ?? total;
  if (end > total) {
    warnings.push({
      code: 'clamped',
      message: `Line range exceeds content bounds: ${fd} --lines ${start}-${end}`,
      details: [`Content has ${total} line${total === 1 ? '' : 's'}, will clamp to ${start}-${total}`],
    });
    end = total;
  }
  const from = lineOffset(c, start);
  const to = lineOffset(c, end + 1);
  return { kind: 'lines' as const, page: null, continued: false, truncated: false, lineStart: start, lineEnd: end, next: null, text: c.bytes.text(from, to) };
}

/** The byte offset where line `line` starts (the content's size past the last line). */
function lineOffset(c: Content, line: number): number {
  if (line > c.totals.lines) return c.totals.bytes;
  const span = c.pages.get(pageOfLine(c.pages, line));
  // The line starts on this page; walk from the page start over the newlines before it.
  const buf = c.bytes.bytes(span.start, span.end);
  // (If the page starts inside line lineStart, the first newline ends that line all the same.)
  let at = 0;
  for (let cur = span.lineStart; cur < line; cur++) at = buf.indexOf(0x0a, at) + 1;
  return span.start + at;
}

/** `refcat fd read <label> --page 2`, with the flags that change the pages. */
function nextCommand(label: string, opts: FdReadOptions, pageSize: number, ctx: Context, onTheFly: boolean): string {
  let cmd = `refcat fd read ${shellQuote(label)} --page 2`;
  if (pageSize !== DEFAULT_PAGE_SIZE) cmd += ` --page-size ${pageSize}`;
  if (onTheFly) cmd += ' --pretty-json';
  if (opts.store) cmd += ` --store ${shellQuote(path.resolve(ctx.cwd, opts.store))}`;
  return cmd;
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
