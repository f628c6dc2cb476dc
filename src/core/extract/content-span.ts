import fs from 'node:fs';

/**
 * Selected lines left on disk: the bytes [start, end) of an open file hold lines
 * `firstLine .. firstLine + lines - 1` with their terminators (the last one may have none, at the
 * end of the file). Streaming output reads them when it writes them, so that memory does not grow
 * with the size of a selection (docs/reference.md#streaming-and-memory).
 *
 * The selection pass has already read these bytes and judged them UTF-8 text. When it still holds
 * them all (`bytes`: a file read in one piece, as most are) they are written from there; else they
 * are read again from the same descriptor, so a file replaced by rename in between is not seen. A
 * file changed in place in between shows its new bytes (and a shorter one ends the content early).
 *
 * The text is never decoded: UTF-8 bytes pass through as they are. Where text must be changed
 * (`\r\n` to `\n`, JSON escapes, line numbers), the bytes are held as a "byte string", one char
 * per byte (latin1). Every change touches only ASCII bytes, which never occur inside a multi-byte
 * UTF-8 character, so encoding the result back as latin1 gives exactly the UTF-8 of the changed
 * text, several times faster than decoding it.
 */
export interface ContentSpan {
  fd: number;
  start: number;
  end: number;
  /** Number of lines in the span. */
  lines: number;
  /** Bytes read per call (default 64 KiB); tests make it small to cross chunk ends often. */
  chunkBytes?: number;
  /**
   * The bytes [start, end), when the selection pass still holds them: nothing is read again. A
   * view of a read buffer that is used again once the span is released: a consumer that keeps
   * them longer copies them.
   */
  bytes?: Buffer;
  /** Gives that read buffer back; called once, when the descriptor is closed. */
  release?: () => void;
  /**
   * The pieces read from the file share one buffer, each valid until the next is asked for: a span
   * whose bytes are lent (streamed output, whose sinks copy what they keep). A 60 MB file read in
   * fresh 64 KiB buffers left up to 50 MB of them for the garbage collector at a time.
   */
  shareReads?: boolean;
}

/** Bytes read per call: measured fastest here (JSON escaping of larger strings is several times slower). */
const READ_BYTES = 1 << 16;
const CR = 0x0d;
const LF = 0x0a;
const TICK = 0x60;
const TICKS = Buffer.from('```');

/**
 * The span's bytes in pieces of up to chunkBytes (fewer if the file shrank meanwhile): views of
 * `bytes`, or buffers read from the file: fresh ones, never changed afterwards, or with
 * `shareReads` one buffer read into again for each piece.
 */
function* spanBytes(span: ContentSpan): Generator<Buffer> {
  const size = span.chunkBytes ?? READ_BYTES;
  if (span.bytes) {
    for (let at = 0; at < span.bytes.length; at += size) yield span.bytes.subarray(at, at + size);
    return;
  }
  const shared = span.shareReads ? Buffer.allocUnsafe(Math.min(size, span.end - span.start)) : null;
  for (let at = span.start; at < span.end; ) {
    const length = Math.min(size, span.end - at);
    const buf = shared ? shared.subarray(0, length) : Buffer.allocUnsafe(length);
    const n = fs.readSync(span.fd, buf, 0, buf.length, at);
    if (n === 0) return;
    at += n;
    yield n === buf.length ? buf : buf.subarray(0, n);
  }
}

/** The span's bytes with `\r\n` as `\n` (a lone `\r` stays), also across chunk ends. */
function* crlfToLf(span: ContentSpan): Generator<Buffer> {
  let heldCr = false;
  for (let buf of spanBytes(span)) {
    if (heldCr) buf = Buffer.concat([Buffer.of(CR), buf]);
    heldCr = buf[buf.length - 1] === CR;
    if (heldCr) buf = buf.subarray(0, -1);
    if (buf.length === 0) continue;
    yield buf.includes(CR) ? Buffer.from(buf.toString('latin1').replaceAll('\r\n', '\n'), 'latin1') : buf;
  }
  if (heldCr) yield Buffer.of(CR);
}

/**
 * The span's lines each ended by `\n`, the last one too: the UTF-8 of
 * `lines.map((l) => l + '\n').join('')` for the same lines.
 */
export function spanLinesBytes(span: ContentSpan): Iterable<Buffer> {
  // Bytes held in one piece without a `\r` (most files) are passed on as they are.
  const held = span.bytes;
  if (held && held.length <= (span.chunkBytes ?? READ_BYTES) && !held.includes(CR)) {
    if (held.length === 0) return [];
    return held[held.length - 1] === LF ? [held] : [held, Buffer.of(LF)];
  }
  return linesFromDisk(span);
}

function* linesFromDisk(span: ContentSpan): Generator<Buffer> {
  // The last byte, not the piece: a shared read buffer holds other bytes by the end.
  let lastByte = LF;
  for (const buf of crlfToLf(span)) {
    lastByte = buf[buf.length - 1]!;
    yield buf;
  }
  if (lastByte !== LF) yield Buffer.of(LF);
}

/** The span's lines joined by `\n`, without a final one, as a JSON string's inside (no quotes). */
export function* spanJsonBytes(span: ContentSpan): Generator<Buffer> {
  let heldNewline = false;
  for (const buf of crlfToLf(span)) {
    const ends = buf[buf.length - 1] === LF;
    const body = (heldNewline ? '\n' : '') + buf.toString('latin1', 0, ends ? buf.length - 1 : buf.length);
    heldNewline = ends;
    // Bytes 0x80-0xFF are not escaped by JSON.stringify: the UTF-8 passes through unchanged.
    if (body) yield Buffer.from(JSON.stringify(body).slice(1, -1), 'latin1');
  }
}

/**
 * The span's lines, each after `prefix(lineNumber)` and ended by `\n`, in chunks of about
 * `chunkChars` bytes. A long line is never held whole.
 */
export function* spanPrefixedBytes(span: ContentSpan, firstLine: number, prefix: (n: number) => string, chunkChars: number): Generator<Buffer> {
  let n = firstLine;
  let atLineStart = true;
  let out = '';
  for (const buf of crlfToLf(span)) {
    const text = buf.toString('latin1');
    let i = 0;
    while (i < text.length) {
      if (atLineStart) out += prefix(n);
      const nl = text.indexOf('\n', i);
      if (nl === -1) {
        out += text.slice(i);
        atLineStart = false;
        break;
      }
      out += text.slice(i, nl + 1);
      atLineStart = true;
      n++;
      i = nl + 1;
      if (out.length >= chunkChars) {
        yield Buffer.from(out, 'latin1');
        out = '';
      }
    }
    if (out.length >= chunkChars) {
      yield Buffer.from(out, 'latin1');
      out = '';
    }
  }
  if (!atLineStart) out += '\n';
  if (out) yield Buffer.from(out, 'latin1');
}

/** Length of the longest run of backticks in the span (for the markdown fence). */
export function longestBacktickRun(span: ContentSpan): number {
  // Held bytes without three backticks in a row (most files): one search.
  if (span.bytes && span.bytes.length <= (span.chunkBytes ?? READ_BYTES) && !span.bytes.includes(TICKS)) {
    let k = span.bytes.length;
    while (k > 0 && span.bytes[k - 1] === TICK) k--;
    return span.bytes.length - k;
  }
  let longest = 0;
  let carry = 0; // backticks at the end of the previous chunk
  for (const buf of spanBytes(span)) {
    let i = 0;
    if (carry > 0) {
      while (i < buf.length && buf[i] === TICK) i++;
      if (i === buf.length) {
        carry += i;
        continue;
      }
      longest = Math.max(longest, carry + i);
      carry = 0;
    }
    for (;;) {
      const j = buf.indexOf(TICKS, i);
      if (j === -1) {
        let k = buf.length;
        while (k > i && buf[k - 1] === TICK) k--;
        carry = buf.length - k;
        break;
      }
      let k = j;
      while (k < buf.length && buf[k] === TICK) k++;
      if (k === buf.length) {
        carry = k - j;
        break;
      }
      longest = Math.max(longest, k - j);
      i = k;
    }
  }
  return Math.max(longest, carry);
}
