import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { RefcatError, UsageError } from '../../shared/errors.js';
import { gitDirectoryMadeBy, gitDirectoryOf } from '../../shared/git-directory.js';
import { expandHome, shownPath } from '../../shared/paths.js';
import { PatternBudget, PatternTimeout } from '../regex/pattern-search.js';
import { AtomicFile, reclaimTemps, TargetExistsError } from './atomic-file.js';
import { makeDirs } from './make-dirs.js';
import { acquireLock } from './write-lock.js';

import type { WriteMode } from './write-mode.js';
import { lineStarts } from '../../shared/line-starts.js';
import { lineEndOf } from './line-end.js';

export { WRITE_MODES, type WriteMode } from './write-mode.js';

/**
 * Where the bytes of what is written live: in memory, or in a file read by positioned reads
 * (paging/byte-source.ts makes both). Declared here, where it is read, so that the writer needs
 * nothing of the pages it writes.
 */
export interface ByteSource {
  readonly size: number;
  bytes(start: number, end: number): Buffer;
  /** The text of [start, end) in blocks; `start` and `end` must be on character boundaries. */
  text(start: number, end: number): Iterable<string>;
  close(): void;
}

export interface SafeWriteOptions {
  /** The target as the user wrote it (relative to ctx.cwd). */
  to: string;
  mode: WriteMode;
  /** insert: before this line (lines + 1 appends). */
  line?: number;
  /** insert: after the first line matching this. */
  after?: RegExp;
  /** The CPU-time budget for `after` (default: a budget of its own). */
  patternBudget?: PatternBudget;
  /** write: replace an existing file. */
  force?: boolean;
  /** The folder targets must stay in (default: ctx.cwd). */
  root?: string;
  allowOutside?: boolean;
}

export interface SafeWriteHooks {
  /** Runs when the complete temp file exists and the rename has not happened (crash tests). */
  beforeRename?: (temp: string) => void;
  /** Runs after each block of content is written, before the next (interrupt tests pause here). */
  afterBlock?: () => Promise<void>;
  /** How long to wait for another refcat's lock on the target (default 5 s; tests shorten it). */
  lockWaitMs?: number;
}

export interface SafeWriteResult {
  /** The file written (symlinks resolved). */
  path: string;
  mode: WriteMode;
  /** The target did not exist before. */
  created: boolean;
  /** Bytes of content written (not counting the file's old bytes). */
  bytes: number;
}

const BLOCK = 1 << 20;

/**
 * Write content to a user's file without ever losing data (docs/reference.md#writing-files-ref-export-and-fd-write), for `ref export` and
 * `fd write` alike:
 * - `write` refuses an existing file unless `force`; `append` adds at the end; `insert` goes before
 *   line N or after the first line matching a pattern. A missing target counts as empty for append
 *   and insert.
 * - append and insert keep lines whole: a newline is added after content that lacks one, and
 *   before it when the old text does not end with one.
 * - The new file is written in full to a temp file in the target's folder, fsynced, given the old
 *   file's permission bits, and published: a crash leaves the old file or the new. A new file is
 *   published with link(2), which fails if the name was taken meanwhile (never check-then-rename);
 *   a replacement is renamed over the old file.
 * - append, insert and `write --force` read (or replace) the old file under an advisory lock
 *   (lock.ts) so that two refcats writing the same file never lose an update.
 * - Only regular files are written: a FIFO, socket or device target is refused, never opened.
 * - The target must resolve, symlinks followed, inside `root` (default: the working directory)
 *   unless `allowOutside`: `../x` and a symlink that leads out are refused. A symlink inside the
 *   root is kept and its target file updated. Missing parent folders are created.
 */
export async function safeWrite(content: ByteSource, opts: SafeWriteOptions, ctx: Context, hooks: SafeWriteHooks = {}): Promise<SafeWriteResult> {
  if (opts.mode === 'insert' && (opts.line === undefined) === (opts.after === undefined)) {
    throw new UsageError('--mode insert needs exactly one of --line N and --after /regex/');
  }
  if (namesFolder(opts.to)) throw folderError(opts.to);
  const target = resolveTarget(opts, ctx);
  refuseGitDirectory(target, opts.to, ctx.cwd);
  const old = statOrNull(target, opts.to);
  checkKind(old, opts.to);
  if (opts.mode === 'write' && old && !opts.force) throw existsError(opts.to);

  try {
    makeDirs(path.dirname(target));
    reclaimTemps(path.dirname(target), ctx.proc);
    // A plain write never replaces anything (link(2) refuses), so it needs no lock.
    const locked = opts.mode !== 'write' || opts.force === true;
    const release = locked ? acquireLock(target, { proc: ctx.proc, waitMs: hooks.lockWaitMs, shown: opts.to }) : null;
    try {
      return await writeTarget(content, target, opts, hooks, ctx);
    } finally {
      release?.();
    }
  } catch (err) {
    if (err instanceof RefcatError) throw err;
    throw writeError(err, opts.to);
  }
}

/** The read-modify-write itself; for append and insert the caller holds the lock. */
async function writeTarget(content: ByteSource, target: string, opts: SafeWriteOptions, hooks: SafeWriteHooks, ctx: Context): Promise<SafeWriteResult> {
  const pid = ctx.proc?.pid;
  // Read again now that we hold the lock: another refcat may have changed the file while we waited.
  const old: { stat: fs.Stats; buf?: Buffer } | null = opts.mode === 'write' ? statRegular(target, opts.to) : readRegular(target, opts.to);
  const before = old?.buf ?? Buffer.alloc(0);
  const at = opts.mode === 'insert' ? insertOffset(before, opts) : before.length;
  // Lines kept whole with the endings they are written with: the file's own, else the content's.
  const oldEnd = lineEndOf(before);
  const newEnd = content.size > 0 ? lineEndOf(content.bytes(0, Math.min(content.size, BLOCK))) : null;
  const lead = at > 0 && before[at - 1] !== 0x0a ? (oldEnd ?? newEnd ?? '\n') : '';
  const trail = opts.mode !== 'write' && content.size > 0 && !endsWithNewline(content) ? (newEnd ?? oldEnd ?? '\n') : '';

  // Publish without replacing when there was no old file (a file someone created meanwhile is
  // never lost) and always for a plain write, whatever the stats saw: only --force replaces.
  const noReplace = !old || (opts.mode === 'write' && !opts.force);
  const file = new AtomicFile(target, { mode: old ? old.stat.mode & 0o7777 : undefined, durable: true, noReplace, pid });
  try {
    file.write(before.subarray(0, at));
    file.write(lead);
    for (let off = 0; off < content.size; off += BLOCK) {
      file.write(content.bytes(off, Math.min(content.size, off + BLOCK)));
      // Let a Ctrl-C in: its handler removes the temp file and the lock (src/shared/interrupt.ts).
      if (off + BLOCK < content.size) await (hooks.afterBlock ?? yieldToEvents)();
    }
    file.write(trail);
    file.write(before.subarray(at));
  } catch (err) {
    file.abort();
    throw err;
  }
  try {
    // Judged again with nothing awaited before the file takes its name: another call of this
    // process may have added a piece of a git directory while this one's blocks were written.
    refuseGitDirectory(target, opts.to, ctx.cwd);
  } catch (err) {
    file.abort();
    throw err;
  }
  try {
    file.commit(hooks.beforeRename);
  } catch (err) {
    if (!(err instanceof TargetExistsError)) throw err;
    if (opts.mode === 'write' && !opts.force) throw existsError(opts.to);
    throw new RefcatError(`${opts.to} was created by another program while refcat was writing it; nothing written (run again)`, { code: 'exists' });
  }
  return { path: target, mode: opts.mode, created: !old, bytes: content.size + trail.length };
}

function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function existsError(shown: string): RefcatError {
  return new RefcatError(`${shown} exists (use --force to overwrite)`, { code: 'exists' });
}

/** `dir/`, `dir/.`: the user named a folder, whether or not it exists yet. */
function namesFolder(to: string): boolean {
  const base = path.basename(to);
  return to.endsWith('/') || to.endsWith(path.sep) || base === '.' || base === '..';
}

function folderError(shown: string): UsageError {
  return new UsageError(`--to names a folder (${shown}); give a file path`, { code: 'is_directory' });
}

/**
 * Only regular files are targets: writing "to" a FIFO or a device means something else entirely,
 * and opening a FIFO would block until a reader came.
 */
function checkKind(st: fs.Stats | null, shown: string): void {
  if (!st || st.isFile()) return;
  if (st.isDirectory()) throw folderError(shown);
  const kind = st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : 'not a file';
  throw new RefcatError(`${shown} is not a regular file (${kind}); refcat only writes regular files`, { code: 'not_regular' });
}

function statRegular(target: string, shown: string): { stat: fs.Stats } | null {
  const stat = statOrNull(target, shown);
  checkKind(stat, shown);
  return stat ? { stat } : null;
}

/**
 * The old file's bytes and stat, or null if there is none. Opened with O_NONBLOCK and checked on
 * the open descriptor: a FIFO put there since the first check is refused, not waited on.
 */
function readRegular(target: string, shown: string): { stat: fs.Stats; buf: Buffer } | null {
  let fd: number;
  try {
    fd = fs.openSync(target, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw folderError(shown);
    throw err;
  }
  try {
    const stat = fs.fstatSync(fd);
    checkKind(stat, shown);
    return { stat, buf: fs.readFileSync(fd) };
  } finally {
    fs.closeSync(fd);
  }
}

/** The file to write, symlinks resolved, checked against the root. */
function resolveTarget(opts: SafeWriteOptions, ctx: Context): string {
  const root = path.resolve(ctx.cwd, opts.root ?? '.');
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    throw new UsageError(`--root: no such folder: ${root}`);
  }
  if (opts.to.trim() === '') throw new UsageError('--to needs a file path', { code: 'usage' });
  const abs = path.resolve(ctx.cwd, expandHome(opts.to, ctx.home));
  const hint = '(use --allow-outside to write there anyway)';
  if (!opts.allowOutside && !inside(root, abs)) {
    throw new UsageError(`${opts.to} is outside ${root} ${hint}`, { code: 'outside_root' });
  }
  const real = realTarget(abs, opts.to);
  if (!opts.allowOutside && !inside(realRoot, real.path)) {
    throw new UsageError(`${opts.to} leads outside ${root} through a symlink ${hint}`, { code: 'outside_root' });
  }
  if (real.dangling) throw new RefcatError(`${opts.to} is a symlink to a missing file`, { code: 'dangling_symlink' });
  return real.path;
}

/**
 * No write goes into a git directory, or makes one (docs/fd-and-ref.md#git-directories): git runs
 * what a git directory's config and hooks name, so a file written there, or the last piece of one
 * assembled under another name (`vendor/lib/HEAD`, `config`, `objects/`, `refs/`), is a command
 * run at the next `git status`. Judged by the real path; no flag lifts it.
 */
function refuseGitDirectory(target: string, shown: string, cwd: string): void {
  const inside = gitDirectoryOf(target, null);
  if (inside !== null) {
    const what = path.basename(inside).toLowerCase() === '.git' ? 'a .git folder' : `the git directory ${shownPath(cwd, inside)}`;
    throw new UsageError(`Refused: ${shown} is inside ${what} (git runs what its config and hooks name)`, { code: 'git_directory' });
  }
  const made = gitDirectoryMadeBy(target);
  if (made !== null) {
    const dir = shownPath(cwd, made.dir);
    throw new UsageError(`Refused: ${shown} would make ${dir} a git directory (${made.marks}: git would run what ${dir}/config names)`, {
      code: 'git_directory',
    });
  }
}

/** `p` strictly below `dir` (the root itself is no file to write). */
function inside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel);
}

/** `abs` with every symlink resolved; for a path that does not exist yet, its nearest existing folder's. */
function realTarget(abs: string, shown: string): { path: string; dangling: boolean } {
  try {
    return { path: fs.realpathSync(abs), dangling: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw writeError(err, shown);
  }
  // lstat finds something: a symlink to a missing file, or a file created since realpath (a race,
  // which the write itself settles: only the symlink case is decided here).
  if (statOrNull(abs, shown, true)?.isSymbolicLink()) {
    // A symlink to a missing file is refused, but where it points decides which refusal: one that
    // leads outside the root is reported as such, like a symlink to an existing file outside.
    // (A symlink loop fails realpath with ELOOP above, so this recursion ends.)
    let link: string;
    try {
      link = fs.readlinkSync(abs);
    } catch (err) {
      throw writeError(err, shown);
    }
    const dest = realTarget(path.resolve(path.dirname(abs), link), shown);
    return { path: dest.path, dangling: true };
  }
  const rest = [path.basename(abs)];
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    try {
      return { path: path.join(fs.realpathSync(dir), ...rest), dangling: false };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dir === path.dirname(dir)) throw writeError(err, shown);
      rest.unshift(path.basename(dir));
    }
  }
}

function statOrNull(p: string, shown: string, link = false): fs.Stats | null {
  try {
    return link ? fs.lstatSync(p) : fs.statSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw writeError(err, shown);
  }
}

function writeError(err: unknown, shown: string): RefcatError {
  return new RefcatError(`Cannot write ${shown}: ${(err as Error).message}`, { code: 'write_failed' });
}

function endsWithNewline(content: ByteSource): boolean {
  return content.bytes(content.size - 1, content.size)[0] === 0x0a;
}

/** Byte offset where inserted content goes: before line `line`, or after the first line matching `after`. */
function insertOffset(old: Buffer, opts: SafeWriteOptions): number {
  const starts = lineStarts(old);
  const lines = starts.length;
  if (opts.line !== undefined) {
    if (opts.line > lines + 1) {
      throw new RefcatError(`--line ${opts.line} is past the end of ${opts.to} (${lines} line${lines === 1 ? '' : 's'}; use 1-${lines + 1})`, {
        code: 'line_out_of_range',
      });
    }
    return opts.line === lines + 1 ? old.length : starts[opts.line - 1]!;
  }
  const re = opts.after!;
  re.lastIndex = 0;
  const texts: string[] = [];
  for (let i = 0; i < lines; i++) {
    const end = i + 1 < lines ? starts[i + 1]! : old.length;
    texts.push(old.toString('utf8', starts[i], end).replace(/\r?\n$/, ''));
  }
  // `--after` is a user's regex like any other: the same CPU-time budget stops a catastrophic one.
  const budget = opts.patternBudget ?? new PatternBudget();
  let found: number;
  try {
    found = budget.search(re, texts);
  } catch (err) {
    if (!(err instanceof PatternTimeout)) throw err;
    throw new RefcatError(`Pattern /${re.source}/ timed out after ${(budget.totalMs / 1000).toFixed(1)} s of CPU time in ${opts.to}`, {
      code: 'pattern_timeout',
    });
  }
  if (found !== -1) return found + 1 < lines ? starts[found + 1]! : old.length;
  throw new RefcatError(`Pattern /${re.source}/ not found in ${opts.to}`, { code: 'pattern_not_found' });
}
