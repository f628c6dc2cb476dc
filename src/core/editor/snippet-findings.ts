import path from 'node:path';
import { extract } from '../extract/extract.js';
import { docCitations, judgeSnippet, staleText } from '../snippets/judge-snippets.js';
import { applyLineEdits, type LineEdit, refreshEdits } from '../snippets/refresh-snippet.js';
import { SnippetFiles } from '../snippets/snippet-files.js';
import type { CheckedDocument, CheckPass, DocumentCheck } from './document-check.js';
import { docSearchDirs, type EditorSession } from './editor-session.js';
import type { EditorFinding } from './editor-findings.js';

/**
 * Cited snippets in the editor (docs/editor.md#what-you-get): a stale snippet is an error at its
 * ref, with the CLI's STALE message, and an in-fence citation whose ref is broken is reported like
 * any broken ref (the fence hides it from the ref check). A stale snippet that is an exact copy of
 * other lines (no `...`) gets "Refresh snippet from <ref>": an edit that replaces the snippet's
 * lines with the lines its ref selects now, keeping the fence, markers and indentation. In the
 * editor the user sees and undoes the edit, so it is offered without drift's proof that the
 * snippet was a verbatim copy; `verify refs --fix-snippets` in CI demands that proof.
 */
export const snippetCheck: DocumentCheck = async (doc: CheckedDocument, session: EditorSession, pass: CheckPass): Promise<EditorFinding[] | null> => {
  if (doc.kind !== 'markdown') return [];
  const dir = path.dirname(doc.path);
  const { citations } = docCitations(doc.text, [session.root, dir], session.isKnownAlias);
  const findings: EditorFinding[] = [];
  // Many stale citations of one file: it is read once per check.
  const files = new SnippetFiles();
  for (const c of citations) {
    // Slices, as for refs: a hover on another document is answered meanwhile.
    if (!(await pass.step())) return null;
    const line = c.line - 1;
    const column = Math.max(0, (doc.lines[line] ?? '').indexOf(c.text));
    const span = { startLine: line, startColumn: column, endLine: line, endColumn: column + c.text.length };
    const dirs = c.bare ? [session.root, dir] : docSearchDirs(doc.path, session.root);
    // The check's one pattern budget, as a CLI run has one: ten catastrophic patterns cost one budget, not ten.
    const report = extract([c.ref], session.ctx, { searchDirs: dirs, aliases: session.aliases, patternBudget: pass.budget });
    if (report.errors.length > 0) {
      // A caption's ref is outside the fence: the ref check already reported it.
      if (c.form === 'in-fence') {
        for (const d of report.errors) findings.push({ span, severity: 'error', source: 'snippets', code: d.code, message: [d.message, ...d.details].join('\n'), ref: c.text, fixes: [] });
      }
      continue;
    }
    const entry = judgeSnippet(doc.path, c, report.results, dirs, files);
    if (entry.status !== 'stale') continue;
    const code = report.results.flatMap((r) => r.lines);
    const refreshable = !/\.\.\.|\u2026/.test(c.snippet.join('\n')) && report.results.length === 1;
    // The same edits as --fix-snippets, fence lengthening included; a refused refresh is not offered.
    const refresh = refreshable ? refreshEdits(doc.lines, c, c.text, code) : null;
    findings.push({
      span,
      severity: 'error',
      source: 'snippets',
      code: 'stale_snippet',
      message: staleText(entry),
      ref: c.text,
      fixes: refresh?.edits ? [{ title: `Refresh snippet from ${c.text}`, edits: [snippetEdit(doc, refresh.edits)] }] : [],
    });
  }
  return findings;
};

/**
 * The refresh as one replacement of the lines from its first edit to its last (the ref is
 * unchanged here; a lengthened fence is part of it). Only those lines are copied, never the doc.
 */
function snippetEdit(doc: CheckedDocument, edits: readonly LineEdit[]) {
  const start = Math.min(...edits.map((e) => e.line));
  const end = Math.max(...edits.map((e) => e.line + e.count));
  const lines = applyLineEdits(
    doc.lines.slice(start, end),
    edits.map((e) => ({ ...e, line: e.line - start })),
  );
  const newText = lines.map((l) => l + '\n').join('');
  return { span: { startLine: start, startColumn: 0, endLine: end, endColumn: 0 }, newText };
}
