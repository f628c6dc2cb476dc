import { UsageError } from '../shared/errors.js';

/**
 * `--json` and `--format F`, the same on every command that has more than one output
 * (docs/reference.md#output-formats): `--json` is `--format json`, `--format` lists its choices,
 * and two different formats asked for at once are a usage error. Commands build their flags and
 * read the format asked for here. Keep this file free of heavy imports (fast-argv.ts loads it).
 */

/** A flag table entry (extract-flags.ts FlagSpec), spelled out here so the two files do not import each other. */
interface FormatFlagSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
}

export const JSON_FLAG: FormatFlagSpec = { flags: '--json', description: 'JSON output (same as --format json)' };

/** `--format <format>` with its choices; `fallback` is what a command prints without it. */
export function formatFlag(choices: readonly string[], fallback: string): FormatFlagSpec {
  return { flags: '--format <format>', description: `output format (default: ${fallback})`, choices };
}

/** `--json` and `--format`, in the order help lists them. */
export function formatFlags(choices: readonly string[], fallback: string): FormatFlagSpec[] {
  return [JSON_FLAG, formatFlag(choices, fallback)];
}

/** The choices of commands whose output is a table for people or JSON (`aliases`, `fd list`). */
export const TABLE_FORMATS = ['text', 'json'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

/**
 * The format asked for, from `--format` and the flags that name one (`--json`, and a command's own
 * such as `--raw`), in the order the conflict message names them; `fallback` when none is given.
 */
export function chosenFormat<F extends string>(asked: readonly (F | false | undefined)[], fallback: F): F {
  const formats = new Set(asked.filter((f): f is F => typeof f === 'string'));
  if (formats.size > 1) throw new UsageError(`Conflicting output formats: ${[...formats].join(' and ')} (pick one)`);
  return formats.values().next().value ?? fallback;
}

/** What commander (or fast-argv.ts) gives a command for `--json` and `--format`. */
export interface FormatOptions<F extends string> {
  json?: boolean;
  format?: F;
}

/** `--format` and `--json` of one command: the format asked for, or `fallback`. */
export function formatOf<F extends string>(opts: FormatOptions<F>, fallback: F): F {
  return chosenFormat<F>([opts.json && ('json' as F), opts.format], fallback);
}
