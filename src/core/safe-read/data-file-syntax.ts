/**
 * Problems of the config and data files refcat parses (workspace.lock.json, aliases.yaml,
 * refcat-accepted.json), told by line and column and never by content: such a file may be a
 * symlink to any file on the machine, and a parser's own message quotes its input
 * (docs/reference.md#limits-and-hostile-input).
 */

/** The data of a JSON text, or an Error whose message is `not valid JSON (...)` with a position only. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const at = jsonErrorOffset(text);
    const where = at === null ? '' : at >= text.length ? ` (unexpected end at ${textPosition(text, text.length)})` : ` (unexpected character at ${textPosition(text, at)})`;
    throw new Error(`not valid JSON${where}`);
  }
}

/** `line 3, column 7` of offset `at` (UTF-16) in `text`; the column counts characters, not bytes. */
export function textPosition(text: string, at: number): string {
  const start = text.lastIndexOf('\n', at - 1) + 1;
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) line++;
  let column = 1;
  for (let i = start; i < at; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is one character.
    if (!(c >= 0xdc00 && c <= 0xdfff && i > start && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)) column++;
  }
  return `line ${line}, column ${column}`;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * Offset of the first character at which `text` stops being JSON (its length when it ends too
 * early), or null if it is JSON. V8's message gives no position for most errors and quotes the
 * text, so the position is found here, by a scan without recursion (any depth fits).
 */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const open: number[] = []; // '{' or '[' of each container still open
  const skipSpace = () => {
    while (i < text.length && WHITESPACE.has(text.charCodeAt(i))) i++;
  };
  const string = (): boolean => {
    const r = scanString(text, i);
    i = r.at;
    return r.ok;
  };
  const key = (): boolean => {
    if (!string()) return false;
    skipSpace();
    if (text[i] !== ':') return false;
    i++;
    return true;
  };
  let wantValue = true;
  for (;;) {
    skipSpace();
    if (wantValue) {
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        skipSpace();
        if (text[i] === (c === '{' ? '}' : ']')) i++;
        else {
          open.push(c.charCodeAt(0));
          if (c === '{' && !key()) return i;
          continue;
        }
      } else if (c === '"') {
        if (!string()) return i;
      } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
        NUMBER.lastIndex = i;
        if (!NUMBER.exec(text)) return i + 1;
        i = NUMBER.lastIndex;
      } else {
        const word = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : null;
        if (word === null) return i;
        for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return i;
      }
      wantValue = false;
      continue;
    }
    const top = open[open.length - 1];
    if (top === undefined) return i < text.length ? i : null;
    const c = text[i];
    if (c === ',') {
      i++;
      skipSpace();
      if (top === 0x7b && !key()) return i;
      wantValue = true;
    } else if (c === (top === 0x7b ? '}' : ']')) {
      i++;
      open.pop();
    } else return i;
  }
}

/**
 * The JSON string starting at `from` (at its `"`): whether it is one, and where the scan stopped
 * (past its closing quote, or at the character that is wrong).
 */
function scanString(text: string, from: number): { ok: boolean; at: number } {
  let i = from;
  if (text[i] !== '"') return { ok: false, at: i };
  for (i++; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i++;
      return { ok: true, at: i };
    }
    if (c < 0x20) return { ok: false, at: i };
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        for (let k = 2; k < 6; k++) {
          if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) {
            i += k;
            return { ok: false, at: i };
          }
        }
        i += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
      else {
        i++;
        return { ok: false, at: i };
      }
    }
  }
  return { ok: false, at: i };
}
