import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProtocolConnection, type Hover, type PublishDiagnosticsParams, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node.js';
import { serveLanguageServer } from '../../src/core/editor/language-server.js';
import { testCtx, tmpDir } from '../helpers/tmp.js';

// The editor server with a parser-heap threshold below the worker's starting heap: every parse
// retires its worker, so each answer below comes from a fresh one and must still be right.
describe('refcat lsp replaces its parser worker past the heap threshold', () => {
  it('answers stay right across replacements, each one logged', async () => {
    const root = tmpDir({
      'src/a.py': 'def alpha():\n    pass\n',
      'src/b.ts': 'export function beta() {}\n',
      'src/c.go': 'package c\n\nfunc Gamma() {}\n',
      'docs/x.md': 'See @src/a.py#alpa, @src/b.ts#bta and @src/c.go#Gamm; @src/a.py#alpha.\n',
    });
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const logged: string[] = [];
    const done = serveLanguageServer({ ctx: testCtx(root), input: toServer, output: toClient, log: (l) => logged.push(l), parser: { maxHeapBytes: 1024, tierUp: false } });
    const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    const published = new Promise<PublishDiagnosticsParams>((resolve) => client.onNotification('textDocument/publishDiagnostics', resolve));
    client.listen();
    await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: {} });
    await client.sendNotification('initialized', {});
    const uri = pathToFileURL(path.join(root, 'docs/x.md')).href;
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: 'See @src/a.py#alpa, @src/b.ts#bta and @src/c.go#Gamm; @src/a.py#alpha.\n' } });
    expect((await published).diagnostics.map((d) => d.message)).toEqual([
      "Symbol 'alpa' not found in @src/a.py#alpa (did you mean alpha?)",
      "Symbol 'bta' not found in @src/b.ts#bta (did you mean beta?)",
      "Symbol 'Gamm' not found in @src/c.go#Gamm (did you mean Gamma?)",
    ]);
    const h = (await client.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 60 } })) as Hover;
    expect((h.contents as { value: string }).value).toContain('1 | def alpha():\n2 |     pass\n');
    // One parse per file (tables are cached), each by a worker then retired.
    expect(logged.filter((l) => /^refcat lsp: parser worker replaced \(heap \d+ MiB\)$/.test(l))).toHaveLength(3);
    await client.sendRequest('shutdown');
    await client.sendNotification('exit');
    expect(await done).toBe(0);
    client.dispose();
  });
});
