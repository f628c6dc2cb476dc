import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { hasSdqctlDir, sdqctlDir } from '../../shared/paths.js';

/**
 * Where declaration tables are kept between runs (table-cache.ts, docs/symbols.md#the-table-cache),
 * set once a command: apart from the cache itself, so that a command that reads no symbol ref
 * loads nothing of it.
 */

let folder: string | null = null;
/** Counts useTableCache() calls, so the cache sees a new folder and checks it anew. */
let generation = 0;

/**
 * The cache's folder for a run: `<sdqctl home>/cache/symbols` (`~/.sdqctl`, or `$SDQCTL_HOME`),
 * none when `REFCAT_SYMBOL_CACHE=0` or there is no home folder.
 */
export function tableCacheDir(ctx: Context): string | null {
  if (ctx.env.REFCAT_SYMBOL_CACHE === '0' || !hasSdqctlDir(ctx)) return null;
  return path.join(sdqctlDir(ctx), 'cache', 'symbols');
}

/** Keep tables in `dir` from now on (null: keep none on disk). Nothing is touched until a table is read. */
export function useTableCache(dir: string | null): void {
  folder = dir;
  generation++;
}

export function tableCacheFolder(): { folder: string | null; generation: number } {
  return { folder, generation };
}
