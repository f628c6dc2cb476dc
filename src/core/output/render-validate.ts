import type { Finding } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { visible } from '../../shared/visible.js';
import type { SkippedFile } from '../walk/collect-files.js';
import { knownAliasesOnce } from './known-aliases-once.js';
import { type ConvValidation, sortFindings } from '../workflow/validate-conv.js';
import {
  type CheckFormat,
  type CheckRenderOptions,
  findingJson,
  githubAnnotation,
  githubCommand,
  type OutputChunk,
  plural,
  renderFinding,
  skippedJson,
  skippedLines,
} from './render-findings.js';

type Renderer = (results: readonly ConvValidation[], opts: CheckRenderOptions, skipped?: readonly SkippedFile[]) => OutputChunk[];

/**
 * `refcat validate` output, one pure renderer per format (STYLE 7). Text: each file's findings on
 * stderr, then its summary line on stdout. GitHub: annotations and summary lines on stdout, where
 * the runner reads workflow commands. JSON: the versioned document of docs/reference.md#validate on stdout.
 */
export const validateRenderers: Record<CheckFormat, Renderer> = {
  text: (results, opts, skipped = []) => {
    const once = knownAliasesOnce();
    return [
      ...results.flatMap((r) => {
        const chunks: OutputChunk[] = [];
        const findings = inOrder(r);
        if (findings.length > 0) chunks.push({ stream: 'stderr', text: findings.map((f) => renderFinding(once(f), opts)).join('') });
        chunks.push({ stream: 'stdout', text: summaryLine(r, opts.cwd) + partLines(r, opts.cwd) });
        return chunks;
      }),
      ...skippedLines(skipped, opts.cwd).map((line): OutputChunk => ({ stream: 'stderr', text: line + '\n' })),
    ];
  },
  github: (results, opts, skipped = []) => [
    ...results.map((r): OutputChunk => ({
      stream: 'stdout',
      text: inOrder(r)
        .map((f) => githubAnnotation(f, opts.cwd))
        .concat(summaryLine(r, opts.cwd), partLines(r, opts.cwd))
        .join(''),
    })),
    ...skippedLines(skipped, opts.cwd).map((line): OutputChunk => ({ stream: 'stdout', text: githubCommand('notice', [], [line]) })),
  ],
  json: (results, opts, skipped = []) => [
    {
      stream: 'stdout',
      text:
        JSON.stringify(
          {
            version: 1,
            valid: results.every((r) => r.valid),
            files: results.map((r) => ({
              path: shownPath(opts.cwd, r.path),
              valid: r.valid,
              errors: r.errors.map((f) => findingJson(f, opts.cwd)),
              warnings: r.warnings.map((f) => findingJson(f, opts.cwd)),
              ...(r.parts ? { parts: r.parts.map((p) => shownPath(opts.cwd, p)) } : {}),
            })),
            skipped: skippedJson(skipped, opts.cwd),
          },
          null,
          2,
        ) + '\n',
    },
  ],
};

/** `✓ f: valid`, `✓ f: valid (2 warnings)`, `✗ f: 3 errors, 1 warning` (docs/reference.md#validate). */
export function summaryLine(r: ConvValidation, cwd: string): string {
  const file = visible(shownPath(cwd, r.path));
  if (r.valid) return `✓ ${file}: valid${r.warnings.length > 0 ? ` (${plural(r.warnings.length, 'warning')})` : ''}\n`;
  const parts = [plural(r.errors.length, 'error')];
  if (r.warnings.length > 0) parts.push(plural(r.warnings.length, 'warning'));
  return `✗ ${file}: ${parts.join(', ')}\n`;
}

/** `  parts/a.conv: checked as part of flows/main.conv`, one line per named part the workflow INCLUDEs. */
function partLines(r: ConvValidation, cwd: string): string {
  const file = visible(shownPath(cwd, r.path));
  return (r.parts ?? []).map((p) => `  ${visible(shownPath(cwd, p))}: checked as part of ${file}\n`).join('');
}

/** Errors and warnings together, by file and line. */
function inOrder(r: ConvValidation): Finding[] {
  return sortFindings([...r.errors, ...r.warnings], r.conv?.files ?? []);
}
