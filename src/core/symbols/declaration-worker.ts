import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import { lazyRequire } from '../../shared/lazy.js';
import type { Declaration } from './declaration.js';
import { type DeclarationParser, useDeclarationParser } from './declaration-table.js';
import type { SymbolLanguage } from './languages.js';

/** Loaded when a worker first starts: every plain extraction imports this module (with `node:v8`, 2-3 ms of a start). */
const workerThreads = lazyRequire<typeof import('node:worker_threads')>('node:worker_threads');

/**
 * Parsing for a server (`refcat mcp`, `refcat lsp`) in a worker thread it replaces
 * (docs/symbols.md#cost): tree-sitter's WebAssembly heap grows with the largest file parsed and is
 * never given back, so once it passes a threshold the worker is ended (after the answers it owes)
 * and the next parse starts a fresh one. Tables come back as plain data and are cached by the
 * caller's thread (declaration-table.ts), so a replacement costs a grammar load, not a re-parse.
 */

/** What the worker is sent. */
export interface ParseRequest {
  id: number;
  text: string;
  /** SymbolLanguage.id */
  language: string;
}

/** What it answers: the table or an error, and the size its heap has grown to. */
export type ParseAnswer = { id: number; heapBytes: number } & ({ table: Declaration[] } | { error: string });

/** A worker whose heap has grown past this is replaced. */
export const MAX_WORKER_HEAP_BYTES = 200 * 1024 * 1024;
/** A blocked caller stops waiting after this (a worker that died owes no answer). */
const SYNC_WAIT_MS = 60_000;

export interface DeclarationWorkerOptions {
  /** Replace the worker once its WebAssembly heap passes this many bytes (default 200 MiB). */
  maxHeapBytes?: number;
  /** The worker's module (default: parse-worker beside this module, as built). */
  workerFile?: URL;
  /**
   * Let V8 optimize the grammars in the worker (default true: a server lives long). Flags are the
   * process's: off, every later worker compiles with the baseline compiler only.
   */
  tierUp?: boolean;
  /** Told each time a worker is retired for its heap. */
  onReplace?: (heapBytes: number) => void;
}

interface Live {
  worker: Worker;
  syncPort: MessagePort;
  flag: Int32Array;
  pending: Map<number, { resolve: (t: Declaration[]) => void; reject: (e: Error) => void }>;
  retiring: boolean;
}

export class DeclarationWorker implements DeclarationParser {
  /** Workers started so far. */
  started = 0;
  /** Workers retired because their heap passed the threshold. */
  replaced = 0;
  /** Parses the caller's thread waited for (parseSync); the servers fetch tables ahead to keep this at 0. */
  blocking = 0;
  private live: Live | null = null;
  private nextId = 0;
  private readonly maxHeapBytes: number;

  constructor(
    private readonly workerFile: URL,
    private readonly options: DeclarationWorkerOptions = {},
  ) {
    this.maxHeapBytes = options.maxHeapBytes ?? MAX_WORKER_HEAP_BYTES;
  }

  parse(text: string, language: SymbolLanguage): Promise<Declaration[]> {
    const w = this.current();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      w.pending.set(id, { resolve, reject });
      // A parse in flight keeps the process alive; an idle worker does not.
      w.worker.ref();
      w.worker.postMessage({ id, text, language: language.id } satisfies ParseRequest);
    });
  }

  parseSync(text: string, language: SymbolLanguage): Declaration[] {
    const w = this.current();
    const id = ++this.nextId;
    this.blocking++;
    Atomics.store(w.flag, 0, 0);
    w.syncPort.postMessage({ id, text, language: language.id } satisfies ParseRequest);
    const deadline = Date.now() + SYNC_WAIT_MS;
    for (;;) {
      const waited = Atomics.wait(w.flag, 0, 0, Math.max(0, deadline - Date.now()));
      const got = workerThreads().receiveMessageOnPort(w.syncPort);
      if (got) {
        Atomics.store(w.flag, 0, 0);
        return this.settle(w, got.message as ParseAnswer);
      }
      if (waited === 'timed-out') {
        this.end(w, new Error('the parser worker did not answer'));
        throw new Error(`The parser worker did not answer in ${SYNC_WAIT_MS / 1000} s`);
      }
    }
  }

  /** End the worker (a server that stops). */
  close(): void {
    if (this.live) this.end(this.live, new Error('the parser worker was closed'));
  }

  private current(): Live {
    if (this.live) return this.live;
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { MessageChannel, Worker } = workerThreads();
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(this.workerFile, { workerData: { flag, syncPort: port2, tierUp: this.options.tierUp ?? true }, transferList: [port2] });
    const w: Live = { worker, syncPort: port1, flag, pending: new Map(), retiring: false };
    worker.unref();
    port1.unref();
    worker.on('message', (a: ParseAnswer) => {
      const p = w.pending.get(a.id);
      if (!p) return;
      w.pending.delete(a.id);
      try {
        p.resolve(this.settle(w, a));
      } catch (err) {
        p.reject(err as Error);
      }
    });
    worker.on('error', (err) => this.end(w, err));
    worker.on('exit', () => this.end(w, new Error('the parser worker stopped')));
    this.started++;
    this.live = w;
    return w;
  }

  /** The table of an answer (or its error), after retiring a worker whose heap is past the threshold. */
  private settle(w: Live, a: ParseAnswer): Declaration[] {
    if (a.heapBytes > this.maxHeapBytes && !w.retiring) {
      w.retiring = true;
      this.replaced++;
      if (this.live === w) this.live = null;
      this.options.onReplace?.(a.heapBytes);
    }
    if (w.retiring && w.pending.size === 0) void w.worker.terminate();
    else if (w.pending.size === 0) w.worker.unref();
    if ('error' in a) throw new Error(`Parsing failed: ${a.error}`);
    return a.table;
  }

  private end(w: Live, err: Error): void {
    if (this.live === w) this.live = null;
    for (const p of w.pending.values()) p.reject(err);
    w.pending.clear();
    w.retiring = true;
    void w.worker.terminate();
  }
}

/**
 * The built worker module: beside the CLI bundle (`parse-worker.cjs`), beside this module in
 * dist/, and, when this module runs from the sources (tests), in dist/ as `npm run build` made it.
 * Null when there is none: the server then parses in its own thread.
 */
export function parseWorkerFile(): URL | null {
  const here = import.meta.url;
  const file = here.endsWith('.cjs') ? './parse-worker.cjs' : here.endsWith('.ts') ? '../../../dist/core/symbols/parse-worker.js' : './parse-worker.js';
  const url = new URL(file, here);
  return fs.existsSync(fileURLToPath(url)) ? url : null;
}

/**
 * From now on, parse in a worker (servers): symbol refs, `symbols` and editor lookups all read
 * their tables through it. Returns the worker, or null when no worker module is built (parsing
 * then stays in this thread, with V8's tier-up left on by the caller).
 */
export function parseOffThread(options: DeclarationWorkerOptions = {}): DeclarationWorker | null {
  const file = options.workerFile ?? parseWorkerFile();
  if (!file) return null;
  const worker = new DeclarationWorker(file, options);
  useDeclarationParser(worker);
  return worker;
}

/** A server that stops: its worker ends, and this thread parses again (as before parseOffThread()). */
export function stopParsingOffThread(worker: DeclarationWorker | null): void {
  if (!worker) return;
  worker.close();
  useDeclarationParser(null);
}
