import type { SafeWriteOptions, WriteMode } from '../core/safe-write/safe-write.js';
import { UsageError } from '../shared/errors.js';

/** The flags of addWriteOptions (program.ts), as commander hands them over. */
export interface WriteCliOptions extends Omit<SafeWriteOptions, 'mode' | 'to'> {
  /** Required; checked here, not by commander, whose check would hide an unknown flag's error. */
  to?: string;
  mode?: WriteMode;
  store?: string;
}

/**
 * Map the shared write flags of `ref export` and `fd write` to safeWrite options. Decision: `--line`
 * and `--after` imply `--mode insert`; with another explicit mode they are a usage error.
 */
export function writeOptions(opts: WriteCliOptions): SafeWriteOptions & { to: string } {
  if (opts.to === undefined) throw new UsageError("required option '--to <path>' not specified");
  const inserting = opts.line !== undefined || opts.after !== undefined;
  if (opts.line !== undefined && opts.after !== undefined) throw new UsageError('Use either --line or --after, not both');
  if (inserting && opts.mode && opts.mode !== 'insert') {
    throw new UsageError(`--line and --after insert; they do not go with --mode ${opts.mode}`);
  }
  const mode = opts.mode ?? (inserting ? 'insert' : 'write');
  if (mode === 'insert' && !inserting) throw new UsageError('--mode insert needs --line N or --after /regex/');
  if (opts.force && mode !== 'write') throw new UsageError(`--force only applies to --mode write (${mode} never overwrites)`);
  return {
    to: opts.to,
    mode,
    line: opts.line,
    after: opts.after,
    force: opts.force ?? false,
    root: opts.root,
    allowOutside: opts.allowOutside ?? false,
  };
}
