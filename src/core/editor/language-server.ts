import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  CompletionItemKind,
  createProtocolConnection,
  type Diagnostic,
  DiagnosticSeverity,
  ErrorCodes,
  type InitializeParams,
  type InitializeResult,
  type Location,
  type MessageStrategy,
  type Range,
  ResponseError,
  StreamMessageWriter,
  TextDocumentSyncKind,
} from 'vscode-languageserver-protocol/node.js';
import { createConnection, type WatchDog } from 'vscode-languageserver/lib/common/server.js';
import { TextDocuments } from 'vscode-languageserver/lib/common/textDocuments.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Context } from '../../shared/context.js';
import type { ExitCode } from '../../shared/errors.js';
import { checkDocument } from './check-document.js';
import { type CompletionEntry, completeRef } from './complete-ref.js';
import { documentKind, documentRefs, type DocumentKind, lineRefs, refAt, textLines } from './document-refs.js';
import { type DriftNote, driftNotes, placeDriftNotes } from './drift-findings.js';
import { EditorSession } from './editor-session.js';
import { type EditorFinding, type EditorFix, overlaps, type TextSpan } from './editor-findings.js';
import { END_OF_INPUT, InputReader } from './input-reader.js';
import { hoverMarkdown, refTarget, replacementFixes } from './ref-navigation.js';
import { primeSymbolTables, symbolCompletions } from './symbol-refs.js';
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

/** Per open document: drift found on open or save, what was last published, the pending check. */
interface DocState {
  drift: DriftNote[];
  wantDrift: boolean;
  published: { version: number; findings: EditorFinding[] } | null;
  timer: NodeJS.Timeout | null;
}

/**
 * `refcat lsp` (docs/editor.md): a Language Server Protocol server for markdown and `.conv`
 * documents over the given streams. Resolves with the exit code once the client sends `exit`
 * (0 after `shutdown`, 1 without) or hangs up.
 */
export function serveLanguageServer(options: LanguageServerOptions): Promise<ExitCode> {
  const log = options.log ?? (() => {});
  const debounceMs = options.debounceMs ?? 120;
  const reader = new InputReader(options.input);
  const writer = new StreamMessageWriter(options.output);
  let shutdown = false;
  // Symbol refs are parsed in a worker, replaced when its heap grows large (docs/editor.md#refs-by-name);
  // without a built worker, here, optimized as a long-lived process may.
  const parser = parseOffThread({ ...options.parser, onReplace: (bytes) => log(`refcat lsp: parser worker replaced (heap ${Math.round(bytes / 2 ** 20)} MiB)`) });
  if (!parser) configureSymbolEngine({ tierUp: true });
  let finish: (code: ExitCode) => void = () => {};
  const done = new Promise<ExitCode>((resolve) => {
    finish = (code) => {
      for (const st of states.values()) if (st.timer) clearTimeout(st.timer);
      states.clear();
      stopParsingOffThread(parser);
      resolve(code);
    };
  });
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
      finish(code === 0 ? 0 : 1);
    },
  };
  // A hang-up is decided in its turn, after every message read before it: a client may close its
  // end right after `exit`, and that `exit` still decides the code (docs/reference.md#refcat-lsp).
  const messageStrategy: MessageStrategy = {
    handleMessage: (message, next) => (message === END_OF_INPUT ? finish(shutdown ? 0 : 1) : next(message)),
  };
  const connection = createConnection((logger) => createProtocolConnection(reader, writer, logger, { messageStrategy }), watchDog);
  reader.onError((err) => log(`refcat lsp: ${err.message}`));

  const documents = new TextDocuments(TextDocument);
  const states = new Map<string, DocState>();
  let session = new EditorSession(options.ctx);

  const fileOf = (uri: string): { path: string; kind: DocumentKind } | null => {
    if (typeof uri !== 'string' || !uri.startsWith('file:')) return null;
    let file: string;
    try {
      file = fileURLToPath(uri);
    } catch {
      return null;
    }
    const kind = documentKind(file);
    return kind ? { path: file, kind } : null;
  };
  const stateOf = (uri: string): DocState => {
    let st = states.get(uri);
    if (!st) states.set(uri, (st = { drift: [], wantDrift: false, published: null, timer: null }));
    return st;
  };

  const schedule = (uri: string, drift: boolean) => {
    if (!fileOf(uri)) return;
    const st = stateOf(uri);
    st.wantDrift ||= drift;
    if (st.timer) clearTimeout(st.timer);
    st.timer = setTimeout(() => {
      st.timer = null;
      run(uri).catch((err: unknown) => log(`refcat lsp: checking ${uri} failed: ${(err as Error).stack ?? String(err)}`));
    }, debounceMs);
  };

  /** Check the document's current version; publish only if it is still the current one then. */
  const run = async (uri: string) => {
    const doc = documents.get(uri);
    const file = fileOf(uri);
    const st = states.get(uri);
    if (!doc || !file || !st) return;
    const version = doc.version;
    const isCurrent = () => states.get(uri) === st && documents.get(uri)?.version === version;
    const text = doc.getText();
    const findings = await checkDocument({ path: file.path, kind: file.kind, text, version }, session, isCurrent);
    if (findings === null || !isCurrent()) return;
    const lines = textLines(text);
    if (st.wantDrift) {
      st.wantDrift = false;
      st.drift = findings.some((f) => f.code === 'document_too_large')
        ? []
        : await driftNotes({ path: file.path, kind: file.kind, text, version, lines, refs: documentRefs(text, file.kind, session.isKnownAlias, file.path) }, session);
      if (!isCurrent()) return;
    }
    // A broken ref has its error: its unknown verdict (not there at the base either) would say it twice.
    const at = (f: EditorFinding) => `${f.span.startLine}:${f.span.startColumn}\0${f.ref}`;
    const broken = new Set(findings.filter((f) => f.severity === 'error' && f.ref).map(at));
    const drift = placeDriftNotes(st.drift, lines).filter((f) => f.code !== 'unknown' || !broken.has(at(f)));
    const all = [...findings, ...drift].sort((x, y) => x.span.startLine - y.span.startLine || x.span.startColumn - y.span.startColumn);
    st.published = { version, findings: all };
    void connection.sendDiagnostics({ uri, version, diagnostics: all.map(toDiagnostic) });
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const root = rootOf(params) ?? options.ctx.cwd;
    session = new EditorSession({ ...options.ctx, cwd: root });
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        completionProvider: { triggerCharacters: ['@', '/', ':', 'L', '#', '.'] },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      },
      serverInfo: { name: 'refcat' },
    };
  });

  documents.onDidOpen((e) => schedule(e.document.uri, true));
  documents.onDidChangeContent((e) => schedule(e.document.uri, false));
  documents.onDidSave((e) => {
    // A saved file may be a target or a config file of other open documents: check them again.
    session.refresh();
    for (const doc of documents.all()) schedule(doc.uri, doc.uri === e.document.uri);
  });
  documents.onDidClose((e) => {
    const st = states.get(e.document.uri);
    if (st?.timer) clearTimeout(st.timer);
    states.delete(e.document.uri);
    if (fileOf(e.document.uri)) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  /** The line under a request's position, the document's path and kind; null for a document not served. */
  const at = (params: unknown) => {
    const p = positionParams(params);
    const doc = documents.get(p.uri);
    const file = fileOf(p.uri);
    if (!doc || !file) return null;
    const raw = doc.getText({ start: { line: p.line, character: 0 }, end: { line: p.line + 1, character: 0 } });
    const lineText = raw.replace(/\r?\n$/, '');
    const ref = refAt(lineRefs(lineText, p.line, file.kind, session.isKnownAlias), p.character);
    return { ...p, file, lineText, ref };
  };

  connection.onHover(async (params) => {
    const here = at(params);
    if (!here?.ref) return null;
    await primeSymbolTables([here.ref.ref], here.file.path, session);
    return { contents: { kind: 'markdown', value: hoverMarkdown(here.ref, here.file.path, session) }, range: toRange({ startLine: here.line, startColumn: here.ref.start, endLine: here.line, endColumn: here.ref.end }) };
  });

  connection.onDefinition(async (params): Promise<Location[] | null> => {
    const here = at(params);
    if (!here?.ref) return null;
    await primeSymbolTables([here.ref.ref], here.file.path, session);
    const targets = refTarget(here.ref, here.file.path, session);
    return targets.length === 0 ? null : targets.map((t) => ({ uri: pathToFileURL(t.file).href, range: { start: { line: t.line, character: 0 }, end: { line: t.line, character: 0 } } }));
  });

  connection.onCompletion(async (params) => {
    const here = at(params);
    if (!here) return null;
    const column = Math.min(here.character, here.lineText.length);
    const { entries: paths, incomplete } = completeRef(here.lineText, column, here.file.path, here.file.kind, session);
    const entries = [...paths, ...(await symbolCompletions(here.lineText, column, here.file.path, here.file.kind, session))];
    const items: CompletionItem[] = entries.map((e, i) => ({
      label: e.label,
      kind: completionKind(e),
      ...(e.detail ? { detail: e.detail } : {}),
      sortText: String(i).padStart(4, '0'),
      textEdit: { range: toRange({ startLine: here.line, startColumn: e.from, endLine: here.line, endColumn: e.to }), newText: e.newText },
    }));
    return { isIncomplete: incomplete, items };
  });

  connection.onCodeAction((params): CodeAction[] => {
    const uri = textDocumentUri(params);
    const range = rangeParam((params as { range?: unknown }).range);
    const doc = documents.get(uri);
    const file = fileOf(uri);
    const published = states.get(uri)?.published;
    // Spans of an older version would edit the wrong characters.
    if (!doc || !file || !published || published.version !== doc.version) return [];
    const actions: CodeAction[] = [];
    for (const f of published.findings) {
      if (!overlaps(f.span, range)) continue;
      const fixes: EditorFix[] = [...f.fixes, ...replacementFixes(f, file.path, session)];
      for (const fix of fixes) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [toDiagnostic(f)],
          isPreferred: fix.preferred ?? false,
          edit: { changes: { [uri]: fix.edits.map((e) => ({ range: toRange(e.span), newText: e.newText })) } },
        });
      }
    }
    return actions;
  });

  documents.listen(connection);
  connection.listen();
  return done;
}

function rootOf(params: InitializeParams): string | null {
  const uri = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? null;
  if (typeof uri === 'string' && uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      return null;
    }
  }
  return typeof params.rootPath === 'string' && path.isAbsolute(params.rootPath) ? params.rootPath : null;
}

/** What a client shows beside an entry: a declaration's own kind for a symbol path. */
const SYMBOL_ITEM_KINDS: Record<string, CompletionItemKind> = {
  function: CompletionItemKind.Function,
  method: CompletionItemKind.Method,
  class: CompletionItemKind.Class,
  struct: CompletionItemKind.Struct,
  enum: CompletionItemKind.Enum,
  interface: CompletionItemKind.Interface,
  protocol: CompletionItemKind.Interface,
  trait: CompletionItemKind.Interface,
  object: CompletionItemKind.Class,
  type: CompletionItemKind.TypeParameter,
  module: CompletionItemKind.Module,
  constant: CompletionItemKind.Constant,
  variable: CompletionItemKind.Variable,
  property: CompletionItemKind.Property,
  field: CompletionItemKind.Field,
  enum_case: CompletionItemKind.EnumMember,
};

function completionKind(e: CompletionEntry): CompletionItemKind {
  if (e.kind === 'symbol') return SYMBOL_ITEM_KINDS[e.symbolKind ?? ''] ?? CompletionItemKind.Reference;
  return e.kind === 'folder' ? CompletionItemKind.Folder : e.kind === 'file' ? CompletionItemKind.File : CompletionItemKind.Value;
}

function toRange(s: TextSpan): Range {
  return { start: { line: s.startLine, character: s.startColumn }, end: { line: s.endLine, character: s.endColumn } };
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

function toDiagnostic(f: EditorFinding): Diagnostic {
  return { range: toRange(f.span), severity: SEVERITY[f.severity], source: 'refcat', code: f.code, message: f.message };
}

/** Malformed params are the client's mistake: an InvalidParams error, never a crash. */
function invalid(what: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `Invalid params: ${what}`);
}

function textDocumentUri(params: unknown): string {
  const uri = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument?.uri;
  if (typeof uri !== 'string') throw invalid('textDocument.uri must be a string');
  return uri;
}

function isIndex(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= 0;
}

function positionParams(params: unknown): { uri: string; line: number; character: number } {
  const uri = textDocumentUri(params);
  const pos = (params as { position?: { line?: unknown; character?: unknown } }).position;
  if (!pos || !isIndex(pos.line) || !isIndex(pos.character)) throw invalid('position must have whole line and character numbers >= 0');
  return { uri, line: pos.line, character: pos.character };
}

function rangeParam(range: unknown): TextSpan {
  const r = range as { start?: { line?: unknown; character?: unknown }; end?: { line?: unknown; character?: unknown } } | null;
  const s = r?.start;
  const e = r?.end;
  if (!s || !e || !isIndex(s.line) || !isIndex(s.character) || !isIndex(e.line) || !isIndex(e.character)) throw invalid('range must have a start and an end position');
  return { startLine: s.line, startColumn: s.character, endLine: e.line, endColumn: e.character };
}
