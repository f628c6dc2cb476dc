import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';

const CHUNK = 64 * 1024;
/** SPEC 2: a NUL byte in the first 8 KiB makes a file binary. */
const BINARY_SNIFF = 8 * 1024;
const LF = 0x0a;
const CR = 0x0d;

export class BinaryContentError extends Error {}

/**
 * Reads a file line by line from an open descriptor, in chunks, so that a selection near the top
 * of a huge file stops reading as soon as it has its lines (SPEC 2).
 *
 * Lines end at `\n` or `\r\n` (a lone `\r` is content); a final terminator does not start a new
 * line; a UTF-8 BOM is not part of line 1. Binary content (a NUL in the first 8 KiB, or bytes of a
 * line that are not UTF-8) raises BinaryContentError. Only the bytes actually read are judged:
 * a file that turns invalid after the selected lines is not read that far, so it is not reported.
 */
export class LineReader {
  private readonly fd: number;
  private buf: Buffer;
  private start = 0; // first unconsumed byte in buf
  private end = 0; // one past the last valid byte in buf
  private eof = false;
  private first = true;
  private pushed: string[] = [];
  /** Lines decoded in bulk from the buffer, handed out from `qi` on. */
  private queue: string[] = [];
  private qi = 0;
  /** Number of lines handed out (or skipped) so far: the 1-based number of the last line. */
  lineNo = 0;

  constructor(fd: number, chunkSize = CHUNK) {
    this.fd = fd;
    this.buf = Buffer.allocUnsafe(chunkSize);
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

  /**
   * Decode every complete line in the buffer at once (one UTF-8 check and one string per chunk,
   * not per line: bulk reads and pattern scans are several times faster). UTF-8 never uses the
   * byte 0x0A inside a character, so splitting bytes at newlines is safe.
   */
  private decodeMore(): boolean {
    this.queue = [];
    this.qi = 0;
    for (;;) {
      const last = this.end > this.start ? this.buf.lastIndexOf(LF, this.end - 1) : -1;
      if (last >= this.start) {
        const region = this.buf.subarray(this.start, last);
        this.start = last + 1;
        if (!isUtf8(region)) throw new BinaryContentError('not valid UTF-8');
        const lines = region.toString('utf8').split('\n');
        for (let i = 0; i < lines.length; i++) {
          const l = lines[i]!;
          if (l.charCodeAt(l.length - 1) === CR) lines[i] = l.slice(0, -1);
        }
        this.queue = lines;
        return true;
      }
      if (this.eof) {
        if (this.start >= this.end) return false;
        const region = this.buf.subarray(this.start, this.end);
        this.start = this.end;
        if (!isUtf8(region)) throw new BinaryContentError('not valid UTF-8');
        this.queue = [region.toString('utf8')];
        return true;
      }
      this.fill();
    }
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
      if (!this.nextLineBytes()) return;
      this.lineNo++;
    }
  }

  /** Skip to end of file; returns the total number of lines. */
  countRemaining(): number {
    this.skipTo(Number.POSITIVE_INFINITY);
    return this.lineNo;
  }

  /** [start, end) of the next line's bytes in buf (terminator excluded), or null at EOF. */
  private nextLineBytes(): [number, number] | null {
    let searchFrom = this.start;
    for (;;) {
      const nl = this.buf.indexOf(LF, searchFrom);
      if (nl !== -1 && nl < this.end) {
        const s = this.start;
        this.start = nl + 1;
        const e = nl > s && this.buf[nl - 1] === CR ? nl - 1 : nl;
        return [s, e];
      }
      searchFrom = this.end;
      if (this.eof) {
        if (this.start >= this.end) return null;
        const s = this.start;
        this.start = this.end;
        return [s, this.end];
      }
      const shift = this.start;
      this.fill();
      searchFrom -= shift;
    }
  }

  /** Move unconsumed bytes to the front, grow if a line fills the buffer, read one chunk. */
  private fill(): void {
    const pending = this.end - this.start;
    if (this.start > 0) {
      this.buf.copy(this.buf, 0, this.start, this.end);
      this.start = 0;
      this.end = pending;
    }
    if (this.end === this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.end);
      this.buf = bigger;
    }
    const n = fs.readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
    if (n === 0) {
      this.eof = true;
      return;
    }
    const from = this.end;
    this.end += n;
    if (this.first) {
      this.first = false;
      this.checkHead(from);
    }
  }

  private checkHead(from: number): void {
    const head = this.buf.subarray(from, Math.min(this.end, from + BINARY_SNIFF));
    if (head.includes(0)) throw new BinaryContentError('NUL byte');
    if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) this.start = from + 3;
  }
}
