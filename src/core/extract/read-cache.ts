import fs from 'node:fs';
import { LineReader } from './line-reader.js';

/** A file a LineReader reads in one piece anyway (extract.ts reads up to 64 KiB at once). */
export const MAX_CACHED_FILE_BYTES = 64 * 1024;
const MAX_CACHED_BYTES = 32 * 1024 * 1024;

/**
 * Small files read once for a whole command. `verify refs` checks thousands of refs that point
 * into a few hundred files; without this, every ref opened, read and closed its file again, and
 * looked for it in each search folder again (docs/reference.md#verify-refs).
 *
 * Only files of at most 64 KiB are held, which extract() would read in one piece: their verdicts
 * (binary, not UTF-8, the lines) are exactly a fresh read's. A file that cannot be held (larger,
 * not a regular file, unreadable) is read the usual way, and fails the usual way. For one command
 * over a snapshot of the files: a file changed during the run is seen as it was first read.
 */
export class ReadCache {
  private readonly files = new Map<string, HeldFile | null>();
  private readonly found = new Map<string, boolean>();
  private held = 0;

  constructor(private readonly maxBytes = MAX_CACHED_BYTES) {}

  /** Whether `abs` exists, asked of `probe` once per path. */
  exists(abs: string, probe: (abs: string) => boolean): boolean {
    let yes = this.found.get(abs);
    if (yes === undefined) this.found.set(abs, (yes = probe(abs)));
    return yes;
  }

  /** The lines of `abs` (decoded once), or null: read it the usual way. */
  file(abs: string): HeldFile | null {
    let file = this.files.get(abs);
    if (file === undefined) {
      const bytes = this.read(abs);
      file = bytes && linesOf(bytes);
      if (file) this.held += file.size;
      this.files.set(abs, file);
    }
    return file;
  }

  private read(abs: string): Buffer | null {
    if (this.held >= this.maxBytes) return null;
    let fd: number;
    try {
      fd = fs.openSync(abs, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    } catch {
      return null;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || stat.size > MAX_CACHED_FILE_BYTES || this.held + stat.size > this.maxBytes) return null;
      // One byte more than its size: a file that grew since fstat is not held.
      const buf = Buffer.allocUnsafe(stat.size + 1);
      let n = 0;
      for (let got = -1; got !== 0 && n < buf.length; n += got) got = fs.readSync(fd, buf, n, buf.length - n, null);
      return n === stat.size ? buf.subarray(0, n) : null;
    } catch {
      return null;
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** A file held by a ReadCache: its lines as a LineReader gives them, and its size in bytes. */
export interface HeldFile {
  lines: string[];
  size: number;
}

/** Binary or not UTF-8: not held, so the usual read says so. */
function linesOf(bytes: Buffer): HeldFile | null {
  try {
    return { lines: LineReader.linesOf(bytes), size: bytes.length };
  } catch {
    return null;
  }
}
