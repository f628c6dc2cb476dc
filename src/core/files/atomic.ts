import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface AtomicFileOptions {
  /** Permission bits of the new file (default: 0o666 less the umask, as for any new file). */
  mode?: number;
  /** fsync before the rename, so that a power cut cannot leave an empty file behind the new name. */
  durable?: boolean;
}

/**
 * A file written under a temporary name in the target's own folder and renamed over the target
 * when complete (SPEC 6 and 7.3). rename(2) is atomic within a file system, so a crash at any
 * moment leaves either the old target or the new one, never a mix; at worst a stray
 * `.<name>.refcat-*.tmp` file stays next to it.
 */
export class AtomicFile {
  readonly temp: string;
  private fd: number | null;
  bytes = 0;

  constructor(
    readonly target: string,
    private readonly opts: AtomicFileOptions = {},
  ) {
    const rand = crypto.randomBytes(6).toString('hex');
    this.temp = path.join(path.dirname(target), `.${path.basename(target)}.refcat-${rand}.tmp`);
    // 'wx': O_EXCL, so that two writers (or a symlink planted at the temp name) never share it.
    this.fd = fs.openSync(this.temp, 'wx', opts.mode ?? 0o666);
  }

  write(data: Buffer | string): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd!, buf, off, buf.length - off);
    this.bytes += buf.length;
  }

  /**
   * Finish and rename over the target. `beforeRename` runs between the complete temp file and the
   * rename: the window a crash test aims at.
   */
  commit(beforeRename?: (temp: string) => void): void {
    try {
      // The open mode is filtered by the umask; an explicit mode (kept from an old file) is not.
      if (this.opts.mode !== undefined) fs.fchmodSync(this.fd!, this.opts.mode);
      if (this.opts.durable) fs.fsyncSync(this.fd!);
      fs.closeSync(this.fd!);
      this.fd = null;
      beforeRename?.(this.temp);
      fs.renameSync(this.temp, this.target);
    } catch (err) {
      this.abort();
      throw err;
    }
  }

  /** Drop the temp file; the target is untouched. */
  abort(): void {
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already closed or never usable: nothing to release
      }
      this.fd = null;
    }
    fs.rmSync(this.temp, { force: true });
  }
}

/** Write `data` (or its blocks) to `target` atomically. */
export function writeFileAtomic(target: string, data: Buffer | string | Iterable<Buffer>, opts: AtomicFileOptions = {}): void {
  const file = new AtomicFile(target, opts);
  try {
    if (typeof data === 'string' || Buffer.isBuffer(data)) file.write(data);
    else for (const block of data) file.write(block);
  } catch (err) {
    file.abort();
    throw err;
  }
  file.commit();
}
