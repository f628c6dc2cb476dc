/**
 * Per-language lexical rules for block extraction, keyed by the names `languageOf`
 * (src/core/language.ts) returns. Only what a block scan needs: where strings and comments start
 * and end (so brackets inside them do not count), which brackets count, and which keywords open
 * and close a block in languages that end blocks with a word.
 *
 * Heuristic on purpose: the goal is the right end line on real code, not a parser.
 */

/** How a block is delimited, which decides the scan strategy in block.ts. */
export type BlockFamily =
  /** `{ }` (C, Java, JS, Rust, Go, Swift, ...): brackets, Allman `{` on the next line allowed. */
  | 'brace'
  /** Ruby, Lua, Elixir: brackets and opener keywords balanced by `end` (`until` in Lua). */
  | 'keyword'
  /** Shell: `{ }` plus `if/fi`, `case/esac`, `do/done`. */
  | 'shell'
  /** Python: brackets for a multi-line header, then the indented body. */
  | 'indent'
  /** YAML: indentation only (flow collections and quotes are left alone). */
  | 'yaml'
  /** Anything else (text, markdown, unknown extensions): brackets, else indentation. */
  | 'plain';

/** A string delimiter: what opens it, what closes it, and how it behaves. */
export interface Quote {
  open: string;
  close: string;
  /** A backslash escapes the next character. */
  escapes: boolean;
  /** May span lines; otherwise an unclosed string ends with its line (a stray `'` cannot swallow the file). */
  multiline: boolean;
  /** `${ ... }` inside is code whose braces nest (JS template literals). */
  interpolation?: boolean;
  /** Opens only where a word cannot continue before it (`r"` in Rust, not `for"`). */
  wordStart?: boolean;
}

export interface Syntax {
  family: BlockFamily;
  lineComments: readonly string[];
  /** A line comment only starts after whitespace or at line start (`$#` in shell, `a#b` in YAML are not comments). */
  lineCommentNeedsSpace: boolean;
  blockComments: readonly (readonly [string, string])[];
  /** Block comments nest (Rust, Swift, Kotlin, Scala). */
  nestedComments: boolean;
  /** Longest first: `"""` before `"`. */
  quotes: readonly Quote[];
  /** `'x'` is a char literal and a lone `'` (a Rust lifetime, Kotlin/Swift never) is not a string. */
  charLiterals: boolean;
  /** Rust `r"…"`, `r#"…"#`, `br#"…"#`. */
  rustRawStrings: boolean;
  /** Lua `[[…]]`, `[==[…]==]` long strings and `--[[…]]` comments. */
  luaLongBrackets: boolean;
  /** A backslash in code escapes the next character (shell: `\'` is a quote, not a string). */
  codeEscapes: boolean;
  /** JS/TS `/re/` literals, told from division by what comes before the `/`. */
  regexLiterals: boolean;
  /** Heredocs (`<<EOF` in shell, `<<~SQL` in Ruby): the lines up to the terminator are text. */
  heredocs: 'shell' | 'ruby' | null;
  /** Bracket characters that count for depth. */
  openers: string;
  closers: string;
  /**
   * Keyword depth change of `word`, found in `code` (a masked line) at [start, end): +1 opens,
   * -1 closes, 0 neither. Null: no keywords (brace languages).
   */
  keyword: ((word: string, code: string, start: number, end: number) => number) | null;
  /** How decorators/attributes above a declaration start: `@x`, `#[x]`, `[X]`, `[[x]]`. */
  decorators: readonly ('at' | 'hash-bracket' | 'bracket' | 'double-bracket')[];
}

const DQ: Quote = { open: '"', close: '"', escapes: true, multiline: false };
const SQ: Quote = { open: "'", close: "'", escapes: true, multiline: false };
const TRIPLE_DQ: Quote = { open: '"""', close: '"""', escapes: true, multiline: true };
const TRIPLE_SQ: Quote = { open: "'''", close: "'''", escapes: true, multiline: true };
const TEMPLATE: Quote = { open: '`', close: '`', escapes: true, multiline: true, interpolation: true };

const C_LIKE: Syntax = {
  family: 'brace',
  lineComments: ['//'],
  lineCommentNeedsSpace: false,
  blockComments: [['/*', '*/']],
  nestedComments: false,
  quotes: [DQ],
  charLiterals: true,
  rustRawStrings: false,
  luaLongBrackets: false,
  codeEscapes: false,
  regexLiterals: false,
  heredocs: null,
  openers: '{([',
  closers: '})]',
  keyword: null,
  decorators: [],
};

/** Words before a `/` after which it starts a regex, not a division. */
export const REGEX_AFTER_WORDS = new Set([
  'return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await',
]);

/**
 * What precedes a word on its line, up to a bound: enough to judge its context, and keyword
 * checks on a huge minified line stay linear.
 */
function lineBefore(code: string, start: number): string {
  return code.slice(Math.max(0, start - 256), start);
}

/** At most 256 characters after a keyword: look-ahead stays bounded on huge one-line files too. */
function lineAfter(code: string, end: number): string {
  return code.slice(end, end + 256);
}

/** The word is at a statement start: nothing before it on the line, or something `after` matches. */
function atStatementStart(code: string, start: number, after: RegExp): boolean {
  const before = lineBefore(code, start).trimEnd();
  return before === '' || after.test(before);
}

// Ruby: `if`/`unless`/`while`/`until` open a block only at a statement start; after an
// expression they are modifiers (`return x if y`). `do` after `while`/`until`/`for` on the same
// line is part of that loop, not a second opener.
const RUBY_STATEMENT = /(^|[=(;,[{?:|&]|\b(then|else|do|begin))$/;
function rubyKeyword(word: string, code: string, start: number, end: number): number {
  // `x.end`, `:end` (a symbol), `end:` (a hash key), `if?` are not keywords.
  if (code[start - 1] === '.' || code[start - 1] === ':' || code[end] === ':' || code[end] === '?' || code[end] === '!') return 0;
  switch (word) {
    case 'end':
      return -1;
    case 'def':
      // An endless method (`def sq(x) = x * x`) has no `end`.
      return /^\s*(self\.)?[\w.]+[?!]?(\s*\([^)]*\)\s*|\s+)=[^=~>]/.test(lineAfter(code, end)) ? 0 : 1;
    case 'class':
    case 'module':
    case 'begin':
    case 'case':
      return 1;
    case 'do':
      return /(^|[;=])\s*(while|until|for)\b/.test(lineBefore(code, start)) ? 0 : 1;
    case 'if':
    case 'unless':
    case 'while':
    case 'until':
    case 'for':
      return atStatementStart(code, start, RUBY_STATEMENT) ? 1 : 0;
    default:
      return 0;
  }
}

// Lua: `while … do` and `for … do` are counted by their `do`; `repeat` closes with `until`.
function luaKeyword(word: string, code: string, start: number, end: number): number {
  if (code[start - 1] === '.' || code[start - 1] === ':' || code[end] === '=') return 0;
  if (word === 'function' || word === 'if' || word === 'do' || word === 'repeat') return 1;
  if (word === 'end' || word === 'until') return -1;
  return 0;
}

// Elixir: `do` opens unless it is the keyword-list form `do:`; `fn` opens; `end` closes. `:end`
// is an atom.
function elixirKeyword(word: string, code: string, start: number, end: number): number {
  if (code[start - 1] === '.' || code[start - 1] === ':' || code[end] === ':') return 0;
  if (word === 'do' || word === 'fn') return 1;
  if (word === 'end') return -1;
  return 0;
}

// Shell: a keyword counts only in command position (`echo done` is an argument); `)` ends a
// `case` pattern, after which a command starts.
const SHELL_COMMAND = /(^|[;&|(){!]|\b(then|do|else|elif|if|while|until|time))$/;
function shellKeyword(word: string, code: string, start: number, end: number): number {
  if (word !== 'if' && word !== 'case' && word !== 'do' && word !== 'fi' && word !== 'esac' && word !== 'done') return 0;
  if (code[end] === '=') return 0; // `done=no` is an assignment
  if (!atStatementStart(code, start, SHELL_COMMAND)) return 0;
  return word === 'if' || word === 'case' || word === 'do' ? 1 : -1;
}

const PLAIN: Syntax = { ...C_LIKE, family: 'plain', blockComments: [], lineComments: [], quotes: [], charLiterals: false };

const TABLE: Record<string, Syntax> = {
  c: { ...C_LIKE, decorators: ['double-bracket'] },
  cpp: { ...C_LIKE, decorators: ['double-bracket'] },
  java: { ...C_LIKE, quotes: [TRIPLE_DQ, DQ], decorators: ['at'] },
  cs: { ...C_LIKE, decorators: ['bracket'] },
  go: { ...C_LIKE, quotes: [DQ, { open: '`', close: '`', escapes: false, multiline: true }] },
  kotlin: { ...C_LIKE, nestedComments: true, quotes: [TRIPLE_DQ, DQ], decorators: ['at'] },
  scala: { ...C_LIKE, nestedComments: true, quotes: [TRIPLE_DQ, DQ], decorators: ['at'] },
  swift: { ...C_LIKE, nestedComments: true, quotes: [TRIPLE_DQ, DQ], decorators: ['at'] },
  rust: {
    ...C_LIKE,
    nestedComments: true,
    quotes: [{ ...DQ, multiline: true }],
    rustRawStrings: true,
    decorators: ['hash-bracket'],
  },
  javascript: {
    ...C_LIKE,
    quotes: [TEMPLATE, DQ, SQ],
    charLiterals: false,
    regexLiterals: true,
    decorators: ['at'],
  },
  php: { ...C_LIKE, lineComments: ['//', '#'], quotes: [DQ, SQ], charLiterals: false, decorators: ['hash-bracket'] },
  css: { ...C_LIKE, lineComments: [], quotes: [DQ, SQ], charLiterals: false },
  json: { ...C_LIKE, lineComments: [], blockComments: [], charLiterals: false },
  python: {
    ...C_LIKE,
    family: 'indent',
    lineComments: ['#'],
    blockComments: [],
    quotes: [TRIPLE_DQ, TRIPLE_SQ, DQ, SQ],
    charLiterals: false,
    decorators: ['at'],
  },
  ruby: {
    ...C_LIKE,
    family: 'keyword',
    lineComments: ['#'],
    blockComments: [],
    quotes: [{ ...DQ, multiline: true }, { ...SQ, multiline: true }],
    charLiterals: false,
    heredocs: 'ruby',
    keyword: rubyKeyword,
  },
  lua: {
    ...C_LIKE,
    family: 'keyword',
    lineComments: ['--'],
    blockComments: [],
    quotes: [DQ, SQ],
    charLiterals: false,
    luaLongBrackets: true,
    keyword: luaKeyword,
  },
  elixir: {
    ...C_LIKE,
    family: 'keyword',
    lineComments: ['#'],
    blockComments: [],
    quotes: [TRIPLE_DQ, TRIPLE_SQ, { ...DQ, multiline: true }, SQ],
    charLiterals: false,
    keyword: elixirKeyword,
  },
  bash: {
    ...C_LIKE,
    family: 'shell',
    lineComments: ['#'],
    lineCommentNeedsSpace: true,
    blockComments: [],
    quotes: [
      { ...DQ, multiline: true },
      { open: "'", close: "'", escapes: false, multiline: true },
      { open: '`', close: '`', escapes: true, multiline: true },
    ],
    charLiterals: false,
    heredocs: 'shell',
    codeEscapes: true,
    // Only braces: `case` arms (`a)`) and `[[ ... ]]` tests do not pair up per line.
    openers: '{',
    closers: '}',
    keyword: shellKeyword,
  },
  yaml: { ...PLAIN, family: 'yaml', lineComments: ['#'], lineCommentNeedsSpace: true },
  toml: { ...C_LIKE, family: 'plain', lineComments: ['#'], blockComments: [], quotes: [TRIPLE_DQ, TRIPLE_SQ, DQ, SQ], charLiterals: false },
  dockerfile: { ...PLAIN, lineComments: ['#'], lineCommentNeedsSpace: true, quotes: [DQ, SQ] },
  sql: { ...C_LIKE, family: 'plain', lineComments: ['--'], quotes: [SQ, DQ], charLiterals: false },
  text: PLAIN,
  markdown: PLAIN,
};
TABLE.typescript = TABLE.javascript!;

/**
 * Extensions `languageOf` passes through unchanged that share a table entry. Kept here, not in
 * language.ts: that table is docs/reference.md#extraction-output fence names, and `ex.ex` must still fence as `ex`.
 */
const ALIASES: Record<string, string> = {
  ex: 'elixir',
  exs: 'elixir',
  pyi: 'python',
  pyw: 'python',
  rake: 'ruby',
  gemspec: 'ruby',
  zsh: 'bash',
  ksh: 'bash',
  kts: 'kotlin',
  cxx: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  sc: 'scala',
  scss: 'css',
  less: 'css',
  jsonc: 'javascript',
  json5: 'javascript',
};

/** Canonical language name (for tables keyed by language) of a `languageOf` result. */
export function canonicalLanguage(language: string): string {
  return ALIASES[language] ?? language;
}

/**
 * Lexical rules of `language`. An unknown language gets C-like rules without char literals:
 * most languages that are not listed use `{}` and `//`, and an apostrophe must not hide code.
 */
export function syntaxOf(language: string): Syntax {
  return TABLE[canonicalLanguage(language)] ?? { ...C_LIKE, family: 'plain', charLiterals: false, quotes: [DQ, SQ] };
}
