/**
 * The text of a definitions query (queries/*.scm), read into nested groups: `(...)` and `[...]` with
 * their words (types, fields, captures, strings, anchors) in order. Shared by the compile that
 * moves type tests (type-tests.ts) and the reading of a query without compiling it (query-walk.ts).
 */

export type Part = string | Group;
export interface Group {
  open: '(' | '[';
  parts: Part[];
}

const TOKEN = /\s+|;[^\n]*|"(?:[^"\\\n]|\\.)*"|[()[\]]|[^\s()[\]";]+/y;

/** The groups of a query's text, comments left out; throws on unbalanced brackets. */
export function parseParts(source: string): Part[] {
  const root: Group = { open: '(', parts: [] };
  const stack: Group[] = [root];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) throw new Error(`Cannot read a definitions query at offset ${at}`);
    const t = m[0];
    if (/^\s/.test(t) || t.startsWith(';')) continue;
    const top = stack[stack.length - 1]!;
    if (t === '(' || t === '[') {
      const g: Group = { open: t, parts: [] };
      top.parts.push(g);
      stack.push(g);
    } else if (t === ')' || t === ']') {
      if (stack.length === 1) throw new Error(`Unbalanced '${t}' in a definitions query at offset ${at}`);
      stack.pop();
    } else {
      top.parts.push(t);
    }
  }
  if (stack.length !== 1) throw new Error('Unclosed bracket in a definitions query');
  return root.parts;
}

/** A part written back as query text. */
export function show(part: Part): string {
  if (typeof part === 'string') return part;
  return `${part.open}${part.parts.map(show).join(' ')}${part.open === '(' ? ')' : ']'}`;
}
