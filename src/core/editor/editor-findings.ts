/**
 * What the editor server shows, independent of the protocol: a finding at a line and column range
 * of one document, with the CLI's message and, where there is one, a fix as plain text edits
 * (docs/editor.md). The language server maps these to LSP diagnostics and code actions; nothing
 * here knows about LSP.
 */

export type FindingSeverity = 'error' | 'warning' | 'info';

/**
 * Which check found it. `snippets` is for cited snippets (docs/reference.md#verify-refs): a
 * DocumentCheck in check-document.ts that reports stale snippets, with a "Refresh snippet from
 * <ref>" fix, plugs in there.
 */
export type FindingSource = 'refs' | 'workflow' | 'drift' | 'snippets';

/** A span of a document: 0-based lines, UTF-16 columns (what editors count), end exclusive. */
export interface TextSpan {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

export interface TextReplacement {
  span: TextSpan;
  newText: string;
}

/** A fix the editor applies as it is: "Move ref to <new_ref>", "Replace with <suggestion>", ... */
export interface EditorFix {
  title: string;
  /** Edits of the finding's own document. */
  edits: TextReplacement[];
  /** The client marks it as the one to take first. */
  preferred?: boolean;
}

export interface EditorFinding {
  span: TextSpan;
  severity: FindingSeverity;
  source: FindingSource;
  /** The CLI's machine code (`not_found`, `clamped`, `moved`, ...). */
  code: string;
  /** The CLI's message, detail lines after it. */
  message: string;
  /** The ref as written, when the finding is about one. */
  ref?: string;
  fixes: EditorFix[];
}

/** A span on one line. */
export function lineSpan(line: number, startColumn: number, endColumn: number): TextSpan {
  return { startLine: line, startColumn, endLine: line, endColumn };
}

export function overlaps(a: TextSpan, b: TextSpan): boolean {
  const before = (l1: number, c1: number, l2: number, c2: number) => l1 < l2 || (l1 === l2 && c1 <= c2);
  return before(a.startLine, a.startColumn, b.endLine, b.endColumn) && before(b.startLine, b.startColumn, a.endLine, a.endColumn);
}
