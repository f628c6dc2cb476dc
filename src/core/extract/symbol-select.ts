import type { SymbolSelector } from '../ref-spec/ref-spec.js';
import type { SymbolKind } from '../symbols/declaration.js';
import { selectSymbol, selectSymbolInText } from '../symbols/select-symbol.js';
import type { Selection } from './select.js';

/** What a symbol ref named, for JSON output (`"symbol": {"path", "kind"}`). */
export interface SymbolInfo {
  path: string;
  kind: SymbolKind;
}

/**
 * A symbol ref's lines as a Selection (docs/symbols.md). The file is read whole: symbol refs read
 * files of at most 1 MiB.
 */
export function selectSymbolRef(
  abs: string,
  sel: SymbolSelector,
  refText: string,
  opts: { context: number; countOnly: boolean; text?: string },
): { selection: Selection; count: number; symbol: SymbolInfo } {
  // `text`: the file as a version holds it (docs/refs.md#refs-at-a-version), not as the disk does.
  const s = opts.text === undefined ? selectSymbol(abs, sel, refText, opts.context) : selectSymbolInText(opts.text, abs, sel, refText, opts.context);
  const selection: Selection = { start: s.span.start, lines: opts.countOnly ? [] : s.lines, totalLines: s.totalLines, clamped: false };
  return { selection, count: s.lines.length, symbol: { path: s.declaration.path, kind: s.declaration.kind } };
}
