import { InvalidArgumentError } from 'commander';

/** Shared option parsers: a bad value is a commander error, which the CLI turns into exit 2. */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number >= 0.');
  return Number(value);
}

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0) throw new InvalidArgumentError('expected a whole number > 0.');
  return Number(value);
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--alias NAME=PATH`. */
export function aliasPair(value: string, previous: string[] = []): string[] {
  const eq = value.indexOf('=');
  if (eq <= 0 || eq === value.length - 1) throw new InvalidArgumentError('expected NAME=PATH.');
  return [...previous, value];
}

export function splitAlias(pair: string): { name: string; path: string } {
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), path: pair.slice(eq + 1) };
}
