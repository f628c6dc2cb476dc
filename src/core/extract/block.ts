import type { SemanticUnit } from '../ref-spec/ref-spec.js';
import { Lexer, lineDepth } from './brackets.js';
import { decoratorEnd, isDecoratorStart, leadingDecorators, looksLikeDeclaration } from './declaration.js';
import { type Syntax, syntaxOf } from './syntax.js';

/**
 * `:block` / `:function` / `:class` (docs/reference.md#ref-specs). Heuristic on purpose: a lexer (brackets.ts) blanks
 * strings and comments across lines, well enough for real code; nothing is parsed.
 *
 * By language family (syntax.ts):
 * - brace, keyword (Ruby, Lua, Elixir), shell: if the match line opens more brackets or opener
 *   keywords than it closes, up to the line that balances them (`end`, `fi`, `done`, `esac`
 *   counted). A line that opens and closes its own body (`f() { return 1 }`) is the whole block.
 *   A `{` (or `do`) starting the next non-blank line is an Allman-style opener. Otherwise the
 *   indentation rule.
 * - indent (Python): brackets for a multi-line header; a header ending in ':' goes on with the
 *   indentation rule.
 * - yaml: the indentation rule; a `key:` without a value also takes the `- ` items written at
 *   its own indentation.
 *
 * Indentation rule: every following line indented deeper than the match line. Blank lines and
 * comment lines at or left of the match's indentation are kept only when a deeper line follows
 * (trailing ones dropped); lines inside a multi-line string always belong.
 */
export interface BlockResult {
  /** Lines after the match line that belong to the block. */
  body: string[];
  /** Lines pulled while looking ahead that do not belong to it, in order (give them back). */
  lookahead: string[];
  /**
   * `unclosed`: brackets or keywords never balanced, the body runs to the end of the file.
   * `truncated`: the body reached the line cap and was cut there.
   */
  problem: 'unclosed' | 'truncated' | null;
}

export interface SemanticResult extends BlockResult {
  /** How many of the lines before the match (the last ones) belong too: decorators. */
  leading: number;
}

/**
 * A block this long is cut with a warning: a block that never closes must not pull in the rest
 * of a huge file silently, and no real function is this long.
 */
export const DEFAULT_MAX_BLOCK_LINES = 10_000;

/**
 * The block of `first` for `unit`, or null when `:function` / `:class` finds no declaration.
 * For those two, decorators directly above (`before` holds the lines preceding the match) are
 * included, and a match on a decorator line extends down to the declaration it decorates.
 */
export function scanSemantic(
  before: readonly string[],
  first: string,
  next: () => string | null,
  language: string,
  unit: SemanticUnit,
  maxLines = DEFAULT_MAX_BLOCK_LINES,
): SemanticResult | null {
  if (unit === 'block') return { leading: 0, ...scanBlock(first, next, language, maxLines) };

  const header = [first];
  let at = 0;
  while (isDecoratorStart(header[at]!, language)) {
    let end = decoratorEnd(header, at, language);
    while (end === -1 && header.length - at < MAX_DECORATOR_LINES) {
      const line = next();
      if (line === null) return null;
      header.push(line);
      end = decoratorEnd(header, at, language);
    }
    if (end === -1) return null;
    if (end === header.length) {
      const line = next();
      if (line === null) return null;
      header.push(line);
    }
    at = end;
  }
  const declaration = header[at]!;
  if (!looksLikeDeclaration(declaration, unit, language)) return null;
  const block = new BlockScan(syntaxOf(language), next, maxLines - at, true).run(declaration);
  return {
    leading: leadingDecorators(before.slice(-LOOKBACK_LINES), language),
    body: [...header.slice(1), ...block.body],
    lookahead: block.lookahead,
    problem: block.problem,
  };
}

/** Lines before a match searched for its decorators (select.ts keeps this many). */
export const LOOKBACK_LINES = 64;
const MAX_DECORATOR_LINES = 40;
/** Lines a declaration's header may wrap over after its first line before its body opens. */
const MAX_HEADER_LINES = 8;

export function scanBlock(
  first: string,
  next: () => string | null,
  language: string,
  maxLines = DEFAULT_MAX_BLOCK_LINES,
): BlockResult {
  return new BlockScan(syntaxOf(language), next, maxLines).run(first);
}

interface Pending {
  raw: string;
  code: string;
  /** The line starts inside a string or comment. */
  state: 'code' | 'string' | 'comment';
}

class BlockScan {
  private readonly lexer: Lexer;
  private readonly body: string[] = [];

  constructor(
    private readonly syntax: Syntax,
    private readonly next: () => string | null,
    private readonly maxLines: number,
    /** The first line declares a function or class whose header may wrap (`:function`, `:class`). */
    private readonly declaration = false,
  ) {
    this.lexer = new Lexer(syntax);
  }

  run(first: string): BlockResult {
    const { family } = this.syntax;
    const code = this.lexer.mask(first);
    const base = indentOf(first);
    if (family === 'yaml') return this.indented(base, [], isYamlKey(code));

    const d = lineDepth(code, this.syntax);
    // `} else {` dips below zero before it opens: what counts is how much it opens after its lowest point.
    const open = d.delta - d.min;
    const colonHeaders = family === 'indent' || family === 'plain';
    if (open > 0) {
      const end = this.brackets(open);
      if (end.kind !== 'closed') return this.result([], end.kind === 'eof' ? 'unclosed' : 'truncated');
      if (colonHeaders && end.code.trimEnd().endsWith(':')) return this.indented(base, [], false);
      // Parameters over several lines, then the return type and the body's `{` further down.
      if (this.wrapsHeader(code) && !end.code.includes('{') && !end.code.trimEnd().endsWith(';')) {
        const rest = this.headerThenBody(base, []);
        return Array.isArray(rest) ? this.result(rest.map((p) => p.raw), null) : rest;
      }
      return this.result([], null);
    }
    if (family === 'indent' || (colonHeaders && code.trimEnd().endsWith(':'))) return this.indented(base, [], false);
    if (d.opened) return this.result([], null);

    // Allman style: `void f()` then `{` on its own line (`do` for a shell or Ruby loop).
    // The blank lines looked past are at most a block's worth: memory and time stay linear on a
    // file of blank lines, and no opener that far down could belong to this line anyway.
    const blanks: Pending[] = [];
    let line = this.read();
    while (line !== null && line.raw.trim() === '' && blanks.length < this.maxLines) {
      blanks.push(line);
      line = this.read();
    }
    if (line === null || blanks.length >= this.maxLines) return this.result([...blanks, ...(line ? [line] : [])].map((b) => b.raw), null);
    const depth = lineDepth(line.code, this.syntax).delta;
    if (/^\s*\{/.test(line.code) || (depth > 0 && /^\s*do\b/.test(line.code))) {
      this.body.push(...blanks.map((b) => b.raw), line.raw);
      if (depth <= 0) return this.result([], null);
      const end = this.brackets(depth);
      return this.result([], end.kind === 'closed' ? null : end.kind === 'eof' ? 'unclosed' : 'truncated');
    }
    if (blanks.length === 0 && this.wrapsHeader(code) && !code.trimEnd().endsWith(';')) {
      const rest = this.headerThenBody(base, [line]);
      if (!Array.isArray(rest)) return rest;
      return this.indented(base, rest, false);
    }
    return this.indented(base, [...blanks, line], false);
  }

  /** A brace-language declaration whose first line opened no body: its header may go on. */
  private wrapsHeader(firstCode: string): boolean {
    return this.declaration && this.syntax.family === 'brace' && !firstCode.includes('{');
  }

  /**
   * After a declaration's first line (or its parameters): lines indented deeper than it that go
   * on with the header (`-> Result`, `throws -> T {`), then the body's `{`, ending one of them or
   * alone on a line at the header's indentation. The result when a body was found; else the lines
   * read, to be given back.
   */
  private headerThenBody(base: number, pending: Pending[]): BlockResult | Pending[] {
    const seen: Pending[] = [];
    for (let i = 0; i < MAX_HEADER_LINES; i++) {
      const line = pending.shift() ?? this.read();
      if (line === null) return seen;
      seen.push(line);
      if (line.raw.trim() === '' || line.code.includes(';')) return seen;
      const d = lineDepth(line.code, this.syntax);
      const opens = d.delta - d.min;
      const indent = indentOf(line.raw);
      const allman = /^\s*\{/.test(line.code) && indent <= base;
      if (!allman && indent <= base) return seen;
      if (allman || (line.code.includes('{') && opens > 0)) {
        this.body.push(...seen.map((p) => p.raw));
        if (opens <= 0) return this.result([], null);
        const end = this.brackets(opens);
        return this.result([], end.kind === 'closed' ? null : end.kind === 'eof' ? 'unclosed' : 'truncated');
      }
    }
    return seen;
  }

  private read(): Pending | null {
    const raw = this.next();
    if (raw === null) return null;
    const state = this.lexer.state;
    return { raw, code: this.lexer.mask(raw), state };
  }

  /** Lines until the depth is back to zero. */
  private brackets(depth: number): { kind: 'closed'; code: string } | { kind: 'eof' | 'cap' } {
    for (;;) {
      if (this.body.length >= this.maxLines) return { kind: 'cap' };
      const line = this.read();
      if (line === null) return { kind: 'eof' };
      this.body.push(line.raw);
      depth += lineDepth(line.code, this.syntax).delta;
      if (depth <= 0) return { kind: 'closed', code: line.code };
    }
  }

  /**
   * The indentation rule from `base`. `yamlKey`: the match is a YAML `key:` whose list items may
   * sit at its own indentation.
   */
  private indented(base: number, pending: Pending[], yamlKey: boolean): BlockResult {
    const held: string[] = [];
    // Open brackets carried from earlier body lines: a Python call continued on dedented lines.
    const countBrackets = this.syntax.family === 'indent';
    let depth = 0;
    for (;;) {
      if (this.body.length >= this.maxLines) {
        return this.result([...held, ...pending.map((p) => p.raw)], 'truncated');
      }
      // A block's worth of blank lines in a row ends the block (they are trailing, as at the end of
      // the file): held lines stay bounded, and a file of blank lines is scanned in linear time.
      if (held.length >= this.maxLines) return this.result([...held, ...pending.map((p) => p.raw)], null);
      const line = pending.shift() ?? this.read();
      if (line === null) return this.result(held, null);
      const continued = line.state === 'string' || depth > 0;
      if (!continued) {
        const indent = indentOf(line.raw);
        if (line.code.trim() === '') {
          // Blank, or a comment at or left of the header: kept only if the block goes on.
          if (line.raw.trim() === '' || indent <= base) {
            held.push(line.raw);
            continue;
          }
        } else if (indent < base || (indent === base && !(yamlKey && /^\s*-(\s|$)/.test(line.raw)))) {
          return this.result([...held, line.raw, ...pending.map((p) => p.raw)], null);
        }
      }
      this.body.push(...held, line.raw);
      held.length = 0;
      if (countBrackets) depth = Math.max(0, depth + lineDepth(line.code, this.syntax).delta);
    }
  }

  private result(lookahead: string[], problem: BlockResult['problem']): BlockResult {
    return { body: this.body, lookahead, problem };
  }
}

/** A YAML mapping key with no value on its line (`steps:`), not itself a list item. */
function isYamlKey(code: string): boolean {
  return /^\s*[^-\s].*:\s*$/.test(code);
}

/** Leading whitespace width, tabs advancing to the next multiple of 8 (as Python counts them). */
function indentOf(line: string): number {
  let w = 0;
  for (const c of line) {
    if (c === ' ') w++;
    else if (c === '\t') w = w - (w % 8) + 8;
    else break;
  }
  return w;
}
