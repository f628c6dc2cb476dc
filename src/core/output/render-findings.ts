import type { Finding } from '../../shared/errors.js';
import type { SkippedFile } from '../walk/collect-files.js';
import { shownPath } from '../../shared/paths.js';
import { visible } from '../../shared/visible.js';
import { renderDiagnostic } from './render-extraction.js';

/** Output formats of the check commands (`validate`, `verify refs`). */
export type CheckFormat = 'text' | 'json' | 'github';
export const CHECK_FORMATS: readonly CheckFormat[] = ['text', 'json', 'github'];

/** A piece of output for one stream; written in order, so findings stay next to their summary. */
export interface OutputChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

export interface CheckRenderOptions {
  /** Paths are shown relative to this folder (when inside it). */
  cwd: string;
  /** Colours for the `Error:` / `Warning:` labels (identity when colour is off). */
  red?: (s: string) => string;
  yellow?: (s: string) => string;
}

/** `file:line` (or just `file` for a finding about the whole file), relative to cwd. */
export function findingPlace(f: Finding, cwd: string): string {
  const file = visible(shownPath(cwd, f.file));
  return f.line === null ? file : `${file}:${f.line}`;
}

/** `Error: <message>`, its detail lines, then `  at <file>:<line>` (docs/reference.md#validate text output). */
export function renderFinding(f: Finding, opts: CheckRenderOptions): string {
  const label = f.severity === 'error' ? opts.red : opts.yellow;
  const kind = f.severity === 'error' ? 'Error' : 'Warning';
  return renderDiagnostic(kind, { ...f, details: [...f.details, `at ${findingPlace(f, opts.cwd)}`] }, label);
}

/**
 * A GitHub Actions workflow command: `::error file=<f>,line=<n>::<message>`. Detail lines follow
 * the message as escaped newlines, so the annotation carries them. `level` overrides the finding's
 * severity (drift's `::notice` for a fixed ref).
 */
export function githubAnnotation(
  f: Finding,
  cwd: string,
  message: string = f.message,
  details: string[] = f.details,
  level: GithubLevel = f.severity,
): string {
  const props: [string, string | number][] = [['file', shownPath(cwd, f.file)]];
  if (f.line !== null) props.push(['line', f.line]);
  return githubCommand(level, props, [message, ...details]);
}

export type GithubLevel = 'error' | 'warning' | 'notice';

/**
 * Every GitHub workflow command refcat prints goes through here (docs/reference.md#validate):
 * properties and message escaped as GitHub reads them, the message's control characters made
 * visible, so no file name or line of text can end the command or start another (`::add-mask::`).
 */
export function githubCommand(level: GithubLevel, props: readonly [string, string | number][], lines: readonly string[]): string {
  const shown = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${level}${shown ? ' ' + shown : ''}::${escapeData(lines.map(visible).join('\n'))}\n`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A finding as JSON: `{code, message, line, ref}` (docs/reference.md#validate) plus `file` and `details`. */
export function findingJson(f: Finding, cwd: string): Record<string, unknown> {
  const out: Record<string, unknown> = {
    code: f.code,
    message: f.message,
    file: shownPath(cwd, f.file),
    line: f.line,
    ref: f.ref ?? null,
  };
  if (f.details.length > 0) out.details = f.details;
  return out;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What the ignore rules kept out, one line per source: `Skipped 33 file(s) that ./.sdqctlignore
 * lists (name a file to check it anyway)`. Empty when nothing was skipped.
 */
export function skippedLines(skipped: readonly SkippedFile[], cwd: string): string[] {
  const bySource = new Map<string, { by: string; named: boolean; n: number }>();
  for (const s of skipped) {
    // --exclude needs no hint; a file that --skip-ignored kept out is checked without that flag.
    const named = !s.by.startsWith('-') && (s.named ?? false);
    const key = `${s.by}\0${named}`;
    const seen = bySource.get(key);
    if (seen) seen.n++;
    else bySource.set(key, { by: s.by, named, n: 1 });
  }
  return [...bySource.values()].map(({ by, named, n }) =>
    by.startsWith('-')
      ? `Skipped ${plural(n, 'file')} that ${visible(by)} matches`
      : `Skipped ${plural(n, 'file')} that ${visible(shownPath(cwd, by))} lists (${named ? 'named, but --skip-ignored' : 'name a file to check it anyway'})`,
  );
}

/** The skipped files as the JSON reports give them. */
export function skippedJson(skipped: readonly SkippedFile[], cwd: string): { path: string; by: string }[] {
  return skipped.map((s) => ({ path: shownPath(cwd, s.path), by: s.by.startsWith('-') ? s.by : shownPath(cwd, s.by) }));
}
