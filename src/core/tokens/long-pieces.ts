/**
 * Exact counts for texts holding very long pre-tokens (a 400 KB line of `a`, a run of `=`, megabytes
 * of blank lines), in near-linear time instead of the tokenizer's O(n²) merge loop
 * (docs/reference.md#token-counts-and-budgets).
 *
 * BPE merges inside one pre-token at a time: the pair of neighbouring parts with the lowest rank
 * (the leftmost of equal ones) becomes one part, until no pair is in the vocabulary. Here the
 * pairs wait in a heap ordered by (rank, position), which merges in exactly that order; the count
 * is the number of parts left. A long pre-token is merged a chunk at a time (ChunkedMerge), so
 * the heap stays small and a run's repeated chunks are merged once. Pre-tokens this long are
 * rare, so their rank table is built only when one is met.
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

/**
 * Whether MAY_HOLD_LONG matches `text` (longer than LONG_PIECE), one run at a time. The regex tries
 * each run at every position, which cost ordinary text half as much again as counting its tokens
 * (issue 37); reading every character once still cost a counted file 5-15% (`npm run bench -- 05`).
 */
export function mayHoldLongPiece(text: string): boolean {
  if (text.length <= LONG_PIECE) return false;
  return hasRun(text, isSpace) || hasRun(text, isNotSpace) || hasRun(text, isBreak);
}

/**
 * Whether RUN characters in a row of `text` are all `inRun`. Each window is read from its end back,
 * and a character out of the run moves the next window past it: ordinary text, whose runs are
 * short, is crossed reading a few characters of every RUN, and no character is read twice.
 */
function hasRun(text: string, inRun: (c: number) => boolean): boolean {
  let start = 0;
  // text[start..known] is in the run (empty when known is start - 1).
  let known = -1;
  while (start + RUN <= text.length) {
    const end = start + RUN - 1;
    let j = end;
    while (j > known && inRun(text.charCodeAt(j))) j--;
    if (j === known) return true;
    // No run of RUN reaches over j: the next one starts after it.
    start = j + 1;
    known = end;
  }
  return false;
}

function isNotSpace(c: number): boolean {
  return !isSpace(c);
}

function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2f;
}

/** The run MAY_HOLD_LONG looks for. */
const RUN = 128;

/** Whether `\s` matches the UTF-16 code unit `c` (JavaScript's white space and line terminators). */
function isSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The regex mayHoldLongPiece() answers for (test/unit/tokens.test.ts holds the two equal). */
export function mayHoldLongPieceByRegex(text: string): boolean {
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
 *
 * One place does not start afresh: whitespace before a long piece. `\s+(?!\S)` looks one
 * character ahead, so `\t\t` before `////` is two pre-tokens, and `\t\t` alone one. The
 * whitespace pre-tokens that end a stretch are merged one by one (mergeParts, exact BPE of one
 * pre-token); the stretch before them ends in a piece that no look-ahead decided.
 */
export function countWithLongPieces(text: string, split: RegExp, ranks: () => Ranks, countShort: (text: string) => number): number {
  let total = 0;
  let from = 0;
  // The whitespace pre-tokens right before the current position, and where the first starts.
  let spaces: string[] = [];
  let spacesFrom = 0;
  for (const m of text.matchAll(split)) {
    const piece = m[0];
    if (piece.length <= LONG_PIECE) {
      if (!WHITESPACE_ONLY.test(piece)) spaces = [];
      else if (spaces.push(piece) === 1) spacesFrom = m.index;
      continue;
    }
    const cut = spaces.length > 0 ? spacesFrom : m.index;
    if (cut > from) total += countShort(text.slice(from, cut));
    for (const s of spaces) {
      const bytes = Buffer.from(s, 'utf8');
      total += mergeParts(bytes, 0, bytes.length, ranks()).length;
    }
    spaces = [];
    total += mergeCount(Buffer.from(piece, 'utf8'), ranks());
    from = m.index + piece.length;
  }
  if (from < text.length) total += countShort(from === 0 ? text : text.slice(from));
  return total;
}

const WHITESPACE_ONLY = /^\s+$/;


/** How many tokens BPE makes of one pre-token's bytes. */
export function mergeCount(bytes: Buffer, ranks: Ranks, chunk = CHUNK): number {
  if (bytes.length <= 2 * chunk) return mergeParts(bytes, 0, bytes.length, ranks).length;
  return new ChunkedMerge(bytes, ranks, chunk).count();
}

/**
 * Bytes merged in chunks of this many: a heap this small stays in the processor's cache, and the
 * chunks of a run of one character (or of a few repeated) are alike, so each is merged once.
 */
const CHUNK = 4096;

/**
 * BPE of a long pre-token chunk by chunk, exactly. Two facts of BPE as tiktoken runs it (the
 * lowest-ranked pair first, the leftmost of equal ones) make it exact:
 * - a token boundary of BPE(s) splits it: BPE(s) is BPE of the text before the boundary followed
 *   by BPE of the text after (each side's merges are the lowest of that side, in the same order);
 * - conversely, BPE(a) then BPE(b) is BPE(a + b) when the last token x of BPE(a) and the first y of
 *   BPE(b) are compatible, BPE(x + y) = [x, y]: a first merge across the join in a + b would be,
 *   at the same state of x and y, the lowest pair of x + y too.
 * So chunks are merged apart and joined while their edges are compatible. At a join that is not,
 * a window of tokens on both sides is merged again, and taken once its own edges are compatible;
 * the window doubles until they are, at worst to the whole text so far, which is plain BPE.
 */
class ChunkedMerge {
  /** Where each token of the text merged so far starts; `done` is where that text ends. */
  private starts = new Int32Array(1024);
  private size = 0;
  private done = 0;
  /** Chunks merged, by their bytes (latin1): a run repeats its chunks. */
  private readonly chunks = new Map<string, Int32Array>();
  /** Compatibility of two tokens, by their ranks. */
  private readonly compatible = new Map<number, boolean>();

  constructor(
    private readonly bytes: Buffer,
    private readonly ranks: Ranks,
    private readonly chunkSize: number,
  ) {}

  count(): number {
    const n = this.bytes.length;
    while (this.done < n) {
      const end = Math.min(n, this.done + this.chunkSize);
      this.join(this.chunk(this.done, end), end);
    }
    return this.size;
  }

  /** The token starts of BPE(bytes[from, to)), absolute. */
  private chunk(from: number, to: number): Int32Array {
    const key = this.bytes.toString('latin1', from, to);
    let rel = this.chunks.get(key);
    if (rel === undefined) {
      rel = mergeParts(this.bytes, from, to, this.ranks).map((s) => s - from);
      if (this.chunks.size >= 64) this.chunks.clear();
      this.chunks.set(key, rel);
    }
    return rel.map((s) => s + from);
  }

  /** Append BPE(bytes[done, end)) (token starts `next`), repairing the join when needed. */
  private join(next: Int32Array, end: number): void {
    if (this.size === 0 || this.fits(this.starts[this.size - 1]!, this.done, next.length > 1 ? next[1]! : end)) {
      this.append(next, 0, end);
      return;
    }
    for (let m = 2; ; m *= 2) {
      const left = Math.max(0, this.size - m);
      const right = Math.min(next.length, m);
      const windowEnd = right < next.length ? next[right]! : end;
      const merged = mergeParts(this.bytes, this.starts[left]!, windowEnd, this.ranks);
      const leftFits = left === 0 || this.fits(this.starts[left - 1]!, this.starts[left]!, merged.length > 1 ? merged[1]! : windowEnd);
      const last = merged[merged.length - 1]!;
      const rightFits = right === next.length || this.fits(last, windowEnd, right + 1 < next.length ? next[right + 1]! : end);
      if (leftFits && rightFits) {
        this.size = left;
        this.done = this.starts[left]!;
        this.append(merged, 0, windowEnd);
        this.append(next, right, end);
        return;
      }
    }
  }

  private append(starts: Int32Array, from: number, end: number): void {
    const add = starts.length - from;
    if (this.size + add > this.starts.length) {
      const grown = new Int32Array(Math.max(this.starts.length * 2, this.size + add));
      grown.set(this.starts.subarray(0, this.size));
      this.starts = grown;
    }
    this.starts.set(starts.subarray(from), this.size);
    this.size += add;
    this.done = end;
  }

  /** Whether the tokens at bytes [a, b) and [b, c) are compatible. */
  private fits(a: number, b: number, c: number): boolean {
    const left = this.bytes.toString('latin1', a, b);
    const right = this.bytes.toString('latin1', b, c);
    const key = this.ranks.get(left)! * 0x40000 + this.ranks.get(right)!;
    let ok = this.compatible.get(key);
    if (ok === undefined) {
      const pair = mergeParts(this.bytes, a, c, this.ranks);
      ok = pair.length === 2 && pair[1] === b;
      this.compatible.set(key, ok);
    }
    return ok;
  }
}

/** Bytes merged by the heap, all calls together: the work the tests count to show it is linear. */
export const heapWork = { bytes: 0 };

/** Where each token of BPE(bytes[from, to)) starts (absolute), in order. */
export function mergeParts(bytes: Buffer, from: number, to: number, ranks: Ranks): Int32Array {
  const n = to - from;
  heapWork.bytes += n;
  if (n <= 1) return Int32Array.of(...(n === 1 ? [from] : []));
  // Parts are named by their first byte (relative to `from`); next[i] is where the part after i
  // starts (n: none).
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
    if (end - i === 2) return ranks.pairs[(bytes[from + i]! << 8) | bytes[from + j]!]!;
    if (end - i > ranks.maxBytes) return NONE;
    return ranks.get(bytes.toString('latin1', from + i, from + end)) ?? NONE;
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
  const starts = new Int32Array(parts);
  for (let i = 0, k = 0; i < n; i = next[i]!) starts[k++] = from + i;
  return starts;
}
