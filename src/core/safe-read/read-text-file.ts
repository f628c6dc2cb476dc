import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';

/**
 * Input files that anyone can change in a pull request (workflows, INCLUDEs, transcripts, docs,
 * alias files) are read whole, so each read is bounded: only regular files (a FIFO would block, a
 * device such as /dev/zero never ends), at most `maxBytes` (a sparse 2 GB file is refused by its
 * size before a byte is read; /proc files, whose size says 0, are cut off while reading), and
 * text only (a NUL byte or bytes that are not UTF-8 mean binary). docs/reference.md#reading-files
 */
export const MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024;

/** Why a file was refused; `code` is the machine code the callers report. */
export class TextFileError extends Error {
  constructor(
    readonly code: 'not_found' | 'is_directory' | 'not_regular' | 'too_large' | 'binary' | 'unreadable',
    /** What is wrong, after `Cannot read <file>: `: `no such file`, `is larger than 16 MiB`. */
    readonly problem: string,
  ) {
    super(problem);
  }
}

/**
 * The text of a UTF-8 file (a leading byte order mark dropped); with `bytes`, as byte text
 * (shared/byte-text.ts), for a caller that scans many files and decodes only the lines it needs.
 */
export function readTextFile(abs: string, maxBytes = MAX_TEXT_FILE_BYTES, options: { bytes?: boolean } = {}): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
    fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    throw fromErrno(err);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new TextFileError('is_directory', 'is a directory');
    if (!stat.isFile()) throw new TextFileError('not_regular', `is not a regular file (${kindOf(stat)})`);
    if (stat.size > maxBytes) throw tooLarge(maxBytes);
    const buf = readBounded(fd, maxBytes, stat.size);
    if (buf.includes(0) || !isUtf8(buf)) throw new TextFileError('binary', 'is a binary file');
    if (options.bytes) {
      const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
      return buf.toString('latin1', bom);
    }
    const text = buf.toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (err) {
    throw err instanceof TextFileError ? err : fromErrno(err);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reused for every file that fits, so reading a thousand docs allocates no buffer per doc. */
const SCRATCH_BYTES = 1 << 20;
let scratch: Buffer | undefined;

/**
 * Up to maxBytes; one byte more is an error (a /proc file reports size 0 and may be endless). A
 * file whose stat size fits in the scratch buffer is read into it (the caller decodes it before the
 * next read); new buffers were a garbage collection every few docs (their memory is outside the
 * heap, and each one counts towards the next collection).
 */
function readBounded(fd: number, maxBytes: number, size: number): Buffer {
  if (size < SCRATCH_BYTES && maxBytes >= SCRATCH_BYTES) {
    scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
    let total = 0;
    for (;;) {
      const wanted = SCRATCH_BYTES - total;
      const n = fs.readSync(fd, scratch, total, wanted, null);
      if (n === 0) return scratch.subarray(0, total);
      total += n;
      // A regular file read short exactly at its size is at its end (Linux): no read to learn it.
      // Never for a size of 0 (/proc files) or a file that grew since it was measured.
      if (n < wanted && size > 0 && total === size) return scratch.subarray(0, total);
      if (total === SCRATCH_BYTES) break; // grew while being read: read the rest in chunks
    }
    return readChunks(fd, maxBytes, [Buffer.from(scratch)], SCRATCH_BYTES);
  }
  return readChunks(fd, maxBytes, [], 0);
}

function readChunks(fd: number, maxBytes: number, chunks: Buffer[], total: number): Buffer {
  if (total > maxBytes) throw tooLarge(maxBytes);
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, maxBytes + 1 - total));
    const n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) throw tooLarge(maxBytes);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

function tooLarge(maxBytes: number): TextFileError {
  return new TextFileError('too_large', `is larger than ${maxBytes / 1024 / 1024} MiB`);
}

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

function fromErrno(err: unknown): TextFileError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new TextFileError('not_found', 'no such file');
  if (code === 'EISDIR') return new TextFileError('is_directory', 'is a directory');
  if (code === 'EACCES' || code === 'EPERM') return new TextFileError('unreadable', 'cannot be read: permission denied');
  return new TextFileError('unreadable', `cannot be read: ${code ?? (err as Error).message}`);
}
