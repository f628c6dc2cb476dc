/**
 * How long a fence must be to hold some code (docs/refs.md#writing-citations---cite): three of its
 * marker, or one more than the longest run of three or more of that marker in the code, so that no
 * line of the code can close it. `--cite`, extraction's markdown blocks and `--fix-snippets` all
 * choose their fence here.
 */

export type FenceMarker = '`' | '~';

/** The fence for `lines`: three of `marker`, or one more than their longest run of 3+. */
export function fenceFor(lines: readonly string[], marker: FenceMarker = '`'): string {
  const three = marker.repeat(3);
  const run = marker === '`' ? /`{3,}/g : /~{3,}/g;
  let longest = 0;
  for (const line of lines) {
    if (!line.includes(three)) continue;
    for (const m of line.matchAll(run)) longest = Math.max(longest, m[0].length);
  }
  return fenceOfLength(longest, marker);
}

/** The fence for code whose longest run of the marker is `longestRun`. */
export function fenceOfLength(longestRun: number, marker: FenceMarker = '`'): string {
  return marker.repeat(longestRun >= 3 ? longestRun + 1 : 3);
}
