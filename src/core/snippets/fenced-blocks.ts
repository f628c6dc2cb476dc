import { lazyRequire } from '../../shared/lazy.js';

type MarkdownItModule = typeof import('markdown-it');
const markdownIt = lazyRequire<MarkdownItModule>('markdown-it');

/**
 * A fenced code block of a markdown document, as CommonMark defines it (docs/snippets.md#what-is-a-citation):
 * ``` or ~~~ fences, also inside list items and block quotes, with any info string. Text indented
 * as an indented code block holds no fence.
 */
export interface FencedBlock {
  /** 0-based line of the opening fence. */
  open: number;
  /** 0-based line of the closing fence; null when the block runs to the end of its container. */
  close: number | null;
  /** 0-based line after the block (after the closing fence, or where the container ends). */
  end: number;
  /** The info string (`swift`, `js {numberLines}`), trimmed. */
  info: string;
  /**
   * The block's lines, as CommonMark reads them: container markers (`> `, list indentation) and
   * the fence's own indentation removed. `lines[i]` is line `open + 1 + i` of the document.
   */
  lines: string[];
}

type Parser = { parse(src: string, env: object): { type: string; map: [number, number] | null; info: string; content: string }[] };
const parsers: { plain?: Parser; normalizing?: Parser } = {};

/**
 * markdown-it with only its block rules: fences are block structure, so the inline pass (links,
 * emphasis), most of a full parse's cost, is never run (docs/snippets.md#cost). Its first pass
 * rewrites `\r\n`, a lone `\r` and NUL over the whole text; most docs hold none of them, and
 * for those the pass is skipped.
 */
function blockParser(text: string): Parser {
  const normalizing = text.includes('\r') || text.includes('\0');
  const key = normalizing ? 'normalizing' : 'plain';
  let parser = parsers[key];
  if (!parser) {
    const MarkdownIt = markdownIt() as unknown as new (preset: string) => Parser & { core: { ruler: { disable(names: string[]): void } } };
    const md = new MarkdownIt('commonmark');
    md.core.ruler.disable(normalizing ? ['inline', 'text_join'] : ['normalize', 'inline', 'text_join']);
    parser = parsers[key] = md;
  }
  return parser;
}

/**
 * Every fenced code block of `text`, in document order (nested containers included). A text
 * without a ``` or ~~~ run has none and is not parsed at all.
 */
export function fencedBlocks(text: string): FencedBlock[] {
  if (!text.includes('```') && !text.includes('~~~')) return [];
  const blocks: FencedBlock[] = [];
  for (const token of blockParser(text).parse(text, {})) {
    if (token.type !== 'fence' || !token.map) continue;
    const [open, end] = token.map;
    const lines = token.content === '' ? [] : token.content.slice(0, token.content.endsWith('\n') ? -1 : undefined).split('\n');
    const closed = end - open >= lines.length + 2;
    blocks.push({ open, close: closed ? end - 1 : null, end, info: token.info.trim(), lines });
  }
  return blocks;
}
