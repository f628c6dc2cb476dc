import { shownPath } from '../../shared/paths.js';
import { visible } from '../../shared/visible.js';
import type { AnchorReport } from '../anchor/anchor-refs.js';
import { type OutputChunk, plural } from './render-findings.js';

/**
 * `refcat anchor` output (docs/drift.md#anchoring). Text: a summary line, then one
 * `  ANCHORED <file>:<line>: <ref> → <new ref>` line per ref (`WOULD ANCHOR` with --dry-run) and a
 * `  NOT ANCHORED` line per file left unwritten or not read. JSON: `{"anchored": [{file, line, ref, new_ref}],
 * "left": N, ...}`.
 */
export function renderAnchor(report: AnchorReport, opts: { cwd: string; json: boolean }): OutputChunk[] {
  const where = (file: string) => shownPath(opts.cwd, file);
  if (opts.json) {
    const doc = {
      version: 1,
      dry_run: report.dryRun,
      files_scanned: report.filesScanned,
      refs_found: report.refsFound,
      anchored: report.anchored.map((a) => ({ file: where(a.file), line: a.line, ref: a.ref, new_ref: a.newRef })),
      left: report.left,
      not_written: report.notWritten.map((n) => ({ file: where(n.file), refs: n.refs, kind: n.kind, reason: n.reason, ...(n.ref ? { line: n.line, ref: n.ref, new_ref: n.newRef } : {}) })),
      not_read: report.notRead.map((n) => ({ file: where(n.file), reason: n.reason })),
    };
    return [{ stream: 'stdout', text: JSON.stringify(doc, null, 2) + '\n' }];
  }
  const n = report.anchored.length;
  const files = new Set(report.anchored.map((a) => a.file)).size;
  const verb = report.dryRun ? 'Would anchor' : 'Anchored';
  let out = `${verb} ${n} of ${plural(report.refsFound, 'reference')} by name${n > 0 ? ` in ${plural(files, 'file')}` : ''} (${report.left} left as written; scanned ${plural(report.filesScanned, 'file')})\n`;
  for (const a of report.anchored) out += `  ${report.dryRun ? 'WOULD ANCHOR' : 'ANCHORED'} ${visible(where(a.file))}:${a.line}: ${visible(a.ref)} → ${visible(a.newRef)}\n`;
  for (const x of report.notWritten) out += `  NOT ANCHORED ${visible(where(x.file))}${x.line ? `:${x.line}` : ''}: ${visible(x.reason)}\n`;
  for (const x of report.notRead) out += `  NOT ANCHORED ${visible(where(x.file))}: ${visible(x.reason)}\n`;
  return [{ stream: 'stdout', text: out }];
}
