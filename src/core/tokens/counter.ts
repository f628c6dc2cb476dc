import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Encoding, loadTokenizer, PieceCounter } from './tokenizer.js';

/** Counts texts off the main thread; see startCounter. */
export interface Counter {
  count(texts: string[]): Promise<number[]>;
  /**
   * Count one text that comes in pieces, as output is written: `add()` every piece in order, then
   * `total()` once. The worker counts while the pieces come; a promise returned says it is behind:
   * add more once it resolves, so that pieces do not pile up in memory.
   */
  add(piece: string | Uint8Array): Promise<void> | void;
  total(): Promise<number>;
  close(): void;
  /** Stop the worker now, even one a pool would keep (its memory is wanted): counter-pool.ts. */
  discard?(): void;
}

/** What the worker is sent: a batch to count (answered with the counts), or a piece of the streamed text, or the end of it (answered with its total). */
export type CountRequest = string[] | { add: (string | Uint8Array)[] } | { total: true };

/** Characters (or bytes) of streamed pieces sent to the worker in one message. */
const BATCH_CHARS = 64 * 1024;
/**
 * Batches sent and not counted yet past which add() asks to wait: counting is slower than reading
 * (a few MB a second), and a file of hundreds of MB would otherwise be queued whole in the
 * worker's messages.
 */
const MAX_BATCHES_AHEAD = 16;

/** The worker's file: next to this module, or next to the CLI bundle (`count-worker.cjs`). */
function workerFile(): URL {
  const here = import.meta.url;
  return new URL(here.endsWith('.cjs') ? './count-worker.cjs' : './count-worker.js', here);
}

/**
 * A tokenizer loading in a worker thread from now on, so that its start-up (the rank tables take
 * 100-200 ms) overlaps the extraction instead of following it (docs/reference.md#token-counts-and-budgets).
 * Splitting the count over two workers was measured too: no faster on a 2-core machine, more memory.
 * A worker that cannot start (no compiled worker file, as when running from the sources) leaves
 * the count to this thread: the numbers are the same, only later.
 */
export function startCounter(encoding: Encoding): Counter {
  let worker: Worker | null = null;
  let failed = false;
  // The worker adds 1 here for each batch of streamed pieces it has counted.
  const counted = new Int32Array(new SharedArrayBuffer(4));
  try {
    // Known at once, not when the first pieces are already lost to a worker that never started.
    if (!fs.existsSync(fileURLToPath(workerFile()))) throw new Error('no worker file');
    worker = new Worker(workerFile(), { workerData: { encoding, counted } });
    worker.on('error', () => (failed = true));
    worker.unref();
  } catch {
    failed = true;
  }
  let streamedInThread = false;
  const held: (string | Uint8Array)[] = [];
  let batch: (string | Uint8Array)[] = [];
  let batchSize = 0;
  let sent = 0;
  const sendBatch = (w: Worker) => {
    if (batch.length > 0) {
      w.postMessage({ add: batch } satisfies CountRequest);
      sent++;
    }
    batch = [];
    batchSize = 0;
  };
  // Resolves once the worker is at most MAX_BATCHES_AHEAD behind (or has stopped: the count is
  // then made in this thread, from what is held).
  const caughtUp = async (w: Worker) => {
    // A wait keeps no process alive: the worker does, meanwhile.
    w.ref();
    try {
      for (;;) {
        const done = Atomics.load(counted, 0);
        if (failed || sent - done <= MAX_BATCHES_AHEAD) return;
        const wait = Atomics.waitAsync(counted, 0, done, 1000);
        if (wait.async) await wait.value;
      }
    } finally {
      w.unref();
    }
  };
  const inThread = async (texts: string[]) => {
    const tok = await loadTokenizer(encoding);
    return texts.map((t) => tok.count(t));
  };
  return {
    count: (texts) => {
      const w = worker;
      if (failed || w === null) return inThread(texts);
      return new Promise<number[]>((resolve) => {
        const onError = () => {
          w.off('message', onMessage);
          resolve(inThread(texts));
        };
        const onMessage = (counts: number[]) => {
          w.off('error', onError);
          w.unref();
          resolve(counts);
        };
        w.ref();
        w.once('error', onError);
        w.once('message', onMessage);
        w.postMessage(texts);
      });
    },
    add: (piece) => {
      if (streamedInThread || failed || worker === null) {
        // No worker: the pieces wait here and are counted at the end.
        streamedInThread = true;
        held.push(typeof piece === 'string' ? piece : Buffer.from(piece));
      } else {
        // Pieces go to the worker in batches of about 64 KiB: one message per piece costs more
        // than counting them. Bytes are copied: they are lent (ExtractionSink), and a view would
        // send its whole buffer.
        batch.push(typeof piece === 'string' ? piece : Buffer.from(piece));
        batchSize += piece.length;
        if (batchSize >= BATCH_CHARS) {
          sendBatch(worker);
          if (sent - Atomics.load(counted, 0) > MAX_BATCHES_AHEAD) return caughtUp(worker);
        }
      }
    },
    total: async () => {
      const w = worker;
      if (streamedInThread || failed || w === null) {
        const tok = await loadTokenizer(encoding);
        const counter = new PieceCounter((t) => tok.count(t));
        for (const piece of held.splice(0)) counter.add(piece);
        return counter.total();
      }
      return new Promise<number>((resolve, reject) => {
        const onError = (err: Error) => {
          w.off('message', onMessage);
          reject(new Error(`the token counter stopped: ${err.message}`));
        };
        const onMessage = (answer: { total: number }) => {
          w.off('error', onError);
          w.unref();
          resolve(answer.total);
        };
        w.ref();
        w.once('error', onError);
        w.once('message', onMessage);
        sendBatch(w);
        w.postMessage({ total: true } satisfies CountRequest);
      });
    },
    close: () => void worker?.terminate(),
  };
}
