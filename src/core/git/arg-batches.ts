/**
 * Git's command lines stay far below what the system accepts (Linux: 2 MiB for the arguments and
 * the environment together, a pointer each included, and 128 KiB for any one argument), however
 * many refs, files or pins a run holds (docs/reference.md#limits-and-hostile-input). Lists of
 * paths are cut into batches: a few more git runs, each bounded, never `spawn E2BIG`.
 */

/** Bytes of list arguments one git run gets, counting each argument's pointer and terminator. */
export const ARG_BYTES_PER_CALL = 256 * 1024;

/** Paths (or patterns) per git command line (well under any system's argument limit). */
export const PATHS_PER_CALL = 2000;

/** The longest revision or pin name refcat hands to git; longer is no revision (git's own names are far shorter). */
export const MAX_REVISION_CHARS = 1024;

/** `items` in order, cut into batches of at most `maxCount` items and `maxBytes` bytes (an item larger than that alone). */
export function argBatches<T extends string>(items: readonly T[], maxCount: number, maxBytes = ARG_BYTES_PER_CALL): T[][] {
  const batches: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(item) + 1 + 8;
    if (batch.length > 0 && (batch.length >= maxCount || bytes + size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(item);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Sorted line numbers as `-L a,b` ranges of consecutive lines. */
export function lineRanges(sorted: readonly number[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const n of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && n <= last[1] + 1) last[1] = Math.max(last[1], n);
    else ranges.push([n, n]);
  }
  return ranges;
}
