/** "Did you mean ...?" for directives, commands and aliases: one rule for what counts as a typo. */

/**
 * Optimal string alignment distance (Levenshtein plus adjacent transpositions), so that
 * `PROMTP` is one edit away from `PROMPT`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0]![j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate closest to `name`, if it is close enough to be a typo: at most 1 edit for names up
 * to 4 letters, 2 up to 8, 3 beyond. Ties go to the earlier candidate.
 */
export function closest(
  name: string,
  candidates: Iterable<string>,
  maxDistance = name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3,
): string | null {
  let best: string | null = null;
  let bestDistance = maxDistance + 1;
  for (const known of candidates) {
    if (Math.abs(known.length - name.length) >= bestDistance) continue;
    const dist = editDistance(name, known);
    if (dist < bestDistance) {
      best = known;
      bestDistance = dist;
    }
  }
  return best;
}
