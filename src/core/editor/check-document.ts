import { type Diagnostic, type Finding, isRefcatError } from '../../shared/errors.js';
import { PatternBudget } from '../regex/pattern-search.js';
import { readTextFile } from '../safe-read/read-text-file.js';
import { validateConv } from '../workflow/validate-conv.js';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { documentRefs, type LocatedRef, textLines } from './document-refs.js';
import type { CheckedDocument, CheckPass, DocumentCheck, EditorDocument } from './document-check.js';
import { docSearchDirs, type EditorSession } from './editor-session.js';
import { type EditorFinding, type FindingSeverity, lineSpan } from './editor-findings.js';
import { snippetCheck } from './snippet-findings.js';
import { type DriftNote, driftNotes, placeDriftNotes } from './drift-findings.js';
import { type LspServer, type Published, servedFile, toDiagnostic } from './lsp-protocol.js';
import { notClonedDiagnostic } from '../alias/not-cloned.js';
import { primeSymbolTables } from './symbol-refs.js';

/** The checks beyond refs and workflows (document-check.ts). */
export const EXTRA_CHECKS: DocumentCheck[] = [snippetCheck];

/**
 * Larger documents are not checked as the user types (a log or a data file opened by mistake):
 * one information finding says so and points at `refcat verify refs` (docs/editor.md#limits).
 */
export const MAX_LIVE_DOCUMENT_BYTES = 1024 * 1024;
/** Refs resolved (or citations judged) between two looks at whether the document changed meanwhile. */
const SLICE = 25;

/**
 * Check one document's unsaved text as `verify refs` (docs) or `validate` (`.conv`) would check the
 * file, each finding at the ref's line and columns with the CLI's message. Resolves to null when
 * `isCurrent()` turns false between slices of work: a newer version is on its way and this
 * result would be stale.
 */
export async function checkDocument(doc: EditorDocument, session: EditorSession, isCurrent: () => boolean = () => true): Promise<EditorFinding[] | null> {
  const bytes = Buffer.byteLength(doc.text, 'utf8');
  if (bytes > MAX_LIVE_DOCUMENT_BYTES) {
    const mb = (bytes / (1024 * 1024)).toFixed(1);
    const message = `Not checked as you type: the document is ${mb} MiB (the editor checks documents up to 1 MiB); run refcat verify refs`;
    return [{ span: lineSpan(0, 0, 0), severity: 'info', source: 'refs', code: 'document_too_large', message, fixes: [] }];
  }
  session.startPass();
  const lines = textLines(doc.text);
  const refs = documentRefs(doc.text, doc.kind, session.isKnownAlias, doc.path);
  // Symbol refs resolve from tables parsed in the worker, fetched here without blocking.
  await primeSymbolTables(refs.map((r) => r.ref), doc.path, session, isCurrent);
  if (!isCurrent()) return null;
  // Pinned aliases and revision refs are checked at their version (docs/editor.md#refs-at-a-version).
  await session.prepareVersions(refs.map((r) => ({ ref: r.ref, dirs: docSearchDirs(doc.path, session.root) })));
  if (!isCurrent()) return null;
  const checked: CheckedDocument = { ...doc, lines, refs };
  const findings: EditorFinding[] = [];
  let steps = 0;
  const pass: CheckPass = {
    budget: new PatternBudget(),
    step: async () => {
      if (++steps % SLICE !== 0) return true;
      await new Promise((resolve) => setImmediate(resolve));
      return isCurrent();
    },
  };
  if (doc.kind === 'conv') {
    findings.push(...workflowFindings(checked, session));
  } else {
    const dirs = docSearchDirs(doc.path, session.root);
    for (const r of refs) {
      if (!(await pass.step())) return null;
      const { errors, warnings } = session.checkRef(r.ref, dirs, pass.budget);
      for (const d of errors) findings.push(refFinding(r, 'error', { ...d, ...notCloned(d, r.ref, session) }));
      for (const d of warnings) findings.push(refFinding(r, 'warning', d));
    }
  }
  for (const check of EXTRA_CHECKS) {
    const more = await check(checked, session, pass);
    if (more === null) return null;
    findings.push(...more);
  }
  return isCurrent() ? findings : null;
}

function refFinding(r: LocatedRef, severity: FindingSeverity, d: Diagnostic): EditorFinding {
  return { span: lineSpan(r.line, r.start, r.end), severity, source: 'refs', code: d.code, message: withDetails(d.message, d.details), ref: r.text, fixes: [] };
}

/** A ref into an alias folder that does not exist says `Not cloned`, as `verify refs` does, not `not found`. */
function notCloned(d: { code: string }, ref: string, session: EditorSession) {
  return d.code === 'not_found' || d.code === 'glob_no_match' ? notClonedDiagnostic(ref, session.aliases, session.ctx) : null;
}

function withDetails(message: string, details: readonly string[]): string {
  return [message, ...details].join('\n');
}

/**
 * `validate`'s findings for the workflow in the buffer (its INCLUDEs read from disk), each at the
 * ref it is about or else at its directive's line; findings about the whole file go on line 1.
 * Findings inside INCLUDEd files are shown when those files are open.
 */
function workflowFindings(doc: CheckedDocument, session: EditorSession): EditorFinding[] {
  let result;
  try {
    result = validateConv(doc.path, session.ctx, {
      aliases: session.aliases,
      readFile: (p) => (p === doc.path ? doc.text : readTextFile(p)),
      versions: session.versions,
    });
  } catch (err) {
    if (!isRefcatError(err)) throw err;
    return [{ span: lineSpan(0, 0, 0), severity: 'error', source: 'workflow', code: err.code, message: withDetails(err.message, err.details), fixes: [] }];
  }
  const out: EditorFinding[] = [];
  const place = (f: Finding) => {
    if (f.line === null) return lineSpan(0, 0, doc.lines[0]?.length ?? 0);
    const i = f.line - 1;
    const r = f.ref !== undefined ? doc.refs.find((x) => x.line === i && (x.text === f.ref || x.ref === f.ref)) : undefined;
    if (r) return lineSpan(i, r.start, r.end);
    const text = doc.lines[i] ?? '';
    const indent = text.length - text.trimStart().length;
    return lineSpan(i, indent, text.trimEnd().length);
  };
  for (const [severity, list] of [['error', result.errors], ['warning', result.warnings]] as const) {
    for (const f of list) {
      if (f.file !== doc.path) continue;
      // A ref into a folder not cloned already says `Not cloned` (validate's markNotCloned).
      const finding: EditorFinding = { span: place(f), severity, source: 'workflow', code: f.code, message: withDetails(f.message, f.details), fixes: [] };
      if (f.ref !== undefined) finding.ref = f.ref;
      out.push(finding);
    }
  }
  return out;
}

/** Per open document: drift found on open or save, what was last published, the pending check. */
interface DocState {
  drift: DriftNote[];
  wantDrift: boolean;
  published: Published | null;
  timer: NodeJS.Timeout | null;
}

/** What the diagnostics of `refcat lsp` need of the server beyond LspServer. */
export interface DiagnosticsWiring {
  server: LspServer;
  /** Every open document (a save checks them all again). */
  all(): TextDocument[];
  send(params: PublishDiagnosticsParams): void;
  log(line: string): void;
  /** Quiet time after a change before the document is checked. */
  debounceMs: number;
}

/**
 * The diagnostics of `refcat lsp` (docs/editor.md#how-it-checks): each open document is checked a
 * quiet moment after it changes, its drift found on open and on save, and what is published is
 * only ever the check of the version the client still holds.
 */
export class DiagnosticsPublisher {
  private readonly states = new Map<string, DocState>();

  constructor(private readonly wiring: DiagnosticsWiring) {}

  opened(uri: string): void {
    this.schedule(uri, true);
  }

  changed(uri: string): void {
    this.schedule(uri, false);
  }

  /** A saved file may be a target or a config file of other open documents: check them again. */
  saved(uri: string): void {
    this.wiring.server.session.refresh();
    for (const doc of this.wiring.all()) this.schedule(doc.uri, doc.uri === uri);
  }

  closed(uri: string): void {
    const st = this.states.get(uri);
    if (st?.timer) clearTimeout(st.timer);
    this.states.delete(uri);
    if (servedFile(uri)) this.wiring.send({ uri, diagnostics: [] });
  }

  published(uri: string): Published | null | undefined {
    return this.states.get(uri)?.published;
  }

  /** Pending checks are dropped: the server is ending. */
  stop(): void {
    for (const st of this.states.values()) if (st.timer) clearTimeout(st.timer);
    this.states.clear();
  }

  private schedule(uri: string, drift: boolean): void {
    if (!servedFile(uri)) return;
    let st = this.states.get(uri);
    if (!st) this.states.set(uri, (st = { drift: [], wantDrift: false, published: null, timer: null }));
    st.wantDrift ||= drift;
    if (st.timer) clearTimeout(st.timer);
    const state = st;
    st.timer = setTimeout(() => {
      state.timer = null;
      this.run(uri).catch((err: unknown) => this.wiring.log(`refcat lsp: checking ${uri} failed: ${(err as Error).stack ?? String(err)}`));
    }, this.wiring.debounceMs);
  }

  /** Check the document's current version; publish only if it is still the current one then. */
  private async run(uri: string): Promise<void> {
    const { server } = this.wiring;
    const doc = server.document(uri);
    const file = servedFile(uri);
    const st = this.states.get(uri);
    if (!doc || !file || !st) return;
    const session = server.session;
    const version = doc.version;
    const isCurrent = () => this.states.get(uri) === st && server.document(uri)?.version === version;
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
    this.wiring.send({ uri, version, diagnostics: all.map(toDiagnostic) });
  }
}
