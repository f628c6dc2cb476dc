import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Diagnostic, DiagnosticSeverity, ErrorCodes, type InitializeParams, type Range, ResponseError } from 'vscode-languageserver-protocol/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { documentKind, type DocumentKind, type LocatedRef, lineRefs, refAt } from './document-refs.js';
import type { EditorSession } from './editor-session.js';
import type { EditorFinding, TextSpan } from './editor-findings.js';

/**
 * What the handlers of `refcat lsp` share (docs/editor.md): the server as one handler sees it, and
 * the conversions between the protocol's shapes and the editor's own. language-server.ts wires the
 * handlers; each lives with the capability it serves (ref-navigation.ts, complete-ref.ts,
 * check-document.ts, quick-fixes.ts).
 */

/** A document the server serves: a markdown or `.conv` file on disk (or to be). */
export interface ServedFile {
  path: string;
  kind: DocumentKind;
}

/** Findings as last sent for one version of a document. */
export interface Published {
  version: number;
  findings: EditorFinding[];
}

export interface LspServer {
  /** The session of the client's workspace: replaced at `initialize`, so read it at each request. */
  readonly session: EditorSession;
  /** The open document at `uri`, or undefined. */
  document(uri: string): TextDocument | undefined;
  /** What the diagnostics last published for `uri`, if anything. */
  published(uri: string): Published | null | undefined;
}

/** A `file:` uri of a markdown or `.conv` document, or null: other documents are not served. */
export function servedFile(uri: string): ServedFile | null {
  if (typeof uri !== 'string' || !uri.startsWith('file:')) return null;
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return null;
  }
  const kind = documentKind(file);
  return kind ? { path: file, kind } : null;
}

/** The workspace folder the client names, or null (the server then keeps its own root). */
export function rootOf(params: InitializeParams): string | null {
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

/** A request's position, its line's text and the ref under it. */
export interface Here {
  uri: string;
  line: number;
  character: number;
  file: ServedFile;
  lineText: string;
  ref: LocatedRef | undefined;
}

/** The line under a request's position, the document's path and kind; null for a document not served. */
export function here(params: unknown, server: LspServer): Here | null {
  const p = positionParams(params);
  const doc = server.document(p.uri);
  const file = servedFile(p.uri);
  if (!doc || !file) return null;
  const raw = doc.getText({ start: { line: p.line, character: 0 }, end: { line: p.line + 1, character: 0 } });
  const lineText = raw.replace(/\r?\n$/, '');
  const ref = refAt(lineRefs(lineText, p.line, file.kind, server.session.isKnownAlias), p.character);
  return { ...p, file, lineText, ref };
}

export function toRange(s: TextSpan): Range {
  return { start: { line: s.startLine, character: s.startColumn }, end: { line: s.endLine, character: s.endColumn } };
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

export function toDiagnostic(f: EditorFinding): Diagnostic {
  return { range: toRange(f.span), severity: SEVERITY[f.severity], source: 'refcat', code: f.code, message: f.message };
}

/** Malformed params are the client's mistake: an InvalidParams error, never a crash. */
function invalid(what: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `Invalid params: ${what}`);
}

export function textDocumentUri(params: unknown): string {
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

export function rangeParam(range: unknown): TextSpan {
  const r = range as { start?: { line?: unknown; character?: unknown }; end?: { line?: unknown; character?: unknown } } | null;
  const s = r?.start;
  const e = r?.end;
  if (!s || !e || !isIndex(s.line) || !isIndex(s.character) || !isIndex(e.line) || !isIndex(e.character)) throw invalid('range must have a start and an end position');
  return { startLine: s.line, startColumn: s.character, endLine: e.line, endColumn: e.character };
}
