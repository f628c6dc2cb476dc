/**
 * The regex dialect of pattern selectors (`#/re/`): JavaScript's, read the way patterns written
 * for Python's `re` (sdqctl's workflows) mean it (docs/reference.md#patterns):
 * - inline flags at the start, `(?i)`, `(?m)`, `(?s)`, `(?x)`, `(?a)`, `(?u)` (and combined, `(?im)`);
 * - `(?P<name>...)`, `(?P=name)` and `(?#comment)`; `\A`, `\Z` and `\z`;
 * - Unicode-aware matching: the `u` flag (so `.` is one code point, an emoji included), and
 *   `\w`, `\W`, `\d`, `\D`, `\b`, `\B` over Unicode letters and digits as in Python 3;
 * - a `{` or `}` that is no quantifier, and an escaped punctuation mark (`\-`, `\#`, `\ `), are
 *   plain characters, as in Python and in JavaScript without `u`.
 * A pattern the translation cannot take is compiled as plain JavaScript (no `u`), as it always was.
 */
export function compilePattern(source: string): RegExp {
  let translated: { source: string; flags: string } | null = null;
  try {
    translated = translatePattern(source);
  } catch {
    // Not ours to judge: let JavaScript say what is wrong below.
  }
  if (translated) {
    try {
      return new RegExp(translated.source, translated.flags);
    } catch {
      // Valid JavaScript without `u` (`\c`, octal escapes, ...) stays valid.
    }
  }
  return new RegExp(source);
}

const WORD = '\\p{L}\\p{N}_';
const ESCAPES_OUTSIDE: Readonly<Record<string, string>> = {
  w: `[${WORD}]`,
  W: `[^${WORD}]`,
  d: '\\p{Nd}',
  D: '\\P{Nd}',
  b: `(?:(?<=[${WORD}])(?![${WORD}])|(?<![${WORD}])(?=[${WORD}]))`,
  B: `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`,
  A: '^',
  Z: '$',
  z: '$',
};
/** Inside `[...]` only the positive classes can be spelled out; `\W` and `\D` keep JS meaning. */
const ESCAPES_INSIDE: Readonly<Record<string, string>> = { w: WORD, d: '\\p{Nd}' };
/** Escapes that mean the same with `u` as in Python (letters are classes, controls, references). */
const KEPT_LETTERS = /[sSfnrtv0-9xucpPk]/;
/** What `u` lets stand after a backslash as the character itself. */
const SYNTAX_CHARS = '^$\\.*+?()[]{}|/';
const FLAG_LETTERS: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 's', x: 'x', a: 'a', u: '' };

/** The JavaScript source and flags for a Python-style pattern; throws on what it cannot take. */
export function translatePattern(source: string): { source: string; flags: string } {
  let pos = 0;
  const flags = new Set<string>();
  for (let m = /^\(\?([a-zA-Z]+)\)/.exec(source); m; m = /^\(\?([a-zA-Z]+)\)/.exec(source.slice(pos))) {
    for (const letter of m[1]!) {
      const flag = FLAG_LETTERS[letter];
      if (flag === undefined) throw new Error(`unsupported inline flag '${letter}'`);
      if (flag) flags.add(flag);
    }
    pos += m[0].length;
  }
  const verbose = flags.delete('x');
  const ascii = flags.delete('a');

  let out = '';
  let inClass = false;
  while (pos < source.length) {
    const c = source[pos]!;
    if (c === '\\') {
      const next = source[pos + 1];
      if (next === undefined) throw new Error('trailing backslash');
      pos += 2;
      if ('pPu'.includes(next) && source[pos] === '{') {
        // `\p{L}`, `\u{1F600}`: the braces belong to the escape.
        const end = source.indexOf('}', pos);
        if (end === -1) throw new Error('unterminated escape');
        out += '\\' + next + source.slice(pos, end + 1);
        pos = end + 1;
        continue;
      }
      out += escapeFor(next, inClass, ascii);
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      pos++;
      continue;
    }
    if (verbose && /\s/.test(c)) {
      pos++;
      continue;
    }
    if (verbose && c === '#') break;
    if (c === '[') {
      inClass = true;
      out += c;
      pos++;
      // `[]...]` and `[^]...]`: a `]` first in a class is a character in Python.
      if (source[pos] === '^') out += source[pos++];
      if (source[pos] === ']') {
        out += '\\]';
        pos++;
      }
      continue;
    }
    if (source.startsWith('(?P<', pos)) {
      out += '(?<';
      pos += 4;
      continue;
    }
    const backref = /^\(\?P=(\w+)\)/.exec(source.slice(pos, pos + 80));
    if (backref) {
      out += `\\k<${backref[1]}>`;
      pos += backref[0].length;
      continue;
    }
    if (source.startsWith('(?#', pos)) {
      const end = source.indexOf(')', pos);
      if (end === -1) throw new Error('unterminated comment');
      pos = end + 1;
      continue;
    }
    if (c === '{') {
      const quantifier = /^\{(\d*)(,\d*)?\}/.exec(source.slice(pos, pos + 40));
      if (quantifier && (quantifier[1] !== '' || quantifier[2] !== undefined)) {
        // Python's `{,3}` is `{0,3}`.
        out += quantifier[1] === '' ? `{0${quantifier[2]}}` : quantifier[0];
        pos += quantifier[0].length;
        continue;
      }
      out += '\\{';
      pos++;
      continue;
    }
    if (c === '}' || c === ']') {
      out += '\\' + c;
      pos++;
      continue;
    }
    out += c;
    pos++;
  }
  return { source: out, flags: [...flags, ...(ascii ? [] : ['u'])].join('') };
}

function escapeFor(next: string, inClass: boolean, ascii: boolean): string {
  if (!ascii) {
    const table = inClass ? ESCAPES_INSIDE : ESCAPES_OUTSIDE;
    const spelled = table[next];
    if (spelled !== undefined) return spelled;
  } else if (next === 'A' || next === 'Z' || next === 'z') {
    return ESCAPES_OUTSIDE[next]!;
  }
  if (/[a-zA-Z0-9]/.test(next)) {
    if (KEPT_LETTERS.test(next) || 'wWdDbB'.includes(next)) return '\\' + next;
    throw new Error(`unknown escape \\${next}`);
  }
  if (SYNTAX_CHARS.includes(next) || (inClass && next === '-')) return '\\' + next;
  // Any other escaped character is itself; `u` would reject the backslash.
  return ascii ? '\\' + next : next;
}
