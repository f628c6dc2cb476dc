import fs from 'node:fs';
import type { PageSpan } from './pager.js';

/** Each page is 5 float64 (start, end, lineStart, lineEnd, flags): 40 bytes, little-endian. */
const FIELDS = 5;
export const RECORD_BYTES = FIELDS * 8;
const CONTINUED = 1;
const TRUNCATED = 2;

/** Random access to the pages of some content: page N is a lookup, not a re-scan. */
export interface PageLookup {
  readonly count: number;
  /** Page `n` (1-based, 1 <= n <= count). */
  get(n: number): PageSpan;
  close(): void;
}

/** Records per block of a PageTable: it grows block by block, never copying what it holds. */
const BLOCK_RECORDS = 8192;

/**
 * The page-offset index of some content, in memory while it is built (40 bytes a page: about 10 MiB
 * for 1 GiB of text at 4000 characters a page), then saved as a flat file of fixed-size records so
 * that a later call reads page N with one 40-byte positioned read.
 */
export class PageTable implements PageLookup {
  private readonly blocks: Float64Array[] = [];
  count = 0;

  push(s: PageSpan): void {
    const i = this.count % BLOCK_RECORDS;
    if (i === 0) this.blocks.push(new Float64Array(BLOCK_RECORDS * FIELDS));
    const b = this.blocks[this.blocks.length - 1]!;
    const o = i * FIELDS;
    b[o] = s.start;
    b[o + 1] = s.end;
    b[o + 2] = s.lineStart;
    b[o + 3] = s.lineEnd;
    b[o + 4] = (s.continued ? CONTINUED : 0) | (s.truncated ? TRUNCATED : 0);
    this.count++;
  }

  get(n: number): PageSpan {
    const b = this.blocks[Math.floor((n - 1) / BLOCK_RECORDS)]!;
    const o = ((n - 1) % BLOCK_RECORDS) * FIELDS;
    return decode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!);
  }

  close(): void {}

  /** The index file's bytes, block by block (little-endian whatever the machine). */
  *bytes(): Iterable<Buffer> {
    for (let k = 0; k < this.blocks.length; k++) {
      const records = Math.min(BLOCK_RECORDS, this.count - k * BLOCK_RECORDS);
      const buf = Buffer.allocUnsafe(records * RECORD_BYTES);
      const b = this.blocks[k]!;
      for (let i = 0; i < records * FIELDS; i++) buf.writeDoubleLE(b[i]!, i * 8);
      yield buf;
    }
  }
}

/** A saved PageTable, read record by record. Opens the file on first use; call close(). */
export class PageFile implements PageLookup {
  readonly count: number;
  private fd: number | null = null;
  private readonly rec = Buffer.alloc(RECORD_BYTES);

  constructor(private readonly file: string) {
    this.count = Math.floor(fs.statSync(file).size / RECORD_BYTES);
  }

  get(n: number): PageSpan {
    this.fd ??= fs.openSync(this.file, 'r');
    fs.readSync(this.fd, this.rec, 0, RECORD_BYTES, (n - 1) * RECORD_BYTES);
    const r = this.rec;
    return decode(r.readDoubleLE(0), r.readDoubleLE(8), r.readDoubleLE(16), r.readDoubleLE(24), r.readDoubleLE(32));
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

function decode(start: number, end: number, lineStart: number, lineEnd: number, flags: number): PageSpan {
  return { start, end, lineStart, lineEnd, continued: (flags & CONTINUED) !== 0, truncated: (flags & TRUNCATED) !== 0 };
}

/** The page holding line `line` (binary search: a few record reads even for a huge index). */
export function pageOfLine(pages: PageLookup, line: number): number {
  let lo = 1;
  let hi = pages.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pages.get(mid).lineEnd < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
