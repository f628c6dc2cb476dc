import type { SemanticUnit } from '../spec/types.js';

/**
 * `:block` / `:function` / `:class` (SPEC 1). Heuristic on purpose: strings and comments are
 * skipped well enough for real code, not parsed exactly.
 *
 * - If the match line opens more `{([` than it closes: up to the line that balances them. A
 *   Python-style header that balances on a line ending in ':' (a multi-line `def f(\n a,\n):`)
 *   continues with the indentation rule.
 * - If the next non-blank line starts with '{' (Allman style): the bracket rule from there.
 * - Otherwise: every following line that is blank or indented deeper than the match line,
 *   trailing blank lines dropped.
 */
export interface BlockResult {
  /** Lines after the match line that belong to the block. */
  body: string[];
  /** Lines pulled while looking ahead that do not belong to it, in order (give them back). */
  lookahead: string[];
}

export function scanBlock(first: string, next: () => string | null, language: string): BlockResult {
  const syntax = syntaxOf(language);
  const body: string[] = [];
  let depth = bracketDelta(first, syntax);
  let headerEndsWithColon = first.trimEnd().endsWith(':');

  if (depth <= 0 && !headerEndsWithColon) {
    // Allman style: `void f()` then `{` on its own line.
    const blanks: string[] = [];
    let line = next();
    while (line !== null && isBlank(line)) {
      blanks.push(line);
      line = next();
    }
    if (line === null) return { body: [], lookahead: blanks };
    if (!line.trimStart().startsWith('{')) {
      return indentBlock(indentOf(first), [...blanks, line], next, body);
    }
    body.push(...blanks, line);
    depth = bracketDelta(line, syntax);
    if (depth <= 0) return { body, lookahead: [] };
  }

  if (depth > 0) {
    for (;;) {
      const line = next();
      if (line === null) return { body, lookahead: [] };
      body.push(line);
      depth += bracketDelta(line, syntax);
      if (depth <= 0) {
        headerEndsWithColon = line.trimEnd().endsWith(':');
        if (!headerEndsWithColon) return { body, lookahead: [] };
        break;
      }
    }
  }
  return indentBlock(indentOf(first), [], next, body);
}

function indentBlock(base: number, pending: string[], next: () => string | null, body: string[]): BlockResult {
  const blanks: string[] = [];
  for (;;) {
    const line = pending.length > 0 ? pending.shift()! : next();
    if (line === null) return { body, lookahead: blanks };
    if (isBlank(line)) {
      blanks.push(line);
      continue;
    }
    if (indentOf(line) <= base) return { body, lookahead: [...blanks, line, ...pending] };
    body.push(...blanks, line);
    blanks.length = 0;
  }
}

function isBlank(line: string): boolean {
  return line.trim().length === 0;
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

interface Syntax {
  hashComments: boolean;
  slashComments: boolean;
  /** `'` starts a string (JS, Python, shell) rather than a char literal or a Rust lifetime. */
  singleQuoteStrings: boolean;
}

const HASH = new Set(['python', 'ruby', 'bash', 'yaml', 'toml', 'dockerfile', 'perl', 'r', 'text']);
const CHAR_LITERALS = new Set(['c', 'cpp', 'java', 'kotlin', 'rust', 'swift', 'go', 'cs', 'scala']);

function syntaxOf(language: string): Syntax {
  const hash = HASH.has(language);
  return {
    hashComments: hash,
    slashComments: !hash || language === 'text',
    singleQuoteStrings: !CHAR_LITERALS.has(language),
  };
}

const CHAR_LITERAL_RE = /^'(?:\\.[^']*|[^'\\])'/;

/** Opened minus closed brackets on a line, skipping strings and comments. */
export function bracketDelta(line: string, syntax: Syntax): number {
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"' || c === '`' || (c === "'" && syntax.singleQuoteStrings)) {
      i = skipString(line, i, c);
    } else if (c === "'") {
      const m = CHAR_LITERAL_RE.exec(line.slice(i, i + 12));
      if (m) i += m[0].length - 1;
    } else if (c === '#' && syntax.hashComments) {
      break;
    } else if (c === '/' && syntax.slashComments && line[i + 1] === '/') {
      break;
    } else if (c === '/' && syntax.slashComments && line[i + 1] === '*') {
      const close = line.indexOf('*/', i + 2);
      if (close === -1) break;
      i = close + 1;
    } else if (c === '{' || c === '(' || c === '[') {
      depth++;
    } else if (c === '}' || c === ')' || c === ']') {
      depth--;
    }
  }
  return depth;
}

function skipString(line: string, i: number, quote: string): number {
  for (let j = i + 1; j < line.length; j++) {
    if (line[j] === '\\') j++;
    else if (line[j] === quote) return j;
  }
  return line.length;
}

const FUNCTION_RES: Record<string, RegExp[]> = {
  python: [/^\s*(async\s+)?def\s+\w+/],
  ruby: [/^\s*def\s+/],
  javascript: [
    /\bfunction\b/,
    /^\s*(export\s+)?(default\s+)?(const|let|var)\s+[\w$]+\s*=\s*(async\s+)?(\([^)]*\)|[\w$]+)\s*=>/,
    /^\s*(static\s+|async\s+|get\s+|set\s+|\*\s*)*[\w$#]+\s*\([^)]*\)?\s*\{?\s*$/,
  ],
  typescript: [
    /\bfunction\b/,
    /^\s*(export\s+)?(default\s+)?(const|let|var)\s+[\w$]+\s*(:[^=]+)?=\s*(async\s+)?(<[^>]*>\s*)?(\([^)]*\)?|[\w$]+)/,
    /^\s*((public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*[\w$#]+\s*(<[^>]*>)?\s*\(/,
  ],
  swift: [/\b(func|init|deinit|subscript)\b/],
  kotlin: [/\bfun\b/],
  go: [/^\s*func\b/],
  rust: [/\bfn\s+\w+/],
  bash: [/^\s*(function\s+[\w-]+|[\w-]+\s*\(\s*\))/],
};
// C-family: a return type (or modifiers) then a name and '(' with no ';' ending the line.
const C_FUNCTION = /^\s*[\w:<>,*&~\s]*?[\w~]+[\w:<>]*\s*\**&?\s*[\w:~]+\s*\([^;]*$/;
for (const lang of ['c', 'cpp', 'java', 'cs']) FUNCTION_RES[lang] = [C_FUNCTION];

const CLASS_RES: Record<string, RegExp> = {
  python: /^\s*class\s+\w+/,
  ruby: /^\s*(class|module)\s+\w+/,
  javascript: /\bclass\b/,
  typescript: /\b(class|interface|enum)\b/,
  swift: /\b(class|struct|enum|protocol|extension|actor)\b/,
  kotlin: /\b(class|interface|object)\b/,
  java: /\b(class|interface|enum|record)\b/,
  cs: /\b(class|interface|enum|struct|record)\b/,
  cpp: /\b(class|struct|union|enum)\b/,
  c: /\b(struct|union|enum)\b/,
  go: /\btype\s+\w+\s+(struct|interface)\b/,
  rust: /\b(struct|enum|trait|impl|union)\b/,
};

const ANY_FUNCTION = Object.values(FUNCTION_RES).flat();
const ANY_CLASS = /\b(class|struct|interface|enum|protocol|trait|impl|module|object|record)\b/;

/** Whether `line` looks like a declaration of `unit` in `language`; blocks accept anything. */
export function looksLikeDeclaration(line: string, unit: SemanticUnit, language: string): boolean {
  if (unit === 'block') return true;
  if (unit === 'class') return (CLASS_RES[language] ?? ANY_CLASS).test(line);
  return (FUNCTION_RES[language] ?? ANY_FUNCTION).some((re) => re.test(line));
}
