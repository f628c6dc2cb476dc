import { describe, expect, it, vi } from 'vitest';
import { AliasResolver } from '../../src/core/alias/resolve-aliases.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// What a broken pattern ref's message may quote is decided by the aliases (docs/reference.md#limits-and-hostile-input):
// verify refs decides it once a run, not once a ref (issue 37).

describe('verify refs: the files messages may quote', () => {
  it('are worked out once for the whole run, and messages still quote them', async () => {
    const refs = Array.from({ length: 30 }, (_, i) => `See @src/a.ts#/function gone${i}/ here.`).join('\n');
    const dir = tmpDir({ 'src/a.ts': 'export function a() {}\n', 'docs/x.md': refs + '\n' });
    const spy = vi.spyOn(AliasResolver.prototype, 'listReadable');
    try {
      const r = await refcatInProcess(['verify', 'refs', 'docs'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('Pattern /function gone29/ not found in @src/a.ts#/function gone29/');
      // One for the snippets' comparable files, one for what messages may quote.
      expect(spy.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      spy.mockRestore();
    }
  });
});
