import { Worker } from 'node:worker_threads';
import { type Encoding, loadTokenizer } from './tokenizer.js';

/** Counts texts off the main thread; see startCounter. */
export interface Counter {
  count(texts: string[]): Promise<number[]>;
  close(): void;
}

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
  try {
    worker = new Worker(workerFile(), { workerData: { encoding } });
    worker.on('error', () => (failed = true));
    worker.unref();
  } catch {
    failed = true;
  }
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
    close: () => void worker?.terminate(),
  };
}
