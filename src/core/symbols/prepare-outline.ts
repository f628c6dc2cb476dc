import { parseRef } from '../ref-spec/parse-ref-spec.js';
import fs from 'node:fs';
import { engineLoaded, loadGrammars, tierUpRuntime } from './grammar-loader.js';
import { parsesOffThread } from './declaration-table.js';
import { SYMBOL_LANGUAGES, type SymbolLanguage, symbolLanguageOf } from './languages.js';

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

/**
 * Code an outline parses past which tree-sitter's own WebAssembly is worth optimizing: measured at
 * 1.6 MB 0.89x the time, 1.2 MB 0.95x, 90-140 KB 1.10-1.24x (docs/design/symbols.md#the-runtime-optimized).
 */
export const OPTIMIZED_RUNTIME_BYTES = 1024 * 1024;

/**
 * Before an outline's grammars load: when the files it will parse (`files()`, in this thread)
 * hold at least OPTIMIZED_RUNTIME_BYTES, tree-sitter's runtime may be optimized (tierUpRuntime()).
 * Sizes are read until the sum is reached, so a tree of 10,000 files stats the first few hundred.
 */
export function planOutlineEngine(files: () => readonly string[]): void {
  if (engineLoaded() || parsesOffThread()) return;
  if (holdsAtLeast(files(), OPTIMIZED_RUNTIME_BYTES)) tierUpRuntime();
}

/** Whether `files` hold `bytes` or more between them: their sizes read in order, until the sum is reached. */
export function holdsAtLeast(files: readonly string[], bytes: number): boolean {
  let sum = 0;
  for (const file of files) {
    sum += sizeOf(file);
    if (sum >= bytes) return true;
  }
  return false;
}

/** A file's size, or 0 when it cannot be read (the extraction reports it). */
function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
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
    const language = symbolLanguageOf(name);
    return language ? [language] : [];
  }
  const braces = /\.\{([A-Za-z0-9,]+)\}$/.exec(name);
  const plain = /\.([A-Za-z0-9]+)$/.exec(name);
  const extensions = braces ? braces[1]!.split(',') : plain ? [plain[1]!] : null;
  if (extensions === null) return SYMBOL_LANGUAGES;
  return extensions.map((e) => symbolLanguageOf(`x.${e}`)).filter((l): l is SymbolLanguage => l !== null);
}
