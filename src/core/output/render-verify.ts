import { visible } from '../../shared/visible.js';
import type { RefFinding, VerifyRefsReport } from '../verify-refs/verify-refs.js';
import { shownPath } from '../../shared/paths.js';
import type { DriftEntry } from '../drift/detect-drift.js';
import { type CheckFormat, type CheckRenderOptions, findingJson, findingPlace, githubAnnotation, type OutputChunk, plural, skippedJson, skippedLines } from './render-findings.js';

type Renderer = (report: VerifyRefsReport, opts: CheckRenderOptions & { strict?: boolean }) => OutputChunk[];

/**
 * `refcat verify refs` output (docs/reference.md#verify-refs). The text report is one block on stdout: the summary
 * line, then `  ERROR <file>:<line>: Broken reference: <ref>` lines (with the reason when it is
 * not simply a missing file, and `Suggestion: Found:` lines), then `  WARNING` lines.
 */
export const verifyRenderers: Record<CheckFormat, Renderer> = {
  text: (report, opts) => {
    let out = headline(report, opts.strict ?? false);
    for (const f of report.errors) {
      out += `  ERROR ${findingPlace(f, opts.cwd)}: ${visible(f.ref ? `Broken reference: ${f.ref}` : f.message)}\n`;
      if (f.ref && f.code !== 'not_found') out += `    ${visible(f.message)}\n`;
      for (const s of f.suggestions ?? []) out += `    Suggestion: Found: ${visible(s)}\n`;
    }
    for (const f of report.warnings) {
      out += `  WARNING ${findingPlace(f, opts.cwd)}: ${visible(f.message)}\n`;
      for (const d of f.details) out += `    ${visible(d)}\n`;
    }
    for (const line of driftLines(report, opts.cwd)) out += `  ${line.label} ${line.place}: ${visible(line.text)}\n`;
    const notes = skippedLines(report.skipped, opts.cwd).map((line): OutputChunk => ({ stream: 'stderr', text: line + '\n' }));
    return [{ stream: 'stdout', text: out }, ...notes];
  },
  github: (report, opts) => {
    let out = '';
    for (const f of report.errors) {
      const extra = [...(f.code !== 'not_found' ? [f.message] : []), ...(f.suggestions ?? []).map((s) => `Suggestion: Found: ${s}`)];
      out += f.ref ? githubAnnotation(f, opts.cwd, `Broken reference: ${f.ref}`, extra) : githubAnnotation(f, opts.cwd);
    }
    for (const f of report.warnings) out += githubAnnotation(f, opts.cwd);
    for (const line of driftLines(report, opts.cwd)) {
      const level = line.entry.status === 'changed' || line.entry.status === 'deleted' ? 'error' : line.entry.status === 'fixed' ? 'notice' : 'warning';
      const finding = { severity: level as 'error', code: line.entry.status, message: '', details: [], file: line.entry.file, line: line.entry.line };
      out += githubAnnotation(finding, opts.cwd, `${line.label[0]}${line.label.slice(1).toLowerCase()} reference: ${line.text}`, []).replace(/^::error /, `::${level} `);
    }
    for (const line of skippedLines(report.skipped, opts.cwd)) out += `::notice::${line}\n`;
    return [{ stream: 'stdout', text: out + headline(report, opts.strict ?? false) }];
  },
  json: (report, opts) => {
    const json = (f: RefFinding) => {
      const o = findingJson(f, opts.cwd);
      if (f.suggestions) o.suggestions = f.suggestions;
      return o;
    };
    const doc = {
      version: 1,
      passed: report.passed,
      files_scanned: report.filesScanned,
      not_scanned: notScanned(report),
      refs_found: report.refsFound,
      valid: report.valid,
      broken: report.broken,
      errors: report.errors.map(json),
      warnings: report.warnings.map(json),
      skipped: skippedJson(report.skipped, opts.cwd),
      ...(report.drift ? { drift: driftJson(report, opts.cwd) } : {}),
    };
    return [{ stream: 'stdout', text: JSON.stringify(doc, null, 2) + '\n' }];
  },
};

/** Docs found but not scanned (binary, not UTF-8, too large): each is a warning without a ref. */
function notScanned(r: VerifyRefsReport): number {
  return r.warnings.filter((w) => !w.ref && (w.code === 'binary' || w.code === 'too_large')).length;
}

/** `✓ PASSED: Scanned N file(s), found M reference(s): V valid, B broken` or `✗ FAILED: ...`. */
function headline(r: VerifyRefsReport, strict: boolean): string {
  const head = r.passed ? '✓ PASSED' : '✗ FAILED';
  const skipped = notScanned(r);
  const scanned = skipped > 0 ? `${r.filesScanned - skipped} file(s) (${skipped} skipped: binary, not UTF-8 or too large)` : `${r.filesScanned} file(s)`;
  let line = `${head}: Scanned ${scanned}, found ${r.refsFound} reference(s): ${r.valid} valid, ${r.broken} broken`;
  if (r.warnings.length > 0) line += ` (${plural(r.warnings.length, 'warning')}${strict ? ', --strict' : ''})`;
  if (r.drift) {
    const c = r.drift.counts;
    line += `; drift: ${c.unchanged} unchanged, ${c.moved} moved, ${c.changed} changed, ${c.deleted} deleted, ${c.unknown} unknown, ${c.anchored} anchored`;
    if (c.fixed > 0) line += `, ${c.fixed} fixed`;
    if (r.drift.dryRun && r.drift.fixes.length > 0) line += ` (${r.drift.fixes.length} to fix, --dry-run)`;
  }
  return line + '\n';
}

interface DriftLine {
  label: string;
  place: string;
  text: string;
  entry: DriftEntry;
}

/** One line per ref that is not unchanged or anchored (docs/reference.md#drift-verdicts). */
function driftLines(r: VerifyRefsReport, cwd: string): DriftLine[] {
  if (!r.drift) return [];
  const lines: DriftLine[] = [];
  const since = (e: DriftEntry) => (e.base ? `since ${e.base.slice(0, 7)}` : '');
  const dryFixed = new Set(r.drift.dryRun ? r.drift.fixes.map((f) => `${f.file}\0${f.line}\0${f.oldRef}`) : []);
  for (const e of r.drift.entries) {
    const place = `${shownPath(cwd, e.file)}:${e.line}`;
    const add = (label: string, text: string) => lines.push({ label, place, text, entry: e });
    switch (e.status) {
      case 'moved':
        add(dryFixed.has(`${e.file}\0${e.line}\0${e.ref}`) ? 'WOULD FIX' : 'MOVED', `${e.ref} → ${e.newRef} (${since(e)})`);
        break;
      case 'fixed':
        add('FIXED', `${e.ref} → ${e.newRef}`);
        break;
      case 'changed':
        add('CHANGED', `${e.ref}: ${e.editedLines} of ${e.oldLines} lines edited ${since(e)}${e.newRef ? ` (now about ${e.newRef})` : ''}`);
        break;
      case 'deleted':
        add('DELETED', `${e.ref} (${since(e)})`);
        break;
      case 'unknown':
        add('UNKNOWN', `${e.ref}: ${e.reason}`);
        break;
      default:
        break;
    }
  }
  return lines;
}

/** The `drift` object of --json: counts and one entry for every ref found. */
function driftJson(r: VerifyRefsReport, cwd: string): Record<string, unknown> {
  const d = r.drift!;
  return {
    unchanged: d.counts.unchanged,
    moved: d.counts.moved,
    changed: d.counts.changed,
    deleted: d.counts.deleted,
    unknown: d.counts.unknown,
    anchored: d.counts.anchored,
    fixed: d.counts.fixed,
    dry_run: d.dryRun,
    refs: d.entries.map((e) => ({
      file: shownPath(cwd, e.file),
      line: e.line,
      ref: e.ref,
      status: e.status,
      base: e.base,
      new_ref: e.newRef,
      edited_lines: e.editedLines,
      reason: e.reason,
    })),
  };
}
