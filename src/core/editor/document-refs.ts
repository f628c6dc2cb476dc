import { fencedBlocks } from '../snippets/fenced-blocks.js';
import { findDocRefs, refsInLine } from '../doc-refs/find-doc-refs.js';
import { splitRefs } from '../workflow/conv-refs.js';

/** How a document's refs are found: as `verify refs` finds them in docs, or as `validate` in workflows. */
export type DocumentKind = 'markdown' | 'text' | 'conv';

/** A ref of a document, where it is written. */
export interface LocatedRef {
  /** 0-based line. */
  line: number;
  /** UTF-16 columns of the ref as written, end exclusive. */
  start: number;
  end: number;
  /** The ref as written. */
  text: string;
  /** What is checked (a heading anchor dropped), as `verify refs` checks it. */
  ref: string;
  /** A REFCAT ref or a CONTEXT pattern of a workflow (checked by the workflow's rules). */
  workflow?: 'REFCAT' | 'CONTEXT' | 'CONTEXT-OPTIONAL';
}

export function documentKind(file: string): DocumentKind | null {
  const lower = file.toLowerCase();
  if (lower.endsWith('.conv')) return 'conv';
  if (/\.(md|markdown|txt)$/.test(lower)) return 'markdown';
  if (/\.(ya?ml)$/.test(lower)) return 'text';
  return null;
}

/** The lines of a text, without their terminators (`\n` or `\r\n`). */
export function textLines(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * Every ref of a document with its columns. Docs: the refs `verify refs` finds (fenced examples
 * skipped, the fences of a `.md` file as CommonMark reads them); workflows: the refs of REFCAT lines
 * and the `@pattern` of CONTEXT lines, as `validate` reads them.
 */
export function documentRefs(text: string, kind: DocumentKind, isKnownAlias: (name: string) => boolean, file = ''): LocatedRef[] {
  const lines = textLines(text);
  if (kind === 'conv') return lines.flatMap((l, i) => workflowLineRefs(l, i));
  const options = { markdown: kind === 'markdown', isKnownAlias };
  const commonmark = /\.(md|markdown)$/i.test(file);
  const found = findDocRefs(text, commonmark ? { ...options, fenced: fencedBlocks(text) } : options);
  // findDocRefs reads each line with refsInLine: the same call on the same line gives the columns.
  const out: LocatedRef[] = [];
  let lastLine = -1;
  let inLine: ReturnType<typeof refsInLine> = [];
  let k = 0;
  for (const r of found) {
    const i = r.line - 1;
    if (i !== lastLine) {
      lastLine = i;
      inLine = refsInLine(lines[i] ?? '', options);
      k = 0;
    }
    const at = inLine[k++]?.at ?? 0;
    out.push({ line: i, start: at, end: at + r.text.length, text: r.text, ref: r.ref });
  }
  return out;
}

/**
 * The refs of one line, for hover, definition and code actions at a position: no fence state is
 * known there, so a ref inside a fenced example counts too (it is what the user points at).
 */
export function lineRefs(lineText: string, line: number, kind: DocumentKind, isKnownAlias: (name: string) => boolean): LocatedRef[] {
  if (kind === 'conv') {
    const refs = workflowLineRefs(lineText, line);
    if (refs.length > 0 || /^\s*(REFCAT|CONTEXT|CONTEXT-OPTIONAL)(\s|$)/.test(lineText)) return refs;
  }
  return refsInLine(lineText, { markdown: false, isKnownAlias }).map((r) => ({ line, start: r.at, end: r.at + r.text.length, text: r.text, ref: r.ref }));
}

/** The ref under a column, if any. */
export function refAt(refs: readonly LocatedRef[], column: number): LocatedRef | undefined {
  return refs.find((r) => column >= r.start && column <= r.end);
}

const WORKFLOW_LINE = /^(\s*)(REFCAT|CONTEXT-OPTIONAL|CONTEXT)(\s+)(.*)$/;

function workflowLineRefs(lineText: string, line: number): LocatedRef[] {
  const m = WORKFLOW_LINE.exec(lineText);
  if (!m) return [];
  const kind = m[2] as 'REFCAT' | 'CONTEXT' | 'CONTEXT-OPTIONAL';
  const valueStart = m[1]!.length + m[2]!.length + m[3]!.length;
  const value = m[4]!.trimEnd();
  if (kind !== 'REFCAT') {
    return value.startsWith('@') ? [{ line, start: valueStart, end: valueStart + value.length, text: value, ref: value, workflow: kind }] : [];
  }
  const out: LocatedRef[] = [];
  let from = 0;
  for (const ref of splitRefs(value)) {
    const at = value.indexOf(ref, from);
    from = at + ref.length;
    out.push({ line, start: valueStart + at, end: valueStart + from, text: ref, ref, workflow: kind });
  }
  return out;
}
