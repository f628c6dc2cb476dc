import { UsageError } from '../../shared/errors.js';

/**
 * A limit on the calls of a server that may read and write a lot at once (docs/reference.md#refcat-mcp):
 * `running` at a time, `waiting` more queued in the order they came, and any beyond refused at
 * once with an error that says why, so that memory and CPU stay bounded however many calls an
 * agent sends together.
 */
export class HeavyCalls {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(
    private readonly running: number,
    private readonly waiting: number,
  ) {}

  async run<T>(name: string, call: () => Promise<T>): Promise<T> {
    if (this.active >= this.running) {
      if (this.queue.length >= this.waiting) {
        throw new UsageError(
          `Busy: ${this.active} heavy calls are running and ${this.queue.length} are waiting (at most ${this.running} run at once); call ${name} again once one has answered`,
          { code: 'busy' },
        );
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await call();
    } finally {
      // The slot passes straight to the next call waiting, or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}
