import type { Diagnostic } from '../../shared/errors.js';
import { BufferSource, type ByteSource } from './byte-source.js';
import { type PageLookup, PageTable } from './page-index.js';
import { ByteScanner } from './byte-scanner.js';
import type { EntryTotals, PendingEntry, Store } from './fd-store.js';

/** Content ready to be paged: its bytes, its page index and where to find it again. */
export interface Content {
  /** What to pass back to `fd read` for more pages (`fd:7`, a path, a ref spec); null if nothing. */
  label: string | null;
  /** True when the content was stored by this call (stdin, `--save`). */
  stored: boolean;
  bytes: ByteSource;
  pages: PageLookup;
  totals: EntryTotals;
}

export interface IngestOptions {
  pageSize: number;
  /** The store, opened only when something is stored. */
  store: () => Store;
  /** `always` (`--save`), or `if-large`: only content of more than one page gets an fd. */
  persist: 'always' | 'if-large';
  /** For the entry's meta: `stdin`, a path, a ref spec. */
  source: string;
}

/** Content of up to this many bytes may wait in memory to see whether it fits one page. */
const HOLD_LIMIT = 1 << 20;

/**
 * Read chunks (stdin, a file) into the store while building the page index in the same pass.
 * Memory stays bounded: a chunk is written to the entry's temp file as soon as it is scanned, and
 * only the first page's worth of bytes waits in memory (so that small content never touches the
 * store). Throws BinaryContentError for binary content; nothing of the entry is left then.
 */
export async function ingest(chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, opts: IngestOptions): Promise<Content> {
  const ingester = new Ingester(opts);
  try {
    for await (const chunk of chunks) ingester.push(chunk);
    return ingester.finish();
  } catch (err) {
    ingester.abort();
    throw err;
  }
}

/**
 * ingest() for a writer that pushes its chunks (an answer past its cap, src/core/pipeline/): push
 * every chunk, then finish() once, or abort() to leave nothing in the store.
 */
export class Ingester {
  private readonly table = new PageTable();
  private readonly scanner: ByteScanner;
  private readonly sink: Sink;
  /** A page holds at most 4 bytes a code point: past that it cannot fit one page. */
  private readonly holdLimit: number;

  constructor(private readonly opts: IngestOptions) {
    this.scanner = new ByteScanner(opts.pageSize, (s) => this.table.push(s));
    this.holdLimit = opts.persist === 'always' ? 0 : Math.min(HOLD_LIMIT, 4 * opts.pageSize);
    this.sink = new Sink(opts);
  }

  push(chunk: Buffer | Uint8Array | string): void {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.scanner.push(buf);
    this.sink.add(buf, this.holdLimit);
  }

  finish(): Content {
    const { opts, sink, table } = this;
    const totals = this.scanner.finish();
    const sizes = { bytes: totals.bytes, chars: totals.chars, lines: totals.lines };
    if (opts.persist === 'always' || totals.pages > 1) sink.spill();
    if (!sink.pending) {
      return { label: null, stored: false, bytes: new BufferSource(Buffer.concat(sink.held)), pages: table, totals: sizes };
    }
    const entry = sink.pending.commit(sizes, { pageSize: opts.pageSize, table });
    return { label: entry.meta.id, stored: true, bytes: entry.source(), pages: table, totals: sizes };
  }

  abort(): void {
    this.sink.pending?.abort();
    this.table.close();
  }
}

/** Where ingested bytes go: held in memory until they are too many for one page, then the store. */
class Sink {
  held: Buffer[] = [];
  private heldBytes = 0;
  pending: PendingEntry | null = null;

  constructor(private readonly opts: IngestOptions) {}

  add(buf: Buffer, holdLimit: number): void {
    if (this.pending) {
      this.pending.write(buf);
      return;
    }
    // Copy: a reader may reuse its buffer for the next chunk.
    this.held.push(Buffer.from(buf));
    this.heldBytes += buf.length;
    if (this.heldBytes > holdLimit) this.spill();
  }

  spill(): void {
    this.pending ??= this.opts.store().newFd(this.opts.source);
    for (const b of this.held) this.pending.write(b);
    this.held = [];
  }
}

/** Above this size `--pretty-json` is skipped: reformatting needs the whole document in memory. */
export const PRETTY_JSON_LIMIT = 16 * 1024 * 1024;

/**
 * `--pretty-json`: the chunks of a JSON document re-indented with 2 spaces (ending with a newline);
 * anything that is not JSON, or larger than PRETTY_JSON_LIMIT, passes through unchanged with a
 * warning.
 */
export async function* prettyJsonChunks(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  warnings: Diagnostic[],
  limit = PRETTY_JSON_LIMIT,
): AsyncIterable<Buffer> {
  const held: Buffer[] = [];
  let size = 0;
  const it = (Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]()) as
    | AsyncIterator<Buffer | string>
    | Iterator<Buffer | string>;
  for (;;) {
    const r = await it.next();
    if (r.done) break;
    const buf = typeof r.value === 'string' ? Buffer.from(r.value) : Buffer.from(r.value);
    held.push(buf);
    size += buf.length;
    if (size > limit) {
      warnings.push(tooLargeForPretty('Content', limit));
      yield* held;
      for (let next = await it.next(); !next.done; next = await it.next()) {
        yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
      }
      return;
    }
  }
  const text = Buffer.concat(held).toString('utf8');
  const pretty = prettyOrWarn(text, warnings);
  if (pretty === text) yield* held;
  else yield Buffer.from(pretty);
}

/** `text` re-indented if it is JSON, else `text` itself and a warning. */
export function prettyOrWarn(text: string, warnings: Diagnostic[]): string {
  const pretty = prettyJson(text);
  if (pretty !== null) return pretty;
  warnings.push({ code: 'pretty_json', message: 'Content is not valid JSON: --pretty-json skipped', details: [] });
  return text;
}

export function tooLargeForPretty(what: string, limit = PRETTY_JSON_LIMIT): Diagnostic {
  return { code: 'pretty_json', message: `${what} is larger than ${limit / (1024 * 1024)} MiB: --pretty-json skipped`, details: [] };
}

/** JSON text re-indented with 2 spaces and a final newline, or null if it is not JSON. */
export function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2) + '\n';
  } catch {
    return null;
  }
}

/** Content held in memory, paged under `label` and stored nowhere (a ref spec's lines, a re-indented JSON document, redacted text). */
export function inMemory(text: string, label: string, pageSize: number): Content {
  const buf = Buffer.from(text);
  const table = new PageTable();
  const scanner = new ByteScanner(pageSize, (s) => table.push(s));
  scanner.push(buf);
  const t = scanner.finish();
  return { label, stored: false, bytes: new BufferSource(buf), pages: table, totals: { bytes: t.bytes, chars: t.chars, lines: t.lines } };
}
