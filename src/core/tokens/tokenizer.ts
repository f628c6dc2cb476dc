import type { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import type { Ranks } from './long-pieces.js';
import type { RankTable } from './rank-file.js';

/**
 * Exact token counts (docs/reference.md#token-counts-and-budgets), by gpt-tokenizer: the same
 * numbers as tiktoken, loaded only when a count is asked for (its rank tables cost start-up).
 * Why this tokenizer, and how counting stays linear: docs/design/tokens.md.
 */
export type Encoding = 'o200k_base' | 'cl100k_base';
export const ENCODINGS: readonly Encoding[] = ['o200k_base', 'cl100k_base'];

export interface Tokenizer {
  encoding: Encoding;
  /** Tokens of `text`, special-token strings counted as ordinary text (what a prompt holds). */
  count(text: string): number;
  /** `count(text)` when it is at most `limit`, else null; stops counting once past the limit. */
  countWithin(text: string, limit: number): number | null;
}

const loaded = new Map<Encoding, Promise<Tokenizer>>();

export function loadTokenizer(encoding: Encoding): Promise<Tokenizer> {
  let t = loaded.get(encoding);
  if (!t) {
    const o200k = encoding === 'o200k_base';
    t = Promise.all([encodingOf(encoding), import('gpt-tokenizer/encodingParams/constants'), import('./long-pieces.js')]).then(([{ api: m, table }, constants, long]) => {
      const options = { disallowedSpecial: new Set<string>() };
      const split = o200k ? constants.O200K_TOKEN_SPLIT_REGEX : constants.CL100K_TOKEN_SPLIT_REGEX;
      let ranks: Ranks | undefined;
      // Indexed by bytes only when a long pre-token is met.
      const ranksOnce = () => (ranks ??= long.ranksOf(table));
      const fast = preTokenCounter(m);
      const short = fast ?? ((piece: string) => m.countTokens(piece, options));
      // The tokenizer's merge loop is quadratic in a pre-token's length: long ones are merged by long-pieces.ts.
      const countLong = (piece: string) => (long.mayHoldLongPiece(piece) ? long.countWithLongPieces(piece, split, ranksOnce, short) : short(piece));
      // Only the few lines around a long run are pre-split in JavaScript: a piece that may hold
      // one (a long URL, a rule of `=`) is cut again at safe places first, and the rest of it
      // counted as ordinary text is.
      const countPiece = (piece: string) => (long.mayHoldLongPiece(piece) ? countBySafePieces(piece, countLong, LONG_WINDOW) : short(piece));
      return {
        encoding,
        count: (text: string) => countBySafePieces(text, countPiece),
        countWithin: (text: string, limit: number) => {
          let total = 0;
          for (const piece of safePieces(text)) {
            if (limit - total < 0) return null;
            if (long.mayHoldLongPiece(piece)) {
              total += countPiece(piece);
              if (total > limit) return null;
              continue;
            }
            // A piece is at most PIECE characters: counted whole, it is over the limit or not.
            const n = fast ? fast(piece) : m.isWithinTokenLimit(piece, limit - total, options);
            if (n === false || n > limit - total) return null;
            total += n;
          }
          return total;
        },
      };
    });
    loaded.set(encoding, t);
  }
  return t;
}

/** What refcat calls of a gpt-tokenizer encoding. */
type EncodingApi = Pick<GptEncoding, 'countTokens' | 'isWithinTokenLimit'>;

/**
 * gpt-tokenizer's encoding and its rank table: built from the rank file the build writes when
 * there is one for the installed version (rank-file.ts: the table read as JSON loads faster than
 * the module that holds it), else its own encoding module, the same tokenizer.
 */
async function encodingOf(encoding: Encoding): Promise<{ api: EncodingApi; table: RankTable }> {
  const file = await import('./rank-file.js');
  const table = file.readRankFile(file.rankFileFor(encoding), encoding, file.installedVersion());
  if (table !== undefined) {
    const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
    return { api: GptEncoding.getEncodingApi(encoding, () => table), table };
  }
  const o200k = encoding === 'o200k_base';
  const [api, bpe] = await Promise.all([
    o200k ? import('gpt-tokenizer/encoding/o200k_base') : import('gpt-tokenizer/encoding/cl100k_base'),
    // The rank table the encoding module has just loaded (the same module instance: no cost).
    o200k ? import('gpt-tokenizer/bpeRanks/o200k_base') : import('gpt-tokenizer/bpeRanks/cl100k_base'),
  ]);
  return { api: api.default, table: bpe.default };
}

/** The parts of gpt-tokenizer's encoder that preTokenCounter() reads (GptEncoding.js, BytePairEncodingCore.js). */
interface EncoderCore {
  tokenSplitRegex: RegExp;
  bytePairStringRankEncoder: Map<string, number>;
  bytePairEncode(piece: string): unknown[];
}

/**
 * `countTokens(text, { disallowedSpecial: new Set() })` of gpt-tokenizer, as its `countNative()`
 * counts (one token for each pre-token that is in the vocabulary, else the length of its merge),
 * with the pre-tokens found by one `match()` rather than a `matchAll()` iterator, which makes an
 * object for each of them: 0.87-0.90× the time of the count (docs/design/tokens.md#pre-tokens-in-one-array).
 * It reads the encoder's own fields; undefined when they are not there as gpt-tokenizer 3.4
 * has them, and the caller counts with `countTokens()`. test/unit/tokens.test.ts holds both equal.
 */
export function preTokenCounter(api: unknown): ((text: string) => number) | undefined {
  const core = (api as { bytePairEncodingCoreProcessor?: Partial<EncoderCore> }).bytePairEncodingCoreProcessor;
  const { tokenSplitRegex: split, bytePairStringRankEncoder: ranks } = core ?? {};
  if (!(split instanceof RegExp) || !(ranks instanceof Map) || typeof core?.bytePairEncode !== 'function') return undefined;
  const encode = core.bytePairEncode.bind(core);
  const preTokens = new RegExp(split.source, split.flags.includes('g') ? split.flags : `${split.flags}g`);
  return (text) => {
    const pieces = text.match(preTokens);
    if (pieces === null) return 0;
    let count = 0;
    for (let i = 0; i < pieces.length; i++) count += ranks.get(pieces[i]!) === undefined ? encode(pieces[i]!).length : 1;
    return count;
  };
}

/** Longest piece counted in one call: bounds the tokenizer's working memory on huge inputs. */
const PIECE = 64 * 1024;
/** The pieces a piece that may hold a long pre-token is cut into (as short as the cuts allow). */
const LONG_WINDOW = 2 * 1024;

/**
 * Count a long text in pieces cut only where both encodings' pre-tokenizers always cut: right
 * after a newline that is followed by a character that is neither whitespace nor `/` (no
 * pre-token holds a newline followed by such a character; o200k's punctuation rule may take a
 * `/` after newlines). BPE merges stay inside pre-tokens, so the pieces' counts add up exactly.
 */
export function countBySafePieces(text: string, count: (piece: string) => number, pieceSize = PIECE): number {
  let total = 0;
  for (const piece of safePieces(text, pieceSize)) total += count(piece);
  return total;
}

/**
 * Counts a text that arrives in pieces (as output is written), with the same total as counting it
 * whole: the text is counted up to safe cuts as it comes, and only the part after the last cut
 * waits. Pieces are strings, or UTF-8 bytes that may end inside a character.
 */
export class PieceCounter {
  /** Text not counted yet, kept as parts: joined only once there is enough to cut (amortized linear). */
  private parts: string[] = [];
  private size = 0;
  private sum = 0;
  /**
   * Waiting text longer than this is cut and counted. It doubles past text that held no safe cut
   * (megabytes of blank lines are one pre-token): looking again at every piece would be quadratic.
   */
  private countAt: number;
  private readonly bytes = new TextDecoder('utf-8');

  constructor(
    private readonly count: (text: string) => number,
    private readonly pieceSize = PIECE,
  ) {
    this.countAt = 2 * pieceSize;
  }

  add(piece: string | Uint8Array): void {
    const text = typeof piece === 'string' ? piece : this.bytes.decode(piece, { stream: true });
    if (text === '') return;
    // Where the waiting text ends a line and the new piece starts a pre-token (the end of a file's
    // content before its fence, say), the waiting text is counted on its own: the texts joined
    // stay small, and one with non-Latin-1 characters does not make its neighbours two-byte
    // strings, which the tokenizer scans more slowly.
    const last = this.parts[this.parts.length - 1];
    if (last !== undefined && last.endsWith('\n') && isSafeStart(text.charCodeAt(0))) this.countAll();
    this.parts.push(text);
    this.size += text.length;
    if (this.size > this.countAt) this.countReady();
  }

  private countAll(): void {
    this.sum += countBySafePieces(this.parts.join(''), this.count, this.pieceSize);
    this.parts = [];
    this.size = 0;
    this.countAt = 2 * this.pieceSize;
  }

  /** The count of everything added; call once, at the end. */
  total(): number {
    this.parts.push(this.bytes.decode());
    const rest = this.parts.join('');
    this.parts = [];
    this.size = 0;
    return this.sum + countBySafePieces(rest, this.count, this.pieceSize);
  }

  /** Count the waiting text up to its last safe cut; keep the rest. */
  private countReady(): void {
    const text = this.parts.join('');
    let from = 0;
    while (text.length - from > this.pieceSize) {
      const cut = safeCut(text, from + this.pieceSize);
      if (cut === -1) break;
      this.sum += this.count(text.slice(from, cut));
      from = cut;
    }
    const rest = text.slice(from);
    this.parts = [rest];
    this.size = rest.length;
    this.countAt = Math.max(2 * this.pieceSize, 2 * rest.length);
  }
}

/** The text in pieces of about PIECE characters, cut where counts add up (see countBySafePieces). */
function* safePieces(text: string, pieceSize = PIECE): Iterable<string> {
  let from = 0;
  while (text.length - from > pieceSize) {
    const cut = safeCut(text, from + pieceSize);
    if (cut === -1) break;
    yield text.slice(from, cut);
    from = cut;
  }
  yield text.slice(from);
}

/** The first safe cut at or after `at`, or -1. */
export function safeCut(text: string, at: number): number {
  for (let i = text.indexOf('\n', at - 1); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) {
    if (isSafeStart(text.charCodeAt(i + 1))) return i + 1;
  }
  return -1;
}

/** A character a pre-token after a newline cannot start with: neither whitespace nor `/`. */
export function isSafeStart(c: number): boolean {
  return !(c === 0x2f || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000);
}
