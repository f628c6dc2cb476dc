import { attrs } from './render-fd.js';
import type { RefItem } from '../response-refs/response-refs.js';

/** Output formats of `ref list` and `ref scan`. */
export type RefListFormat = 'xml' | 'json';
export const REF_LIST_FORMATS: readonly RefListFormat[] = ['xml', 'json'];

/** `ref list` / `ref scan` (which adds where each ref is stored). */
export const refListRenderers: Record<RefListFormat, (refs: RefItem[], extra?: [string, string][], stored?: boolean) => string> = {
  xml(refs: RefItem[], extra: [string, string][] = [], stored = false): string {
    let out = `<ref_list${attrs([['count', refs.length], ...extra])}>\n`;
    for (const r of refs) {
      const pairs: [string, string | number][] = [['id', r.id]];
      if (stored) pairs.push(['fd', `ref:${r.id}`]);
      pairs.push(['line', r.line], ['lines', r.lines], ['chars', r.chars]);
      out += `  <ref${attrs(pairs)} />\n`;
    }
    return out + '</ref_list>\n';
  },
  json(refs: RefItem[], extra: [string, string][] = [], stored = false): string {
    const doc: Record<string, unknown> = { version: 1, count: refs.length };
    for (const [k, v] of extra) doc[k] = v;
    doc.refs = refs.map((r) => ({ id: r.id, ...(stored ? { fd: `ref:${r.id}` } : {}), line: r.line, lines: r.lines, chars: r.chars }));
    return JSON.stringify(doc, null, 2) + '\n';
  },
};

/** Output formats of `ref show`: the XML element, the content only, or JSON. */
export type RefContentFormat = 'xml' | 'raw' | 'json';
export const REF_CONTENT_FORMATS: readonly RefContentFormat[] = ['xml', 'raw', 'json'];

/**
 * `ref show`: docs/reference.md#refcat-ref-list--show--scan--export. XML: the content between one
 * newline after the opening tag and one before the closing; raw: the content ending with a
 * newline; JSON: `ref list`'s fields of the ref and its content, exactly.
 */
export function renderRefContent(ref: RefItem, format: RefContentFormat): string {
  const content = ref.content();
  if (format === 'raw') return content === '' || content.endsWith('\n') ? content : content + '\n';
  if (format === 'json') return JSON.stringify({ version: 1, id: ref.id, line: ref.line, lines: ref.lines, chars: ref.chars, content }, null, 2) + '\n';
  return `<ref_content${attrs([['id', ref.id]])}>\n${content}\n</ref_content>\n`;
}
