import type { LineSpan } from '../ref-spec/ref-spec.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { type Declaration, FUNCTION_KINDS, type SymbolKind } from './declaration.js';
import type { SymbolLanguage } from './languages.js';
import { lineRange } from '../ref-spec/format-ref-spec.js';

/**
 * An outline (docs/refs.md#outlines---outline): each declaration's signature and doc comment, a type's
 * members nested as in the file, and one marker for each body left out, naming the ref that
 * reads it. Lines are the file's own, numbered as the file numbers them.
 */

/** A line of the file, kept. */
export interface OutlineLine {
  kind: 'line';
  line: number;
  text: string;
}

/** Lines left out, and the selector (`Store.save`, `Store.save~2`, or `L6-L43`) that reads them. */
export interface OutlineMarker {
  kind: 'marker';
  /** The first and last line the marker stands for. */
  start: number;
  end: number;
  /** Lines left out between start and end (a line kept inside the range is not counted). */
  omitted: number;
  /** The selector of the declaration whose body this is (a line range when its name cannot be written as a ref). */
  selector: string;
  /** The indentation of the first line left out, so that the marker sits where the body was. */
  indent: string;
}

export type OutlineEntry = OutlineLine | OutlineMarker;

/** `⋯` (written as an escape: the bundle stays ASCII). */
export const OUTLINE_MARK = '\u22ef';

/** A marker's text: `    ⋯ 38 lines: @src/app.ts#Store.save`, given the ref's head (`@src/app.ts`). */
export function markerText(m: OutlineMarker, head: string): string {
  return `${m.indent}${OUTLINE_MARK} ${m.omitted} ${m.omitted === 1 ? 'line' : 'lines'}: ${head}#${m.selector}`;
}

/**
 * The outline of a file's `lines` from its declaration table. With `within` (a ref's selected
 * lines), only the declarations that start inside it are outlined, each whole. `redacted`: the
 * lines had secrets cut out (docs/refs.md#secrets), so a name they no longer show is not printed
 * in a marker either.
 */
export function outlineOf(lines: readonly string[], table: readonly Declaration[], language: SymbolLanguage, within?: LineSpan, redacted = false): OutlineEntry[] {
  const children = new Map<number, Declaration[]>();
  for (const d of table) {
    if (d.parent === null) continue;
    const list = children.get(d.parent);
    if (list) list.push(d);
    else children.set(d.parent, [d]);
  }
  const picked = within ? new Set(table.filter((d) => d.startLine >= within.start && d.startLine <= within.end).map((d) => d.index)) : null;
  const roots = table.filter((d) => (picked ? picked.has(d.index) && (d.parent === null || !picked.has(d.parent)) : d.parent === null));
  const kept = new Set<number>();
  // A marker of a declaration's body (named by its ref), or of lines of a type's body no member holds (by their range).
  const markers: { start: number; end: number; decl: Declaration; byRange?: true }[] = [];
  const keep = (from: number, to: number) => {
    for (let n = from; n <= to && n <= lines.length; n++) kept.add(n);
  };
  const visit = (d: Declaration) => {
    const own = children.get(d.index) ?? [];
    const members = membersShown(d, own) ? own : [];
    const end = signatureEnd(d, members, lines, language);
    keep(d.startLine, end);
    if (members.length === 0) {
      // A type alias's or an interface's lines are all shape (`type Fn = (a: number,\n b: string) => void;`).
      if (SHAPE_KINDS.has(d.kind)) keep(d.startLine, d.endLine);
      else if (d.endLine > end) markers.push({ start: end + 1, end: d.endLine, decl: d });
      return;
    }
    for (const m of members) visit(m);
    // The closing line of a type (`}`, `end`), when no member ends on it: the body reads as closed.
    const last = members.reduce((n, m) => Math.max(n, m.endLine), 0);
    if (d.endLine > Math.max(end, last)) keep(d.endLine, d.endLine);
    for (const run of unheldCode(lines, end + 1, d.endLine, members, kept, language)) {
      if (run.kept || SHAPE_KINDS.has(d.kind)) keep(run.start, run.end);
      else markers.push({ start: run.start, end: run.end, decl: d, byRange: true });
    }
  };
  for (const d of roots) visit(d);

  const entries: { at: number; entry: OutlineEntry }[] = [];
  for (const n of kept) entries.push({ at: n, entry: { kind: 'line', line: n, text: lines[n - 1] ?? '' } });
  for (const m of markers) {
    let omitted = 0;
    let indent: string | null = null;
    for (let n = m.start; n <= m.end; n++) {
      if (kept.has(n)) continue;
      omitted++;
      if (indent === null && lines[n - 1]?.trim()) indent = /^\s*/.exec(lines[n - 1]!)![0];
    }
    if (omitted === 0) continue;
    const selector = m.byRange ? lineRange(m) : selectorOf(m.decl, table, m, redacted ? lines : null);
    const entry: OutlineMarker = { kind: 'marker', start: m.start, end: m.end, omitted, selector, indent: indent ?? '' };
    // Before any line kept inside its range.
    entries.push({ at: m.start - 0.5, entry });
  }
  entries.sort((a, b) => a.at - b.at);
  return entries.map((e) => e.entry);
}

/**
 * The lines of a type's body [from, to] that no member holds and the outline does not keep yet:
 * runs of code (a static block, an operator or indexer refcat does not list, Ruby's
 * `attr_reader`), each from its first line of code to its last, to be one marker by their range,
 * and single lines of structure (`public:`, `#if DEBUG`) to keep as they are. Blank lines and
 * comments are left out, as between members.
 */
function unheldCode(
  lines: readonly string[],
  from: number,
  to: number,
  members: readonly Declaration[],
  kept: ReadonlySet<number>,
  language: SymbolLanguage,
): { start: number; end: number; kept: boolean }[] {
  const held = new Set<number>();
  for (const m of members) for (let n = m.startLine; n <= m.endLine; n++) held.add(n);
  const comment = language.outline?.lineComment ?? '//';
  const structure = language.outline?.structure;
  const runs: { start: number; end: number; kept: boolean }[] = [];
  let open: { start: number; end: number } | null = null;
  for (let n = from; n <= to + 1; n++) {
    const free = n <= to && !held.has(n) && !kept.has(n);
    const text = free ? (lines[n - 1] ?? '').trim() : '';
    const isStructure = free && structure !== undefined && structure.test(text);
    const code = free && !isStructure && text !== '' && !isComment(text, comment);
    if (code) {
      if (open) open.end = n;
      else open = { start: n, end: n };
      continue;
    }
    if (open && (!free || isStructure)) {
      // Only closing brackets (a transparent scope's `}`, Kotlin's companion object's): kept, not a marker of them.
      runs.push({ ...open, kept: onlyClosing(lines, open.start, open.end) });
      open = null;
    }
    if (isStructure) runs.push({ start: n, end: n, kept: true });
  }
  return runs;
}

/** Whether every line of [start, end] that is not blank only closes (`}`, `};`, `end`, a lone `;`), a comment after it allowed. */
function onlyClosing(lines: readonly string[], start: number, end: number): boolean {
  for (let n = start; n <= end; n++) {
    const text = (lines[n - 1] ?? '').trim();
    if (text !== '' && !CLOSING.test(text)) return false;
  }
  return true;
}

const CLOSING = /^([)\]}]+[;,]?|;|end)\s*(\/\/.*|#.*)?$/;

/** A line that is all comment: `comment` (`//`, `#`), or a line of a block comment (one that starts with `/*` or `*`). */
function isComment(text: string, comment: string): boolean {
  return text.startsWith(comment) || (comment === '//' && (text.startsWith('/*') || text.startsWith('*')));
}

/**
 * Kinds whose body is all shape, no code: what no member holds in it (a TypeScript call or construct
 * signature, the rest of an intersection, a protocol's `subscript`, a trait's `type Item;`) is kept
 * as it is, not left out with a marker as code is.
 */
const SHAPE_KINDS: ReadonlySet<SymbolKind> = new Set(['interface', 'protocol', 'trait', 'type']);

/** Kinds that hold a value; with a body (a getter, a Swift computed property), the body is code. */
const VALUE_KINDS: ReadonlySet<SymbolKind> = new Set(['property', 'field', 'variable', 'constant']);

/**
 * Whether an outline shows a declaration's members (docs/refs.md#outlines---outline): not those
 * of code, which is left out with its body: a function's, a property's accessors, and a value
 * that holds code (an object literal's methods, an anonymous class), which is one marker as any
 * value is. A property typed by an inline type (`opts: { verbose: boolean }`) shows its members,
 * as a type does.
 */
export function membersShown(d: Declaration, members: readonly Declaration[]): boolean {
  if (FUNCTION_KINDS.has(d.kind)) return false;
  if (!VALUE_KINDS.has(d.kind)) return true;
  return d.bodyStart === null && members.every((m) => m.bodyStart === null);
}

/**
 * The last line of a declaration's signature: up to the line where its body opens (that line
 * included where a bracket opens it, excluded where the body is its statements), a Python
 * docstring included. A function without a body (a prototype, an abstract method) is all
 * signature; anything else without one (a constant, a field) keeps its lines up to its name, and
 * its value is left out. Without a body but with members (a Go struct), it ends before the first.
 */
function signatureEnd(d: Declaration, members: readonly Declaration[], lines: readonly string[], language: SymbolLanguage): number {
  let end: number;
  if (d.bodyStart !== null) {
    const statements = language.outline?.statementBodies ?? false;
    end = statements ? Math.max(d.declLine, d.bodyStart - 1) : d.bodyStart;
    if (language.outline?.docstrings && d.bodyStart > d.declLine) end = Math.max(end, docstringEnd(lines, d.bodyStart, d.endLine));
  } else if (members.length > 0) {
    // Up to the first member; a name written after its members (C's `typedef struct {…} S;`) is not
    // the end of a signature that would hold them all.
    const first = members.reduce((n, m) => Math.min(n, m.startLine), d.endLine);
    end = Math.max(d.nameLine < first ? d.nameLine : d.declLine, first - 1);
  } else if (FUNCTION_KINDS.has(d.kind)) {
    end = d.endLine;
  } else {
    end = d.nameLine;
  }
  return Math.min(Math.max(end, d.declLine), d.endLine);
}

const STRING_START = /^\s*[rRbBuUfF]{0,2}("""|'''|"|')/;

/** The last line of a docstring that opens the body on line `first`, or first - 1 when there is none. */
function docstringEnd(lines: readonly string[], first: number, last: number): number {
  const text = lines[first - 1] ?? '';
  const open = STRING_START.exec(text);
  if (!open) return first - 1;
  const quote = open[1]!;
  if (quote.length === 1) return first;
  // The closing triple quote: on the opening line after the quote, or on a later line.
  if (text.indexOf(quote, open[0].length) !== -1) return first;
  for (let n = first + 1; n <= last; n++) if (lines[n - 1]?.includes(quote)) return n;
  return first - 1;
}

/**
 * How a marker names its declaration: its path, with `~N` where several declarations share it
 * (as resolveSymbol() counts them); a line range when no symbol ref can name it (a name the ref
 * grammar cannot write, or an extension of a type the file also declares), or when a name on its
 * path is a secret: the outline's lines are redacted, so a name they no longer show is not printed
 * (docs/refs.md#secrets).
 */
function selectorOf(d: Declaration, table: readonly Declaration[], span: LineSpan, redactedLines: readonly string[] | null): string {
  for (let x: Declaration | undefined = d; x && redactedLines; x = x.parent === null ? undefined : table[x.parent]) {
    if (!(redactedLines[x.nameLine - 1] ?? '').includes(x.name)) return lineRange(span);
  }
  const same = table.filter((x) => x.path === d.path);
  const own = same.filter((x) => x.kind !== 'extension');
  const candidates = own.length > 0 ? own : same;
  const at = candidates.indexOf(d);
  const selector = at === -1 ? null : candidates.length === 1 ? d.path : `${d.path}~${at + 1}`;
  if (selector !== null && namesSymbol(selector, d.path)) return selector;
  return lineRange(span);
}

/** Whether `selector` parses back as a symbol ref to `path` (`Store.#secret`, `"http".x` do not). */
export function namesSymbol(selector: string, path: string): boolean {
  try {
    const spec = parseRef(`@x#${selector}`);
    return spec.selector?.kind === 'symbol' && spec.selector.path === path;
  } catch {
    return false;
  }
}
