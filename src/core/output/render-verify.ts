import { visible } from '../../shared/visible.js';
import type { RefFinding, VerifyRefsReport } from '../verify-refs/verify-refs.js';
import { shownPath } from '../../shared/paths.js';
import type { DriftEntry } from '../drift/drift-types.js';
import { changedText } from '../drift/changed-text.js';
import { MISSING_CODES } from '../workflow/validate-conv.js';
import { KNOWN_ALIASES } from '../alias/resolve-aliases.js';
import { knownAliasesOnce } from './known-aliases-once.js';
import { type SnippetEntry, staleText } from '../snippets/judge-snippets.js';
import { type CheckFormat, type CheckRenderOptions, findingJson, findingPlace, githubAnnotation, githubCommand, type OutputChunk, plural, skippedJson, skippedLines } from './render-findings.js';

/** An unknown alias names the aliases there are, and where each comes from: a typo is fixed from the report. */
const knownAliases = (f: RefFinding): string[] => (f.code === 'unknown_alias' ? f.details.filter((d) => d.startsWith(KNOWN_ALIASES)) : []);

type Renderer = (report: VerifyRefsReport, opts: CheckRenderOptions & { strict?: boolean }) => OutputChunk[];

/**
 * `refcat verify refs` output (docs/reference.md#verify-refs). The text report is one block on stdout: the summary
 * line, then `  ERROR <file>:<line>: Broken reference: <ref>` lines (with the reason when it is
 * not simply a missing file, and `Suggestion: Found:` lines), then `  WARNING` lines.
 */
export const verifyRenderers: Record<CheckFormat, Renderer> = {
  text: (report, opts) => {
    let out = headline(report, opts.strict ?? false);
    // The known aliases once per report, with the first unknown alias (known-aliases-once.ts).
    const once = knownAliasesOnce();
    for (const error of report.errors) {
      const f = once(error);
      out += `  ERROR ${findingPlace(f, opts.cwd)}: ${visible(f.ref ? `Broken reference: ${f.ref}` : f.message)}\n`;
      for (const d of f.refs ? f.details : []) out += `    ${visible(d)}\n`;
      if (f.ref && f.code !== 'not_found') out += `    ${visible(f.message)}\n`;
      for (const d of knownAliases(f)) out += `    ${visible(d)}\n`;
      for (const s of f.suggestions ?? []) out += `    Suggestion: Found: ${visible(s)}\n`;
    }
    for (const warning of report.warnings) {
      const f = once(warning);
      out += `  WARNING ${findingPlace(f, opts.cwd)}: ${visible(f.message)}\n`;
      for (const d of f.details) out += `    ${visible(d)}\n`;
    }
    for (const e of staleSnippets(report)) out += `  STALE ${shownPath(opts.cwd, e.file)}:${e.line}: ${visible(staleText(e))}\n`;
    for (const line of refreshLines(report)) out += `  ${line.label} ${shownPath(opts.cwd, line.file)}:${line.line}: ${visible(line.text)}\n`;
    for (const line of driftLines(report, opts.cwd)) out += `  ${line.label} ${line.place}: ${visible(line.text)}\n`;
    for (const n of report.drift?.notFixed ?? []) out += `  NOT FIXED ${visible(shownPath(opts.cwd, n.file))}${n.line ? `:${n.line}` : ''}: ${visible(notFixedText(n))}\n`;
    const notes = skippedLines(report.skipped, opts.cwd).map((line): OutputChunk => ({ stream: 'stderr', text: line + '\n' }));
    return [{ stream: 'stdout', text: out }, ...notes];
  },
  github: (report, opts) => {
    let out = '';
    for (const f of report.errors) {
      const extra = [...(f.code !== 'not_found' ? [f.message] : []), ...knownAliases(f), ...(f.suggestions ?? []).map((s) => `Suggestion: Found: ${s}`)];
      out += f.ref ? githubAnnotation(f, opts.cwd, `Broken reference: ${f.ref}`, extra) : githubAnnotation(f, opts.cwd);
    }
    for (const f of report.warnings) out += githubAnnotation(f, opts.cwd);
    for (const e of staleSnippets(report)) {
      const finding = { severity: 'error' as const, code: 'stale_snippet', message: '', details: [], file: e.file, line: e.line };
      out += githubAnnotation(finding, opts.cwd, `Stale snippet: ${staleText(e)}`, []);
    }
    for (const line of driftLines(report, opts.cwd)) {
      const failing = (line.entry.status === 'changed' && !line.entry.byName) || line.entry.status === 'deleted';
      const level = failing ? 'error' : line.entry.status === 'fixed' || line.entry.status === 'accepted' ? 'notice' : 'warning';
      const finding = { severity: 'error' as const, code: line.entry.status, message: '', details: [], file: line.entry.file, line: line.entry.line };
      out += githubAnnotation(finding, opts.cwd, `${line.label[0]}${line.label.slice(1).toLowerCase()} reference: ${line.text}`, [], level);
    }
    for (const n of report.drift?.notFixed ?? []) {
      const severity = n.kind === 'unwritable' || n.kind === 'outside' ? 'error' : 'warning';
      out += githubAnnotation({ severity, code: 'not_fixed', message: `Not fixed: ${notFixedText(n)}`, details: [], file: n.file, line: n.line ?? null }, opts.cwd);
    }
    for (const line of skippedLines(report.skipped, opts.cwd)) out += githubCommand('notice', [], [line]);
    return [{ stream: 'stdout', text: out + headline(report, opts.strict ?? false) }];
  },
  json: (report, opts) => {
    const json = (f: RefFinding) => {
      const o = findingJson(f, opts.cwd);
      if (f.suggestions) o.suggestions = f.suggestions;
      if (f.refs) o.refs = f.refs.map((r) => ({ file: shownPath(opts.cwd, r.file), line: r.line, ref: r.ref }));
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
      ...(report.snippets ? { snippets: snippetsJson(report, opts.cwd) } : {}),
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
  if (r.snippets && r.snippets.entries.length > 0) {
    line += `; snippets: ${r.snippets.verbatim} verbatim, ${r.snippets.excerpt} excerpt, ${r.snippets.stale} stale`;
    const refresh = r.snippets.refresh;
    if (refresh && refresh.refreshed.length > 0) line += refresh.dryRun ? ` (${refresh.refreshed.length} to refresh, --dry-run)` : `, ${refresh.refreshed.length} refreshed`;
  }
  if (r.drift) {
    const c = r.drift.counts;
    line += `; drift: ${c.unchanged} unchanged, ${c.moved} moved, ${c.changed} changed, ${c.deleted} deleted, ${c.unknown} unknown, ${c.anchored} anchored`;
    if (c.fixed > 0) line += `, ${c.fixed} fixed`;
    if (c.accepted > 0) line += `, ${c.accepted} accepted`;
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

/** Which refs (by file, line and ref) --fix would fix, --fix-snippets refreshed, --accept recorded, and are broken. */
function driftKeys(r: VerifyRefsReport, drift: NonNullable<VerifyRefsReport['drift']>) {
  const dryFixed = new Set(drift.dryRun ? drift.fixes.map((f) => `${f.file}\0${f.line}\0${f.oldRef}`) : []);
  // A changed ref whose snippet --fix-snippets refreshed has its own REFRESHED line.
  const refreshed = new Set((r.snippets?.refresh?.refreshed ?? []).map((x) => `${x.file}\0${x.line}\0${x.oldRef}`));
  const justAccepted = new Map((drift.acceptances ?? []).map((a) => [`${a.file}\0${a.line}\0${a.ref}`, a.acceptFile]));
  // A broken ref has its ERROR line (a lenient workflow's missing file its WARNING line): its
  // unknown verdict (a file that is not there now and was not at the base either) would say it
  // twice. --json still lists the verdict.
  const missing = [...r.errors, ...r.warnings.filter((f) => MISSING_CODES.has(f.code))];
  const broken = new Set(missing.filter((f) => f.ref && f.file).map((f) => `${f.file}\0${f.line}\0${f.ref}`));
  return { dryFixed, refreshed, justAccepted, broken };
}

/** One line per ref that is not unchanged or anchored (docs/reference.md#drift-verdicts). */
function driftLines(r: VerifyRefsReport, cwd: string): DriftLine[] {
  if (!r.drift) return [];
  const lines: DriftLine[] = [];
  const since = (e: DriftEntry) => (e.base ? `since ${e.base.slice(0, 7)}` : '');
  const { dryFixed, refreshed, justAccepted, broken } = driftKeys(r, r.drift);
  // Refs into a folder not cloned are one line per folder, where its first ref was.
  const notCloned = new Map<string, number>();
  for (const e of r.drift.entries) if (e.notCloned) notCloned.set(e.notCloned, (notCloned.get(e.notCloned) ?? 0) + 1);
  for (const e of r.drift.entries) {
    if (e.notCloned) {
      const n = notCloned.get(e.notCloned);
      if (n !== undefined) lines.push({ label: 'UNKNOWN', place: shownPath(cwd, e.notCloned), text: `${n} reference${n === 1 ? '' : 's'}: ${e.reason}`, entry: e });
      notCloned.delete(e.notCloned);
      continue;
    }
    const place = `${shownPath(cwd, e.file)}:${e.line}`;
    const add = (label: string, text: string) => lines.push({ label, place, text, entry: e });
    switch (e.status) {
      case 'moved':
        add(dryFixed.has(`${e.file}\0${e.line}\0${e.ref}`) ? 'WOULD FIX' : 'MOVED', `${e.ref} → ${e.newRef} (${since(e)})`);
        break;
      case 'fixed':
        if (!refreshed.has(`${e.file}\0${e.line}\0${e.ref}`)) add('FIXED', `${e.ref} → ${e.newRef}`);
        break;
      case 'accepted':
        {
          const file = justAccepted.get(`${e.file}\0${e.line}\0${e.ref}`);
          if (file) add('ACCEPTED', `${e.ref}: recorded in ${shownPath(cwd, file)}`);
        }
        break;
      case 'changed':
        {
          // --accept --dry-run: the ref stays changed, and says where it would be recorded.
          const file = r.drift.dryRun ? justAccepted.get(`${e.file}\0${e.line}\0${e.ref}`) : undefined;
          const edited = `${e.ref}: ${changedText(e)} ${since(e)}${e.newRef ? ` (now about ${e.newRef})` : ''}`;
          if (file) add('WOULD ACCEPT', `${edited}: would be recorded in ${shownPath(cwd, file)}`);
          else add('CHANGED', edited);
        }
        break;
      case 'deleted':
        // A renamed declaration (docs/drift.md#symbol-refs) names its new ref, which --fix writes.
        if (e.newRef) add(dryFixed.has(`${e.file}\0${e.line}\0${e.ref}`) ? 'WOULD FIX' : 'DELETED', `${e.ref}: renamed to ${e.newRef} (${since(e)})`);
        else add('DELETED', `${e.ref} (${since(e)})`);
        break;
      case 'unknown':
        if (!broken.has(`${e.file}\0${e.line}\0${e.ref}`)) add('UNKNOWN', `${e.ref}: ${e.reason}`);
        break;
      default:
        break;
    }
  }
  return lines;
}

function notFixedText(n: { refs: number; reason: string }): string {
  return `${n.reason} (${n.refs} moved ref${n.refs === 1 ? '' : 's'} left as written)`;
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
    accepted: d.counts.accepted,
    dry_run: d.dryRun,
    ...(d.dryRun && d.acceptances ? { would_accept: d.acceptances.length } : {}),
    ...(d.notFixed && d.notFixed.length > 0 ? { not_fixed: d.notFixed.map((n) => ({ file: shownPath(cwd, n.file), refs: n.refs, kind: n.kind, reason: n.reason, ...(n.ref ? { line: n.line, ref: n.ref, new_ref: n.newRef } : {}) })) } : {}),
    refs: d.entries.map((e) => ({
      file: shownPath(cwd, e.file),
      line: e.line,
      ref: e.ref,
      status: e.status,
      base: e.base,
      new_ref: e.newRef,
      edited_lines: e.editedLines,
      inserted_lines: e.insertedLines,
      deleted_lines: e.deletedLines,
      reason: e.reason,
    })),
  };
}

function staleSnippets(r: VerifyRefsReport): SnippetEntry[] {
  return r.snippets?.entries.filter((e) => e.status === 'stale') ?? [];
}

/** `REFRESHED`, `WOULD REFRESH` and `LEFT` lines of --fix-snippets (docs/snippets.md#--fix-snippets). */
function refreshLines(r: VerifyRefsReport): { label: string; file: string; line: number; text: string }[] {
  const refresh = r.snippets?.refresh;
  if (!refresh) return [];
  return [
    ...refresh.refreshed.map((x) => ({
      label: refresh.dryRun ? 'WOULD REFRESH' : 'REFRESHED',
      file: x.file,
      line: x.line,
      text: `${x.oldRef} → ${x.newRef} (snippet ${x.oldLines} → ${x.newLines} lines)`,
    })),
    ...refresh.left.map((x) => ({ label: 'LEFT', file: x.file, line: x.line, text: `${x.ref}: ${x.reason}` })),
  ];
}

/** The `snippets` object of --json: counts and one entry per cited snippet. */
function snippetsJson(r: VerifyRefsReport, cwd: string): Record<string, unknown> {
  const s = r.snippets!;
  return {
    verbatim: s.verbatim,
    excerpt: s.excerpt,
    stale: s.stale,
    refs: s.entries.map((e) => ({
      file: shownPath(cwd, e.file),
      line: e.line,
      fence_line: e.fenceLine,
      ref: e.ref,
      form: e.form,
      status: e.status,
      snippet_lines: e.snippetLines,
      missing: e.missing,
      missing_lines: e.missingLines,
      now_at: e.nowAt,
      ...(e.matchedAtBase !== undefined ? { matched_at_base: e.matchedAtBase, base: e.base ?? null } : {}),
    })),
    ...(s.refresh
      ? {
          dry_run: s.refresh.dryRun,
          refreshed: s.refresh.refreshed.map((x) => ({ file: shownPath(cwd, x.file), line: x.line, old_ref: x.oldRef, new_ref: x.newRef, old_lines: x.oldLines, new_lines: x.newLines })),
          left: s.refresh.left.map((x) => ({ file: shownPath(cwd, x.file), line: x.line, ref: x.ref, reason: x.reason })),
        }
      : {}),
  };
}
