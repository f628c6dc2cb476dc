import path from 'node:path';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { loadGrammars } from './grammar-loader.js';
import { SYMBOL_LANGUAGES, type SymbolLanguage, symbolLanguageOf } from './languages.js';

/**
 * Load what the symbol refs among `refs` need, before a synchronous extraction reads them
 * (docs/symbols.md#cost). Refs without a symbol selector cost a string test each and load nothing;
 * a glob whose last segment has no known extension (`src/**#parse`) loads every grammar.
 */
export async function prepareSymbolRefs(refs: Iterable<string | RefSpec>): Promise<void> {
  const needed = new Set<SymbolLanguage>();
  for (const ref of refs) {
    const spec = typeof ref === 'string' ? symbolRef(ref) : ref.selector?.kind === 'symbol' ? ref : null;
    if (!spec) continue;
    const language = symbolLanguageOf(spec.path);
    if (language) needed.add(language);
    else if (/[*?[{]/.test(path.basename(spec.path))) SYMBOL_LANGUAGES.forEach((l) => needed.add(l));
  }
  if (needed.size > 0) await loadGrammars(needed);
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
