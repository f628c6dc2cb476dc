import path from 'node:path';
import { isRefcatError } from '../../shared/errors.js';
import { findUp } from '../../shared/paths.js';
import { changedText } from '../drift/changed-text.js';
import { detectDrift } from '../drift/detect-drift.js';
import { type DriftEntry, type DriftRefInput, driftAlias } from '../drift/drift-types.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { CheckedDocument } from './document-check.js';
import { docSearchDirs, type EditorSession } from './editor-session.js';
import { type EditorFinding, lineSpan } from './editor-findings.js';

/**
 * A drift finding remembered with the text of its line, so that it follows the line while the user
 * types (drift is computed on open and save only) and goes away when the line is edited.
 */
export interface DriftNote {
  lineText: string;
  finding: EditorFinding;
}

/**
 * Drift of the document's line refs (docs/drift.md), the CLI's verdicts as findings: moved is a
 * warning with a "Move ref to <new_ref>" fix, changed and deleted are errors, unknown a warning.
 * Nothing when the document's folder is not in a git repository. Git runs a bounded number of
 * times per call, as for `verify refs --drift`; a missing git is an empty answer, not a failure.
 */
export async function driftNotes(doc: CheckedDocument, session: EditorSession): Promise<DriftNote[]> {
  if (!findUp(path.dirname(doc.path), '.git')) return [];
  const inputs: DriftRefInput[] = [];
  const byInput = new Map<DriftRefInput, (typeof doc.refs)[number]>();
  for (const r of doc.refs) {
    try {
      const spec = parseRef(r.ref);
      if (spec.selector?.kind !== 'range') continue;
      const alias = driftAlias(spec, session.aliases);
      if (alias === undefined) continue;
      const searchDirs = alias ? [alias.target] : r.workflow ? [path.dirname(doc.path), session.root] : docSearchDirs(doc.path, session.root);
      const input: DriftRefInput = { file: doc.path, line: r.line + 1, ref: r.text, spec, alias, searchDirs };
      inputs.push(input);
      byInput.set(input, r);
    } catch (err) {
      if (!isRefcatError(err)) throw err; // a broken ref is reported by the live check
    }
  }
  if (inputs.length === 0) return [];
  let entries: DriftEntry[];
  try {
    entries = (await detectDrift(inputs, session.ctx)).entries;
  } catch (err) {
    if (!isRefcatError(err)) throw err;
    return [];
  }
  const notes: DriftNote[] = [];
  entries.forEach((e, i) => {
    const r = byInput.get(inputs[i]!)!;
    const finding = driftFinding(e, lineSpan(r.line, r.start, r.end));
    if (finding) notes.push({ lineText: doc.lines[r.line] ?? '', finding });
  });
  return notes;
}

/** The notes whose line is still there as it was, moved to where that line is now. */
export function placeDriftNotes(notes: readonly DriftNote[], lines: readonly string[]): EditorFinding[] {
  const out: EditorFinding[] = [];
  for (const n of notes) {
    const was = n.finding.span.startLine;
    const line = lines[was] === n.lineText ? was : nearest(lines, n.lineText, was);
    if (line === -1) continue;
    const shift = (s: EditorFinding['span']) => ({ ...s, startLine: line, endLine: line });
    out.push({ ...n.finding, span: shift(n.finding.span), fixes: n.finding.fixes.map((f) => ({ ...f, edits: f.edits.map((e) => ({ ...e, span: shift(e.span) })) })) });
  }
  return out;
}

function nearest(lines: readonly string[], text: string, was: number): number {
  for (let d = 1; d < lines.length; d++) {
    if (lines[was - d] === text) return was - d;
    if (lines[was + d] === text) return was + d;
    if (was - d < 0 && was + d >= lines.length) break;
  }
  return -1;
}

/** The CLI's drift line (docs/drift.md) as a finding, or null for unchanged and anchored refs. */
function driftFinding(e: DriftEntry, span: EditorFinding['span']): EditorFinding | null {
  const since = e.base ? `since ${e.base.slice(0, 7)}` : '';
  const base = { span, source: 'drift' as const, code: e.status, ref: e.ref, fixes: [] };
  switch (e.status) {
    case 'moved':
      if (!e.newRef || e.newRef === e.ref) return null;
      return {
        ...base,
        severity: 'warning',
        message: `MOVED ${e.ref} → ${e.newRef} (${since})`,
        fixes: [{ title: `Move ref to ${e.newRef}`, edits: [{ span, newText: e.newRef }], preferred: true }],
      };
    case 'changed':
      return { ...base, severity: 'error', message: `CHANGED ${e.ref}: ${changedText(e)} ${since}${e.newRef ? ` (now about ${e.newRef})` : ''}` };
    case 'deleted':
      return { ...base, severity: 'error', message: `DELETED ${e.ref} (${since})` };
    case 'unknown':
      return { ...base, severity: 'warning', message: `UNKNOWN ${e.ref}: ${e.reason}` };
    default:
      return null;
  }
}
