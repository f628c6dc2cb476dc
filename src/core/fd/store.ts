import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { FdError, UsageError } from '../../shared/errors.js';
import { resolveFrom, sdqctlDir } from '../../shared/paths.js';
import { AtomicFile, writeFileAtomic } from '../files/atomic.js';
import { FileSource, scanFile } from './bytes.js';
import { type PageLookup, PageFile, type PageTable } from './page-table.js';

/** What the store knows about one entry (meta.json). */
export interface EntryMeta {
  version: 1;
  /** `fd:N` or `ref:ID`. */
  id: string;
  /** ISO time of creation. */
  created: string;
  /** Where the content came from: `stdin`, a path, a ref spec, a transcript. */
  source: string;
  bytes: number;
  chars: number;
  lines: number;
  /** ref entries: the line of the opening `<ref>` tag in the transcript. */
  line?: number;
}

export type EntryTotals = Pick<EntryMeta, 'bytes' | 'chars' | 'lines'>;

const FD_RE = /^fd:(\d+)$/;
export const REF_ID_RE = /^[A-Za-z0-9_.:-]+$/;

/** SPEC 6: `--store DIR`, else `REFCAT_STORE`, else `~/.sdqctl/fd/` (`$SDQCTL_HOME/fd/`). */
export function storeLocation(ctx: Context, explicit?: string): string {
  if (explicit) return resolveFrom(ctx.cwd, explicit, ctx.home);
  if (ctx.env.REFCAT_STORE) return resolveFrom(ctx.cwd, ctx.env.REFCAT_STORE, ctx.home);
  return path.join(sdqctlDir(ctx), 'fd');
}

/** `fd:N` / `ref:ID` as typed; anything else that starts with one of those prefixes is a usage error. */
export function parseEntryId(id: string): { kind: 'fd'; n: number } | { kind: 'ref'; ref: string } | null {
  if (id.startsWith('fd:')) {
    const m = FD_RE.exec(id);
    if (!m || Number(m[1]) === 0 || !Number.isSafeInteger(Number(m[1]))) {
      throw new UsageError(`Invalid fd id: ${id} (expected fd:N, N a whole number > 0)`, { code: 'invalid_fd' });
    }
    return { kind: 'fd', n: Number(m[1]) };
  }
  if (id.startsWith('ref:')) {
    const ref = id.slice(4);
    if (!REF_ID_RE.test(ref)) throw new UsageError(`Invalid ref id: ${ref} (ids are made of A-Z a-z 0-9 _ . : -)`, { code: 'invalid_ref_id' });
    return { kind: 'ref', ref };
  }
  return null;
}

/**
 * The on-disk store of fds and refs. Layout:
 *
 *   <dir>/<N>/          meta.json, content, pages-<size>.idx for `fd:N` (`closed` once closed)
 *   <dir>/refs/<hash>/  the same for `ref:ID`; the folder name is a hash of the id, because ids
 *                      (`..`, `a:b`) must never become paths
 *
 * An entry exists once its meta.json does: content and index are written first, each to a temp
 * file renamed into place, meta.json last, so a crash never leaves a half-written entry that
 * reads as complete. `fd:N` ids come from mkdir(2) of the entry folder, which fails when the
 * folder exists: two processes can never get the same N, and closing keeps the (emptied) folder
 * as a tombstone so that N is never handed out again.
 */
export class Store {
  constructor(readonly dir: string) {}

  static at(ctx: Context, explicit?: string): Store {
    return new Store(storeLocation(ctx, explicit));
  }

  /** Reserve the next `fd:N` and return a writer for its content. */
  newFd(source: string): PendingEntry {
    const base = this.dir;
    fs.mkdirSync(base, { recursive: true });
    let n = 1 + Math.max(0, ...fs.readdirSync(base).filter((d) => /^\d+$/.test(d)).map(Number));
    for (;;) {
      const dir = path.join(base, String(n));
      try {
        fs.mkdirSync(dir);
        return new PendingEntry(`fd:${n}`, dir, source, () => fs.rmSync(dir, { recursive: true, force: true }));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        n++;
      }
    }
  }

  /**
   * Store `ref:ID` (replacing an older one: a transcript scanned again wins). Built in a temp
   * folder and swapped in with renames.
   */
  putRef(id: string, content: string, source: string, line: number, totals: EntryTotals): EntryMeta {
    const base = path.join(this.dir, 'refs');
    fs.mkdirSync(base, { recursive: true });
    const tmp = fs.mkdtempSync(path.join(base, '.new-'));
    const pending = new PendingEntry(`ref:${id}`, tmp, source, () => fs.rmSync(tmp, { recursive: true, force: true }));
    pending.write(Buffer.from(content));
    const entry = pending.commit(totals, null, { line });
    const final = this.refDir(id);
    // Swap the new folder in; a concurrent scan of the same id may slip its own in between: retry.
    for (let attempt = 1; ; attempt++) {
      const old = path.join(base, `.old-${crypto.randomBytes(6).toString('hex')}`);
      try {
        fs.renameSync(final, old);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      try {
        fs.renameSync(tmp, final);
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if ((code !== 'ENOTEMPTY' && code !== 'EEXIST') || attempt === 5) throw err;
      } finally {
        fs.rmSync(old, { recursive: true, force: true });
      }
    }
    return entry.meta;
  }

  /** Open an entry; FdError not_found for an unknown, closed or incomplete one. */
  open(id: string): Entry {
    const parsed = parseEntryId(id);
    if (!parsed) throw new UsageError(`Not an fd or ref id: ${id} (expected fd:N or ref:ID)`, { code: 'invalid_fd' });
    const dir = parsed.kind === 'fd' ? path.join(this.dir, String(parsed.n)) : this.refDir(parsed.ref);
    const name = parsed.kind === 'fd' ? `fd:${parsed.n}` : id;
    const what = parsed.kind === 'fd' ? `File descriptor ${name}` : `Reference ${name}`;
    let meta: EntryMeta;
    try {
      meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as EntryMeta;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && !(err instanceof SyntaxError)) throw err;
      if (fs.existsSync(path.join(dir, 'closed'))) throw new FdError('not_found', name, `${what} has been closed`);
      if (fs.existsSync(dir) && parsed.kind === 'fd') {
        throw new FdError('incomplete', name, `${what} is incomplete (its writer was interrupted or is still running)`);
      }
      const hint = parsed.kind === 'ref' ? " (store refs with 'refcat ref scan FILE')" : '';
      throw new FdError('not_found', name, `${what} not found in ${this.dir}${hint}`);
    }
    return new Entry(meta, dir);
  }

  /** Every complete entry: fds by number, then refs by id. */
  list(): EntryMeta[] {
    const read = (sub: string, pick: RegExp): EntryMeta[] => {
      let names: string[];
      try {
        names = fs.readdirSync(path.join(this.dir, sub));
      } catch {
        return [];
      }
      const out: EntryMeta[] = [];
      for (const name of names) {
        if (!pick.test(name)) continue;
        try {
          out.push(JSON.parse(fs.readFileSync(path.join(this.dir, sub, name, 'meta.json'), 'utf8')) as EntryMeta);
        } catch {
          // closed, incomplete or being replaced: not an entry to show
        }
      }
      return out;
    };
    const fds = read('.', /^\d+$/).sort((a, b) => Number(a.id.slice(3)) - Number(b.id.slice(3)));
    const refs = read('refs', /^[0-9a-f]+$/).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return [...fds, ...refs];
  }

  /**
   * Close an entry: an fd keeps an empty folder with a `closed` marker (its N stays used). An
   * incomplete fd (its writer was killed) can be closed too, which frees its partial content.
   */
  close(id: string): void {
    let dir: string;
    try {
      dir = this.open(id).dir;
    } catch (err) {
      if (!(err instanceof FdError) || err.type !== 'incomplete') throw err;
      dir = path.join(this.dir, String(Number(id.slice(3))));
    }
    if (id.startsWith('ref:')) {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    }
    fs.writeFileSync(path.join(dir, 'closed'), '');
    for (const f of fs.readdirSync(dir)) if (f !== 'closed') fs.rmSync(path.join(dir, f), { force: true });
  }

  private refDir(id: string): string {
    return path.join(this.dir, 'refs', crypto.createHash('sha256').update(id).digest('hex').slice(0, 32));
  }
}

/** An entry being written: content first (temp file), then commit() adds the index and meta.json. */
export class PendingEntry {
  private readonly content: AtomicFile;

  constructor(
    readonly id: string,
    readonly dir: string,
    private readonly source: string,
    private readonly discard: () => void,
  ) {
    this.content = new AtomicFile(path.join(dir, 'content'));
  }

  write(chunk: Buffer): void {
    this.content.write(chunk);
  }

  /** Make the entry visible; `table` is the page index already built for `pageSize`, if any. */
  commit(totals: EntryTotals, table: { pageSize: number; table: PageTable } | null, extra: { line?: number } = {}): Entry {
    this.content.commit();
    if (table) writeFileAtomic(path.join(this.dir, indexName(table.pageSize)), table.table.bytes());
    const meta: EntryMeta = { version: 1, id: this.id, created: new Date().toISOString(), source: this.source, ...totals, ...extra };
    writeFileAtomic(path.join(this.dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
    return new Entry(meta, this.dir);
  }

  /** Give up: nothing of the entry stays (its id was never shown to anyone). */
  abort(): void {
    this.content.abort();
    this.discard();
  }
}

/** A complete entry. */
export class Entry {
  constructor(
    readonly meta: EntryMeta,
    readonly dir: string,
  ) {}

  get contentPath(): string {
    return path.join(this.dir, 'content');
  }

  source(): FileSource {
    return new FileSource(this.contentPath);
  }

  /**
   * The page index for `pageSize`: read from its file when a previous call saved it (page N is
   * then one positioned read), else built by one streaming pass and saved for the next call.
   */
  pages(pageSize: number): PageLookup {
    const file = path.join(this.dir, indexName(pageSize));
    if (fs.existsSync(file)) return new PageFile(file);
    const { table } = scanFile(this.contentPath, pageSize);
    try {
      writeFileAtomic(file, table.bytes());
    } catch {
      // A read-only store still pages, it only cannot remember the index.
    }
    return table;
  }
}

function indexName(pageSize: number): string {
  return `pages-${pageSize}.idx`;
}
