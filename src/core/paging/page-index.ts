import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PageSpan } from './page-builder.js';

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
const BLOCK_BYTES = BLOCK_RECORDS * RECORD_BYTES;
/** Blocks kept in memory (about 2.6 MiB); older ones go to a spill file. */
const MEMORY_BLOCKS = 8;

/**
 * The page-offset index of some content while it is built: 40 bytes a page, saved as a flat file
 * of fixed-size records so that a later call reads page N with one 40-byte positioned read.
 *
 * Memory stays bounded whatever the content and page size (a 5 MB file at `--page-size 1` has 5
 * million pages): the newest blocks stay in memory, older ones are written, in the index file's
 * format, to a spill file in `spillDir` and read back with positioned reads. close() removes it.
 */
export class PageTable implements PageLookup {
  private readonly blocks: Float64Array[] = [];
  /** Number of the block held in blocks[0]; blocks before it are in the spill file. */
  private firstInMemory = 0;
  private spill: { fd: number; file: string } | null = null;
  private readonly rec = Buffer.alloc(RECORD_BYTES);
  count = 0;

  constructor(private readonly spillDir: () => string = os.tmpdir) {}

  push(s: PageSpan): void {
    const i = this.count % BLOCK_RECORDS;
    if (i === 0) {
      if (this.blocks.length === MEMORY_BLOCKS) this.spillOldest();
      this.blocks.push(new Float64Array(BLOCK_RECORDS * FIELDS));
    }
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
    const k = Math.floor((n - 1) / BLOCK_RECORDS);
    if (k < this.firstInMemory) {
      fs.readSync(this.spill!.fd, this.rec, 0, RECORD_BYTES, (n - 1) * RECORD_BYTES);
      return decodeRecord(this.rec);
    }
    const b = this.blocks[k - this.firstInMemory]!;
    const o = ((n - 1) % BLOCK_RECORDS) * FIELDS;
    return decode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!);
  }

  close(): void {
    if (!this.spill) return;
    fs.closeSync(this.spill.fd);
    fs.rmSync(this.spill.file, { force: true });
    this.spill = null;
  }

  /** The index file's bytes, block by block (little-endian whatever the machine). */
  *bytes(): Iterable<Buffer> {
    if (this.spill) {
      const buf = Buffer.allocUnsafe(BLOCK_BYTES);
      for (let k = 0; k < this.firstInMemory; k++) {
        fs.readSync(this.spill.fd, buf, 0, BLOCK_BYTES, k * BLOCK_BYTES);
        yield Buffer.from(buf);
      }
    }
    for (let k = 0; k < this.blocks.length; k++) {
      const records = Math.min(BLOCK_RECORDS, this.count - (this.firstInMemory + k) * BLOCK_RECORDS);
      yield encodeBlock(this.blocks[k]!, records);
    }
  }

  private spillOldest(): void {
    if (!this.spill) {
      const file = path.join(this.spillDir(), `refcat-pages-${randomBytes(8).toString('hex')}.tmp`);
      this.spill = { fd: fs.openSync(file, 'wx+', 0o600), file };
    }
    const block = this.blocks.shift()!;
    fs.writeSync(this.spill.fd, encodeBlock(block, BLOCK_RECORDS), 0, BLOCK_BYTES, this.firstInMemory * BLOCK_BYTES);
    this.firstInMemory++;
  }
}

function encodeBlock(block: Float64Array, records: number): Buffer {
  const buf = Buffer.allocUnsafe(records * RECORD_BYTES);
  for (let i = 0; i < records * FIELDS; i++) buf.writeDoubleLE(block[i]!, i * 8);
  return buf;
}

function decodeRecord(r: Buffer): PageSpan {
  const fields = [r.readDoubleLE(0), r.readDoubleLE(8), r.readDoubleLE(16), r.readDoubleLE(24), r.readDoubleLE(32)] as const;
  const [start, end, lineStart, lineEnd, flags] = fields;
  // The index is read from disk: a record the store could not have written is damage, not data.
  if (!fields.every((v) => Number.isSafeInteger(v) && v >= 0) || end < start || lineEnd < lineStart || flags > 3) {
    throw new PageIndexDamagedError();
  }
  return decode(start, end, lineStart, lineEnd, flags);
}

/**
 * A saved PageTable, read record by record. Opened at once, so that an index whose entry is
 * replaced or removed afterwards stays readable through the descriptor; call close().
 */
/** A page index record that the store did not write. */
export class PageIndexDamagedError extends Error {
  constructor() {
    super('the page index is damaged');
  }
}

export class PageFile implements PageLookup {
  readonly count: number;
  private fd: number | null;
  private readonly rec = Buffer.alloc(RECORD_BYTES);

  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, 'r');
    try {
      this.count = Math.floor(fs.fstatSync(this.fd).size / RECORD_BYTES);
    } catch (err) {
      fs.closeSync(this.fd);
      throw err;
    }
  }

  get(n: number): PageSpan {
    this.fd ??= fs.openSync(this.file, 'r');
    fs.readSync(this.fd, this.rec, 0, RECORD_BYTES, (n - 1) * RECORD_BYTES);
    return decodeRecord(this.rec);
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
