import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { refcatAsync } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

/** One LSP message as the client frames it on the wire. */
function frame(message: object): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

const initialize = (root: string) => frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} } });
const shutdown = frame({ id: 2, method: 'shutdown' });
const exit = frame({ method: 'exit' });

// The whole session is written at once and stdin ends with it, as clients that close the pipe
// right after `exit` do: the exit code must not depend on which the server notices first.
describe('refcat lsp exit code with stdin ended right after the last message (docs/reference.md#refcat-lsp)', () => {
  it.each([
    ['shutdown then exit', (root: string) => initialize(root) + shutdown + exit, 0],
    ['exit without shutdown', (root: string) => initialize(root) + exit, 1],
    ['stdin closed without shutdown or exit', (root: string) => initialize(root), 1],
    ['stdin closed after shutdown, without exit', (root: string) => initialize(root) + shutdown, 0],
  ])('%s: exit code %i', async (_name, session, code) => {
    const root = tmpDir({ 'docs/a.md': 'See @docs/a.md\n' });
    const r = await refcatAsync(['lsp'], { cwd: root, input: session(root) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(code);
    expect(r.stdout).toContain('"id":1,"result":{"capabilities"');
  }, 120_000);

  it('answers shutdown before it exits', async () => {
    const root = tmpDir();
    const r = await refcatAsync(['lsp'], { cwd: root, input: initialize(root) + shutdown + exit });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/\{"jsonrpc":"2\.0","id":2,"result":null\}$/);
  }, 120_000);
});
