import fs from 'node:fs';
import type { LineSpan, SymbolSelector } from '../ref-spec/ref-spec.js';
import type { Declaration } from './declaration.js';
import { RefError } from '../../shared/errors.js';
import { textLines } from '../../shared/line-starts.js';
import { fileDeclarations, symbolLanguageFor, textDeclarations } from './declaration-table.js';
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
  const table = fileDeclarations(abs, refText);
  return selectIn(table, fs.readFileSync(abs, 'utf8'), sel, refText, context);
}

/**
 * selectSymbol() in the text of the file at `abs` as a version holds it (docs/refs.md#refs-at-a-version),
 * not as the disk does. Throws RefError as selectSymbol() does.
 */
export function selectSymbolInText(text: string, abs: string, sel: SymbolSelector, refText: string, context = 0): SymbolSelection {
  const language = symbolLanguageFor(abs, refText);
  if (Buffer.byteLength(text) > MAX_SYMBOL_FILE_BYTES) throw new RefError('too_large', `${refText} is too large for symbol refs (at most 1 MiB)`, refText);
  return selectIn(textDeclarations(text, language, refText), text, sel, refText, context);
}

function selectIn(table: Declaration[], text: string, sel: SymbolSelector, refText: string, context: number): SymbolSelection {
  const declaration = resolveSymbol(table, sel, refText);
  const all = textLines(text);
  const named = symbolSpan(declaration, sel, all.length);
  // `-C N` widens it as it widens a range.
  const span = { start: Math.max(1, named.start - context), end: Math.min(all.length, named.end + context) };
  return { declaration, span, lines: all.slice(span.start - 1, span.end), totalLines: all.length };
}
