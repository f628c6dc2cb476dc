import fs from 'node:fs';
import { RefError } from '../../shared/errors.js';
import { resolveSpan } from '../drift/drift-types.js';
import { formatSelector } from '../ref-spec/format-ref-spec.js';
import type { LineSpan, RangeSelector, SymbolSelector } from '../ref-spec/ref-spec.js';
import type { Declaration } from '../symbols/declaration.js';
import { declarationsOfText, loadFileDeclarations } from '../symbols/declaration-table.js';
import { MAX_SYMBOL_FILE_BYTES, symbolLanguageOf } from '../symbols/languages.js';
import { resolveSymbol } from '../symbols/resolve-symbol.js';

/** A declaration a line ref can be anchored to, and where its name selects now. */
export interface LinesDeclaration {
  declaration: Declaration;
  /** The lines its symbol ref selects in the file now (its doc comment included). */
  now: LineSpan;
  /** How many lines the file has now. */
  lines: number;
}

/**
 * The one declaration whose lines a range selects exactly in `text` (docs/drift.md#anchoring):
 * from its first line, or the first line of its doc comment, attributes or decorators, to its
 * last. Null unless exactly one declaration has those lines, its path names it alone without `~N`
 * (a name that needs `~N` would change meaning when an overload is added above), and, read
 * against the file at `abs` as it is now, that path still names one declaration. `text` is the
 * file now, or (with `atBase`) its text at the version the ref was written against.
 */
export async function declarationOfLines(abs: string, text: string, sel: RangeSelector, ref: string, atBase: boolean): Promise<LinesDeclaration | null> {
  const language = symbolLanguageOf(abs, text);
  if (!language || Buffer.byteLength(text) > MAX_SYMBOL_FILE_BYTES) return null;
  try {
    const table = atBase ? await declarationsOfText(text, language) : await loadFileDeclarations(abs, ref);
    const count = lineCount(text);
    const span = resolveSpan(sel, count);
    const exact = table.filter((d) => d.endLine === span.end && (d.startLine === span.start || d.declLine === span.start));
    if (exact.length !== 1) return null;
    const d = exact[0]!;
    const byName: SymbolSelector = { kind: 'symbol', path: d.path, index: null, window: null };
    if (resolveSymbol(table, byName, ref) !== d) return null;
    if (!atBase) return { declaration: d, now: { start: d.startLine, end: d.endLine }, lines: count };
    const now = resolveSymbol(await loadFileDeclarations(abs, ref), byName, ref);
    return { declaration: d, now: { start: now.startLine, end: now.endLine }, lines: lineCount(fs.readFileSync(abs, 'utf8')) };
  } catch (err) {
    // Not one declaration by that name (now or then), a file too large: left as written.
    if (err instanceof RefError) return null;
    throw err;
  }
}

/** The ref with its selector replaced by `sel`: the same alias or `@` and path, as written. */
export function symbolRefText(ref: string, sel: SymbolSelector): string {
  return `${ref.slice(0, ref.indexOf('#'))}#${formatSelector(sel)}`;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}
