import path from 'node:path';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { parsesOffThread } from './declaration-table.js';
import { loadedGrammar, loadGrammars } from './grammar-loader.js';
import { SYMBOL_LANGUAGES, type SymbolLanguage, symbolLanguagesOf } from './languages.js';

/**
 * Load what the symbol refs among `refs` need, before a synchronous extraction reads them
 * (docs/symbols.md#cost). Refs without a symbol selector cost a string test each and load nothing;
 * a glob whose last segment has no known extension (`src/**#parse`) loads every grammar.
 */
export async function prepareSymbolRefs(refs: Iterable<string | RefSpec>): Promise<void> {
  const missing = missingGrammars(refs);
  if (missing.length > 0) await loadGrammars(missing);
}

/**
 * The grammars the symbol refs among `refs` need that are not loaded yet, synchronously: for a
 * caller that checks refs in a loop and awaits only when this is not empty (verify refs).
 */
export function missingGrammars(refs: Iterable<string | RefSpec>): SymbolLanguage[] {
  // A server's worker parses: this thread loads nothing.
  if (parsesOffThread()) return [];
  const needed = new Set<SymbolLanguage>();
  for (const ref of refs) {
    const spec = typeof ref === 'string' ? symbolRef(ref) : ref.selector?.kind === 'symbol' ? ref : null;
    if (!spec) continue;
    const languages = symbolLanguagesOf(spec.path);
    languages.forEach((l) => needed.add(l));
    if (languages.length === 0 && /[*?[{]/.test(path.basename(spec.path))) SYMBOL_LANGUAGES.forEach((l) => needed.add(l));
  }
  return [...needed].filter((l) => loadedGrammar(l) === null);
}

/** The ref if it has a symbol selector; a ref that does not parse is left to the extraction to report. */
function symbolRef(ref: string): RefSpec | null {
  const hash = ref.indexOf('#');
  if (hash === -1) return null;
  const c = ref[hash + 1];
  if (c === '/' || c === undefined || (c === 'L' && /[-\d]/.test(ref[hash + 2] ?? ''))) return null;
  try {
    const spec = parseRef(ref);
    return spec.selector?.kind === 'symbol' ? spec : null;
  } catch {
    return null;
  }
}
