import { fenceFor, type FenceMarker } from './fence-length.js';
import type { FencedBlock } from './fenced-blocks.js';
import type { Citation } from './find-citations.js';

/**
 * Rewriting a stale snippet with the current code (docs/snippets.md#--fix-snippets). Pure: the
 * document's lines in, line edits out. Only the ref's characters and the snippet's lines change
 * (and the fence's length, when the new code holds a run of its marker): the fence's kind and
 * info, the citation's own words, container markers (`> `, list indentation) and the snippet's
 * indentation stay.
 */

/** Replace `count` lines from 0-based `line` with `lines` (each without its line ending). */
export interface LineEdit {
  line: number;
  count: number;
  lines: string[];
}

/** The edits of one refresh, or why it is refused. */
export type RefreshEdits = { edits: LineEdit[]; refused: null } | { edits: null; refused: string };

/**
 * The edits that refresh `citation` in `docLines` (the document split at `\n`, a `\r` kept at the
 * end of a CRLF line): its ref becomes `newRef` (written as the citation wrote it: bare stays
 * bare) and its snippet `code` (the lines `newRef` selects now). Code holding a run of the fence's
 * marker as long as the fence would close it early and turn the rest into live markdown: then the
 * fence, opening and closing, is lengthened as `--cite` would choose it (fence-length.ts), or the
 * refresh is refused when the fence is not where the block says.
 */
export function refreshEdits(docLines: readonly string[], citation: Citation, newRef: string, code: readonly string[]): RefreshEdits {
  const edits: LineEdit[] = [];
  const fence = fenceEdits(docLines, citation.block, code);
  if (typeof fence === 'string') return { edits: null, refused: fence };
  edits.push(...fence);
  const refLine = citation.line - 1;
  const written = citation.bare && newRef.startsWith('@') ? newRef.slice(1) : newRef;
  if (written !== citation.text) {
    const raw = docLines[refLine]!;
    const at = raw.indexOf(citation.text);
    if (at !== -1) edits.push({ line: refLine, count: 1, lines: [raw.slice(0, at) + written + raw.slice(at + citation.text.length)] });
  }
  const { from, to } = citation;
  const eol = (docLines[from] ?? docLines[refLine] ?? '').endsWith('\r') ? '\r' : '';
  const prefix = linePrefix(docLines, citation);
  const oldIndent = commonIndent(citation.snippet);
  const newIndent = commonIndent(code);
  const lines = code.map((l) => {
    const text = l.endsWith('\r') ? l.slice(0, -1) : l;
    if (text.trim() === '') return prefix.trimEnd() + eol;
    return prefix + oldIndent + text.slice(newIndent.length) + eol;
  });
  edits.push({ line: from, count: to - from, lines });
  return { edits, refused: null };
}

/**
 * The edits that make the block's fence longer than any run of its marker in `code` (none when it
 * already is), or why they cannot be made: the opening line must hold a run of ``` or ~~~, and
 * a closing line a run of the same marker at least as long.
 */
function fenceEdits(docLines: readonly string[], block: FencedBlock, code: readonly string[]): LineEdit[] | string {
  const openRaw = docLines[block.open] ?? '';
  const open = /`{3,}|~{3,}/.exec(openRaw);
  const cannot = (line: number) => `the new code would close its fence early, and the fence at line ${line + 1} cannot be lengthened`;
  if (!open) return fenceFor(code, '`').length > 3 || fenceFor(code, '~').length > 3 ? cannot(block.open) : [];
  const marker = open[0][0] as FenceMarker;
  const wanted = fenceFor(code, marker);
  if (wanted.length <= open[0].length) return [];
  const longer = (raw: string, at: number, length: number) => raw.slice(0, at) + wanted + raw.slice(at + length);
  const edits: LineEdit[] = [{ line: block.open, count: 1, lines: [longer(openRaw, open.index, open[0].length)] }];
  if (block.close !== null) {
    const closeRaw = docLines[block.close] ?? '';
    const close = (marker === '`' ? /`{3,}/ : /~{3,}/).exec(closeRaw);
    if (!close || close[0].length < open[0].length) return cannot(block.close);
    if (close[0].length < wanted.length) edits.push({ line: block.close, count: 1, lines: [longer(closeRaw, close.index, close[0].length)] });
  }
  return edits;
}

/** Apply non-overlapping edits to `docLines` (any order given). */
export function applyLineEdits(docLines: readonly string[], edits: readonly LineEdit[]): string[] {
  const out = [...docLines];
  for (const e of [...edits].sort((a, b) => b.line - a.line)) out.splice(e.line, e.count, ...e.lines);
  return out;
}

/**
 * What comes before a snippet line's content on the page: the container markers and the fence's
 * own indentation. Taken from the first non-blank snippet line, else from the citation's comment
 * line, else from the opening fence.
 */
function linePrefix(docLines: readonly string[], c: Citation): string {
  const candidates: [number, string][] = c.snippet.map((content, i) => [c.from + i, content]);
  if (c.form === 'in-fence') candidates.push([c.line - 1, null as unknown as string]);
  for (const [line, content] of candidates) {
    const raw = stripCr(docLines[line] ?? '');
    if (content === null) {
      // The comment line: its content starts at the comment marker.
      const m = /^(.*?)(?:\/\/|#|--|;|%|'|\/\*|<!--)/.exec(raw);
      if (m) return m[1]!;
      continue;
    }
    const text = stripCr(content);
    if (text.trim() === '' || !raw.endsWith(text)) continue;
    return raw.slice(0, raw.length - text.length);
  }
  const fence = stripCr(docLines[c.block.open] ?? '');
  return fence.slice(0, fence.search(/`|~/));
}

function commonIndent(lines: readonly string[]): string {
  let indent: string | null = null;
  for (const line of lines) {
    const text = stripCr(line);
    if (text.trim() === '') continue;
    const own = /^[ \t]*/.exec(text)![0];
    if (indent === null || own.length < indent.length) indent = own;
  }
  return indent ?? '';
}

function stripCr(s: string): string {
  return s.endsWith('\r') ? s.slice(0, -1) : s;
}
