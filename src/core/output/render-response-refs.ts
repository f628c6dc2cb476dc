import { attrs } from './render-fd.js';
import type { RefItem } from '../response-refs/response-refs.js';

/** `ref list` / `ref scan` (which adds where each ref is stored). */
export const refListRenderers = {
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

/** `ref show`: docs/reference.md#refcat-ref-list--show--scan--export; the content between one newline after the opening tag and one before the closing. */
export function renderRefContent(id: string, content: string, raw: boolean): string {
  if (raw) return content === '' || content.endsWith('\n') ? content : content + '\n';
  return `<ref_content${attrs([['id', id]])}>\n${content}\n</ref_content>\n`;
}
