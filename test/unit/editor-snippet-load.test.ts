import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocument } from '../../src/core/editor/check-document.js';
import { EditorSession } from '../../src/core/editor/editor-session.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// The editor's snippet checks are bounded (docs/editor.md#how-it-checks): time in proportion to
// the document, one pattern budget per check, and slices that let other requests through.

/** `n` stale in-fence citations of src/app.py (the code says 2, the snippets 1). */
const staleDoc = (n: number) => Array.from({ length: n }, () => '```python\n# @src/app.py#L1-L2\ndef f():\n    return 1\n```\n').join('');

function cpuMs(): () => number {
  const start = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}

describe('snippet checks in the editor', () => {
  it('stale citations cost CPU time linear in their number: 8 times as many, not 64 times the time', async () => {
    const root = tmpDir({ 'src/app.py': 'def f():\n    return 2\n' });
    const check = async (n: number) => {
      const session = new EditorSession(testCtx(root));
      const used = cpuMs();
      const findings = await checkDocument({ path: path.join(root, 'doc.md'), kind: 'markdown', text: staleDoc(n), version: 1 }, session);
      const ms = used();
      expect(findings!.length).toBe(n);
      expect(findings!.every((f) => f.code === 'stale_snippet' && f.fixes[0]!.edits[0]!.newText === 'def f():\n    return 2\n')).toBe(true);
      return ms;
    };
    await check(500); // warm-up: module loading is not the subject
    const small = Math.max(await check(2000), 100);
    const large = await check(16_000);
    if (process.env.REFCAT_SHOW_CPU) console.log(`2,000 citations: ${small.toFixed(0)} ms, 16,000: ${large.toFixed(0)} ms`);
    // Generous: a busy machine makes every figure noisy. Before, each stale citation copied the
    // whole document: 16,000 citations took 19 times the CPU time of 2,000 (10.6 s), now under 2 times.
    expect(large).toBeLessThan(10 * small);
  }, 300_000);

  it('ten citations with a catastrophic pattern share one pattern budget, and each says it timed out', async () => {
    const root = tmpDir({ 'aaa.txt': 'a'.repeat(40) + '!\n' });
    const text = Array.from({ length: 10 }, (_, i) => `\`\`\`text\n# @aaa.txt#/^(a+)+b$/ (${i})\naaa\n\`\`\`\n`).join('');
    const used = cpuMs();
    const findings = await checkDocument({ path: path.join(root, 'doc.md'), kind: 'markdown', text, version: 1 }, new EditorSession(testCtx(root)));
    const ms = used();
    expect(findings!.map((f) => f.code)).toEqual(Array(10).fill('pattern_timeout'));
    // One budget is 1.5 s of CPU; ten budgets were 15 s.
    expect(ms).toBeLessThan(6000);
  }, 300_000);

  it('a long check gives the event loop turns (a hover on another document is answered meanwhile), and stops for a newer version', async () => {
    const root = tmpDir({ 'src/app.py': 'def f():\n    return 2\n' });
    const doc = { path: path.join(root, 'doc.md'), kind: 'markdown' as const, text: staleDoc(2000), version: 1 };
    let done = false;
    let turns = 0;
    const tick = () => {
      if (done) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const findings = await checkDocument(doc, new EditorSession(testCtx(root)));
    done = true;
    expect(findings!.length).toBe(2000);
    expect(turns).toBeGreaterThan(10);
    // A newer version makes the check stop at its next turn, with no result.
    let current = true;
    setImmediate(() => (current = false));
    expect(await checkDocument(doc, new EditorSession(testCtx(root)), () => current)).toBeNull();
  }, 300_000);
});
