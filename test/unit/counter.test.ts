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
