import { type Counter, startCounter } from './counter.js';
import type { Encoding } from './tokenizer.js';

/**
 * Counters kept between the calls of a server (`refcat mcp`): a worker loads its rank tables once
 * (0.3-1.5 s), not on every call. Each call takes a counter of its own, so calls running at once
 * never share one; at most `keep` idle counters per encoding wait for the next call, and closing
 * a counter hands it back here.
 */
export class CounterPool {
  private readonly idle = new Map<Encoding, Counter[]>();

  constructor(private readonly keep = 1) {}

  take(encoding: Encoding): Counter {
    const counter = this.idle.get(encoding)?.pop() ?? startCounter(encoding);
    let given = false;
    // A text streamed but not totalled (the call failed) leaves pieces in the worker: not reused.
    let open = false;
    return {
      count: (texts) => counter.count(texts),
      add: (piece) => {
        open = true;
        return counter.add(piece);
      },
      total: async () => {
        const total = await counter.total();
        open = false;
        return total;
      },
      discard: () => {
        given = true;
        counter.close();
      },
      close: () => {
        if (given) return;
        given = true;
        const idle = this.idle.get(encoding) ?? [];
        this.idle.set(encoding, idle);
        if (!open && idle.length < this.keep) idle.push(counter);
        else counter.close();
      },
    };
  }
}
