import fs from 'node:fs';
import { parsesOffThread } from './declaration-table.js';
import { engineLoaded, tierUpRuntime } from './grammar-loader.js';

/**
 * How tree-sitter is compiled for a command that runs once, decided before its first grammar
 * loads (docs/design/symbols.md#the-runtime-optimized): all of it with V8's baseline compiler, or,
 * for much code (an outline or a listing of a large glob), tree-sitter's own runtime with V8's
 * tiering. Measured: 1.6 MB 0.89x the time, 1.2 MB 0.95x, 90-140 KB 1.10-1.24x.
 */
export const OPTIMIZED_RUNTIME_BYTES = 1024 * 1024;

/**
 * Before a command that parses `files()` (in this thread) loads a grammar: when they hold at least
 * OPTIMIZED_RUNTIME_BYTES, tree-sitter's runtime may be optimized (tierUpRuntime()). Sizes are
 * read until the sum is reached, so a tree of 10,000 files stats the first few hundred; nothing
 * is listed once tree-sitter is loaded, or when a worker parses. True when the runtime is to be
 * optimized (this thread parses much code).
 */
export function planEngine(files: () => readonly string[]): boolean {
  if (engineLoaded() || parsesOffThread()) return false;
  if (!holdsAtLeast(files(), OPTIMIZED_RUNTIME_BYTES)) return false;
  tierUpRuntime();
  return true;
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

/** A file's size, or 0 when it cannot be read (the command reports it). */
function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
