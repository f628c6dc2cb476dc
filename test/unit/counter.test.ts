import { describe, expect, it } from 'vitest';
import { startCounter } from '../../src/core/tokens/counter.js';
import { loadTokenizer } from '../../src/core/tokens/tokenizer.js';

describe('startCounter', () => {
  it('counts the same as the tokenizer, also when its worker cannot start (run from the sources)', async () => {
    // Under vitest the module is src/core/tokens/counter.ts, with no compiled count-worker.js beside it.
    const counter = startCounter('cl100k_base');
    try {
      const texts = ['hello world\n', '🚀 emoji and naïve text', ''];
      const tok = await loadTokenizer('cl100k_base');
      expect(await counter.count(texts)).toEqual(texts.map((t) => tok.count(t)));
    } finally {
      counter.close();
    }
  });
});

describe('a streamed count through the worker (the built one, dist/)', () => {
  it('asks the writer to wait when the worker is behind, and still counts exactly', async () => {
    // The worker is still loading its tables when the first pieces come: it is behind at once.
    const { startCounter: startBuilt } = (await import('../../dist/core/tokens/counter.js')) as typeof import('../../src/core/tokens/counter.js');
    const counter = startBuilt('o200k_base');
    try {
      const piece = 'const value = compute(alpha, beta); // words\n'.repeat(1500);
      let waits = 0;
      let firstWait = -1;
      for (let i = 0; i < 60; i++) {
        const wait = counter.add(i % 2 ? piece : Buffer.from(piece));
        if (wait) {
          if (firstWait === -1) firstWait = i;
          waits++;
          await wait;
        }
      }
      // 64 KiB batches: about one a piece, and no more than 16 sent ahead of the count.
      expect(firstWait).toBeGreaterThan(0);
      expect(firstWait).toBeLessThanOrEqual(20);
      expect(waits).toBeGreaterThan(0);
      const tok = await loadTokenizer('o200k_base');
      expect(await counter.total()).toBe(tok.count(piece.repeat(60)));
    } finally {
      counter.close();
    }
  });
});
