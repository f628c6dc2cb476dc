import { visible } from '../../shared/visible.js';
import type { Extraction } from '../extract/extract.js';
import { markerHead, outlineLines } from '../extract/outline-select.js';
import { groupDigits } from '../../shared/group-digits.js';

/** The render options an outline reads (render-extraction.ts's RenderOptions). */
interface RenderOptions {
  lineNumbers: boolean;
  showCwd: boolean;
  absolute: boolean;
  attribution: boolean;
}

/**
 * `--outline` results (docs/refs.md#outlines---outline) in markdown and JSON. An outline's `lines` are its
 * kept lines and marker lines, one entry each (`outline.entries`), so a token budget cuts it as it
 * cuts any block: by lines.
 */

/** The outline's lines as shown: marker refs follow `--absolute` as specs do. */
export function outlineShown(r: Extraction, opts: RenderOptions): string[] {
  // A revision's markers were written as `--absolute` writes them (markerHead).
  if (!opts.absolute || r.alias || r.fileSpec !== undefined || !r.outline) return r.lines;
  return outlineLines(r.outline.entries.slice(0, r.lines.length), markerHead(r, true));
}

/**
 * `## Outline: src/app.ts, 120 lines (relative to …)`, then the fenced outline with the file's
 * line numbers (a marker's number column is blank); a file not outlined, or without
 * declarations, gets a `>` note instead of the fence. Without the header, the note names the file.
 */
export function outlineMarkdown(r: Extraction, opts: RenderOptions, fenceFor: (lines: string[]) => string): string {
  const info = r.outline!;
  const shown = shownPath(r, opts);
  const size = sizeOf(r);
  const head = opts.attribution ? header(r, opts, shown, size) + '\n' : '';
  const named = opts.attribution ? '' : `${shown}, ${size}: `;
  if (info.skipped !== null) return `${head}> Not outlined: ${named}${info.skipped}\n`;
  if (r.lines.length === 0) return `${head}> No declarations${opts.attribution ? '' : `: ${shown}, ${size}`}\n`;
  const lines = outlineShown(r, opts);
  const fence = fenceFor(lines);
  let width = 0;
  for (const e of info.entries) if (e.kind === 'line') width = Math.max(width, String(e.line).length);
  const blank = ' '.repeat(width);
  let body = '';
  for (let i = 0; i < lines.length; i++) {
    const e = info.entries[i]!;
    if (!opts.lineNumbers) body += lines[i] + '\n';
    else body += `${e.kind === 'line' ? String(e.line).padStart(width) : blank} | ${lines[i]}\n`;
  }
  return `${head}${fence}${r.language}\n${body}${fence}\n`;
}

/** The `## Outline:` header of `r` alone: for a selection that came out empty (a range past the end). */
export function outlineHeader(r: Extraction, opts: RenderOptions): string {
  return header(r, opts, shownPath(r, opts), sizeOf(r));
}

/** The file as a header names it. */
function shownPath(r: Extraction, opts: RenderOptions): string {
  return visible(opts.absolute ? r.path : r.displayPath);
}

/** `120 lines`, `1 line`: the file's length as a header gives it. */
function sizeOf(r: Extraction): string {
  const total = r.totalLines ?? 0;
  return `${groupDigits(total)} ${total === 1 ? 'line' : 'lines'}`;
}

function header(r: Extraction, opts: RenderOptions, shown: string, size: string): string {
  const range = r.wholeFile ? '' : r.lineStart >= r.lineEnd ? `:${r.lineStart}` : `:${r.lineStart}-${r.lineEnd}`;
  const cwd = opts.showCwd && !opts.absolute && !shown.startsWith('/') ? ` (relative to ${visible(r.displayBase)})` : '';
  return `## Outline: ${shown}${range}${atVersion(r)}, ${size}${cwd}`;
}

/**
 * ` @<short sha>` after a header's path for a read at a version (docs/refs.md#refs-at-a-version),
 * else nothing: `## From:` and `## Outline:` say which version alike.
 */
export function atVersion(r: Pick<Extraction, 'commit'>): string {
  return r.commit ? ` @${r.commit.slice(0, 7)}` : '';
}

/** The `outline` field of a JSON ref. */
export function outlineJson(r: Extraction, opts: RenderOptions): Record<string, unknown> {
  const info = r.outline!;
  const head = markerHead(r, opts.absolute);
  return {
    not_outlined: info.skipped,
    entries: info.entries.map((e) =>
      e.kind === 'line' ? { line: e.line, text: e.text } : { ref: `${head}#${e.selector}`, start: e.start, end: e.end, omitted: e.omitted },
    ),
  };
}
