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

/** The part of markdown-it's block state the paragraph and lheading rules read (markdown-it 14, lib/rules_block/). */
interface BlockState {
  md: { block: { ruler: { getRules(chain: string): ((state: BlockState, line: number, end: number, silent: boolean) => boolean)[] } } };
  src: string;
  parentType: string;
  bMarks: number[];
  eMarks: number[];
  tShift: number[];
  sCount: number[];
  blkIndent: number;
  line: number;
  isEmpty(line: number): boolean;
}

/** Whether a line is a setext heading's underline: a run of `=` or of `-`, then only spaces and tabs. */
function isUnderline(state: BlockState, line: number): boolean {
  const { src } = state;
  let pos = state.bMarks[line]! + state.tShift[line]!;
  const max = state.eMarks[line]!;
  const marker = src.charCodeAt(pos);
  if (pos >= max || (marker !== 0x2d && marker !== 0x3d)) return false;
  while (pos < max && src.charCodeAt(pos) === marker) pos++;
  while (pos < max && (src.charCodeAt(pos) === 0x20 || src.charCodeAt(pos) === 0x09)) pos++;
  return pos >= max;
}

/**
 * markdown-it's lheading and paragraph rules in one, without their output: the same lines end a
 * paragraph (a blank line, or a line another block rule may start on, lazy continuations
 * included), and a setext underline ends it as a heading, underline included. The text is not
 * gathered and no token is pushed: only fences are wanted here, and paragraphs are most of a doc.
 * The underline matters although it never opens a fence: it ends the paragraph, so the next line
 * may start a block (`2. item`, say) that could not interrupt a paragraph.
 */
function skipParagraph(state: BlockState, startLine: number, endLine: number): boolean {
  const terminators = state.md.block.ruler.getRules('paragraph');
  // lheading declines a first line indented 4 columns or more; the paragraph rule then has it.
  const setext = state.sCount[startLine]! - state.blkIndent < 4;
  const parentType = state.parentType;
  state.parentType = 'paragraph';
  let next = startLine + 1;
  for (; next < endLine && !state.isEmpty(next); next++) {
    // Indented past a code block's 4 columns: a continuation.
    if (state.sCount[next]! - state.blkIndent > 3) continue;
    if (setext && state.sCount[next]! >= state.blkIndent && isUnderline(state, next)) {
      next++;
      break;
    }
    // A block quote's lazy line: a continuation.
    if (state.sCount[next]! < 0) continue;
    if (terminators.some((rule) => rule(state, next, endLine, true))) break;
  }
  state.line = next;
  state.parentType = parentType;
  return true;
}

/** markdown-it's block state, as far as its constructor goes (lib/rules_block/state_block.mjs). */
interface LineMarks {
  src: string;
  bMarks: number[];
  eMarks: number[];
  tShift: number[];
  sCount: number[];
  bsCount: number[];
  lineMax: number;
}
type StateConstructor = { prototype: object; call(self: object, src: string, md: unknown, env: unknown, tokens: unknown): void };

/**
 * markdown-it's block state, its line marks found with indexOf: its constructor reads every
 * character of the document in JavaScript, which cost more than the parse. Only each line's
 * indentation is read here. The marks are the same, down to a quirk: a last line of only spaces
 * and tabs, without a newline, is no line.
 */
export function fastState(Base: StateConstructor) {
  function State(this: LineMarks, src: string, md: unknown, env: unknown, tokens: unknown) {
    Base.call(this, '', md, env, tokens);
    this.src = src;
    const { bMarks, eMarks, tShift, sCount, bsCount } = this;
    bMarks.length = eMarks.length = tShift.length = sCount.length = bsCount.length = 0;
    for (let start = 0; start < src.length; ) {
      const newline = src.indexOf('\n', start);
      const end = newline === -1 ? src.length : newline;
      let pos = start;
      let offset = 0;
      for (; pos < end; pos++) {
        const ch = src.charCodeAt(pos);
        if (ch === 0x20) offset++;
        else if (ch === 0x09) offset += 4 - (offset % 4);
        else break;
      }
      if (newline === -1 && pos === end) break;
      bMarks.push(start);
      eMarks.push(end);
      tShift.push(pos - start);
      sCount.push(offset);
      bsCount.push(0);
      start = end + 1;
    }
    // markdown-it's fake last line, for its bounds checks.
    bMarks.push(src.length);
    eMarks.push(src.length);
    tShift.push(0);
    sCount.push(0);
    bsCount.push(0);
    this.lineMax = bMarks.length - 1;
  }
  State.prototype = Base.prototype;
  return State;
}

/**
 * markdown-it (CommonMark preset) with only its block rules: fences are block structure, so the
 * inline pass (links, emphasis), most of a full parse's cost, is never run (docs/snippets.md#cost).
 * Lines are marked with indexOf (fastState); paragraphs and setext headings are skipped, not
 * collected (skipParagraph, which stands for both rules). test/unit/fenced-blocks.test.ts holds
 * it equal to a full parse.
 * The first pass rewrites `\r\n`, a lone `\r` and NUL over the whole text; most docs hold none of
 * them, and for those the pass is skipped.
 */
function blockParser(text: string): Parser {
  const normalizing = text.includes('\r') || text.includes('\0');
  const key = normalizing ? 'normalizing' : 'plain';
  let parser = parsers[key];
  if (!parser) {
    type Ruler = { disable(names: string[]): void; at(name: string, rule: typeof skipParagraph): void };
    type Block = { ruler: Ruler; State: StateConstructor };
    const MarkdownIt = markdownIt() as unknown as new (preset: string) => Parser & { core: { ruler: Ruler }; block: Block };
    const md = new MarkdownIt('commonmark');
    md.core.ruler.disable(normalizing ? ['inline', 'text_join'] : ['normalize', 'inline', 'text_join']);
    md.block.ruler.disable(['lheading']);
    md.block.ruler.at('paragraph', skipParagraph);
    md.block.State = fastState(md.block.State) as unknown as StateConstructor;
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
