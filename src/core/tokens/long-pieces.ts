/**
 * Exact counts for texts holding very long pre-tokens (a 400 KB line of `a`, a run of `=`, megabytes
 * of blank lines), in O(n log n) instead of the tokenizer's O(n²) merge loop
 * (docs/reference.md#token-counts-and-budgets).
 *
 * BPE merges inside one pre-token at a time: the pair of neighbouring parts with the lowest rank
 * (the leftmost of equal ones) becomes one part, until no pair is in the vocabulary. Here the
 * pairs wait in a heap ordered by (rank, position), which merges in exactly that order; the count
 * is the number of parts left. Pre-tokens this long are rare, so their rank table is built only
 * when one is met.
 */

/** A pre-token longer than this (in characters) is counted here; shorter ones by the tokenizer itself. */
export const LONG_PIECE = 512;

/**
 * A text may hold a pre-token longer than LONG_PIECE only if it holds a run of 128 characters that
 * are all whitespace, all non-whitespace, or all `\r`, `\n` and `/`: every pre-token of both
 * encodings is at most one character, such a run and 3 more (letters and their contraction; a
 * punctuation run and the newlines and slashes after it; a whitespace run). Texts without one (most)
 * are left to the tokenizer whole.
 */
const MAY_HOLD_LONG = /\S{128}|\s{128}|[\r\n/]{128}/;

const NONE = 0x7fffffff;
const DEAD = -1;

export function mayHoldLongPiece(text: string): boolean {
  return text.length > LONG_PIECE && MAY_HOLD_LONG.test(text);
}

/** The vocabulary as a map from a token's UTF-8 bytes (as a latin1 string) to its rank. */
export interface Ranks {
  get(bytes: string): number | undefined;
  /** The rank of every two-byte token, by `first << 8 | second` (NONE where there is none). */
  pairs: Int32Array;
  /** Longest token in bytes: a longer span has no rank. */
  maxBytes: number;
}

export function ranksOf(decoder: readonly (string | number[])[]): Ranks {
  const map = new Map<string, number>();
  const pairs = new Int32Array(1 << 16).fill(NONE);
  let maxBytes = 0;
  decoder.forEach((value, rank) => {
    const key = typeof value === 'string' ? Buffer.from(value, 'utf8').toString('latin1') : Buffer.from(value).toString('latin1');
    map.set(key, rank);
    if (key.length === 2) pairs[(key.charCodeAt(0) << 8) | key.charCodeAt(1)] = rank;
    maxBytes = Math.max(maxBytes, key.length);
  });
  return { get: (k) => map.get(k), pairs, maxBytes };
}

/**
 * The token count of `text`: its short pre-tokens counted by `countShort` (on the stretches
 * between long ones, cut at pre-token boundaries, where the pre-tokenizer starts afresh), each long
 * one by `mergeCount`.
 */
export function countWithLongPieces(text: string, split: RegExp, ranks: () => Ranks, countShort: (text: string) => number): number {
  let total = 0;
  let from = 0;
  for (const m of text.matchAll(split)) {
    if (m[0].length <= LONG_PIECE) continue;
    if (m.index > from) total += countShort(text.slice(from, m.index));
    total += mergeCount(Buffer.from(m[0], 'utf8'), ranks());
    from = m.index + m[0].length;
  }
  if (from < text.length) total += countShort(from === 0 ? text : text.slice(from));
  return total;
}


/** How many tokens BPE makes of one pre-token's bytes. */
export function mergeCount(bytes: Buffer, ranks: Ranks): number {
  const n = bytes.length;
  if (n <= 1) return n;
  // Parts are named by their first byte; next[i] is where the part after i starts (n: none).
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  // rank[i]: the rank of part i joined with the next part (NONE: not a token; DEAD: i was merged away).
  const rank = new Int32Array(n);
  const heap = new Int32Array(n);
  const pos = new Int32Array(n).fill(-1);
  let size = 0;

  const pairRank = (i: number): number => {
    const j = next[i]!;
    if (j >= n) return NONE;
    const end = next[j]!;
    if (end - i === 2) return ranks.pairs[(bytes[i]! << 8) | bytes[j]!]!;
    if (end - i > ranks.maxBytes) return NONE;
    return ranks.get(bytes.toString('latin1', i, end)) ?? NONE;
  };
  const less = (a: number, b: number) => rank[a]! < rank[b]! || (rank[a] === rank[b] && a < b);
  const place = (k: number, part: number) => {
    heap[k] = part;
    pos[part] = k;
  };
  const up = (k: number) => {
    const part = heap[k]!;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!less(part, heap[parent]!)) break;
      place(k, heap[parent]!);
      k = parent;
    }
    place(k, part);
  };
  const down = (k: number) => {
    const part = heap[k]!;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= size) break;
      if (child + 1 < size && less(heap[child + 1]!, heap[child]!)) child++;
      if (!less(heap[child]!, part)) break;
      place(k, heap[child]!);
      k = child;
    }
    place(k, part);
  };
  const remove = (part: number) => {
    const k = pos[part]!;
    if (k < 0) return;
    pos[part] = -1;
    size--;
    if (k === size) return;
    const last = heap[size]!;
    place(k, last);
    up(k);
    down(pos[last]!);
  };
  /** Set part i's pair rank and move it in (or out of) the heap. */
  const rerank = (i: number) => {
    rank[i] = pairRank(i);
    if (rank[i] === NONE) {
      remove(i);
    } else if (pos[i]! < 0) {
      place(size, i);
      size++;
      up(size - 1);
    } else {
      up(pos[i]!);
      down(pos[i]!);
    }
  };

  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < n - 1; i++) rerank(i);
  rank[n - 1] = NONE;

  let parts = n;
  while (size > 0) {
    const i = heap[0]!;
    const j = next[i]!;
    // Part j joins part i.
    remove(j);
    rank[j] = DEAD;
    next[i] = next[j]!;
    if (next[j]! < n) prev[next[j]!] = i;
    parts--;
    rerank(i);
    if (prev[i]! >= 0) rerank(prev[i]!);
  }
  return parts;
}
