import fs from 'node:fs';
import path from 'node:path';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { loadFileDeclarations } from './declaration-table.js';
import { symbolLanguageOf } from './languages.js';

/**
 * Fetch the declaration tables that the symbol refs among `refs` will need, asynchronously, so the
 * synchronous reads that follow (extraction, checks, hover) find them cached instead of waiting on
 * a server's parser worker. `dirsOf` gives the folders a ref's path is looked up in (its alias
 * target, or the document's folder then the root); a file `allows` refuses is not read. Globs are
 * left to the read itself. Nothing fails here: what fails is reported by the read that follows.
 * `wanted` is asked between files: an editor stops when a newer version of the document came.
 */
export async function primeSymbolTables(
  refs: Iterable<string>,
  dirsOf: (spec: RefSpec) => string[],
  allows: (abs: string) => boolean = () => true,
  wanted: () => boolean = () => true,
): Promise<void> {
  const files = new Set<string>();
  for (const ref of refs) {
    const spec = symbolRefOf(ref);
    if (!spec || /[*?[{]/.test(spec.path) || !symbolLanguageOf(spec.path)) continue;
    let dirs: string[];
    try {
      dirs = dirsOf(spec);
    } catch {
      continue;
    }
    for (const d of dirs) {
      const abs = path.resolve(d, spec.path);
      if (allows(abs) && isFile(abs)) files.add(abs);
    }
  }
  for (const file of files) {
    if (!wanted()) return;
    await loadFileDeclarations(file, file).catch(() => {});
  }
}

function symbolRefOf(ref: string): RefSpec | null {
  const hash = ref.indexOf('#');
  if (hash === -1 || ref[hash + 1] === '/' || /^L[-\d]/.test(ref.slice(hash + 1))) return null;
  try {
    const spec = parseRef(ref);
    return spec.selector?.kind === 'symbol' ? spec : null;
  } catch {
    return null;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
