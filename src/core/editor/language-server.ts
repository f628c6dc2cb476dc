import {
  CodeActionKind,
  createProtocolConnection,
  type InitializeParams,
  type InitializeResult,
  type MessageStrategy,
  StreamMessageWriter,
  TextDocumentSyncKind,
} from 'vscode-languageserver-protocol/node.js';
import { type Connection, createConnection, type WatchDog } from 'vscode-languageserver/lib/common/server.js';
import { TextDocuments } from 'vscode-languageserver/lib/common/textDocuments.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Context } from '../../shared/context.js';
import type { ExitCode } from '../../shared/errors.js';
import { DiagnosticsPublisher } from './check-document.js';
import { completionHandler } from './complete-ref.js';
import { EditorSession } from './editor-session.js';
import { END_OF_INPUT, InputReader } from './input-reader.js';
import { type LspServer, rootOf } from './lsp-protocol.js';
import { codeActionHandler } from './quick-fixes.js';
import { definitionHandler, hoverHandler } from './ref-navigation.js';
import { type DeclarationWorkerOptions, parseOffThread, stopParsingOffThread } from '../symbols/declaration-worker.js';
import { configureSymbolEngine } from '../symbols/grammar-loader.js';

export interface LanguageServerOptions {
  /** The root is the client's workspace folder; `ctx.cwd` when the client names none. */
  ctx: Context;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Where the server's own troubles go (the CLI: stderr, which LSP clients log). */
  log?: (line: string) => void;
  /** Quiet time after a change before the document is checked (default 120 ms). */
  debounceMs?: number;
  /** The parser worker's heap threshold and module (docs/editor.md#refs-by-name); defaults for a server. */
  parser?: Pick<DeclarationWorkerOptions, 'maxHeapBytes' | 'workerFile' | 'tierUp'>;
}

/**
 * The requests the server answers, each by the capability that serves it: the wiring below is the
 * same for all (docs/editor.md#what-you-get).
 */
const REQUESTS = {
  hover: hoverHandler,
  definition: definitionHandler,
  completion: completionHandler,
  codeAction: codeActionHandler,
};

/** What the server tells the client it does. */
const CAPABILITIES: InitializeResult['capabilities'] = {
  textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
  hoverProvider: true,
  definitionProvider: true,
  completionProvider: { triggerCharacters: ['@', '/', ':', 'L', '#', '.'] },
  codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
};

/**
 * `refcat lsp` (docs/editor.md): a Language Server Protocol server for markdown and `.conv`
 * documents over the given streams. Resolves with the exit code once the client sends `exit`
 * (0 after `shutdown`, 1 without) or hangs up.
 */
export function serveLanguageServer(options: LanguageServerOptions): Promise<ExitCode> {
  const log = options.log ?? (() => {});
  // Symbol refs are parsed in a worker, replaced when its heap grows large (docs/editor.md#refs-by-name);
  // without a built worker, here, optimized as a long-lived process may.
  const parser = parseOffThread({ ...options.parser, onReplace: (bytes) => log(`refcat lsp: parser worker replaced (heap ${Math.round(bytes / 2 ** 20)} MiB)`) });
  if (!parser) configureSymbolEngine({ tierUp: true });
  let finish: (code: ExitCode) => void = () => {};
  const done = new Promise<ExitCode>((resolve) => {
    finish = (code) => {
      diagnostics.stop();
      stopParsingOffThread(parser);
      session.close();
      resolve(code);
    };
  });
  const connection = openConnection(options, log, (code) => finish(code));

  const documents = new TextDocuments(TextDocument);
  let session = new EditorSession(options.ctx);
  const server: LspServer = {
    get session() {
      return session;
    },
    document: (uri) => documents.get(uri),
    published: (uri) => diagnostics.published(uri),
  };
  const diagnostics = new DiagnosticsPublisher({
    server,
    all: () => documents.all(),
    send: (params) => void connection.sendDiagnostics(params),
    log,
    debounceMs: options.debounceMs ?? 120,
  });

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    session = new EditorSession({ ...options.ctx, cwd: rootOf(params) ?? options.ctx.cwd });
    return { capabilities: CAPABILITIES, serverInfo: { name: 'refcat' } };
  });
  documents.onDidOpen((e) => diagnostics.opened(e.document.uri));
  documents.onDidChangeContent((e) => diagnostics.changed(e.document.uri));
  documents.onDidSave((e) => diagnostics.saved(e.document.uri));
  documents.onDidClose((e) => diagnostics.closed(e.document.uri));
  connection.onHover((params) => REQUESTS.hover(params, server));
  connection.onDefinition((params) => REQUESTS.definition(params, server));
  connection.onCompletion((params) => REQUESTS.completion(params, server));
  connection.onCodeAction((params) => REQUESTS.codeAction(params, server));

  documents.listen(connection);
  connection.listen();
  return done;
}

/** The connection over the given streams; `end` is called once with the exit code. */
function openConnection(options: LanguageServerOptions, log: (line: string) => void, end: (code: ExitCode) => void): Connection {
  const reader = new InputReader(options.input);
  const writer = new StreamMessageWriter(options.output);
  let shutdown = false;
  // The library's own watchdog would end the whole process: this one only ends the serve call.
  const watchDog: WatchDog = {
    initialize: () => {},
    get shutdownReceived() {
      return shutdown;
    },
    set shutdownReceived(value: boolean) {
      shutdown = value;
    },
    exit: (code) => {
      connection.dispose();
      end(code === 0 ? 0 : 1);
    },
  };
  // A hang-up is decided in its turn, after every message read before it: a client may close its
  // end right after `exit`, and that `exit` still decides the code (docs/reference.md#refcat-lsp).
  const messageStrategy: MessageStrategy = {
    handleMessage: (message, next) => (message === END_OF_INPUT ? end(shutdown ? 0 : 1) : next(message)),
  };
  const connection = createConnection((logger) => createProtocolConnection(reader, writer, logger, { messageStrategy }), watchDog);
  reader.onError((err) => log(`refcat lsp: ${err.message}`));
  return connection;
}
