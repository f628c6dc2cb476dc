/**
 * Option value parsers shared by commands. They throw FlagValueError (not commander's error
 * class) so that this module loads without commander; program.ts converts the error into
 * commander's, and fast-argv.ts gives up on it and lets commander report it: exit 2 either way.
 */
import { revisionProblem } from '../core/ref-spec/revision-syntax.js';
import { UsageError } from '../shared/errors.js';

export class FlagValueError extends Error {}

/** `--worktree` or `--pinned`, not both (docs/refs.md#refs-at-a-version). */
export function versionModeOf(opts: { worktree?: boolean; pinned?: boolean }): 'auto' | 'worktree' | 'pinned' {
  if (opts.worktree && opts.pinned) throw new UsageError('Use only one of --worktree and --pinned');
  return opts.worktree ? 'worktree' : opts.pinned ? 'pinned' : 'auto';
}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new FlagValueError('expected a whole number >= 0.');
  return safe(value);
}

/** Digits past 2^53 would be rounded (99999999999999999999 becomes 1e20): refuse them instead. */
function safe(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new FlagValueError(`${value} is too large.`);
  return n;
}

/**
 * `fd read --page N`. Page 0 parses and is then answered as an `invalid_page` fd_error with the
 * valid range, as the FD RFC does; what is not a number at all is a usage error.
 */
export function pageNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new FlagValueError('expected a page number (1, 2, 3, ...).');
  return safe(value);
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0) throw new FlagValueError('expected a whole number > 0.');
  return safe(value);
}

/** `--at REV`: a branch, tag or commit name (docs/refs.md#refs-at-a-version), never an option. */
export function revisionArg(value: string): string {
  const problem = revisionProblem(value, 'an empty revision: --at needs a branch, tag or commit name');
  if (problem) throw new FlagValueError(`${problem}.`);
  return value;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--alias NAME=PATH` (repeatable). */
export function aliasPair(value: string, previous: string[] = []): string[] {
  const eq = value.indexOf('=');
  if (eq <= 0 || eq === value.length - 1) throw new FlagValueError('expected NAME=PATH.');
  return [...previous, value];
}

export function splitAlias(pair: string): { name: string; path: string } {
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), path: pair.slice(eq + 1) };
}

/** `--lines A-B`, `A` or `A-` (to the end): whole lines, 1-based. */
export function lineRange(value: string): { start: number; end: number | null } {
  const m = /^(\d+)(?:-(\d*))?$/.exec(value);
  if (!m) throw new FlagValueError('expected A-B, A or A- (line numbers from 1).');
  const start = Number(m[1]);
  const end = m[2] === undefined ? start : m[2] === '' ? null : Number(m[2]);
  if (start === 0 || end === 0) throw new FlagValueError('line numbers start at 1.');
  if (end !== null && end < start) throw new FlagValueError(`start line ${start} is after end line ${end}.`);
  return { start, end };
}

/** `--after /regex/flags` (or a bare regex). */
export function slashRegex(value: string): RegExp {
  if (value === '' || value === '//') throw new FlagValueError('empty regex.');
  const m = /^\/(.+)\/([dgimsuy]*)$/s.exec(value);
  try {
    return m ? new RegExp(m[1]!, m[2]!.replace(/[gy]/g, '')) : new RegExp(value);
  } catch (err) {
    throw new FlagValueError(`invalid regex: ${(err as Error).message}.`);
  }
}
