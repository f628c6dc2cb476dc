import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProtocolConnection, type Hover, type PublishDiagnosticsParams, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';
import { BIN } from '../helpers/cli.js';
import { tmpDir } from '../helpers/tmp.js';

// The built bin's `refcat lsp` reads symbol refs through its bundled parser worker
// (dist/bin/parse-worker.cjs): a diagnostic with the did-you-mean, a hover, then a clean exit.
describe('refcat lsp: symbol refs from the bundle', () => {
  it('diagnoses, hovers and exits 0 after shutdown', async () => {
    const root = tmpDir({
      'src/app.py': 'class Store:\n    def save(self):\n        return 1\n',
      'docs/a.md': 'See @src/app.py#Store.save and @src/app.py#Store.sve.\n',
    });
    const child = spawn(process.execPath, [BIN, 'lsp', '--stdio'], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: root, SDQCTL_HOME: path.join(root, '.sdqctl') } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const diagnostics = new Promise<PublishDiagnosticsParams>((resolve) => client.onNotification('textDocument/publishDiagnostics', resolve));
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} });
    await client.sendNotification('initialized', {});
    const uri = pathToFileURL(path.join(root, 'docs/a.md')).href;
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: 'See @src/app.py#Store.save and @src/app.py#Store.sve.\n' } });
    const p = await diagnostics;
    expect(p.diagnostics.map((d) => d.message)).toEqual(["Symbol 'Store.sve' not found in @src/app.py#Store.sve (did you mean Store.save?)"]);
    const h = (await client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 8 } })) as Hover;
    expect((h.contents as { value: string }).value).toContain('2 |     def save(self):\n3 |         return 1\n');
    await client.sendRequest('shutdown');
    await client.sendNotification('exit');
    expect(await exited).toBe(0);
    client.dispose();
    expect(stderr).toBe('');
  }, 120_000);
});
