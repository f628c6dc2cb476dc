import { lazyRequire } from '../../shared/lazy.js';
import fs from 'node:fs';
import path from 'node:path';
import type { ProcessInfo } from '../../shared/context.js';
import { undoOnInterrupt } from '../../shared/interrupt.js';
import { writeAll } from '../../shared/write-all.js';

/** Loaded on first use: node:crypto is a few ms of start-up for every command that links this file. */
const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

export interface AtomicFileOptions {
  /** Permission bits of the new file (default: 0o666 less the umask, as for any new file). */
  mode?: number;
  /** fsync before publishing, so that a power cut cannot leave an empty file behind the new name. */
  durable?: boolean;
  /**
   * Never replace an existing target: publish with link(2), which fails when the name exists,
   * instead of rename(2), which silently replaces it. commit() then throws TargetExistsError.
   */
  noReplace?: boolean;
  /** The writer's pid, put in the temp file's name (see reclaimTemps). */
  pid?: number;
}

/** commit() with `noReplace` found the target name taken; the temp file is gone, the target untouched. */
export class TargetExistsError extends Error {
  readonly code = 'EEXIST';
  constructor(readonly target: string) {
    super(`${target} exists`);
    this.name = 'TargetExistsError';
  }
}

/** The stray-temp-file name pattern, for tests and for a reader cleaning up after a crash. */
export const TEMP_RE = /^\.refcat-(\d+)-[0-9a-f]{12}\.tmp$/;

/**
 * A temp name in `dir`. Short and fixed-length whatever the target's name (a 255-byte name plus a
 * suffix would pass NAME_MAX), and recognizable as refcat's by anyone who finds a stray one.
 */
/**
 * `.refcat-<pid>-<random>.tmp`: the writer's pid is in the name, so that a temp file left by a
 * killed refcat can be told from one being written right now (reclaimTemps).
 */
export function tempName(dir: string, pid = 0): string {
  return path.join(dir, `.refcat-${pid}-${crypto().randomBytes(6).toString('hex')}.tmp`);
}


/** What reclaimTemps found in a folder. */
export interface TempReport {
  /** Bytes of temp files removed: their writer is gone. */
  reclaimed: number;
  /** Bytes of temp files whose writer still runs (or cannot be judged): left alone. */
  inUse: number;
}

/**
 * Remove the temp files in `dir` that refcat processes left when they were killed mid-write (a
 * Ctrl-C during a 500 MB write). A file is removed only when its name carries the pid of a process
 * that no longer runs; without `proc` (who runs) nothing is removed.
 */
export function reclaimTemps(dir: string, proc: ProcessInfo | undefined): TempReport {
  const report: TempReport = { reclaimed: 0, inUse: 0 };
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return report;
  }
  for (const name of names) {
    const m = TEMP_RE.exec(name);
    if (!m) continue;
    const file = path.join(dir, name);
    let size: number;
    try {
      size = fs.lstatSync(file).size;
    } catch {
      continue;
    }
    const pid = Number(m[1]);
    if (proc && pid !== 0 && pid !== proc.pid && !proc.isAlive(pid)) {
      try {
        fs.unlinkSync(file);
        report.reclaimed += size;
        continue;
      } catch {
        // gone meanwhile, or not ours to remove: counted as in use
      }
    }
    report.inUse += size;
  }
  return report;
}

/** Errors meaning "this file system has no hard links" (FAT, some FUSE and network mounts). */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * A file written under a temporary name in the target's own folder and published under the
 * target's name when complete (docs/reference.md#fd-and-ref and 7.3). rename(2) and link(2) are atomic within a file
 * system, so a crash at any moment leaves either the old target or the new one, never a mix; at
 * worst a stray `.refcat-*.tmp` file stays next to it.
 */
export class AtomicFile {
  readonly temp: string;
  private fd: number | null = null;
  /** Forget the interrupt undo once the temp file is published or removed. */
  private readonly settled: () => void;
  bytes = 0;

  constructor(
    readonly target: string,
    private readonly opts: AtomicFileOptions = {},
  ) {
    this.temp = tempName(path.dirname(target), opts.pid);
    // Listen before the temp file exists: a Ctrl-C between creating it and listening would end the
    // process by the default action and leave it behind. (The undo runs from the event loop, so it
    // never sees the open below half done.)
    this.settled = undoOnInterrupt(() => this.abort());
    try {
      // 'wx': O_EXCL, so that two writers (or a symlink planted at the temp name) never share it.
      this.fd = fs.openSync(this.temp, 'wx', opts.mode ?? 0o666);
    } catch (err) {
      this.settled();
      throw err;
    }
  }

  write(data: Buffer | string): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    writeAll(this.fd!, buf);
    this.bytes += buf.length;
  }

  /**
   * Finish and publish under the target's name. `beforeRename` runs between the complete temp
   * file and the publishing step: the window a crash test aims at.
   */
  commit(beforeRename?: (temp: string) => void): void {
    try {
      // The open mode is filtered by the umask; an explicit mode (kept from an old file) is not.
      if (this.opts.mode !== undefined) fs.fchmodSync(this.fd!, this.opts.mode);
      // Before the rename, not after: otherwise a power cut can leave the new name on an empty file.
      if (this.opts.durable) fs.fsyncSync(this.fd!);
      fs.closeSync(this.fd!);
      this.fd = null;
      beforeRename?.(this.temp);
      if (this.opts.noReplace) this.publishNew();
      else fs.renameSync(this.temp, this.target);
    } catch (err) {
      this.abort();
      throw err;
    }
    this.settled();
    if (this.opts.durable) fsyncDir(path.dirname(this.target));
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
    this.settled();
  }

  /**
   * Publish without replacing. Checking for the target and then renaming would let a file created
   * in between be overwritten; link(2) checks and creates in one step.
   */
  private publishNew(): void {
    try {
      fs.linkSync(this.temp, this.target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'EEXIST') throw new TargetExistsError(this.target);
      if (!NO_LINKS.has(code)) throw err;
      this.copyExclusive();
    }
    // The target now holds the content under its own name; the temp name is just a second link.
    fs.rmSync(this.temp, { force: true });
  }

  /**
   * Without hard links, O_EXCL still refuses an existing target. The copy is not atomic: a crash
   * in the middle leaves a partial new file (never a damaged old one, as there was none); a
   * failure without a crash removes it.
   */
  private copyExclusive(): void {
    let out: number;
    try {
      out = fs.openSync(this.target, 'wx', this.opts.mode ?? 0o666);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new TargetExistsError(this.target);
      throw err;
    }
    try {
      if (this.opts.mode !== undefined) fs.fchmodSync(out, this.opts.mode);
      // Through our own descriptor: the name could be swapped for something else after the open.
      const buf = Buffer.allocUnsafe(1 << 20);
      const from = fs.openSync(this.temp, 'r');
      try {
        for (let n; (n = fs.readSync(from, buf, 0, buf.length, null)) > 0; ) {
          writeAll(out, buf.subarray(0, n));
        }
      } finally {
        fs.closeSync(from);
      }
      if (this.opts.durable) fs.fsyncSync(out);
    } catch (err) {
      fs.closeSync(out);
      fs.rmSync(this.target, { force: true });
      throw err;
    }
    fs.closeSync(out);
  }
}

/**
 * fsync a folder so that a rename or link in it survives a power cut. Best effort: some platforms
 * (Windows: EISDIR/EPERM) and file systems cannot open or sync folders, and the data itself is
 * already synced, so a failure here is no reason to report the write as failed.
 */
export function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // not supported here: the rename is done, only its durability is not guaranteed
  } finally {
    if (fd !== null) fs.closeSync(fd);
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
