import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context, ProcessInfo } from '../../shared/context.js';
import { FdError, UsageError } from '../../shared/errors.js';
import { undoOnInterrupt } from '../../shared/interrupt.js';
import { resolveFrom, sdqctlDir } from '../../shared/paths.js';
import { reclaimTemps, TEMP_RE, type TempReport, writeFileAtomic } from '../safe-write/atomic-file.js';
import { makeDirs } from '../safe-write/make-dirs.js';
import { DamagedEntryError, Entry, type EntryMeta, type EntryTotals, openEntry, parseEntryId, PendingEntry, readMeta, storeError } from './fd-entry.js';

export { type EntryMeta, type EntryTotals, parseEntryId, PendingEntry } from './fd-entry.js';

/** docs/reference.md#fd-and-ref: `--store DIR`, else `REFCAT_STORE`, else `~/.sdqctl/fd/` (`$SDQCTL_HOME/fd/`). */
export function storeLocation(ctx: Context, explicit?: string): string {
  if (explicit) return resolveFrom(ctx.cwd, explicit, ctx.home);
  if (ctx.env.REFCAT_STORE) return resolveFrom(ctx.cwd, ctx.env.REFCAT_STORE, ctx.home);
  return path.join(sdqctlDir(ctx), 'fd');
}

/** The file of a ref's folder naming its current version folder. */
const CURRENT = 'current';
const VERSION_RE = /^v-[0-9a-f]+$/;
/** A version folder no pointer names, older than this, was left by a crash or a lost race. */
const ORPHAN_AGE_MS = 10 * 60 * 1000;

/**
 * The on-disk store of fds and refs. Layout:
 *
 *   <dir>/<N>/                 meta.json, content, pages-<size>.idx for `fd:N` (`closed` once closed)
 *   <dir>/refs/<hash>/current  the name of the current version folder of `ref:ID`
 *   <dir>/refs/<hash>/v-<rand>/  meta.json, content, pages-<size>.idx of that version
 *
 * The ref folder name is a hash of the id, because ids (`..`, `a:b`) must never become paths. A
 * ref folder without `current` but with a meta.json is an entry of the older flat layout, still
 * read as it is and converted by the next scan of its id.
 *
 * An entry exists once its meta.json does: content and index are written first, each to a temp
 * file renamed into place, meta.json last, so a crash never leaves a half-written entry that
 * reads as complete. A ref stored again is written as a new version folder and switched to by
 * replacing `current` (temp file + rename), so a reader sees the old version or the new one,
 * never a folder being swapped. `fd:N` ids come from mkdir(2) of the entry folder, which fails
 * when the folder exists: two processes can never get the same N, and closing keeps the
 * (emptied) folder as a tombstone so that N is never handed out again.
 *
 * Unexpected file-system failures (a store that is a file, a full disk, no permission) become
 * RefcatError `store_error`, one line naming the store.
 */
export class Store {
  constructor(
    readonly dir: string,
    /** Who we are and who still runs: names temp files, and judges the ones left by killed writers. */
    private readonly proc?: ProcessInfo,
  ) {}

  static at(ctx: Context, explicit?: string): Store {
    return new Store(storeLocation(ctx, explicit), ctx.proc);
  }

  /** Reserve the next `fd:N` and return a writer for its content. */
  newFd(source: string): PendingEntry {
    return this.guard(() => {
      const base = this.dir;
      makeDirs(base);
      let n = 1 + Math.max(0, ...fs.readdirSync(base).filter((d) => /^\d+$/.test(d)).map(Number));
      for (;; n++) {
        const dir = path.join(base, String(n));
        const remove = () => fs.rmSync(dir, { recursive: true, force: true });
        const made = makeDirUndone(dir, remove);
        if (!made) continue;
        try {
          return new PendingEntry(`fd:${n}`, dir, source, remove, this.dir, this.proc?.pid);
        } catch (err) {
          remove();
          throw err;
        } finally {
          made.settled(); // the entry's own undo covers the folder from here
        }
      }
    });
  }

  /**
   * Store `ref:ID` (replacing an older one: a transcript scanned again wins). Written as a new
   * version folder, then `current` is switched to it in one rename; the replaced version is
   * removed afterwards (a reader that already opened it keeps reading it through its descriptors).
   */
  putRef(id: string, content: string, source: string, line: number, totals: EntryTotals): EntryMeta {
    return this.guard(() => {
      const dir = this.refDir(id);
      makeDirs(dir);
      const version = `v-${crypto.randomBytes(8).toString('hex')}`;
      const vdir = path.join(dir, version);
      const drop = () => fs.rmSync(vdir, { recursive: true, force: true });
      const made = makeDirUndone(vdir, drop);
      if (!made) throw new Error(`${vdir} exists`); // a random name: never in practice
      let pending: PendingEntry | undefined;
      let meta: EntryMeta;
      let replaced: string | null;
      try {
        pending = new PendingEntry(`ref:${id}`, vdir, source, drop, this.dir, this.proc?.pid);
        pending.write(Buffer.from(content));
        meta = pending.commit(totals, null, { line }).meta;
        pending = undefined;
        replaced = readPointer(dir);
        // Atomic, not durable, like every store file: the store holds copies (of stdin, of
        // transcripts) that a power cut may lose, never a user's only data, so no fsync is paid.
        writeFileAtomic(path.join(dir, CURRENT), version + '\n');
      } catch (err) {
        // Until `current` names it, the new version is nobody's: remove it whatever failed.
        pending?.abort();
        drop();
        throw err;
      } finally {
        made.settled(); // from here `current` names the version, or it is gone
      }
      pruneVersions(dir, version, replaced);
      return meta;
    });
  }

  /** Open an entry; FdError not_found for an unknown, closed or incomplete one. Call close() on it. */
  open(id: string): Entry {
    const parsed = parseEntryId(id);
    if (!parsed) throw new UsageError(`Not an fd or ref id: ${id} (expected fd:N or ref:ID)`, { code: 'invalid_fd' });
    return this.guard(() => {
      const name = parsed.kind === 'fd' ? `fd:${parsed.n}` : id;
      const what = parsed.kind === 'fd' ? `File descriptor ${name}` : `Reference ${name}`;
      const base = parsed.kind === 'fd' ? path.join(this.dir, String(parsed.n)) : this.refDir(parsed.ref);
      // A ref version can vanish between reading `current` and opening its files, when a new
      // scan replaces it right then: follow the pointer once more.
      for (let attempt = 1; ; attempt++) {
        const dir = parsed.kind === 'fd' ? base : refEntryDir(base);
        let entry: Entry | null;
        try {
          entry = openEntry(dir);
        } catch (err) {
          if (!(err instanceof DamagedEntryError)) throw err;
          throw new FdError('damaged', name, `${what} is damaged (${err.problem}); remove ${dir}`);
        }
        if (entry) return entry;
        if (parsed.kind === 'ref' && dir !== base && attempt < 2) continue;
        if (fs.existsSync(path.join(base, 'closed'))) throw new FdError('not_found', name, `${what} has been closed`);
        if (fs.existsSync(base) && parsed.kind === 'fd') {
          throw new FdError('incomplete', name, `${what} is incomplete (its writer was interrupted or is still running)`);
        }
        const hint = parsed.kind === 'ref' ? " (store refs with 'refcat ref scan FILE')" : '';
        throw new FdError('not_found', name, `${what} not found in ${this.dir}${hint}`);
      }
    });
  }

  /** Every complete entry: fds by number, then refs by id (damaged ones left out: see listAll). */
  list(): EntryMeta[] {
    return this.listAll().entries;
  }

  /** Every complete entry, and the folders of the entries that are damaged. */
  listAll(): { entries: EntryMeta[]; damaged: DamagedEntryError[]; temps: TempReport } {
    const damaged: DamagedEntryError[] = [];
    const entries = this.listEntries(damaged);
    return { entries, damaged, temps: this.reclaim() };
  }

  /**
   * Remove the content that killed `fd read`s left in unfinished entries (a Ctrl-C while storing
   * 500 MB of stdin), and tell how much is still being written by running ones.
   */
  private reclaim(): TempReport {
    const total: TempReport = { reclaimed: 0, inUse: 0 };
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return total;
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      const r = reclaimTemps(path.join(this.dir, name), this.proc);
      total.reclaimed += r.reclaimed;
      total.inUse += r.inUse;
    }
    return total;
  }

  private listEntries(damaged: DamagedEntryError[]): EntryMeta[] {
    return this.guard(() => {
      const read = (sub: string, pick: RegExp, entryDir: (dir: string) => string): EntryMeta[] => {
        let names: string[];
        try {
          names = fs.readdirSync(path.join(this.dir, sub));
        } catch (err) {
          // No store yet, or no refs in it: nothing stored. Anything else is a broken store.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw err;
        }
        const out: EntryMeta[] = [];
        for (const name of names) {
          if (!pick.test(name)) continue;
          try {
            out.push(readMeta(entryDir(path.join(this.dir, sub, name))));
          } catch (err) {
            if (err instanceof DamagedEntryError) damaged.push(err);
            // else closed, incomplete or being replaced: not an entry to show
          }
        }
        return out;
      };
      const fds = read('.', /^\d+$/, (d) => d).sort((a, b) => Number(a.id.slice(3)) - Number(b.id.slice(3)));
      const refs = read('refs', /^[0-9a-f]+$/, refEntryDir).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return [...fds, ...refs];
    });
  }

  /**
   * Close an entry: an fd keeps an empty folder with a `closed` marker (its N stays used). An
   * incomplete fd (its writer was killed) can be closed too, which frees its partial content.
   */
  close(id: string): void {
    let dir: string;
    try {
      const entry = this.open(id);
      entry.close();
      dir = entry.dir;
    } catch (err) {
      if (!(err instanceof FdError) || err.type !== 'incomplete') throw err;
      dir = path.join(this.dir, String(Number(id.slice(3))));
    }
    this.guard(() => {
      if (id.startsWith('ref:')) {
        fs.rmSync(this.refDir(id.slice(4)), { recursive: true, force: true });
        return;
      }
      fs.writeFileSync(path.join(dir, 'closed'), '');
      for (const f of fs.readdirSync(dir)) if (f !== 'closed') fs.rmSync(path.join(dir, f), { force: true });
    });
  }

  private refDir(id: string): string {
    return path.join(this.dir, 'refs', crypto.createHash('sha256').update(id).digest('hex').slice(0, 32));
  }

  private guard<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      throw storeError(err, this.dir);
    }
  }
}

/** The folder holding a ref's files: the version `current` names, or the folder itself (old layout). */
function refEntryDir(refDir: string): string {
  const version = readPointer(refDir);
  return version ? path.join(refDir, version) : refDir;
}

/** The version `current` names; null without one. A name that is not a version is never followed. */
function readPointer(refDir: string): string | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(refDir, CURRENT), 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return VERSION_RE.test(text) ? text : null;
}

/**
 * After switching to `mine`: remove the version it replaced, files of the old flat layout, and
 * versions no pointer has named for a while (left by a crash, or by two scans racing, where each
 * removes only what it replaced). Best effort: a failure leaves some disk used, nothing wrong.
 */
function pruneVersions(refDir: string, mine: string, replaced: string | null): void {
  let names: string[];
  try {
    names = fs.readdirSync(refDir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (name === mine || name === CURRENT) continue;
    try {
      const file = path.join(refDir, name);
      if (VERSION_RE.test(name)) {
        // Never the version in use: another scan may have switched to its own since.
        if (readPointer(refDir) === name) continue;
        if (name !== replaced && now - fs.statSync(file).mtimeMs < ORPHAN_AGE_MS) continue;
        fs.rmSync(file, { recursive: true, force: true });
      } else if (name === 'meta.json' || name === 'content' || /^pages-\d+\.idx$/.test(name)) {
        fs.rmSync(file, { force: true });
      } else if (TEMP_RE.test(name) && now - fs.statSync(file).mtimeMs >= ORPHAN_AGE_MS) {
        fs.rmSync(file, { force: true });
      }
    } catch {
      // gone already, or not ours to remove: leave it
    }
  }
}

/**
 * mkdir(2) `dir`, listening for an interrupt first, so that a Ctrl-C at any moment after the
 * folder exists runs `remove` (a signal that came before listening would end the process by the
 * default action, with the folder left behind). Null when `dir` exists (nothing is listened for
 * then); otherwise call `settled` once something else is responsible for the folder.
 */
function makeDirUndone(dir: string, remove: () => void): { settled: () => void } | null {
  let made = false;
  const settled = undoOnInterrupt(() => made && remove());
  try {
    fs.mkdirSync(dir);
    made = true;
    return { settled };
  } catch (err) {
    settled();
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw err;
  }
}
