import type { PatternBudget } from '../regex/pattern-search.js';
import type { DocumentKind, LocatedRef } from './document-refs.js';
import type { EditorSession } from './editor-session.js';
import type { EditorFinding } from './editor-findings.js';

/**
 * What every check of an open document shares: the document, its lines and refs found once, and
 * one pass over it (docs/editor.md#what-you-get). Its own file, so that each check (check-document.ts,
 * snippet-findings.ts) names these types without importing another check.
 */

/** A document as the editor holds it: unsaved text counts. */
export interface EditorDocument {
  /** Absolute path (for an unsaved new buffer: where it would be). */
  path: string;
  kind: DocumentKind;
  text: string;
  version: number;
}

/** A document with its lines and refs found once, for every check to share. */
export interface CheckedDocument extends EditorDocument {
  lines: string[];
  refs: LocatedRef[];
}

/**
 * One check of one document version: the pattern budget every ref and citation of it shares (as
 * a CLI run shares one), and the pause a long check takes between slices of work, which lets the
 * server answer other requests (a hover on another document) and says whether to go on.
 */
export interface CheckPass {
  budget: PatternBudget;
  /**
   * Called before each piece of work (a ref, a citation): every SLICE pieces it yields to the
   * event loop; resolves to false when a newer version arrived (stop: the result would be stale).
   */
  step(): Promise<boolean>;
}

/**
 * A check beyond refs and workflows, run on every change with the same inputs: stale cited
 * snippets (docs/snippets.md), with their "Refresh snippet from <ref>" fix. Null: stopped by a
 * step that said a newer version arrived.
 */
export type DocumentCheck = (doc: CheckedDocument, session: EditorSession, pass: CheckPass) => Promise<EditorFinding[] | null>;
