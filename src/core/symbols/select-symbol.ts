import fs from 'node:fs';
import type { LineSpan, SymbolSelector } from '../ref-spec/ref-spec.js';
import type { Declaration } from './declaration.js';
import { RefError } from '../../shared/errors.js';
import { textLines } from '../../shared/line-starts.js';
import { fileDeclarations, fileDeclarationsNamed, sourceText, symbolLanguageFor, textDeclarations, textDeclarationsNamed } from './declaration-table.js';
import { MAX_SYMBOL_FILE_BYTES } from './languages.js';
import { resolveSymbol, symbolSpan } from './resolve-symbol.js';

export interface SymbolSelection {
  declaration: Declaration;
  span: LineSpan;
  /** The selected lines, without terminators. */
  lines: string[];
  totalLines: number;
}

/**
 * The lines a symbol ref selects in the file at `abs` (its grammar loaded: prepareSymbolRefs()).
 * Throws RefError as resolveSymbol() and fileDeclarations() do.
 */
export function selectSymbol(abs: string, sel: SymbolSelector, refText: string, context = 0): SymbolSelection {
  const names = namesOf(sel);
  const read = fileDeclarationsNamed(abs, names, refText);
  const text = sourceText(fs.readFileSync(abs), refText);
  return selectIn(read, () => fileDeclarations(abs, refText), text, sel, refText, context);
}

/**
 * selectSymbol() in the text of the file at `abs` as a version holds it (docs/refs.md#refs-at-a-version),
 * not as the disk does. Throws RefError as selectSymbol() does.
 */
export function selectSymbolInText(text: string, abs: string, sel: SymbolSelector, refText: string, context = 0): SymbolSelection {
  const language = symbolLanguageFor(abs, refText, text);
  if (Buffer.byteLength(text) > MAX_SYMBOL_FILE_BYTES) throw new RefError('too_large', `${refText} is too large for symbol refs (at most 1 MiB)`, refText);
  const read = textDeclarationsNamed(text, language, namesOf(sel), refText);
  return selectIn(read, () => textDeclarations(text, language, refText), text, sel, refText, context);
}

/** The names a symbol path is written with (`Store.save`: `Store`, `save`). */
function namesOf(sel: SymbolSelector): string[] {
  return sel.path.split('.');
}

/**
 * Resolved in the declarations read for the ref's names; a ref that does not resolve there is
 * resolved in the whole table, whose error names what is near (did-you-mean) as it always has.
 */
function selectIn(read: { table: Declaration[]; whole: boolean }, whole: () => Declaration[], text: string, sel: SymbolSelector, refText: string, context: number): SymbolSelection {
  let declaration: Declaration;
  try {
    declaration = resolveSymbol(read.table, sel, refText);
  } catch (err) {
    if (read.whole || !(err instanceof RefError)) throw err;
    declaration = resolveSymbol(whole(), sel, refText);
  }
  const all = textLines(text);
  const named = symbolSpan(declaration, sel, all.length);
  // `-C N` widens it as it widens a range.
  const span = { start: Math.max(1, named.start - context), end: Math.min(all.length, named.end + context) };
  return { declaration, span, lines: all.slice(span.start - 1, span.end), totalLines: all.length };
}
