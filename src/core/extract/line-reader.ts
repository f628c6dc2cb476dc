import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';

const CHUNK = 64 * 1024;
/** docs/reference.md#reading-files: a NUL byte in the first 8 KiB makes a file binary. */
const BINARY_SNIFF = 8 * 1024;
/** Longest line kept in memory; longer ones are skipped through, or refused when wanted. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
const LF = 0x0a;
const EMPTY = Buffer.alloc(0);
const CR = 0x0d;

/**
 * Reads of up to 64 KiB (most files: a glob reads thousands) go into buffers that are used again:
 * a reader takes one from this pool and gives it back with release(). Memory read into for the
 * first time is faulted in page by page by the read itself, and a fresh buffer per file (or per
 * few files) cost the reads half their time (docs/design/extract.md#reading). A few are kept: as many
 * as there are readers open at once (a server streams several extractions in turn), not more.
 */
const POOLED = 1 << 16;
const POOL_SIZE = 8;
const pool: Buffer[] = [];

/** A test seam: released buffers are overwritten, so that bytes used after release show up. */
let scribble = false;
export function scribbleReleasedBuffers(on: boolean): void {
  scribble = on;
}

function giveBack(buf: Buffer): void {
  if (scribble) buf.fill(0x23);
  if (pool.length < POOL_SIZE) pool.push(buf);
}

export class BinaryContentError extends Error {}
export class LineTooLongError extends Error {}

/**
 * Reads a file line by line from an open descriptor, in chunks, so that a selection near the top
 * of a huge file stops reading as soon as it has its lines (docs/reference.md#reading-files).
 *
 * Lines end at `\n` or `\r\n` (a lone `\r` is content); a final terminator does not start a new
 * line; a UTF-8 BOM is not part of line 1.
 *
 * Binary content raises BinaryContentError: a NUL byte in the first 8 KiB, or any byte read that
 * is not UTF-8. Every chunk is checked as it is read (skipped lines included), so the verdict does
 * not depend on the selector: the first 64 KiB are always judged, and as much more as the
 * selection needs to read. Bytes after the last chunk read are not judged.
 *
 * Memory is bounded by the longest line kept: a line longer than `maxLineBytes` raises
 * LineTooLongError when it is wanted, and is streamed through without being held when skipped.
 */
export class LineReader {
  private readonly fd: number;
  private readonly maxLineBytes: number;
  private buf: Buffer;
  /** The pool's buffer `buf` is cut from, until release(). */
  private pooled: Buffer | null = null;
  /** The size of the file at open (fstat), when known: a short read that reaches it is the end. */
  private readonly size: number;
  private offset = 0; // file offset of buf[0]
  private start = 0; // first unconsumed byte in buf
  private end = 0; // one past the last valid byte in buf
  private checked = 0; // bytes of buf before this offset are known to be valid UTF-8
  private eof = false;
  private bytesRead = 0;
  private readonly pushed: string[] = [];
  /** Lines decoded in bulk from the buffer, handed out from `qi` on. */
  private queue: string[] = [];
  private qi = 0;
  /** Number of lines handed out (or skipped) so far: the 1-based number of the last line. */
  lineNo = 0;

  constructor(fd: number, options: { chunkSize?: number; maxLineBytes?: number; size?: number } = {}) {
    this.fd = fd;
    const size = options.chunkSize ?? CHUNK;
    if (size > 0 && size <= POOLED) {
      this.pooled = pool.pop() ?? Buffer.allocUnsafeSlow(POOLED);
      this.buf = this.pooled.subarray(0, size);
    } else {
      this.buf = Buffer.allocUnsafe(size);
    }
    this.size = options.size ?? 0;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /**
   * Every line of a whole file in memory, as next() would give them, or a BinaryContentError: the
   * verdict a descriptor's reader gives a file it reads in one piece. For ReadCache.
   */
  static linesOf(bytes: Buffer): string[] {
    const reader = new LineReader(-1, { chunkSize: 0, size: bytes.length });
    reader.buf = bytes;
    reader.end = bytes.length;
    reader.bytesRead = bytes.length;
    if (bytes.length > 0) {
      reader.checkHead(0);
      reader.checkUtf8();
    }
    reader.endOfFile();
    const lines: string[] = [];
    for (let line = reader.next(); line !== null; line = reader.next()) lines.push(line);
    return lines;
  }

  /** A reader over linesOf()'s lines of a file of `size` bytes. The array is never written to. */
  static ofLines(lines: string[], size: number): LineReader {
    const reader = new LineReader(-1, { chunkSize: 0, size });
    reader.queue = lines;
    reader.bytesRead = size;
    reader.eof = true;
    return reader;
  }

  /**
   * Gives the read buffer back to the pool: the reader, and every view held() gave, must not be
   * used after this. Without it the buffer is left to the garbage collector.
   */
  release(): void {
    const buf = this.pooled;
    if (buf === null) return;
    this.pooled = null;
    this.buf = EMPTY;
    this.start = this.end = this.checked = 0;
    this.eof = true;
    giveBack(buf);
  }

  /** The next line without its terminator, or null at end of file. */
  next(): string | null {
    if (this.pushed.length > 0) {
      this.lineNo++;
      return this.pushed.pop()!;
    }
    if (this.qi >= this.queue.length && !this.decodeMore()) return null;
    this.lineNo++;
    return this.queue[this.qi++]!;
  }

  /** Give back lines read with next() (most recent last) so that they are read again. */
  unread(lines: string[]): void {
    for (let i = lines.length - 1; i >= 0; i--) this.pushed.push(lines[i]!);
    this.lineNo -= lines.length;
  }

  /**
   * Skip lines so that the next line returned is line `n` (or EOF comes first). Skipped lines are
   * only scanned for terminators, not decoded: far ranges of big files stay fast.
   */
  skipTo(n: number): void {
    while (this.lineNo < n - 1) {
      if (this.pushed.length > 0) {
        this.pushed.pop();
        this.lineNo++;
        continue;
      }
      if (this.qi < this.queue.length) {
        const take = Math.min(this.queue.length - this.qi, n - 1 - this.lineNo);
        this.qi += take;
        this.lineNo += take;
        continue;
      }
      if (!this.skipLine()) return;
      this.lineNo++;
    }
  }

  /** Skip to end of file; returns the total number of lines. */
  countRemaining(): number {
    this.skipTo(Number.POSITIVE_INFINITY);
    return this.lineNo;
  }

  /**
   * File offset of the next line's first byte (after a UTF-8 BOM on line 1). Only for readers
   * moved by skipTo() and countRemaining(): lines taken with next() are decoded ahead, in bulk.
   */
  position(): number {
    if (this.pushed.length > 0 || this.qi < this.queue.length) throw new Error('LineReader.position() after next()');
    if (this.bytesRead === 0 && !this.eof) this.fill();
    return this.bytesRead - (this.end - this.start);
  }

  /**
   * The file's bytes [from, to) when the reader still holds them all (a file read in one piece,
   * say), else null. A view of the reader's buffer: valid until the reader reads again or is
   * released.
   */
  held(from: number, to: number): Buffer | null {
    if (from < this.offset || to > this.offset + this.end) return null;
    return this.buf.subarray(from - this.offset, to - this.offset);
  }

  /** Bytes of the file not read yet (from the descriptor's size at open). */
  remainingBytes(size: number): number {
    return Math.max(0, size - this.bytesRead);
  }

  /**
   * Decode every complete line in the buffer at once (one string per chunk, not per line: bulk
   * reads and pattern scans are several times faster). UTF-8 never uses the byte 0x0A inside a
   * character, so splitting bytes at newlines is safe.
   */
  private decodeMore(): boolean {
    this.queue = [];
    this.qi = 0;
    for (;;) {
      const last = this.end > this.start ? this.buf.lastIndexOf(LF, this.end - 1) : -1;
      if (last >= this.start) {
        const lines = this.buf.toString('utf8', this.start, last).split('\n');
        this.start = last + 1;
        for (let i = 0; i < lines.length; i++) {
          const l = lines[i]!;
          if (l.charCodeAt(l.length - 1) === CR) lines[i] = l.slice(0, -1);
        }
        this.queue = lines;
        return true;
      }
      if (this.eof) {
        if (this.start >= this.end) return false;
        this.queue = [this.buf.toString('utf8', this.start, this.end)];
        this.start = this.end;
        return true;
      }
      if (this.end - this.start >= this.maxLineBytes) throw new LineTooLongError();
      this.fill();
    }
  }

  /** Consume one line's bytes without keeping them; false at end of file. */
  private skipLine(): boolean {
    let from = this.start;
    let sawBytes = false;
    for (;;) {
      const nl = this.buf.indexOf(LF, from);
      if (nl !== -1 && nl < this.end) {
        this.start = nl + 1;
        return true;
      }
      if (this.end > this.start) sawBytes = true;
      if (this.eof) {
        this.start = this.end;
        return sawBytes;
      }
      // No terminator yet: the checked bytes of this line are not needed any more, so a huge
      // line is streamed through instead of held.
      if (this.checked > this.start) this.start = this.checked;
      from = this.end;
      const offset = this.offset;
      this.fill();
      from -= this.offset - offset;
    }
  }

  /**
   * Read one chunk after the bytes held. Only a full buffer is compacted (unconsumed bytes moved to
   * the front) or, when a line fills it, grown: a file that fits stays whole, in place (held()).
   */
  private fill(): void {
    if (this.end === this.buf.length && this.start > 0) {
      this.buf.copy(this.buf, 0, this.start, this.end);
      this.offset += this.start;
      this.end -= this.start;
      this.checked = Math.max(0, this.checked - this.start);
      this.start = 0;
    }
    if (this.end === this.buf.length) {
      // A line longer than the buffer: no view of the pooled one was handed out yet (held() comes
      // after the selection), so it goes back now.
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.end);
      const pooled = this.pooled;
      this.buf = bigger;
      this.pooled = null;
      if (pooled) giveBack(pooled);
    }
    const wanted = this.buf.length - this.end;
    const n = fs.readSync(this.fd, this.buf, this.end, wanted, null);
    if (n === 0) {
      this.endOfFile();
      return;
    }
    const from = this.end;
    this.end += n;
    if (this.bytesRead === 0) this.checkHead(from);
    this.bytesRead += n;
    this.checkUtf8();
    // A regular file read short exactly at its size is at its end (Linux): no read to learn it.
    // Never for a size of 0 (/proc files) or a file that grew since it was measured.
    if (n < wanted && this.size > 0 && this.bytesRead === this.size) this.endOfFile();
  }

  private endOfFile(): void {
    this.eof = true;
    // An incomplete character at the very end of the file is not UTF-8.
    if (this.checked < this.end) throw new BinaryContentError('not valid UTF-8');
  }

  private checkHead(from: number): void {
    const head = this.buf.subarray(from, Math.min(this.end, from + BINARY_SNIFF));
    if (head.includes(0)) throw new BinaryContentError('NUL byte');
    if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
      this.start = from + 3;
      this.checked = from + 3;
    }
  }

  /** Check the bytes read since the last check, leaving an incomplete last character for later. */
  private checkUtf8(): void {
    const upTo = completeEnd(this.buf, this.checked, this.end);
    if (!isUtf8(this.buf.subarray(this.checked, upTo))) throw new BinaryContentError('not valid UTF-8');
    this.checked = upTo;
  }
}

/** End of buf[from, to) without a trailing incomplete UTF-8 sequence. */
function completeEnd(buf: Buffer, from: number, to: number): number {
  for (let i = to - 1; i >= from && i >= to - 4; i--) {
    const b = buf[i]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return i + need > to ? i : to;
  }
  return to;
}
