/**
 * Option value parsers shared by commands. They throw FlagValueError (not commander's error
 * class) so that this module loads without commander; program.ts converts the error into
 * commander's, and fast-argv.ts gives up on it and lets commander report it: exit 2 either way.
 */
export class FlagValueError extends Error {}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new FlagValueError('expected a whole number >= 0.');
  return Number(value);
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0) throw new FlagValueError('expected a whole number > 0.');
  return Number(value);
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
