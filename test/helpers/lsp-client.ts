import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node.js';
import { runCli } from '../../src/cli/run.js';
import { testCtx } from './tmp.js';

/** Generous: a busy 2-core CI machine. */
const WAIT_MS = 60_000;

export interface LspSession {
  client: ProtocolConnection;
  /** Every publishDiagnostics received, in order. */
  published: PublishDiagnosticsParams[];
  stderr: () => string;
  uri: (rel: string) => string;
  open: (rel: string, text?: string, languageId?: string) => string;
  change: (uri: string, version: number, text: string) => void;
  /** The first publish (already received or to come) for `uri` that `pred` accepts. */
  diagnostics: (uri: string, pred?: (p: PublishDiagnosticsParams) => boolean) => Promise<PublishDiagnosticsParams>;
  /** shutdown + exit; resolves with the command's exit code. */
  stop: () => Promise<number>;
  exitCode: Promise<number>;
}

/**
 * `refcat lsp` run in this process through the CLI (the command and the core server), talking
 * to the protocol's own client side over a pair of streams.
 */
export async function startLsp(root: string, env: Record<string, string> = {}): Promise<LspSession> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let stderr = '';
  const exitCode = runCli(['lsp'], {
    ctx: testCtx(root, env),
    stdout: (chunk) => void toClient.write(chunk),
    stderr: (s) => void (stderr += s),
    stdin: toServer,
    color: false,
  });
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const published: PublishDiagnosticsParams[] = [];
  const waiters: (() => void)[] = [];
  client.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    for (const w of waiters.splice(0)) w();
  });
  client.listen();
  await client.sendRequest('initialize', { processId: null, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await client.sendNotification('initialized', {});
  const uri = (rel: string) => pathToFileURL(path.join(root, rel)).href;
  return {
    client,
    published,
    stderr: () => stderr,
    uri,
    open: (rel, text, languageId = rel.endsWith('.conv') ? 'conv' : 'markdown') => {
      const u = uri(rel);
      const content = text ?? fs.readFileSync(path.join(root, rel), 'utf8');
      void client.sendNotification('textDocument/didOpen', { textDocument: { uri: u, languageId, version: 1, text: content } });
      return u;
    },
    change: (u, version, text) => {
      void client.sendNotification('textDocument/didChange', { textDocument: { uri: u, version }, contentChanges: [{ text }] });
    },
    diagnostics: (u, pred = () => true) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${u} in time; got ${JSON.stringify(published)}`)), WAIT_MS);
        const look = () => {
          const hit = published.find((p) => p.uri === u && pred(p));
          if (hit) {
            clearTimeout(timer);
            resolve(hit);
          } else {
            waiters.push(look);
          }
        };
        look();
      }),
    stop: async () => {
      await client.sendRequest('shutdown');
      await client.sendNotification('exit');
      const code = await exitCode;
      client.dispose();
      return code;
    },
    exitCode,
  };
}
