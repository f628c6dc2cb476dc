import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { loadGrammars } from './grammar-loader.js';
import { SYMBOL_LANGUAGES, type SymbolLanguage, symbolLanguagesOf } from './languages.js';

/**
 * Load the grammars an outline of `refs` needs, before a synchronous extraction reads them
 * (docs/refs.md#outlines---outline): the grammar of each named file's extension, of a glob's extension
 * (`*.ts`, `*.{ts,py}`), or every grammar for a glob that names none (`src/**`). A ref that does
 * not parse loads nothing (the extraction reports it).
 */
export async function prepareOutline(refs: Iterable<string>): Promise<void> {
  const needed = new Set<SymbolLanguage>();
  for (const ref of refs) for (const language of outlineLanguages(ref)) needed.add(language);
  if (needed.size > 0) await loadGrammars(needed);
}

/** The languages the files of `ref` may be in. */
export function outlineLanguages(ref: string): readonly SymbolLanguage[] {
  let path: string;
  try {
    path = parseRef(ref).path;
  } catch {
    return [];
  }
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  if (!/[*?[{]/.test(name)) {
    return symbolLanguagesOf(name);
  }
  const braces = /\.\{([A-Za-z0-9,]+)\}$/.exec(name);
  const plain = /\.([A-Za-z0-9]+)$/.exec(name);
  const extensions = braces ? braces[1]!.split(',') : plain ? [plain[1]!] : null;
  if (extensions === null) return SYMBOL_LANGUAGES;
  return extensions.flatMap((e) => symbolLanguagesOf(`x.${e}`));
}
