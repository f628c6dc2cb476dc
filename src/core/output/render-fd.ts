import type { FdError } from '../../shared/errors.js';
import type { SafeWriteResult } from '../safe-write/safe-write.js';
import type { FdView } from '../paging/fd-read.js';
import type { EntryMeta } from '../paging/fd-store.js';
import { plural } from './render-findings.js';
import { visible } from '../../shared/visible.js';

export type FdFormat = 'xml' | 'json' | 'raw';
export const FD_FORMATS: readonly FdFormat[] = ['xml', 'json', 'raw'];

/** Attribute values: everything that could end or confuse the attribute is escaped. */
export function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Element text that is ours (messages), as opposed to page text, which is never escaped. */
export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => ENTITIES[c]!);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `name="value"` pairs, values escaped. */
export function attrs(pairs: [string, string | number | boolean][]): string {
  return pairs.map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`).join('');
}

const range = (v: FdView) => `${v.lineStart}-${v.lineEnd}`;

/** The fd_result message (docs/reference.md#fd-and-ref); content that `--save` stored in one page has no next page. */
export function resultMessage(v: FdView): string {
  return v.next ? `Output exceeds ${v.pageSize} characters. Use \`${v.next}\` to read more pages.` : `Stored as ${v.fd}.`;
}

/**
 * One renderer per format (STYLE 7): the view to stdout text, in blocks, so that the page text
 * streams through. XML follows docs/reference.md#fd-and-ref exactly: one newline after the opening tag and one before
 * the closing tag surround the page text, which is not escaped. Strip exactly those two to get the
 * page text byte for byte (the same rule as for `<ref>` content).
 */
export const fdRenderers: Record<FdFormat, (v: FdView) => Iterable<string>> = {
  *xml(v) {
    if (v.kind === 'plain') {
      // A <ref> section's content is stored without its last newline (the closing tag's line);
      // shown, it ends with one, as `ref show` and `ref export` give it. --format raw stays exact.
      if (!v.fd.startsWith('ref:')) {
        yield* v.text;
        return;
      }
      let last = '';
      for (const block of v.text) {
        if (block.length > 0) last = block;
        yield block;
      }
      if (last !== '' && !last.endsWith('\n')) yield '\n';
      return;
    }
    if (v.kind === 'result') {
      yield `<fd_result${attrs([['fd', v.fd], ['pages', v.pages], ['truncated', v.truncated], ['lines', range(v)], ['total_lines', v.totalLines], ...tokensAttr(v)])}>\n`;
      yield `  <message>${escapeText(resultMessage(v))}</message>\n`;
      yield '  <preview>\n';
      yield* v.text;
      yield '\n  </preview>\n</fd_result>\n';
      return;
    }
    const pairs: [string, string | number | boolean][] = [['fd', v.fd]];
    if (v.kind !== 'lines') {
      pairs.push(['page', v.kind === 'all' ? 'all' : v.page!], ['pages', v.pages], ['continued', v.continued], ['truncated', v.truncated]);
    }
    pairs.push(['lines', range(v)], ['total_lines', v.totalLines], ...tokensAttr(v));
    yield `<fd_content${attrs(pairs)}>\n`;
    yield* v.text;
    yield '\n</fd_content>\n';
  },

  *json(v) {
    const doc: Record<string, unknown> = {
      version: 1,
      type: v.kind === 'result' ? 'fd_result' : 'fd_content',
      fd: v.fd,
      page: v.kind === 'all' ? 'all' : v.page,
      pages: v.pages,
      continued: v.continued,
      truncated: v.truncated,
      lines: range(v),
      line_start: v.lineStart,
      line_end: v.lineEnd,
      total_lines: v.totalLines,
    };
    if (v.tokens !== undefined) doc.tokens = v.tokens;
    if (v.kind === 'lines') delete doc.page;
    if (v.kind === 'result') {
      delete doc.page;
      delete doc.continued;
      doc.message = resultMessage(v);
      doc.next = v.next;
    }
    // The text streams into the JSON string: render around a placeholder, then escape block by block.
    const key = v.kind === 'result' ? 'preview' : 'content';
    doc[key] = PLACEHOLDER;
    const [head, tail] = JSON.stringify(doc, null, 2).split(JSON.stringify(PLACEHOLDER)) as [string, string];
    yield head + '"';
    for (const block of v.text) yield JSON.stringify(block).slice(1, -1);
    yield '"' + tail + '\n';
  },

  *raw(v) {
    yield* v.text;
  },
};

const PLACEHOLDER = '\u0000refcat-text\u0000';

/** `fd read --tokens`: the tokens of the text shown (docs/reference.md#token-counts-and-budgets). */
function tokensAttr(v: FdView): [string, number][] {
  return v.tokens === undefined ? [] : [['tokens', v.tokens]];
}

/** fd_error for stdout; raw output has none (its errors go to stderr like any other). */
export const fdErrorRenderers: Record<Exclude<FdFormat, 'raw'>, (e: FdError) => string> = {
  xml: (e) => `<fd_error${attrs([['type', e.type], [e.source, e.fd]])}><message>${escapeText(e.message)}</message></fd_error>\n`,
  json: (e) => JSON.stringify({ version: 1, type: 'fd_error', error: e.type, fd: e.fd, message: e.message }, null, 2) + '\n',
};

export function renderClose(id: string): string {
  return `<fd_close${attrs([['fd', id], ['success', true]])}>\n  <message>${escapeText(`File descriptor ${id} has been closed.`)}</message>\n</fd_close>\n`;
}

/** `fd list`: a table for people, or JSON. */
export function renderList(entries: EntryMeta[], json: boolean, store: string): string {
  if (json) {
    return JSON.stringify({ version: 1, store, entries: entries.map(entryJson) }, null, 2) + '\n';
  }
  // A source is a file name or label anyone may choose, and meta.json may be edited: escaped, so
  // no cell can end its row or reach the terminal.
  const rows = entries.map((e) => [e.id, plural(e.lines, 'line'), plural(e.chars, 'char'), e.created.replace(/\.\d+Z$/, 'Z'), e.source].map(visible));
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ') + '\n').join('');
}

function entryJson(e: EntryMeta): Record<string, unknown> {
  const out: Record<string, unknown> = { id: e.id, source: e.source, created: e.created, lines: e.lines, chars: e.chars, bytes: e.bytes };
  if (e.line !== undefined) out.line = e.line;
  return out;
}

/** What `ref export` and `fd write` did: `<ref_export ...>` / `<fd_write ...>` with a message. */
export function renderWrite(tag: 'ref_export' | 'fd_write', id: [string, string], shown: string, result: SafeWriteResult, lines: number): string {
  const what = `${lines} line${lines === 1 ? '' : 's'}`;
  const message =
    result.mode === 'append' ? `Appended ${what} to ${shown}.` : result.mode === 'insert' ? `Inserted ${what} into ${shown}.` : `Wrote ${what} to ${shown}.`;
  return `<${tag}${attrs([id, ['path', shown], ['mode', result.mode], ['success', true]])}>\n  <message>${escapeText(message)}</message>\n</${tag}>\n`;
}
