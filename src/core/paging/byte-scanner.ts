import { isAscii, isUtf8 } from 'node:buffer';
import { BinaryContentError } from '../extract/line-reader.js';
import { PageBuilder, type PageSpan } from './page-builder.js';

/** docs/reference.md#reading-files: a NUL byte in the first 8 KiB makes content binary. */
const BINARY_SNIFF = 8 * 1024;
const LF = 0x0a;

export interface ScanTotals {
  bytes: number;
  chars: number;
  lines: number;
  pages: number;
}

/**
 * Pages UTF-8 bytes pushed chunk by chunk (stdin, a file read in blocks), with the same algorithm
 * as `paginate` (pager.ts) and byte offsets as positions. Holds nothing but the current chunk, so
 * memory stays bounded whatever the size. Content with a NUL byte in its first 8 KiB or that is
 * not valid UTF-8 throws BinaryContentError: code points mean nothing there.
 *
 * Speed: lines are found with Buffer.indexOf, and a chunk that is pure ASCII (checked natively)
 * counts one code point a byte, so only non-ASCII chunks are walked byte by byte.
 */
export class ByteScanner {
  private readonly builder: PageBuilder;
  private offset = 0;
  private carry: Buffer | null = null;

  constructor(pageSize: number, onPage: (span: PageSpan) => void) {
    this.builder = new PageBuilder(pageSize, onPage);
  }

  push(chunk: Buffer): void {
    const base = this.offset;
    if (base < BINARY_SNIFF && chunk.subarray(0, BINARY_SNIFF - base).includes(0)) {
      throw new BinaryContentError('NUL byte');
    }
    this.checkUtf8(chunk);
    const ascii = isAscii(chunk);
    const cut = ascii ? (from: number, k: number) => from + k : (from: number, k: number) => base + skipCodePoints(chunk, from - base, k);
    for (let i = 0; i < chunk.length; ) {
      const nl = chunk.indexOf(LF, i);
      const end = nl === -1 ? chunk.length : nl + 1;
      this.builder.feed(base + end, ascii ? end - i : leadBytes(chunk, i, end), nl !== -1, cut);
      i = end;
    }
    this.offset += chunk.length;
  }

  finish(): ScanTotals {
    if (this.carry) throw new BinaryContentError('not valid UTF-8');
    this.builder.finish();
    return { bytes: this.offset, chars: this.builder.chars, lines: this.builder.totalLines, pages: this.builder.count };
  }

  /** Validate UTF-8 across chunk boundaries: an incomplete sequence at the end waits for the next chunk. */
  private checkUtf8(chunk: Buffer): void {
    const buf = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const end = completeEnd(buf);
    if (!isUtf8(buf.subarray(0, end))) throw new BinaryContentError('not valid UTF-8');
    this.carry = end < buf.length ? Buffer.from(buf.subarray(end)) : null;
  }
}

/** Whole content held in memory is text: no NUL in its first 8 KiB, valid UTF-8. */
export function isText(buf: Buffer): boolean {
  return !buf.subarray(0, BINARY_SNIFF).includes(0) && isUtf8(buf);
}

/** Code points in buf[from, to): every byte that is not a continuation byte starts one. */
function leadBytes(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((buf[i]! & 0xc0) !== 0x80) n++;
  return n;
}

/** Index k code points after `from` (continuation bytes at `from` belong to the previous one). */
function skipCodePoints(buf: Buffer, from: number, k: number): number {
  let i = from;
  while (i < buf.length && (buf[i]! & 0xc0) === 0x80) i++;
  for (let n = 0; n < k; n++) {
    i++;
    while (i < buf.length && (buf[i]! & 0xc0) === 0x80) i++;
  }
  return i;
}

/** Length of `buf` without a trailing incomplete UTF-8 sequence. */
function completeEnd(buf: Buffer): number {
  const len = buf.length;
  for (let i = len - 1; i >= 0 && i >= len - 4; i--) {
    const b = buf[i]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > len ? i : len;
  }
  return len;
}
