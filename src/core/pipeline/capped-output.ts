import type { OutputChunk } from '../output/render-extraction.js';
import type { Counter } from '../tokens/counter.js';
import type { Store } from '../paging/fd-store.js';
import type { Ingester } from '../paging/ingest.js';

/** Where the output goes: stdout for the CLI, an answer for an agent. */
export interface ExtractionSink {
  /**
   * Takes a chunk; a promise returned resolves when the sink can take more (nothing returned: it
   * can at once). Bytes are lent: a file's bytes are read into a buffer that is used again once
   * the write is over, so a sink that keeps them copies them.
   */
  write(chunk: OutputChunk): Promise<void> | void;
  /** Called once, after the last write. */
  end(): Promise<void>;
}

/** An output past its cap, stored whole as an fd. */
export interface StoredOutput {
  /** `fd:N`. */
  fd: string;
  /** The cap, in characters. */
  cap: number;
  /** Lines of the output the sink got (whole lines, but for one longer than the cap). */
  shownLines: number;
  /** Lines, characters and pages of the whole output. */
  totalLines: number;
  chars: number;
  pages: number;
  pageSize: number;
  /** The page (of `pageSize`) that holds the first line not shown. */
  nextPage: number;
}

/** The output handed to the sink in turns of this size, the event loop free in between. */
const TURN_CHARS = 1 << 20;

/**
 * The pipeline's end: chunks go to the sink (and to the counter) until the cap, if any, whole
 * lines only. From the chunk that crosses the cap on, the whole output, what the sink got
 * included, goes to the store instead, so it can be paged. Every megabyte the event loop gets a
 * turn: a server answers other calls while a large extraction is written.
 */
export class CappedOutput {
  /** Characters taken within the cap. */
  private accepted = 0;
  private shownLines = 0;
  /** Under a cap: the start of a line not yet ended, held back from the sink. */
  private partial: OutputChunk[] = [];
  private held: OutputChunk[] = [];
  private ingester: Ingester | null = null;
  private sinceTurn = 0;
  private pageSize = 0;
  /** Past the cap: the tokens of what the sink got. */
  shownTotal: Promise<number> | null = null;

  constructor(
    private readonly sink: ExtractionSink,
    private readonly cap: { chars: number; store: () => Store } | undefined,
    private readonly counter: Counter | undefined,
  ) {}

  /**
   * As ExtractionSink.write(): a promise only when there is something to wait for. Without a cap,
   * a chunk goes straight on (a glob writes three per file; a promise for each cost more than the
   * writing).
   */
  write(chunk: OutputChunk): Promise<void> | void {
    if (chunk.length === 0) return;
    if (!this.cap && this.sinceTurn + chunk.length < TURN_CHARS) {
      this.sinceTurn += chunk.length;
      const counting = this.counter?.add(chunk);
      const writing = this.sink.write(chunk);
      if (!counting) return writing;
      return writing ? Promise.all([counting, writing]).then(() => undefined) : counting;
    }
    return this.writeTurn(chunk);
  }

  private async writeTurn(chunk: OutputChunk): Promise<void> {
    if ((this.sinceTurn += chunk.length) >= TURN_CHARS) {
      this.sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (this.ingester) {
      this.ingester.push(chunk);
      return;
    }
    if (!this.cap) return this.show(chunk);
    const room = this.cap.chars - this.accepted;
    if (chunk.length <= room) {
      this.accepted += chunk.length;
      this.held.push(kept(chunk));
      return this.showLines(chunk, chunk.length);
    }
    await this.showLines(chunk, room);
    this.partial = [];
    // Nothing past the cap is counted: the count of what the sink got is asked for now, and the
    // counting worker (its rank tables are most of a server's memory) is let go once it answers.
    if (this.counter) {
      const counter = this.counter;
      this.shownTotal = counter.total().finally(() => (counter.discard ?? counter.close)());
      // Its memory and the store's streaming do not add up: the rest waits for the count.
      await this.shownTotal.catch(() => undefined);
    }
    // The store's modules load only for an answer past its cap.
    const [{ Ingester }, { DEFAULT_PAGE_SIZE }] = await Promise.all([import('../paging/ingest.js'), import('../paging/page-builder.js')]);
    this.pageSize = DEFAULT_PAGE_SIZE;
    this.ingester = new Ingester({ pageSize: DEFAULT_PAGE_SIZE, store: this.cap.store, persist: 'always', source: 'extract' });
    for (const held of this.held) this.ingester.push(held);
    this.held = [];
    this.ingester.push(chunk);
  }

  /**
   * Under a cap the sink gets whole lines only: the text after the last line break of the first
   * `room` characters of `chunk` waits for the line's end.
   */
  private async showLines(chunk: OutputChunk, room: number): Promise<void> {
    const end = lastLineEnd(chunk, room);
    if (end === 0) {
      if (room >= chunk.length) this.partial.push(kept(chunk));
      return;
    }
    for (const waiting of this.partial.splice(0)) await this.show(waiting);
    const head = end === chunk.length ? chunk : chunk.slice(0, end);
    this.shownLines += newlines(head);
    await this.show(head);
    if (end < room) this.partial.push(kept(chunk.slice(end, room)));
  }

  /** Ends the sink; past the cap, stores the whole output and says where. */
  async end(): Promise<StoredOutput | null> {
    this.held = [];
    for (const waiting of this.partial.splice(0)) await this.show(waiting);
    await this.sink.end();
    if (!this.ingester) return null;
    const { pageOfLine } = await import('../paging/page-index.js');
    const content = this.ingester.finish();
    try {
      const { lines, chars } = content.totals;
      const next = Math.min(this.shownLines + 1, Math.max(lines, 1));
      return {
        fd: content.label!,
        cap: this.cap!.chars,
        shownLines: this.shownLines,
        totalLines: lines,
        chars,
        pages: content.pages.count,
        pageSize: this.pageSize,
        nextPage: pageOfLine(content.pages, next),
      };
    } finally {
      content.pages.close();
      content.bytes.close();
    }
  }

  /** Gives up on the store (the call failed): nothing is left in it. */
  abort(): void {
    this.ingester?.abort();
    this.ingester = null;
  }

  private async show(chunk: OutputChunk): Promise<void> {
    const counting = this.counter?.add(chunk);
    await this.sink.write(chunk);
    await counting;
  }
}

/** A chunk to hold past its write: bytes are lent (ExtractionSink), so they are copied. */
function kept(chunk: OutputChunk): OutputChunk {
  return typeof chunk === 'string' ? chunk : Buffer.from(chunk);
}

function newlines(chunk: OutputChunk): number {
  let n = 0;
  if (typeof chunk === 'string') {
    for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) n++;
  } else {
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) n++;
  }
  return n;
}

/** Where the last line ending within the first `room` characters ends (0: none). */
function lastLineEnd(chunk: OutputChunk, room: number): number {
  const at = typeof chunk === 'string' ? chunk.lastIndexOf('\n', room - 1) : chunk.lastIndexOf(0x0a, room - 1);
  return at + 1;
}

/** A sink that keeps the text it gets (an agent's answer); bytes are decoded as a stream. */
export class TextSink implements ExtractionSink {
  private parts: string[] = [];
  private readonly bytes = new TextDecoder('utf-8');

  write(chunk: OutputChunk): void {
    this.parts.push(typeof chunk === 'string' ? chunk : this.bytes.decode(chunk, { stream: true }));
  }

  async end(): Promise<void> {
    this.parts.push(this.bytes.decode());
  }

  get text(): string {
    return this.parts.join('');
  }
}
