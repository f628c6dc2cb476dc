import type { Diagnostic } from '../../shared/errors.js';
import { visible } from '../../shared/visible.js';
import type { ExtractReport, Extraction } from '../extract/extract.js';
import { specOf } from '../ref-spec/format-ref-spec.js';
import { citeComment } from '../snippets/cite-comment.js';
import { fenceFor, fenceOfLength } from '../snippets/fence-length.js';
import { longestBacktickRun, spanJsonBytes, spanLinesBytes, spanPrefixedBytes } from '../extract/content-span.js';
import { atVersion, outlineHeader, outlineJson, outlineMarkdown, outlineShown } from './render-outline.js';

export type OutputFormat = 'markdown' | 'json' | 'spec' | 'raw' | 'cite';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['markdown', 'json', 'spec', 'raw', 'cite'];

export interface RenderOptions {
  lineNumbers: boolean;
  /** Add ` (relative to <base>)` to markdown headers. */
  showCwd: boolean;
  /** Show absolute paths (headers, spec output, display_path). */
  absolute: boolean;
  /** Markdown `## From:` header. */
  attribution: boolean;
  /** JSON: include each ref's `content` (off for `--validate-only --json`). */
  content?: boolean;
}

export const DEFAULT_RENDER_OPTIONS: RenderOptions = {
  lineNumbers: true,
  showCwd: true,
  absolute: false,
  attribution: true,
};

type Renderer = (report: ExtractReport, opts: RenderOptions) => string;

/**
 * One renderer per format (STYLE 7). Each returns the whole stdout text; it is the text an
 * ExtractionWriter streams, joined. A selection that came out empty (a start past the end of the
 * file, also warned about on stderr) leaves a note in markdown where its block would be, so that a
 * prompt built from stdout shows the gap; raw and spec output have nothing for it, and JSON lists
 * it with empty content.
 */
export const renderers: Record<OutputFormat, Renderer> = {
  markdown: (report, opts) => renderAll('markdown', report, opts),
  raw: (report, opts) => renderAll('raw', report, opts),
  spec: (report, opts) => renderAll('spec', report, opts),
  json: (report, opts) => renderAll('json', report, opts),
  cite: (report, opts) => renderAll('cite', report, opts),
};

function renderAll(format: OutputFormat, report: ExtractReport, opts: RenderOptions): string {
  const writer = new ExtractionWriter(format, opts);
  return writer.begin() + joinChunks(report.results.flatMap((r) => [...writer.add(r)])) + writer.end(report);
}

/** Chunks as one string; bytes are decoded as a stream (a chunk may end inside a character). */
function joinChunks(chunks: Iterable<OutputChunk>): string {
  const bytes = new TextDecoder('utf-8');
  let out = '';
  for (const chunk of chunks) out += typeof chunk === 'string' ? chunk : bytes.decode(chunk, { stream: true });
  return out + bytes.decode();
}

/** A piece of output: text, or UTF-8 bytes passed through from a file as they are. */
export type OutputChunk = string | Buffer;

/** Text is handed out in pieces of about this many characters. */
const CHUNK_CHARS = 1 << 16;

/**
 * The stdout text of one format, result by result, for output written while refs are still being
 * read (docs/reference.md#streaming-and-memory): `begin()`, then `add()` for each result in
 * order, then `end()` with the diagnostics. JSON lists its refs first, then errors and warnings;
 * every format gives exactly the text its renderer gives.
 */
export class ExtractionWriter {
  private count = 0;
  /** `cite`: blocks written (an empty selection has none). */
  private cited = 0;

  constructor(
    private readonly format: OutputFormat,
    private readonly opts: RenderOptions,
  ) {}

  begin(): string {
    return this.format === 'json' ? '{\n  "version": 1,\n  "refs": [' : '';
  }

  /**
   * The text of one result, in chunks: strings, and for a result on disk its bytes as read (UTF-8
   * text, possibly cut inside a character: write them as bytes, or decode them as a stream).
   */
  *add(r: Extraction): Generator<OutputChunk> {
    const first = this.count++ === 0;
    switch (this.format) {
      case 'markdown':
        yield* markdownBlock(r, this.opts, first ? '' : '\n');
        return;
      case 'raw':
        if (!isEmpty(r)) yield* bodyText(r.outline ? { ...r, lines: outlineShown(r, this.opts) } : r);
        return;
      case 'spec':
        if (!isEmpty(r)) yield specFor(r, this.opts) + '\n';
        return;
      case 'json':
        yield* jsonRef(r, this.opts, first);
        return;
      case 'cite':
        if (isEmpty(r)) return;
        if (this.cited++ > 0) yield '\n';
        yield* citeBlock(r, this.opts);
        return;
    }
  }

  end(report: Pick<ExtractReport, 'errors' | 'warnings'>): string {
    if (this.format !== 'json') return '';
    const list = (items: Diagnostic[]) => indent(JSON.stringify(items.map(diagnosticJson), null, 2), '  ');
    return `${this.count > 0 ? '\n  ]' : ']'},\n  "errors": ${list(report.errors)},\n  "warnings": ${list(report.warnings)}\n}\n`;
  }
}

/** Every line of `text` but the first indented by `pad` (the first follows a key or a comma). */
function indent(text: string, pad: string): string {
  return text.replaceAll('\n', '\n' + pad);
}

function* jsonRef(r: Extraction, opts: RenderOptions, first: boolean): Generator<OutputChunk> {
  const lead = first ? '\n    ' : ',\n    ';
  const fields = {
    ref: r.ref,
    spec: r.spec === null ? null : specFor(r, opts),
    alias: r.alias,
    path: r.path,
    display_path: opts.absolute ? r.path : r.displayPath,
    language: r.language,
    line_start: r.lineStart,
    line_end: r.lineEnd,
    total_lines: r.totalLines,
    was_clamped: r.wasClamped,
    ...(r.commit ? { commit: r.commit } : {}),
    // A symbol ref says what it named (docs/symbols.md#output).
    ...(r.symbol ? { symbol: { path: r.symbol.path, kind: r.symbol.kind } } : {}),
    // The lines a secret was redacted in, by rule (docs/refs.md#secrets).
    ...(r.redacted ? { redacted: r.redacted.map((x) => ({ line: x.line, rule: x.rule })) } : {}),
  };
  if (opts.content === false) {
    yield lead + indent(JSON.stringify(fields, null, 2), '    ');
    return;
  }
  if (r.outline) {
    // The outline before its content, which stays last: the shell is cut open at its `""`.
    const lines = outlineShown(r, opts);
    const shell = indent(JSON.stringify({ ...fields, outline: outlineJson(r, opts), content: lines.join('\n') }, null, 2), '    ');
    yield lead + shell;
    return;
  }
  // The object with an empty content, cut open where the content goes.
  const shell = indent(JSON.stringify({ ...fields, content: '' }, null, 2), '    ');
  const at = shell.lastIndexOf('""');
  yield lead + shell.slice(0, at + 1);
  if (r.onDisk) {
    yield* spanJsonBytes(r.onDisk);
  } else {
    yield* inChunks(r.lines, (line, i) => (i === 0 ? '' : '\\n') + jsonEscape(line));
  }
  yield shell.slice(at + 1);
}

/** `s` as it is inside a JSON string (without the quotes). */
function jsonEscape(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** Lines mapped to text, handed out in chunks of about CHUNK_CHARS. */
function* inChunks(lines: readonly string[], map: (line: string, i: number) => string): Generator<string> {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    out += map(lines[i]!, i);
    if (out.length >= CHUNK_CHARS) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}

/** The selected lines, each ended by a newline. */
function* bodyText(r: Extraction): Generator<OutputChunk> {
  if (r.onDisk) yield* spanLinesBytes(r.onDisk);
  else yield* inChunks(r.lines, (line) => line + '\n');
}

/** A selection that came out empty (a start past the end of the file). */
function isEmpty(r: Extraction): boolean {
  return !r.wholeFile && r.lineEnd < r.lineStart;
}

/** `## From: a.py:40 ...` (`## Outline:` with --outline) then a quoted note instead of a fenced block. */
function renderNothingSelected(r: Extraction, opts: RenderOptions): string {
  const total = r.totalLines ?? 0;
  const note = `> Nothing selected: line ${r.lineStart} is past the end of the file (${total} ${total === 1 ? 'line' : 'lines'}).`;
  // Under --outline the header is the outline's, as for every other file of the run.
  return (opts.attribution ? (r.outline ? outlineHeader(r, opts) : header(r, opts)) + '\n' : '') + note + '\n';
}

function specFor(r: Extraction, opts: RenderOptions): string {
  if (!opts.absolute || r.alias || r.spec?.startsWith('.@')) return r.spec ?? '';
  return specOf(null, r.path, r.wholeFile ? null : { start: r.lineStart, end: r.lineEnd });
}

/** One result as a markdown block: header, fence, (numbered) lines, fence. */
export function renderMarkdownBlock(r: Extraction, opts: RenderOptions): string {
  return joinChunks(markdownBlock(r, opts, ''));
}

/** The block after `lead` (the blank line between blocks), in as few chunks as it can. */
function* markdownBlock(r: Extraction, opts: RenderOptions, lead: string): Generator<OutputChunk> {
  if (isEmpty(r)) {
    yield lead + renderNothingSelected(r, opts);
    return;
  }
  if (r.outline) {
    yield lead + outlineMarkdown(r, opts, fenceFor);
    return;
  }
  const fence = r.onDisk ? fenceOfLength(longestBacktickRun(r.onDisk)) : fenceFor(r.lines);
  yield lead + (opts.attribution ? header(r, opts) + '\n' : '') + `${fence}${r.language}\n`;
  if (opts.lineNumbers && !r.wholeFile) yield* numberedLines(r);
  else yield* bodyText(r);
  yield fence + '\n';
}

/**
 * `--cite` (docs/refs.md#writing-citations---cite): a citation `verify refs` reads back as verbatim:
 * the fence, the ref as a comment of the file's language, the lines as they are.
 */
function* citeBlock(r: Extraction, opts: RenderOptions): Generator<OutputChunk> {
  const fence = r.onDisk ? fenceOfLength(longestBacktickRun(r.onDisk)) : fenceFor(r.lines);
  yield `${fence}${r.language}\n${citeComment(r.language, specFor(r, opts))}\n`;
  yield* bodyText(r);
  yield fence + '\n';
}

/**
 * `## From: path:range (relative to base)`. Paths are shown with their control characters escaped
 * (`\x0a`), as in messages: a file name must not end the header line, forge another header or
 * fence, or reach the terminal.
 */
function header(r: Extraction, opts: RenderOptions): string {
  const shown = opts.absolute ? r.path : r.displayPath;
  const range = r.wholeFile ? '' : r.lineStart >= r.lineEnd ? `:${r.lineStart}` : `:${r.lineStart}-${r.lineEnd}`;
  const cwd = opts.showCwd && !opts.absolute && !shown.startsWith('/') ? ` (relative to ${visible(r.displayBase)})` : '';
  // A read at a version says which (docs/refs.md#refs-at-a-version).
  return `## From: ${visible(shown)}${range}${atVersion(r)}${cwd}`;
}

/** `NN | line` for each selected line, numbers right-aligned to the widest. */
function* numberedLines(r: Extraction): Generator<OutputChunk> {
  const width = String(r.lineEnd).length;
  const prefix = (n: number) => `${String(n).padStart(width)} | `;
  if (r.onDisk) yield* spanPrefixedBytes(r.onDisk, r.lineStart, prefix, CHUNK_CHARS);
  else yield* inChunks(r.lines, (line, i) => prefix(r.lineStart + i) + line + '\n');
}

export function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = { ref: d.ref ?? null, code: d.code, message: d.message };
  if (d.details.length > 0) out.details = d.details;
  return out;
}

/** `--validate-only`: one `✓ <ref> → <path> (<a>-<b>)` line per checked file. */
export function renderCheck(report: ExtractReport, opts: RenderOptions): string {
  return report.results
    .map((r) => {
      const lines = r.lineEnd < r.lineStart ? 'no lines' : `${r.lineStart}-${r.lineEnd}`;
      return `✓ ${visible(r.ref)} → ${visible(opts.absolute ? r.path : (r.fileSpec ?? r.displayPath))} (${lines})\n`;
    })
    .join('');
}

/** Diagnostics as text lines for stderr: `Error: msg` then indented details. */
export function renderDiagnostic(kind: 'Error' | 'Warning', d: Diagnostic, label: (s: string) => string = (s) => s): string {
  return [`${label(kind + ':')} ${visible(d.message)}`, ...d.details.map((x) => `  ${visible(x)}`)].join('\n') + '\n';
}
