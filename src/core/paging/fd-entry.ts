import fs from 'node:fs';
import path from 'node:path';
import { RefcatError, UsageError } from '../../shared/errors.js';
import { undoOnInterrupt } from '../../shared/interrupt.js';
import { AtomicFile, writeFileAtomic } from '../safe-write/atomic-file.js';
import { FileSource, scanSource } from './byte-source.js';
import { type PageLookup, PageFile, type PageTable } from './page-index.js';

/**
 * One entry of the store (docs/reference.md#fd-and-ref): its id, its meta.json, read and checked,
 * and its content and page indexes, as it is written (PendingEntry) and once it is complete
 * (Entry). fd-store.ts keeps the entries: numbering, versions, listing, closing.
 */

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

// No leading zero: `fd:01` is not another spelling of fd:1 (nor is `fd:0` an fd).
const FD_RE = /^fd:([1-9]\d*)$/;
export const REF_ID_RE = /^[A-Za-z0-9_.:-]+$/;

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
 * A file-system failure inside the store as one line naming the store, never a stack trace.
 * RefcatErrors (not found, ...) and bugs (no errno code) pass through unchanged.
 */
export function storeError(err: unknown, dir: string): unknown {
  if (err instanceof RefcatError) return err;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string') return err;
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    let isFolder = true;
    try {
      isFolder = fs.statSync(dir).isDirectory();
    } catch {
      // missing or unreadable: the errno message below says more
    }
    if (!isFolder) {
      return new RefcatError(`The store ${dir} is not a folder (set --store or REFCAT_STORE to a folder)`, { code: 'store_error' });
    }
  }
  return new RefcatError(`Cannot use the store ${dir}: ${(err as Error).message}`, { code: 'store_error' });
}

/** A store entry whose files do not hold what the store wrote (edited by hand, a disk fault). */
export class DamagedEntryError extends Error {
  constructor(
    readonly dir: string,
    readonly problem: string,
  ) {
    super(`${dir}: ${problem}`);
  }
}

export function readMeta(dir: string): EntryMeta {
  const text = fs.readFileSync(path.join(dir, 'meta.json'), 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // An entry being replaced can be read half-written only through a bug; treat it as damaged.
    throw new DamagedEntryError(dir, 'meta.json is not JSON');
  }
  return checkMeta(data, dir);
}

/** The store believes nothing it reads: every field is checked before it is shown or used. */
function checkMeta(data: unknown, dir: string): EntryMeta {
  const m = data as Partial<Record<keyof EntryMeta, unknown>> | null;
  const count = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  const text = (v: unknown) => typeof v === 'string' && v.length <= 4096;
  const problem =
    typeof m !== 'object' || m === null || Array.isArray(m) ? 'meta.json is not an object'
    : m.version !== 1 ? 'meta.json has an unknown version'
    : !text(m.id) || parseEntryId(m.id as string) === null ? 'meta.json has a bad id'
    : !text(m.created) || !text(m.source) ? 'meta.json has a bad created or source field'
    : !count(m.bytes) || !count(m.chars) || !count(m.lines) ? 'meta.json has bad sizes'
    : (m.chars as number) > (m.bytes as number) || (m.lines as number) > (m.bytes as number) ? 'meta.json sizes do not agree'
    : m.line !== undefined && !(count(m.line) && (m.line as number) > 0) ? 'meta.json has a bad line'
    : null;
  if (problem) throw new DamagedEntryError(dir, problem);
  return data as EntryMeta;
}

/**
 * The entry in `dir` with its content already open (so that it stays readable if the folder is
 * replaced next); null when it has no complete meta.json or content.
 */
export function openEntry(dir: string): Entry | null {
  let meta: EntryMeta;
  let source: FileSource;
  try {
    meta = readMeta(dir);
    source = new FileSource(path.join(dir, 'content'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return new Entry(meta, dir, source);
}

/**
 * An entry being written: content first (temp file), then commit() adds the index and meta.json.
 * Failures are store_error naming `storeDir`.
 */
export class PendingEntry {
  private readonly content: AtomicFile;
  /** An interrupted `fd read` of stdin leaves no half-written entry (docs/reference.md#limits-and-hostile-input). */
  private readonly settled: () => void;

  constructor(
    readonly id: string,
    readonly dir: string,
    private readonly source: string,
    private readonly discard: () => void,
    private readonly storeDir: string,
    pid?: number,
  ) {
    this.content = this.guard(() => new AtomicFile(path.join(dir, 'content'), { pid }));
    this.settled = undoOnInterrupt(() => this.abort());
  }

  write(chunk: Buffer): void {
    this.guard(() => this.content.write(chunk));
  }

  /** Make the entry visible; `table` is the page index already built for `pageSize`, if any. */
  commit(totals: EntryTotals, table: { pageSize: number; table: PageTable } | null, extra: { line?: number } = {}): Entry {
    return this.guard(() => {
      this.content.commit();
      if (table) writeFileAtomic(path.join(this.dir, indexName(table.pageSize)), table.table.bytes());
      const meta: EntryMeta = { version: 1, id: this.id, created: new Date().toISOString(), source: this.source, ...totals, ...extra };
      writeFileAtomic(path.join(this.dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
      this.settled();
      return new Entry(meta, this.dir);
    });
  }

  /** Give up: nothing of the entry stays (its id was never shown to anyone). */
  abort(): void {
    this.settled();
    this.content.abort();
    this.discard();
  }

  private guard<T>(run: () => T): T {
    try {
      return run();
    } catch (err) {
      throw storeError(err, this.storeDir);
    }
  }
}

/** A complete entry. */
export class Entry {
  constructor(
    readonly meta: EntryMeta,
    readonly dir: string,
    /** The content, opened by Store.open() before anything could replace it. */
    private src: FileSource | null = null,
  ) {}

  get contentPath(): string {
    return path.join(this.dir, 'content');
  }

  /** The content; the same open source on every call. Closing it (or the entry) releases it. */
  source(): FileSource {
    return (this.src ??= new FileSource(this.contentPath));
  }

  close(): void {
    this.src?.close();
  }

  /**
   * The page index for `pageSize`: read from its file when a previous call saved it (page N is
   * then one positioned read), else built by one pass over the open content and saved for the
   * next call.
   */
  pages(pageSize: number): PageLookup {
    const file = path.join(this.dir, indexName(pageSize));
    try {
      return new PageFile(file);
    } catch {
      // Not saved yet, unreadable, or its version was just replaced: build it from the content we
      // hold open (the index is only a cache of it).
    }
    const { table } = scanSource(this.source(), pageSize);
    try {
      writeFileAtomic(file, table.bytes());
    } catch {
      // A read-only store (or a version removed meanwhile) still pages, it only cannot remember the index.
    }
    return table;
  }
}

function indexName(pageSize: number): string {
  return `pages-${pageSize}.idx`;
}
