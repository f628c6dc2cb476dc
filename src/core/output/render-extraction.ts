import type { Diagnostic } from '../../shared/errors.js';
import { visible } from '../../shared/visible.js';
import type { ExtractReport, Extraction } from '../extract/extract.js';
import { specOf } from '../ref-spec/format-ref-spec.js';

export type OutputFormat = 'markdown' | 'json' | 'spec' | 'raw';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['markdown', 'json', 'spec', 'raw'];

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
 * One pure renderer per format (STYLE 7). Each returns the whole stdout text. A selection that
 * came out empty (a start past the end of the file, also warned about on stderr) leaves a note in
 * markdown where its block would be, so that a prompt built from stdout shows the gap; raw and
 * spec output have nothing for it, and JSON lists it with empty content.
 */
export const renderers: Record<OutputFormat, Renderer> = {
  markdown: (report, opts) => report.results.map((r) => renderMarkdownBlock(r, opts)).join('\n'),
  raw: (report) =>
    nonEmpty(report.results)
      .map((r) => r.lines.map((l) => l + '\n').join(''))
      .join(''),
  spec: (report, opts) =>
    nonEmpty(report.results)
      .map((r) => specFor(r, opts) + '\n')
      .join(''),
  json: (report, opts) => JSON.stringify(toJson(report, opts), null, 2) + '\n',
};

function nonEmpty(results: Extraction[]): Extraction[] {
  return results.filter((r) => !isEmpty(r));
}

/** A line range that starts past the end of its file selects nothing. */
function isEmpty(r: Extraction): boolean {
  return !r.wholeFile && r.lineEnd < r.lineStart;
}

/** `## From: a.py:40 ...` then a quoted note instead of a fenced block. */
function renderNothingSelected(r: Extraction, opts: RenderOptions): string {
  const total = r.totalLines ?? 0;
  const note = `> Nothing selected: line ${r.lineStart} is past the end of the file (${total} ${total === 1 ? 'line' : 'lines'}).`;
  return (opts.attribution ? header(r, opts) + '\n' : '') + note + '\n';
}

function specFor(r: Extraction, opts: RenderOptions): string {
  if (!opts.absolute || r.alias) return r.spec ?? '';
  return specOf(null, r.path, r.wholeFile ? null : { start: r.lineStart, end: r.lineEnd });
}

export function renderMarkdownBlock(r: Extraction, opts: RenderOptions): string {
  if (isEmpty(r)) return renderNothingSelected(r, opts);
  const numbered = opts.lineNumbers && !r.wholeFile;
  const body = numbered ? numberLines(r.lines, r.lineStart) : r.lines;
  const fence = fenceFor(r.lines);
  let out = '';
  if (opts.attribution) out += header(r, opts) + '\n';
  out += `${fence}${r.language}\n`;
  for (const line of body) out += line + '\n';
  out += fence + '\n';
  return out;
}

function header(r: Extraction, opts: RenderOptions): string {
  const shown = opts.absolute ? r.path : r.displayPath;
  const range = r.wholeFile ? '' : r.lineStart >= r.lineEnd ? `:${r.lineStart}` : `:${r.lineStart}-${r.lineEnd}`;
  const cwd = opts.showCwd && !opts.absolute && !shown.startsWith('/') ? ` (relative to ${r.displayBase})` : '';
  return `## From: ${shown}${range}${cwd}`;
}

function numberLines(lines: string[], first: number): string[] {
  const width = String(first + lines.length - 1).length;
  return lines.map((line, i) => `${String(first + i).padStart(width)} | ${line}`);
}

/** Three backticks, or one more than the longest run of 3+ backticks in the content. */
export function fenceFor(lines: string[]): string {
  let longest = 0;
  for (const line of lines) {
    if (!line.includes('```')) continue;
    for (const m of line.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
  }
  return '`'.repeat(longest >= 3 ? longest + 1 : 3);
}

function toJson(report: ExtractReport, opts: RenderOptions): unknown {
  return {
    version: 1,
    refs: report.results.map((r) => ({
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
      ...(opts.content === false ? {} : { content: r.lines.join('\n') }),
    })),
    errors: report.errors.map(diagnosticJson),
    warnings: report.warnings.map(diagnosticJson),
  };
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
      return `✓ ${r.ref} → ${opts.absolute ? r.path : r.displayPath} (${lines})\n`;
    })
    .join('');
}

/** Diagnostics as text lines for stderr: `Error: msg` then indented details. */
export function renderDiagnostic(kind: 'Error' | 'Warning', d: Diagnostic, label: (s: string) => string = (s) => s): string {
  return [`${label(kind + ':')} ${visible(d.message)}`, ...d.details.map((x) => `  ${visible(x)}`)].join('\n') + '\n';
}
