import type { SemanticUnit } from '../ref-spec/ref-spec.js';
import { Lexer, lineDepth } from './brackets.js';
import { canonicalLanguage, type Syntax, syntaxOf } from './syntax.js';

/**
 * Whether a line looks like a function or class declaration for `:function` / `:class`
 * (docs/reference.md#ref-specs). The tests run on the line with strings and comments blanked, so `'function'` in a
 * string or `// class` in a comment does not make a declaration.
 *
 * A line whose first word is a control-flow keyword (`if (x) {`, `} else if (y) {`,
 * `for (…) {`, `catch (e) {`) is never a function: those shapes look exactly like a C or
 * JavaScript method header otherwise. One-line bodies (`f() { return 1 }`) are declarations.
 */
export function looksLikeDeclaration(line: string, unit: SemanticUnit, language: string): boolean {
  if (unit === 'block') return true;
  const lang = canonicalLanguage(language);
  // Decorators on the declaration's own line (`@Override public void f()`) are not part of its shape.
  const syntax = syntaxOf(lang);
  const code = stripDecorators(new Lexer(syntax).mask(line), syntax);
  if (unit === 'class') return (CLASS_RES[lang] ?? ANY_CLASS).test(code);
  if (startsWithControl(code, JS_LIKE.has(lang) ? JS_CONTROL : CONTROL)) return false;
  return (FUNCTION_RES[lang] ?? ANY_FUNCTION).some((re) => re.test(code));
}

const INLINE_DECORATOR: Record<Syntax['decorators'][number], string> = {
  at: '@[\\w$.]+(\\([^)]*\\))?',
  'hash-bracket': '#\\[[^\\]]*\\]',
  'double-bracket': '\\[\\[[^\\]]*\\]\\]',
  bracket: '\\[[^\\]]*\\]',
};

/** Decorators at the start of a masked line, for `language`'s kinds only (`[key]() {` is a JS method). */
function stripDecorators(code: string, syntax: Syntax): string {
  if (syntax.decorators.length === 0) return code;
  const kinds = syntax.decorators.map((k) => INLINE_DECORATOR[k]).join('|');
  return code.replace(new RegExp(`^\\s*((${kinds})\\s*)+`), '');
}

const CONTROL = new Set([
  'if', 'else', 'elif', 'elsif', 'for', 'foreach', 'while', 'do', 'switch', 'case', 'catch', 'try', 'finally',
  'except', 'with', 'unless', 'until', 'when', 'guard', 'match', 'loop', 'using', 'lock', 'synchronized',
  'return', 'throw', 'await', 'yield', 'new', 'delete', 'defer', 'select', 'repeat', 'goto', 'assert',
]);

/**
 * In JavaScript only reserved words are control flow: `delete(key) {` and `match(path) {` are
 * methods there.
 */
const JS_CONTROL = new Set([
  'if', 'else', 'for', 'while', 'do', 'switch', 'case', 'catch', 'try', 'finally', 'with', 'return', 'throw',
  'new', 'await', 'yield', 'typeof', 'void',
]);
const JS_LIKE = new Set(['javascript', 'typescript']);

/** The first word after any closing brackets (`} else {`) is a control-flow keyword. */
function startsWithControl(code: string, control: ReadonlySet<string>): boolean {
  const m = /^[\s})\]]*([A-Za-z_]\w*)/.exec(code);
  return m !== null && control.has(m[1]!);
}

const JS_MODIFIERS = '(?:(?:export|default|public|private|protected|static|async|readonly|override|abstract|declare|get|set|accessor)\\s+|\\*\\s*)*';
/** A method name, computed ones (`[Symbol.iterator]`) included. */
const JS_NAME = '(?:[\\w$#]+|\\[[^\\]]+\\])';
/** `name = `, `const name: T = `, `this.name = `, `key: ` then the function value. */
const JS_BINDING = `^\\s*${JS_MODIFIERS}(?:(?:const|let|var)\\s+)?[\\w$#.]+\\s*(?::[^=]+)?=\\s*(?:async\\s+)?`;
const JS_FUNCTION = [
  /(^|[^\w$.])function\b/,
  // An arrow function bound to a name or a key (a callback passed to a call is not a declaration).
  new RegExp(`${JS_BINDING}(?:<[^>]*>\\s*)?(?:\\([^)]*\\)|[\\w$]+)\\s*(?::[^=]+)?=>`),
  new RegExp(`^\\s*[\\w$]+\\s*:\\s*(?:async\\s+)?(?:\\([^)]*\\)|[\\w$]+)\\s*(?::[^=]+)?=>`),
  // An arrow function whose parameters continue on the next lines: `const f = async (`.
  new RegExp(`${JS_BINDING}(?:<[^>]*>\\s*)?\\([^)]*$`),
  // Method shorthand: `name(args) {`, `async *gen() {`, `get x(): T {`, a one-line body too,
  // or `name(` with the parameters on the next lines.
  new RegExp(`^\\s*${JS_MODIFIERS}${JS_NAME}\\s*(?:<[^>]*>)?\\s*\\(.*\\)\\s*(?::[^{;=]+)?\\{`),
  new RegExp(`^\\s*${JS_MODIFIERS}${JS_NAME}\\s*(?:<[^>]*>)?\\s*\\([^)]*$`),
];

const FUNCTION_RES: Record<string, RegExp[]> = {
  python: [/^\s*(async\s+)?def\s+\w+/],
  ruby: [/^\s*(private\s+|protected\s+|public\s+)?def\s+/],
  lua: [/^\s*(local\s+)?function\b/, /=\s*function\b/],
  elixir: [/^\s*(defp?|defmacrop?|defguardp?|defdelegate)\s+\w/],
  javascript: JS_FUNCTION,
  typescript: JS_FUNCTION,
  swift: [/(^|\s)(func\s+\S|(init|deinit|subscript)\b)/],
  kotlin: [/\bfun\b/],
  scala: [/\bdef\s+\w/],
  go: [/^\s*func\b/],
  rust: [/\bfn\s+\w+/],
  bash: [/^\s*(function\s+[\w.:-]+|[\w.:-]+\s*\(\s*\))/],
  php: [/\bfunction\b/],
};
/**
 * C-family: a return type (or modifiers) then a name and `(`, with no `;` before the body (a
 * call or a prototype ends with one; a one-line body `{ return 1; }` may hold some).
 */
const C_FUNCTION = /^\s*[\w:<>,*&~\s]*?[\w~]+[\w:<>]*\s*\**&?\s*[\w:~]+\s*\([^;{]*(\{.*)?$/;
for (const lang of ['c', 'cpp', 'java', 'cs']) FUNCTION_RES[lang] = [C_FUNCTION];

const word = (alternatives: string) => new RegExp(`(^|[^\\w$.])(${alternatives})\\b`);
const CLASS_RES: Record<string, RegExp> = {
  python: /^\s*class\s+\w+/,
  ruby: /^\s*(class|module)\s+[\w:<]/,
  elixir: /^\s*(defmodule|defprotocol|defimpl)\s+\w/,
  javascript: word('class'),
  typescript: word('class|interface|enum'),
  swift: word('class|struct|enum|protocol|extension|actor'),
  kotlin: word('class|interface|object'),
  scala: word('class|trait|object'),
  java: word('class|interface|enum|record'),
  cs: word('class|interface|enum|struct|record'),
  cpp: word('class|struct|union|enum'),
  c: word('struct|union|enum'),
  go: /\btype\s+\w+\s+(struct|interface)\b/,
  rust: word('struct|enum|trait|impl|union'),
  php: word('class|interface|trait|enum'),
};

const ANY_FUNCTION = Object.values(FUNCTION_RES).flat();
const ANY_CLASS = word('class|struct|interface|enum|protocol|trait|impl|module|object|record');

const DECORATOR_START: Record<string, RegExp> = {
  // `@interface` declares a Java annotation type: it is the declaration, not a decorator.
  at: /^\s*@(?!interface\b)[\w$.]+/,
  'hash-bracket': /^\s*#\[/,
  bracket: /^\s*\[[A-Za-z_][\w.]*\s*(\(|,|\]|:)/,
  'double-bracket': /^\s*\[\[/,
};

/**
 * The line starts a decorator, attribute or annotation (`@x`, `#[x]`, `[X]`, `[[x]]`) and holds
 * nothing else: `@Override public void f() {` is the declaration itself.
 */
export function isDecoratorStart(line: string, language: string): boolean {
  const syntax = syntaxOf(language);
  if (!syntax.decorators.some((kind) => DECORATOR_START[kind]!.test(line))) return false;
  // What follows the decorators: nothing, or the rest of a multi-line argument (`@Component({`).
  const rest = stripDecorators(new Lexer(syntax).mask(line), syntax).trim();
  return !/^[\w$]/.test(rest);
}

/**
 * Ends of the decorators in `lines` starting at `from`: the index after the last line of the
 * one starting there (its brackets balanced), or -1 if `lines[from]` does not start one.
 */
export function decoratorEnd(lines: readonly string[], from: number, language: string): number {
  if (!isDecoratorStart(lines[from] ?? '', language)) return -1;
  const syntax = syntaxOf(language);
  const lexer = new Lexer(syntax);
  let depth = 0;
  for (let i = from; i < lines.length; i++) {
    depth += lineDepth(lexer.mask(lines[i]!), syntax).delta;
    if (depth <= 0) return i + 1;
  }
  return -1;
}

/** How many of the last lines of `before` are decorators of the declaration that follows them. */
export function leadingDecorators(before: readonly string[], language: string): number {
  if (syntaxOf(language).decorators.length === 0) return 0;
  let best = 0;
  // A run of decorators must end exactly at the declaration: try every start, keep the longest.
  for (let s = before.length - 1; s >= 0; s--) {
    let i = s;
    while (i < before.length) {
      const end = decoratorEnd(before, i, language);
      if (end === -1) break;
      i = end;
    }
    if (i === before.length) best = before.length - s;
  }
  return best;
}
