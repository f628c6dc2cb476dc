import { REGEX_AFTER_WORDS, type Syntax } from './syntax.js';

/**
 * A line-by-line lexer that blanks out strings and comments, keeping its state across lines
 * (a brace inside a multi-line string, template literal, block comment or heredoc must not
 * count). Block scans then count brackets and keywords on the blanked text only.
 *
 * The output keeps every column (blanked characters become spaces), so indentation and
 * positions stay meaningful.
 */
export class Lexer {
  private readonly stack: Frame[] = [];

  constructor(readonly syntax: Syntax) {}

  /** What the next line starts in: code, or the inside of a string or comment. */
  get state(): 'code' | 'string' | 'comment' {
    const top = this.stack[this.stack.length - 1];
    if (!top || top.kind === 'interp') return 'code';
    return top.kind === 'comment' ? 'comment' : 'string';
  }

  /** The line with strings and comments replaced by spaces. */
  mask(line: string): string {
    const top = this.stack[this.stack.length - 1];
    if (top?.kind === 'heredoc') {
      const text = top.indented ? line.trim() : line;
      if (text === top.end) this.stack.pop();
      return ' '.repeat(line.length);
    }
    const s = this.syntax;
    const out: string[] = [];
    // The end of the code seen so far, each literal as `0` and spaces collapsed: tells a regex
    // from a division. Only its tail is kept, so a huge minified line stays linear.
    let sig = '';
    const note = (text: string) => {
      if (text === ' ' || text === '\t') {
        if (sig.endsWith(' ')) return;
        text = ' ';
      }
      sig += text;
      if (sig.length > 64) sig = sig.slice(-32);
    };
    const heredocs: Frame[] = [];
    let i = 0;
    const blank = (n: number) => {
      for (let k = 0; k < n && i < line.length; k++, i++) out.push(' ');
    };
    const push = (frame: Frame, openLen: number) => {
      this.stack.push(frame);
      blank(openLen);
    };

    while (i < line.length) {
      const frame = this.stack[this.stack.length - 1];
      const c = line[i]!;

      if (frame?.kind === 'string') {
        if (frame.escapes && c === '\\') {
          blank(2);
        } else if (line.startsWith(frame.close, i)) {
          this.stack.pop();
          blank(frame.close.length);
          note('0');
        } else if (frame.interpolation && line.startsWith('${', i)) {
          push({ kind: 'interp', depth: 0 }, 2);
        } else {
          blank(1);
        }
        continue;
      }
      if (frame?.kind === 'comment') {
        if (s.nestedComments && line.startsWith(frame.open, i)) {
          frame.depth++;
          blank(frame.open.length);
        } else if (line.startsWith(frame.close, i)) {
          if (frame.depth === 0) this.stack.pop();
          else frame.depth--;
          blank(frame.close.length);
          note(' ');
        } else {
          blank(1);
        }
        continue;
      }

      // Code, possibly inside a template literal's `${ }` (scanned as code, blanked as string).
      const interp = frame?.kind === 'interp' ? frame : null;
      const emit = (text: string) => {
        for (const ch of text) out.push(interp ? ' ' : ch);
        note(text);
        i += text.length;
      };
      if (interp && c === '}') {
        if (interp.depth === 0) {
          this.stack.pop();
          blank(1);
          continue;
        }
        interp.depth--;
      } else if (interp && c === '{') {
        interp.depth++;
      }

      if (s.codeEscapes && c === '\\') {
        emit(line.slice(i, i + 2));
        continue;
      }
      if (s.luaLongBrackets) {
        const m = /^(--)?\[(=*)\[/.exec(line.slice(i, i + 40));
        if (m) {
          const close = `]${m[2]}]`;
          if (m[1]) push({ kind: 'comment', open: '\0', close, depth: 0 }, m[0].length);
          else push({ kind: 'string', close, escapes: false, multiline: true, interpolation: false }, m[0].length);
          continue;
        }
      }
      const lineComment = s.lineComments.find(
        (lc) => line.startsWith(lc, i) && (!s.lineCommentNeedsSpace || i === 0 || /\s/.test(line[i - 1]!)),
      );
      if (lineComment !== undefined) {
        blank(line.length - i);
        break;
      }
      const block = s.blockComments.find(([open]) => line.startsWith(open, i));
      if (block) {
        push({ kind: 'comment', open: block[0], close: block[1], depth: 0 }, block[0].length);
        continue;
      }
      if (s.rustRawStrings && (c === 'r' || c === 'b') && !isWordChar(line[i - 1])) {
        const m = /^b?r(#*)"/.exec(line.slice(i, i + 40));
        if (m) {
          push({ kind: 'string', close: `"${m[1]}`, escapes: false, multiline: true, interpolation: false }, m[0].length);
          continue;
        }
      }
      const quote = s.quotes.find((q) => line.startsWith(q.open, i) && (!q.wordStart || !isWordChar(line[i - 1])));
      if (quote) {
        push(
          { kind: 'string', close: quote.close, escapes: quote.escapes, multiline: quote.multiline, interpolation: quote.interpolation ?? false },
          quote.open.length,
        );
        continue;
      }
      if (s.charLiterals && c === "'") {
        const m = CHAR_LITERAL.exec(line.slice(i, i + 16));
        if (m) {
          blank(m[0].length);
          note('0');
        } else {
          emit(c); // a Rust lifetime or a stray quote: not a string
        }
        continue;
      }
      if (s.regexLiterals && c === '/' && regexMayStart(sig)) {
        const end = regexEnd(line, i);
        if (end !== -1) {
          blank(end - i);
          note('0');
          continue;
        }
      }
      if (s.heredocs && c === '<' && line[i + 1] === '<') {
        const m = (s.heredocs === 'shell' ? SHELL_HEREDOC : RUBY_HEREDOC).exec(line.slice(i));
        if (m) {
          heredocs.push({ kind: 'heredoc', end: m[3]!, indented: m[1] !== '' });
          emit(m[0]);
          continue;
        }
      }
      emit(c);
    }

    // Strings that cannot span lines end with theirs (unless continued with a backslash), so a
    // stray quote costs one line at most.
    const continued = line.endsWith('\\');
    for (let top = this.stack[this.stack.length - 1]; top?.kind === 'string' && !top.multiline && !continued; ) {
      this.stack.pop();
      top = this.stack[this.stack.length - 1];
    }
    for (let k = heredocs.length - 1; k >= 0; k--) this.stack.push(heredocs[k]!);
    return out.join('');
  }
}

type Frame =
  | { kind: 'string'; close: string; escapes: boolean; multiline: boolean; interpolation: boolean }
  | { kind: 'interp'; depth: number }
  | { kind: 'comment'; open: string; close: string; depth: number }
  | { kind: 'heredoc'; end: string; indented: boolean };

const CHAR_LITERAL = /^'(?:\\.[^'\\]*|[^'\\])'/;
const SHELL_HEREDOC = /^<<(-?)\s*(['"]?)([A-Za-z_]\w*)\2/;
const RUBY_HEREDOC = /^<<([~-]?)(['"]?)([A-Z_][A-Z0-9_]*)\2/;

function isWordChar(c: string | undefined): boolean {
  return c !== undefined && /[\w$]/.test(c);
}

/** A `/` starts a regex after an operator, an opening bracket, a keyword like `return`, or at line start. */
function regexMayStart(sig: string): boolean {
  const before = sig.trimEnd();
  if (before === '') return true;
  if (/[(,=:[!&|?{};+\-*%<>~^]$/.test(before)) return true;
  const word = /[\w$]+$/.exec(before);
  return word !== null && REGEX_AFTER_WORDS.has(word[0]);
}

const MAX_REGEX_CHARS = 2000;

/** End (exclusive, flags included) of a regex literal starting at `start`, or -1 if none closes on the line. */
function regexEnd(line: string, start: number): number {
  let inClass = false;
  // A regex literal is short; the bound keeps a line of unclosed `(/` linear.
  const limit = Math.min(line.length, start + MAX_REGEX_CHARS);
  for (let j = start + 1; j < limit; j++) {
    const c = line[j];
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      if (j === start + 1) return -1;
      let k = j + 1;
      while (k < line.length && /[a-z]/.test(line[k]!)) k++;
      return k;
    }
  }
  return -1;
}

/** Bracket and keyword depth change over one masked line. */
export interface LineDepth {
  /** Opened minus closed. */
  delta: number;
  /** Lowest running depth on the line (≤ 0): `} else {` dips to -1 before it opens. */
  min: number;
  /** A `{` or an opening keyword was seen (a one-line body such as `f() { return 1 }`). */
  opened: boolean;
}

export function lineDepth(code: string, syntax: Syntax): LineDepth {
  let depth = 0;
  let min = 0;
  let opened = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (syntax.openers.includes(c)) {
      depth++;
      if (c === '{') opened = true;
    } else if (syntax.closers.includes(c)) {
      depth--;
      if (depth < min) min = depth;
    } else if (syntax.keyword && /[A-Za-z_]/.test(c) && !isWordChar(code[i - 1])) {
      let end = i + 1;
      while (end < code.length && /\w/.test(code[end]!)) end++;
      const d = syntax.keyword(code.slice(i, end), code, i, end);
      if (d > 0) opened = true;
      depth += d;
      if (depth < min) min = depth;
      i = end - 1;
    }
  }
  return { delta: depth, min, opened };
}
