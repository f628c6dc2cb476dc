import path from 'node:path';
import type { Context } from '../../shared/context.js';
import type { RangeSelector, SymbolSelector } from '../ref-spec/ref-spec.js';
import { GitError } from '../git/git-runner.js';
import type { DriftEntry, DriftRefInput } from './drift-types.js';

/**
 * A ref on its way through detectDrift: its base is found (find-bases.ts), then its target file
 * and the base there (find-targets.ts), then it is judged (judge-line-refs.ts). Each step fills
 * in its part, or makes the entry `unknown` with a reason and the ref goes no further.
 */
export interface Pending {
  input: DriftRefInput;
  entry: DriftEntry;
  selector: RangeSelector | SymbolSelector;
  /** Scanned file's repository and base commit there (null: uncommitted line). */
  scanRepo: string;
  scanBase: string | null;
  scanTime: number;
  /** Target file and its repository, once known. */
  targetRepo?: string;
  targetBase?: string;
  target?: string;
  /** `target` from its repository's root, `/`-separated (set once the target is known, for git's names). */
  targetRel?: string;
  /** Folder the ref's path is relative to. */
  baseDir?: string;
  /** The commit the ref's file is judged at now (a pinned alias: the pin); absent: the working tree. */
  current?: string;
}

export type LinePending = Pending & { selector: RangeSelector };
export type SymbolPending = Pending & { selector: SymbolSelector };

export function unknown(entry: DriftEntry, reason: string): void {
  entry.status = 'unknown';
  entry.reason = reason;
}

export function shown(ctx: Context, p: string): string {
  const rel = path.relative(ctx.cwd, p);
  return rel === '' ? '.' : rel.startsWith('..') ? p : rel.split(path.sep).join('/');
}

/** The result of a git step, or the GitError that ended it: one repository's failure is its refs' reason. */
export async function isolated<T>(step: () => Promise<T>): Promise<T | GitError> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof GitError) return err;
    throw err;
  }
}

export function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** A commit time (seconds) as the day it fell on, for messages. */
export function day(time: number): string {
  return new Date(time * 1000).toISOString().slice(0, 10);
}
