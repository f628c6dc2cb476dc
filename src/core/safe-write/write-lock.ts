import { lazyRequire } from '../../shared/lazy.js';
import fs from 'node:fs';
import path from 'node:path';
import type { ProcessInfo } from '../../shared/context.js';
import { RefcatError } from '../../shared/errors.js';
import { undoOnInterrupt } from '../../shared/interrupt.js';
import { tempName } from './atomic-file.js';

/** Loaded on first use: node:crypto is a few ms of start-up for every command that links this file. */
const crypto = lazyRequire<typeof import('node:crypto')>('node:crypto');

export interface LockOptions {
  /** Who we are and who still runs; without it locks are never judged stale. */
  proc?: ProcessInfo;
  /** How long to wait for another writer before giving up (default 5 s). */
  waitMs?: number;
  /** The target as the user wrote it, for messages. */
  shown: string;
}

const DEFAULT_WAIT_MS = 5000;
const NAME_MAX = 255;
const LOCK_RE = /^(\d+) ([0-9a-f]+)\n$/;

/**
 * The lock file of `target`: `<name>.refcat-lock` beside it, or, when that would pass NAME_MAX, a
 * name made from a hash of the target's name (still the same for every writer of that target).
 */
export function lockPathFor(target: string): string {
  const base = path.basename(target);
  const plain = `${base}.refcat-lock`;
  if (Buffer.byteLength(plain) <= NAME_MAX) return path.join(path.dirname(target), plain);
  return path.join(path.dirname(target), `.${crypto().createHash('sha256').update(base).digest('hex').slice(0, 32)}.refcat-lock`);
}

/**
 * Take the advisory lock of `target` for a read-modify-write (append, insert, --force) and return
 * the function that releases it. Only refcat writers take it: it keeps two refcats from losing
 * each other's update, not an editor or a shell redirect.
 *
 * The lock is a file created with O_EXCL holding `<pid> <token>`. A busy lock is waited for with a
 * short backoff; a lock whose pid no longer runs (its writer crashed) is taken over. Waiting
 * longer than `waitMs` is an error naming the lock file.
 */
export function acquireLock(target: string, opts: LockOptions): () => void {
  const file = lockPathFor(target);
  const mine = `${opts.proc?.pid ?? 0} ${crypto().randomBytes(8).toString('hex')}\n`;
  const deadline = Date.now() + (opts.waitMs ?? DEFAULT_WAIT_MS);
  let delay = 2;
  // Listen before the lock can exist: a Ctrl-C that came between creating it and listening would
  // end the process by the default action and leave the lock behind (release checks it is ours).
  const settled = undoOnInterrupt(() => release(file, mine));
  try {
    while (!tryCreate(file, mine)) delay = waitOrTakeOver(file, opts, deadline, delay);
  } catch (err) {
    settled();
    throw err;
  }
  return () => {
    settled();
    release(file, mine);
  };
}

/** One turn of waiting for a busy lock (or taking over a stale one); the next backoff delay. */
function waitOrTakeOver(file: string, opts: LockOptions, deadline: number, delay: number): number {
  const held = readOrNull(file);
  if (held === null) return delay; // released between our attempt and the read: try again at once
  const owner = LOCK_RE.exec(held);
  const pid = owner ? Number(owner[1]) : 0;
  // pid 0: written without ProcessInfo, or unreadable: nobody can tell whether it is stale.
  // Our own pid: this process takes and releases its locks synchronously, so a lock bearing our
  // pid was left by a crashed run that had the same pid (containers restart at the same pids).
  if (pid !== 0 && opts.proc && (pid === opts.proc.pid || !opts.proc.isAlive(pid))) {
    takeOver(file, held);
    return delay;
  }
  if (Date.now() >= deadline) {
    const who = pid !== 0 ? ` (pid ${pid})` : '';
    throw new RefcatError(`${opts.shown} is being written by another refcat${who}; try again, or remove ${file} if no refcat is running`, {
      code: 'locked',
    });
  }
  sleep(delay);
  return Math.min(delay * 2, 100);
}

/** Create the lock with its content; false when it exists. */
function tryCreate(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fs.writeSync(fd, content);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  return true;
}

/**
 * Remove our lock, and only ours: if a waiter wrongly took it over (it judged us dead), its lock
 * is not ours to remove.
 */
function release(file: string, mine: string): void {
  try {
    if (fs.readFileSync(file, 'utf8') === mine) fs.rmSync(file, { force: true });
  } catch {
    // already gone: nothing to release
  }
}

/**
 * Remove a stale lock. Two waiters may judge the same lock stale; deleting it by name could then
 * delete the fresh lock the faster one just made. So the lock is first renamed aside (only one
 * rename of it succeeds) and checked to be the stale one; a fresh lock moved by mistake is put back.
 */
function takeOver(file: string, stale: string): void {
  const aside = tempName(path.dirname(file));
  try {
    fs.renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if (readOrNull(aside) !== stale) {
      try {
        fs.linkSync(aside, file);
      } catch {
        // A third writer locked meanwhile (EEXIST): it holds the lock now.
      }
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** A synchronous pause: safeWrite is synchronous, and the wait is short and bounded. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
