import { lazyRequire } from '../../shared/lazy.js';
import { utf8Of } from '../../shared/byte-text.js';
import { lineEnd, lineStarts } from '../../shared/line-starts.js';
import { nestedFences } from './nested-fences.js';

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

type Parser = { parse(src: string, env: object): { type: string; map: [number, number] | null; info: string; content: string; level: number }[] };
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
      const pos = indentEnd(src, start, end);
      if (newline === -1 && pos === end) break;
      bMarks.push(start);
      eMarks.push(end);
      tShift.push(pos - start);
      sCount.push(columns(src, start, pos));
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

/** Whether `text` has a ``` or ~~~ run, without which it holds no fence. */
export function mayHoldFence(text: string): boolean {
  return text.includes('```') || text.includes('~~~');
}

/**
 * Every fenced code block of `text`, in document order (nested containers included). A text
 * without a ``` or ~~~ run has none and is not parsed at all; the others are read by scanFences():
 * fences at column 0 without a parse, the few stretches around a fence in a list item or a block
 * quote (or an HTML block) by the parser. `starts` is lineStarts(text), when the caller has it.
 * With `bytes`, `text` is byte text (shared/byte-text.ts): the blocks' info strings and lines are
 * decoded.
 */
export function fencedBlocks(text: string, starts?: readonly number[], bytes = false): FencedBlock[] {
  if (!mayHoldFence(text)) return [];
  const decode = bytes ? utf8Of : undefined;
  const lineStartsOf = starts ?? lineStarts(text);
  return scanFences(text, lineStartsOf, decode, stretchParser(text, lineStartsOf, decode)) ?? parsedFences(decode ? decode(text) : text);
}

/** The fences of a markdown-it parse (blockParser). */
export function parsedFences(text: string): FencedBlock[] {
  return parsedStretch(text).blocks;
}

/**
 * The fences of a markdown-it parse, and whether a top-level fence or HTML block runs to the end
 * of `text` (so would run on past it, were `text` a stretch of a longer document).
 */
function parsedStretch(text: string, lineCount = Infinity): { blocks: FencedBlock[]; runsOut: boolean } {
  const blocks: FencedBlock[] = [];
  let runsOut = false;
  for (const token of blockParser(text).parse(text, {})) {
    if (!token.map) continue;
    if (token.level === 0 && (token.type === 'fence' || token.type === 'html_block') && token.map[1] >= lineCount) runsOut = true;
    if (token.type !== 'fence') continue;
    const [open, end] = token.map;
    const lines = token.content === '' ? [] : token.content.slice(0, token.content.endsWith('\n') ? -1 : undefined).split('\n');
    const closed = end - open >= lines.length + 2;
    blocks.push({ open, close: closed ? end - 1 : null, end, info: token.info.trim(), lines });
  }
  return { blocks, runsOut };
}

/** How many lines markdown-it's block state counts in `text` (fastState: a last line of only spaces and tabs, without a newline, is none). */
function countLines(text: string, starts: readonly number[]): number {
  return starts.length > 0 && isBlank(text, starts[starts.length - 1]!, text.length) ? starts.length - 1 : starts.length;
}

/**
 * Parses lines [from, to) of a document alone: their fences, numbered from the document's start,
 * and where reading goes on. A stretch from where no block is open to a line no block outside a
 * top-level fence or HTML block reaches past (see scanFences) parses as it does in place, unless
 * one of those runs to its end: then the rest of the document is parsed, and reading stops there.
 */
export type StretchParser = (from: number, to: number) => { blocks: FencedBlock[]; next: number };

export function stretchParser(text: string, starts: readonly number[], decode?: (s: string) => string): StretchParser {
  const lineMax = countLines(text, starts);
  const parse = (from: number, to: number) => {
    const slice = text.slice(starts[from], to >= lineMax ? text.length : starts[to]);
    return parsedStretch(decode ? decode(slice) : slice, to - from);
  };
  return (from, to) => {
    const read = nestedFences(text, starts, from, to, lineMax, decode);
    if (read) return { blocks: read, next: to };
    let found = parse(from, to);
    if (found.runsOut && to < lineMax) {
      found = parse(from, lineMax);
      to = lineMax;
    }
    const blocks = found.blocks.map((b) => ({ ...b, open: b.open + from, close: b.close === null ? null : b.close + from, end: b.end + from }));
    return { blocks, next: to };
  };
}

/** A line that may open a fence inside a container or indented: markers, `>`, spaces, tabs, then a run. */
const NESTED_FENCE = /^[ \t>*+\-0-9.)]+(?:```|~~~)/;
/** An HTML block's first line: up to 3 spaces, then `<`. */
const HTML_START = /^ {0,3}</;

/**
 * The fences of a document whose every fence opens at column 0 at the top level, found from the
 * few lines that matter, with no parse; null for any other document (scanFences() without a
 * parser).
 */
export function topLevelFences(text: string, starts: readonly number[], decode?: (s: string) => string): FencedBlock[] | null {
  return scanFences(text, starts, decode, null);
}

/**
 * The fences of a document, read from the few lines that matter: fences at column 0 with no
 * parse, and every stretch holding a line that may open a fence in a container (or an HTML
 * block's first line) by `parse`; null for a document with `\r` or NUL (the parser's first pass
 * rewrites them), or with such a line and no `parse`.
 *
 * Why this is exact. At the top level, a line starting with a ``` or ~~~ run (a backtick fence's
 * info string holding no backtick) opens a fence wherever it stands: a fence may interrupt a
 * paragraph, and it ends any block quote or list item before it (it is neither indented into the
 * item nor a lazy paragraph line). Its lines run to the first closing run (same character, at
 * least as long, at most 3 columns in, nothing but spaces and tabs after) or the end. An `<!--`
 * at column 0 opens an HTML comment the same way, which runs to the first line holding `-->`.
 * After either, no block is open. What else could hide such a line or open a fence elsewhere is
 * an HTML block (its first line starts with up to 3 spaces and `<`) or a fence in a container or
 * indented (its line starts with spaces, tabs, `>` or list markers, then a run). Such a line is
 * parsed in a stretch of lines around it, from a line where no block is open: the top, the line
 * after a fence or comment above, or a line at column 0 after a blank line, with no such line
 * between (a blank line ends paragraphs, so no line after it is lazy, and an unindented line ends
 * every list item and block quote). It ends at the next line at column 0 after a blank line: every
 * block of the stretch ends there but a top-level fence or HTML block, and if one of those runs to
 * the stretch's end, the parse goes on to the document's end (stretchParser). The line count is
 * markdown-it's, quirk included (fastState). test/unit/fenced-blocks.test.ts holds this equal to
 * the full parse. `decode` reads byte text's info strings and lines (shared/byte-text.ts).
 */
export function scanFences(text: string, starts: readonly number[], decode: ((s: string) => string) | undefined, parse: StretchParser | null): FencedBlock[] | null {
  if (text.includes('\r') || text.includes('\0')) return null;
  const lineMax = countLines(text, starts);
  const candidates = candidateLines(text, starts, lineMax);
  const blocks: FencedBlock[] = [];
  const lineText = (i: number) => text.slice(starts[i], lineEnd(text, starts, i));
  // No block is open at this line, and every line before it is read.
  let clean = 0;
  for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k]!;
    if (i < clean) continue;
    const start = starts[i]!;
    const end = lineEnd(text, starts, i);
    const marker = text.charCodeAt(start);
    if (marker === 0x60 || marker === 0x7e) {
      let pos = start;
      while (pos < end && text.charCodeAt(pos) === marker) pos++;
      const length = pos - start;
      const info = text.slice(pos, end);
      if (length >= 3 && !(marker === 0x60 && info.includes('`'))) {
        // Open: the block runs to its closing line, which holds the same run, or to the end.
        let close: number | null = null;
        for (k++; k < candidates.length; k++) {
          if (closesFence(text, starts[candidates[k]!]!, lineEnd(text, starts, candidates[k]!), marker, length)) {
            close = candidates[k]!;
            break;
          }
        }
        const last = close ?? lineMax;
        const lines = last > i + 1 ? text.slice(starts[i + 1], lineEnd(text, starts, last - 1)).split('\n') : [];
        const block = { open: i, close, end: close === null ? lineMax : close + 1, info: (decode ? decode(info) : info).trim() };
        blocks.push({ ...block, lines: decode ? lines.map(decode) : lines });
        clean = close === null ? lineMax : close + 1;
        continue;
      }
    }
    const line = lineText(i);
    if (line.startsWith('<!--')) {
      // An HTML comment: no fence until the line holding `-->`.
      const closing = line.includes('-->') ? start : text.indexOf('-->', end);
      if (closing === -1) break;
      clean = lineAtOffset(starts, closing) + 1;
      continue;
    }
    if (!NESTED_FENCE.test(line) && !HTML_START.test(line)) continue;
    if (!parse) return null;
    const stretch = parse(openBefore(text, starts, clean, i), openAfter(text, starts, i, lineMax));
    blocks.push(...stretch.blocks);
    clean = stretch.next;
  }
  return blocks;
}

/** The last line in (clean, i] at column 0 after a blank line, or `clean`: no block is open there. */
function openBefore(text: string, starts: readonly number[], clean: number, i: number): number {
  for (let line = i; line > clean; line--) if (startsAfterBlank(text, starts, line)) return line;
  return clean;
}

/** The first line after `i` at column 0 after a blank line, or lineMax. */
function openAfter(text: string, starts: readonly number[], i: number, lineMax: number): number {
  for (let line = i + 1; line < lineMax; line++) if (startsAfterBlank(text, starts, line)) return line;
  return lineMax;
}

/** Whether line `line` (not the first) starts with a character that is not a space, tab or newline, after a line of only spaces and tabs. */
function startsAfterBlank(text: string, starts: readonly number[], line: number): boolean {
  const c = text.charCodeAt(starts[line]!);
  return c !== 0x20 && c !== 0x09 && c !== 0x0a && isBlank(text, starts[line - 1]!, starts[line]! - 1);
}

/** Lines (below lineMax) that hold a ``` or ~~~ run, or start with up to 3 spaces and `<`; ascending. */
function candidateLines(text: string, starts: readonly number[], lineMax: number): number[] {
  const lines = new Set<number>();
  for (const run of ['```', '~~~']) {
    for (let at = text.indexOf(run); at !== -1; ) {
      const line = lineAtOffset(starts, at);
      lines.add(line);
      // On to the next line: one candidate per line and run.
      const next = line + 1 < starts.length ? starts[line + 1]! : text.length;
      at = text.indexOf(run, next);
    }
  }
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
    let pos = at;
    while (pos > 0 && at - pos < 3 && text.charCodeAt(pos - 1) === 0x20) pos--;
    if (pos === 0 || text.charCodeAt(pos - 1) === 0x0a) lines.add(lineAtOffset(starts, at));
  }
  return [...lines].filter((i) => i < lineMax).sort((a, b) => a - b);
}

/** Whether the line from start to end closes a fence opened with `length` of `marker`. */
function closesFence(text: string, start: number, end: number, marker: number, length: number): boolean {
  let pos = indentEnd(text, start, end);
  if (columns(text, start, pos) >= 4 || text.charCodeAt(pos) !== marker) return false;
  const run = pos;
  while (pos < end && text.charCodeAt(pos) === marker) pos++;
  return pos - run >= length && isBlank(text, pos, end);
}

/** Where the spaces and tabs that text[from, to) starts with end. */
function indentEnd(text: string, from: number, to: number): number {
  let pos = from;
  while (pos < to && (text.charCodeAt(pos) === 0x20 || text.charCodeAt(pos) === 0x09)) pos++;
  return pos;
}

/** How many columns the spaces and tabs text[from, to) take (a tab to the next multiple of 4). */
function columns(text: string, from: number, to: number): number {
  let column = 0;
  for (let pos = from; pos < to; pos++) column += text.charCodeAt(pos) === 0x09 ? 4 - (column % 4) : 1;
  return column;
}

/** Whether text[from, to) holds only spaces and tabs. */
function isBlank(text: string, from: number, to: number): boolean {
  return indentEnd(text, from, to) === to;
}

/** The line holding `offset` (binary search in lineStarts). */
function lineAtOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
