import fs from 'node:fs';
import os from 'node:os';
import type { MessagePort, Worker } from 'node:worker_threads';
import { lazyRequire } from '../../shared/lazy.js';
import type { Declaration } from './declaration.js';
import { compiledRuntime, type WasmModule } from './grammar-loader.js';
import { tableCacheFolder } from './table-cache-folder.js';

/** Loaded when a worker first starts: every plain extraction imports this module (with `node:v8`, 2-3 ms of a start). */
const workerThreads = lazyRequire<typeof import('node:worker_threads')>('node:worker_threads');

/**
 * An outline's tables read on the other core (docs/design/symbols.md#an-outline-on-two-cores). An
 * outline reads its files in order, one after another, and parsing them is most of its time. Once
 * this thread meets a file whose table it must parse (none kept from an earlier run), a worker
 * starts from the other end of the list: each file is claimed once, by this thread going forward
 * or the worker coming back, until they meet. A file the worker read is taken from it only when
 * the text this thread read is the very text the worker parsed (a file changed in between is
 * parsed again here), so the outline is byte for byte the one thread alone gives.
 */

/** Who holds a file of the list (the shared array `claims`). */
const FREE = 0;
const MINE = 1;
const THEIRS = 2;
/** `done[i]` once the worker's answer for file i is posted. */
const POSTED = 1;
/**
 * Files at least still to come when this thread first parses, for a worker to start: its start
 * (tree-sitter, the grammar, the query) costs about as much as parsing 20 small files.
 */
export const MIN_FILES_AHEAD = 24;
/** This thread stops waiting for a file the worker claimed after this (a worker that died owes none). */
const WAIT_MS = 60_000;

/** What the worker is given (parse-worker.ts runs it). */
export interface AheadData {
  files: string[];
  claims: Int32Array;
  done: Int32Array;
  port: MessagePort;
  /** tree-sitter's runtime as this thread compiled it to be optimized (grammar-loader.ts), shared; else null. */
  runtime: WasmModule | null;
}

/** What a worker started before the outline's plan (prestartTablesAhead()) is sent once the plan is made. */
export interface AheadStart {
  ahead: AheadData;
}

/** What it answers for each file it claimed. */
export type AheadAnswer = { index: number } & ({ text: string; table: Declaration[] } | { error: string });

export { FREE as AHEAD_FREE, THEIRS as AHEAD_THEIRS, POSTED as AHEAD_POSTED };

export class TablesAhead {
  /** Whether a worker was started (tests). */
  started = false;
  /** Files whose table came from the worker (tests). */
  taken = 0;
  private readonly index = new Map<string, number>();
  private readonly claims: Int32Array;
  private readonly done: Int32Array;
  private readonly answers = new Map<number, AheadAnswer>();
  /** Every file before this one was claimed by this thread or the worker. */
  private next = 0;
  private worker: Worker | null = null;
  private port: MessagePort | null = null;

  /** `files`: absolute paths, in the order this thread will read them; the worker module (parseWorkerFile()), when there is one. */
  constructor(
    private readonly files: readonly string[],
    private readonly workerFile: URL | null,
  ) {
    files.forEach((f, i) => this.index.set(f, i));
    this.claims = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, files.length)));
    this.done = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, files.length)));
  }

  /**
   * The table of `file` when the worker claimed it and parsed this very text; else null, and the
   * file (with any skipped before it) is this thread's.
   */
  take(file: string, text: string): Declaration[] | null {
    const i = this.index.get(file);
    if (i === undefined || i < this.next) return null;
    for (; this.next < i; this.next++) Atomics.compareExchange(this.claims, this.next, FREE, MINE);
    this.next = i + 1;
    // Free (now this thread's), or this thread's since close(): parsed here.
    if (Atomics.compareExchange(this.claims, i, FREE, MINE) !== THEIRS) return null;
    const answer = this.answer(i);
    if (!answer || 'error' in answer || answer.text !== text) return null;
    this.taken++;
    return answer.table;
  }

  /** This thread parses `file`: start the worker if enough files are still to come. */
  missed(file: string): void {
    if (this.started || this.workerFile === null) return;
    const i = this.index.get(file);
    if (i === undefined || this.files.length - i - 1 < MIN_FILES_AHEAD) return;
    this.started = true;
    const { MessageChannel, Worker } = workerThreads();
    const { port1, port2 } = new MessageChannel();
    const ahead: AheadData = { files: [...this.files], claims: this.claims, done: this.done, port: port2, runtime: compiledRuntime() };
    const started = takeWaiting();
    if (started) {
      // Started once the list was made, before this thread loaded tree-sitter: waiting for this plan.
      this.worker = started.worker;
      this.worker.postMessage({ ahead } satisfies AheadStart, [port2]);
      started.then();
    } else {
      // Never keeps the process alive: the outline ends when this thread is done.
      this.worker = new Worker(this.workerFile, { workerData: { ahead }, transferList: [port2] });
      this.worker.unref();
      this.worker.on('error', () => undefined);
    }
    port1.unref();
    this.port = port1;
  }

  /** Files the worker has answered so far (tests). */
  posted(): number {
    let n = 0;
    for (let i = 0; i < this.files.length; i++) if (Atomics.load(this.done, i) === POSTED) n++;
    return n;
  }

  /** Stop the worker (the outline is done, or stopped early). */
  close(): void {
    endWaiting();
    // Every file claimed: a worker still reading stops at its next claim.
    for (let i = 0; i < this.files.length; i++) Atomics.compareExchange(this.claims, i, FREE, MINE);
    void this.worker?.terminate();
    this.port?.close();
    this.worker = null;
  }

  /** The worker's answer for file i, waited for: null when it never comes. */
  private answer(i: number): AheadAnswer | null {
    const deadline = Date.now() + WAIT_MS;
    while (Atomics.load(this.done, i) !== POSTED) {
      if (Atomics.wait(this.done, i, 0, Math.max(0, deadline - Date.now())) === 'timed-out') return null;
    }
    const { receiveMessageOnPort } = workerThreads();
    for (let got = this.port && receiveMessageOnPort(this.port); got; got = this.port && receiveMessageOnPort(this.port)) {
      const a = got.message as AheadAnswer;
      this.answers.set(a.index, a);
    }
    const answer = this.answers.get(i) ?? null;
    this.answers.delete(i);
    return answer;
  }
}

let current: TablesAhead | null = null;

/** A worker started before the outline's plan was made, and what to do once its start is past. */
let waiting: { worker: Worker; then: () => void } | null = null;

/**
 * Start the worker now, before this thread loads tree-sitter, to wait for the outline's list
 * (docs/design/symbols.md#the-worker-started-with-the-list): it starts while this thread loads the
 * runtime and the grammars and parses its first file, and under V8's default flags (the caller
 * sets its own in `then`), so Node's own modules compile from their cache. Only for a list of
 * enough files whose tables cannot come from the cache (`REFCAT_SYMBOL_CACHE=0`, no home folder,
 * no cache folder yet): where some may, the worker starts at the first file parsed, as a run whose
 * tables are all kept needs none. `then` runs once the worker's start is past (it took the list,
 * or no plan needed it). False when no worker was started: `then` is the caller's to run.
 */
export function prestartTablesAhead(files: readonly string[], workerFile: URL | null, then: () => void): boolean {
  if (waiting || !workerFile || files.length <= MIN_FILES_AHEAD || os.availableParallelism() < 2) return false;
  const { folder } = tableCacheFolder();
  if (folder !== null && fs.existsSync(folder)) return false;
  const { Worker } = workerThreads();
  const worker = new Worker(workerFile, { workerData: { waiting: true } });
  worker.unref();
  worker.on('error', () => undefined);
  waiting = { worker, then };
  return true;
}

/** The waiting worker, now the caller's; null when there is none. */
function takeWaiting(): { worker: Worker; then: () => void } | null {
  const taken = waiting;
  waiting = null;
  return taken;
}

/** End a waiting worker no outline took (too few files, all tables kept, the outline done). */
function endWaiting(): void {
  const unused = takeWaiting();
  if (!unused) return;
  void unused.worker.terminate();
  unused.then();
}

/**
 * The outline about to be read will read these files, in this order, and `workerFile` is the
 * worker module (parseWorkerFile()); null: none, or the outline is done.
 */
export function planTablesAhead(files: readonly string[] | null, workerFile: URL | null = null): void {
  current?.close();
  // On one processor a second thread only takes turns with this one.
  current = files && workerFile && files.length > MIN_FILES_AHEAD && os.availableParallelism() > 1 ? new TablesAhead(files, workerFile) : null;
  // A worker started for it waits only for a plan that may use it.
  if (current === null) endWaiting();
}

/** The plan in force, if any. */
export function tablesAhead(): TablesAhead | null {
  return current;
}
