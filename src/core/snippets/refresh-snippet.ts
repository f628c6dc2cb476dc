import type { Citation } from './find-citations.js';

/**
 * Rewriting a stale snippet with the current code (docs/snippets.md#--fix-snippets). Pure: the
 * document's lines in, line edits out. Only the ref's characters and the snippet's lines change:
 * the fence, the citation's own words, container markers (`> `, list indentation) and the
 * snippet's indentation stay.
 */

/** Replace `count` lines from 0-based `line` with `lines` (each without its line ending). */
export interface LineEdit {
  line: number;
  count: number;
  lines: string[];
}

/**
 * The edits that refresh `citation` in `docLines` (the document split at `\n`, a `\r` kept at the
 * end of a CRLF line): its ref becomes `newRef` (written as the citation wrote it: bare stays
 * bare) and its snippet `code` (the lines `newRef` selects now).
 */
export function refreshEdits(docLines: readonly string[], citation: Citation, newRef: string, code: readonly string[]): LineEdit[] {
  const edits: LineEdit[] = [];
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
