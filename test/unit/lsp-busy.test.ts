import { afterEach, describe, expect, it } from 'vitest';
import type { Hover } from 'vscode-languageserver-protocol/node.js';
import { type LspSession, startLsp } from '../helpers/lsp-client.js';
import { tmpDir } from '../helpers/tmp.js';

// A long snippet check works in slices: a hover on another document is answered while it runs,
// not after it (docs/editor.md#how-it-checks).

let session: LspSession | null = null;
afterEach(async () => {
  if (session) await session.stop().catch(() => {});
  session = null;
});

describe('refcat lsp while a large document is checked', () => {
  it('a hover on another document is answered before the large one is published', async () => {
    const root = tmpDir({ 'src/app.py': 'def f():\n    return 2\n' });
    session = await startLsp(root);
    const s = session;
    const big = Array.from({ length: 12_000 }, () => '```python\n# @src/app.py#L1-L2\ndef f():\n    return 1\n```\n').join('');
    const order: string[] = [];
    const bigUri = s.open('big.md', big);
    const published = s.diagnostics(bigUri).then((p) => {
      order.push('diagnostics');
      return p;
    });
    // Past the quiet time after the change: the check is under way.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const small = s.open('small.md', 'See @src/app.py#L2.\n');
    const hover = (await s.client.sendRequest('textDocument/hover', { textDocument: { uri: small }, position: { line: 0, character: 6 } })) as Hover;
    order.push('hover');
    expect((hover.contents as { value: string }).value).toContain('2 |     return 2');
    expect((await published).diagnostics.length).toBe(12_000);
    expect(order).toEqual(['hover', 'diagnostics']);
  }, 300_000);
});
