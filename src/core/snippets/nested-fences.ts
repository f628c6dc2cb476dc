import { lineEnd } from '../../shared/line-starts.js';

/** A fence found (fenced-blocks.ts's FencedBlock, which imports this file: the shape, not the name). */
interface FencedBlock {
  open: number;
  close: number | null;
  end: number;
  info: string;
  lines: string[];
}

/** An open container: a block quote, or a list item whose content starts `width` columns in. */
type Container = { quote: true } | { quote: false; width: number; ordered: string | null };

/** The fence being read: its run, how far it is indented in its container, where it opened. */
interface OpenFence {
  marker: number;
  length: number;
  indent: number;
  /** Its run's column in the line: its lines lose up to as many columns (read so only without quotes, where tabs are read). */
  column: number;
  open: number;
  depth: number;
  info: string;
  lines: string[];
}

/**
 * A paragraph's lazy line that can be nothing else: spaces, then a letter or a character no block
 * starts with (`(see a.swift#L3)`, a quote mark, `@`, `/`). Not `[`, `<`, `|`, a digit, or any
 * marker of a list, quote, heading, fence, thematic break or setext underline.
 */
const LAZY_TEXT = /^ *[A-Za-z("'@/.,;:!?)$%&]/;
const THEMATIC_OR_UNDERLINE = /^(?:([-*_])(?: *\1){2,}|=+|-+) *$/;
const BULLET = /^[-*+](?= |$)/;
const ORDERED = /^(\d{1,9})([.)])(?= |$)/;
/**
 * An HTML block that runs to the next blank line and may interrupt a paragraph: `<` or `</` and
 * one of CommonMark's block tag names (markdown-it's lib/common/html_blocks.mjs), then a space,
 * `>`, `/>` or the end.
 */
export const HTML_BLOCK_TAG = new RegExp(
  '^</?(' +
    'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|' +
    'figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|' +
    'nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul' +
    ')(?=(\\s|/?>|$))',
  'i',
);
/** Containers deeper than this are left to the parser (markdown-it stops nesting at 20 levels). */
const MAX_DEPTH = 10;

/**
 * The fences of lines [from, to) of a document, read with the few CommonMark rules a stretch of
 * list items, block quotes, paragraphs and fences needs, or null ("not sure": the caller parses
 * the stretch). `from` is a line where no block is open (scanFences), `to` one that no block of
 * the stretch reaches past but a top-level fence, or the end (lineMax).
 *
 * What is read: `>` quotes; `-`, `*`, `+` and `1.`/`1)` list items whose content starts 1 to 4
 * spaces after the marker on the marker's line; fences (their closing run, their indentation
 * stripped from their lines); paragraphs of plain text, indented lines included; HTML blocks that
 * open with a block tag (`<details>`, `</div>`) and run to a blank line. A stretch with anything
 * else is not read here: a tab in a quote, after a line's leading whitespace (but in a fence's
 * content) or on a line that opens a quote, a lazy paragraph line that does not start with a
 * letter or a character no block starts with (LAZY_TEXT), any other HTML block, a heading, a
 * thematic break or setext underline, a reference definition, indented code, an empty list item,
 * an ordered item that would interrupt a paragraph not starting at 1, or a top-level fence still
 * open at `to` before the end. Between them these are
 * where CommonMark's and markdown-it's rules get subtle; test/unit/fenced-blocks.test.ts holds
 * what is read here equal to markdown-it's parse, and counts how often it answers.
 */
export function nestedFences(
  text: string,
  starts: readonly number[],
  from: number,
  to: number,
  lineMax: number,
  decode?: (s: string) => string,
): FencedBlock[] | null {
  const stack: Container[] = [];
  const blocks: FencedBlock[] = [];
  let fence: OpenFence | null = null;
  let paragraph = false;
  // An HTML block of HTML_BLOCK_TAG is open: no fence until a blank line.
  let html = false;
  const finish = (f: OpenFence, close: number | null, end: number) => {
    // As parsedFences() reads markdown-it's tokens: a fence with fewer lines than it spans is closed.
    if (close === null && end - f.open >= f.lines.length + 2) close = end - 1;
    blocks.push({ open: f.open, close, end, info: (decode ? decode(f.info) : f.info).trim(), lines: decode ? f.lines.map(decode) : f.lines });
  };
  for (let line = from; line < to; line++) {
    const raw = text.slice(starts[line], lineEnd(text, starts, line));
    let s = raw;
    // Tabs: in a line's leading whitespace, outside quotes, read as the columns they reach
    // (CommonMark's tab stops of 4), and anywhere in a fence's content; else not sure.
    const tab = raw.indexOf('\t');
    let innerTab = false;
    if (tab !== -1) {
      if (stack.some((c) => c.quote)) return null;
      const lead = leadLength(raw);
      if (tab < lead) s = ' '.repeat(columns(raw, lead)) + raw.slice(lead);
      innerTab = raw.indexOf('\t', lead) !== -1;
    }
    // The containers this line continues.
    let pos = 0;
    let matched = 0;
    for (; matched < stack.length; matched++) {
      const c = stack[matched]!;
      const spaces = spacesAt(s, pos);
      if (c.quote) {
        if (spaces > 3 || s.charCodeAt(pos + spaces) !== 0x3e) break;
        pos += spaces + 1;
        if (s.charCodeAt(pos) === 0x20) pos++;
      } else if (pos + spaces < s.length) {
        if (spaces < c.width) break;
        pos += c.width;
      } else {
        // A blank line stays in the item; what it has past the item's indentation is the fence's.
        pos += Math.min(spaces, c.width);
      }
    }
    const blank = pos + spacesAt(s, pos) >= s.length;
    if (fence) {
      if (matched === stack.length) {
        const spaces = spacesAt(s, pos);
        // A closing run with a tab after it: not sure.
        if (innerTab && s.charCodeAt(pos + spaces) === fence.marker) return null;
        if (spaces <= 3 && closes(s, pos + spaces, fence.marker, fence.length)) {
          finish(fence, line, line + 1);
          fence = null;
          continue;
        }
        fence.lines.push(tab === -1 ? s.slice(pos + Math.min(spaces, fence.indent)) : fenceLine(raw, fence.column));
        continue;
      }
      finish(fence, null, line);
      fence = null;
    }
    if (innerTab) return null;
    if (html) {
      if (blank) html = false;
      // A line a container does not take (a lazy one, were it a paragraph's) is left to the parser.
      else if (matched < stack.length) return null;
      else continue;
    }
    if (matched < stack.length) {
      // A line a container does not take, after a paragraph: a lazy line unless it starts a
      // block that ends the paragraph whatever the container (a bullet item, a quote, a fence,
      // a next item of the same ordered list, or one starting at 1).
      if (paragraph && !blank && !interrupts(s, pos, stack[matched]!)) {
        // A lazy line goes on with the paragraph, its containers still open: read when it starts
        // with a letter or the like, which opens no block whatever its indentation; else not sure.
        if (LAZY_TEXT.test(s.slice(pos))) continue;
        return null;
      }
      stack.length = matched;
      paragraph = false;
    }
    if (blank) {
      paragraph = false;
      continue;
    }
    // New containers, then a leaf.
    for (;;) {
      const spaces = spacesAt(s, pos);
      const rest = s.slice(pos + spaces);
      if (rest === '') {
        // `>` with nothing after it: a blank line inside the quote.
        paragraph = false;
        break;
      }
      if (spaces >= 4) {
        // Indented: a paragraph's next line, or indented code.
        if (!paragraph) return null;
        break;
      }
      if (rest.charCodeAt(0) === 0x3c) {
        // `<script>`, `<!--` and the like run to their closing text, and a lone tag may not interrupt a paragraph.
        if (!HTML_BLOCK_TAG.test(rest)) return null;
        html = true;
        paragraph = false;
        break;
      }
      if (THEMATIC_OR_UNDERLINE.test(rest) || /^[#[]/.test(rest)) return null;
      if (rest.charCodeAt(0) === 0x3e) {
        if (stack.length >= MAX_DEPTH || tab !== -1) return null;
        stack.push({ quote: true });
        pos += spaces + 1;
        if (s.charCodeAt(pos) === 0x20) pos++;
        paragraph = false;
        continue;
      }
      const item = BULLET.exec(rest) ?? ORDERED.exec(rest);
      if (item) {
        const ordered = item[2] ?? null;
        if (paragraph && ordered && item[1] !== '1') return null;
        const after = spacesAt(rest, item[0].length);
        // An empty item, or one opening with indented code.
        if (item[0].length + after >= rest.length || after > 4) return null;
        if (stack.length >= MAX_DEPTH) return null;
        stack.push({ quote: false, width: spaces + item[0].length + after, ordered });
        pos += spaces + item[0].length + after;
        paragraph = false;
        continue;
      }
      const run = fenceRun(rest);
      if (run > 0) {
        fence = { marker: rest.charCodeAt(0), length: run, indent: spaces, column: pos + spaces, open: line, depth: stack.length, info: rest.slice(run), lines: [] };
        paragraph = false;
        break;
      }
      paragraph = true;
      break;
    }
  }
  if (fence) {
    // A top-level fence still open runs on past the stretch.
    if (fence.depth === 0 && to < lineMax) return null;
    // markdown-it's content has no line for an empty last line the document does not end.
    if (lineEnd(text, starts, to - 1) === text.length && fence.lines.at(-1) === '' && fence.open < to - 1) fence.lines.pop();
    finish(fence, null, to);
  }
  return blocks;
}

/** The length of the ``` or ~~~ run `rest` opens a fence with, or 0 (a backtick fence's info string holds no backtick). */
function fenceRun(rest: string): number {
  const marker = rest.charCodeAt(0);
  if (marker !== 0x60 && marker !== 0x7e) return 0;
  let run = 0;
  while (rest.charCodeAt(run) === marker) run++;
  return run >= 3 && !(marker === 0x60 && rest.includes('`', run)) ? run : 0;
}

/** How many spaces and tabs `s` starts with. */
function leadLength(s: string): number {
  let n = 0;
  while (s.charCodeAt(n) === 0x20 || s.charCodeAt(n) === 0x09) n++;
  return n;
}

/** The column the first `length` characters of `s`, spaces and tabs, reach (a tab to the next multiple of 4). */
function columns(s: string, length: number): number {
  let col = 0;
  for (let i = 0; i < length; i++) col = s.charCodeAt(i) === 0x09 ? col + 4 - (col % 4) : col + 1;
  return col;
}

/**
 * A fence's line without up to `column` columns of its indentation, as markdown-it's getLines()
 * takes them: a tab it takes part of leaves the rest as spaces.
 */
function fenceLine(raw: string, column: number): string {
  let col = 0;
  let i = 0;
  for (; i < raw.length && col < column; i++) {
    const ch = raw.charCodeAt(i);
    if (ch === 0x09) col += 4 - (col % 4);
    else if (ch === 0x20) col++;
    else break;
  }
  return col > column ? ' '.repeat(col - column) + raw.slice(i) : raw.slice(i);
}

/** How many spaces `s` has from `pos` on. */
function spacesAt(s: string, pos: number): number {
  let n = 0;
  while (s.charCodeAt(pos + n) === 0x20) n++;
  return n;
}

/** Whether `s` from `pos` is a run of at least `length` of `marker`, then only spaces. */
function closes(s: string, pos: number, marker: number, length: number): boolean {
  let end = pos;
  while (s.charCodeAt(end) === marker) end++;
  return end - pos >= length && spacesAt(s, end) === s.length - end;
}

/** Whether the line from `pos` starts a block that ends a paragraph in `unmatched` (a container the line does not continue). */
function interrupts(s: string, pos: number, unmatched: Container): boolean {
  const spaces = spacesAt(s, pos);
  if (spaces > 3) return false;
  const rest = s.slice(pos + spaces);
  if (THEMATIC_OR_UNDERLINE.test(rest)) return false;
  if (rest.startsWith('>') || fenceRun(rest) > 0) return true;
  const bullet = BULLET.exec(rest);
  if (bullet) return spacesAt(rest, 1) + 1 < rest.length;
  const ordered = ORDERED.exec(rest);
  if (!ordered || spacesAt(rest, ordered[0].length) + ordered[0].length >= rest.length) return false;
  return ordered[1] === '1' || (!unmatched.quote && unmatched.ordered === ordered[2]);
}
