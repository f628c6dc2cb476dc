import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { PageTable } from './page-index.js';
import { ByteScanner, type ScanTotals } from './byte-scanner.js';
import type { ByteSource } from '../safe-write/safe-write.js';

export type { ByteSource };

/** Text is handed out in blocks of this many bytes, so a 1 GiB `--all` never sits in memory. */
const BLOCK = 1 << 20;

export class BufferSource implements ByteSource {
  constructor(private readonly buf: Buffer) {}
  get size(): number {
    return this.buf.length;
  }
  bytes(start: number, end: number): Buffer {
    return this.buf.subarray(start, end);
  }
  *text(start: number, end: number): Iterable<string> {
    if (end > start) yield this.buf.toString('utf8', start, end);
  }
  close(): void {}
}

/**
 * A file read by positioned reads. The file is opened at once and its size taken from the open
 * descriptor: a stored entry replaced or removed afterwards (a new `ref scan`, `fd close`) stays
 * readable, whole and consistent, through it.
 */
export class FileSource implements ByteSource {
  readonly size: number;
  private fd: number | null;

  constructor(private readonly file: string) {
    this.fd = fs.openSync(file, 'r');
    try {
      this.size = fs.fstatSync(this.fd).size;
    } catch (err) {
      fs.closeSync(this.fd);
      throw err;
    }
  }

  bytes(start: number, end: number): Buffer {
    const buf = Buffer.allocUnsafe(Math.max(0, end - start));
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(this.handle(), buf, off, buf.length - off, start + off);
      if (n === 0) return buf.subarray(0, off);
      off += n;
    }
    return buf;
  }

  *text(start: number, end: number): Iterable<string> {
    const decoder = new StringDecoder('utf8');
    for (let at = start; at < end; at += BLOCK) {
      const s = decoder.write(this.bytes(at, Math.min(end, at + BLOCK)));
      if (s) yield s;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private handle(): number {
    return (this.fd ??= fs.openSync(this.file, 'r'));
  }
}

/** A file's bytes in blocks, read synchronously; the block buffer is reused between yields. */
export function* fileChunks(file: string, block = BLOCK): Iterable<Buffer> {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(block);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, block, null);
      if (n === 0) return;
      yield buf.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Page an open source without holding it: one pass of positioned reads builds the page table. */
export function scanSource(source: ByteSource, pageSize: number): { table: PageTable; totals: ScanTotals } {
  return scanChunks(sourceChunks(source), pageSize);
}

/** Page a file without holding it: one streaming pass builds the page table. */
export function scanFile(file: string, pageSize: number): { table: PageTable; totals: ScanTotals } {
  return scanChunks(fileChunks(file), pageSize);
}

function* sourceChunks(source: ByteSource): Iterable<Buffer> {
  for (let at = 0; at < source.size; at += BLOCK) yield source.bytes(at, Math.min(source.size, at + BLOCK));
}

function scanChunks(chunks: Iterable<Buffer>, pageSize: number): { table: PageTable; totals: ScanTotals } {
  const table = new PageTable();
  try {
    const scanner = new ByteScanner(pageSize, (s) => table.push(s));
    for (const chunk of chunks) scanner.push(chunk);
    return { table, totals: scanner.finish() };
  } catch (err) {
    table.close();
    throw err;
  }
}
