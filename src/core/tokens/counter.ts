import { Worker } from 'node:worker_threads';
import type { Encoding } from './tokenizer.js';

/** Counts texts off the main thread; see startCounter. */
export interface Counter {
  count(texts: string[]): Promise<number[]>;
  close(): void;
}

/**
 * A tokenizer loading in a worker thread from now on, so that its start-up (the rank tables take
 * 100-200 ms) overlaps the extraction instead of following it (docs/reference.md#token-counts-and-budgets).
 * Splitting the count over two workers was measured too: no faster on a 2-core machine, more memory.
 */
export function startCounter(encoding: Encoding): Counter {
  const worker = new Worker(new URL('./count-worker.js', import.meta.url), { workerData: { encoding } });
  worker.unref();
  return {
    count: (texts) =>
      new Promise<number[]>((resolve, reject) => {
        worker.ref();
        worker.once('error', reject);
        worker.once('message', (counts: number[]) => {
          worker.unref();
          resolve(counts);
        });
        worker.postMessage(texts);
      }),
    close: () => void worker.terminate(),
  };
}
