import { visible } from '../../shared/visible.js';
import type { RefFinding, VerifyRefsReport } from '../verify-refs/verify-refs.js';
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
      refs_found: report.refsFound,
      valid: report.valid,
      broken: report.broken,
      errors: report.errors.map(json),
      warnings: report.warnings.map(json),
      skipped: skippedJson(report.skipped, opts.cwd),
    };
    return [{ stream: 'stdout', text: JSON.stringify(doc, null, 2) + '\n' }];
  },
};

/** `✓ PASSED: Scanned N file(s), found M reference(s): V valid, B broken` or `✗ FAILED: ...`. */
function headline(r: VerifyRefsReport, strict: boolean): string {
  const head = r.passed ? '✓ PASSED' : '✗ FAILED';
  let line = `${head}: Scanned ${r.filesScanned} file(s), found ${r.refsFound} reference(s): ${r.valid} valid, ${r.broken} broken`;
  if (r.warnings.length > 0) line += ` (${plural(r.warnings.length, 'warning')}${strict ? ', --strict' : ''})`;
  return line + '\n';
}
