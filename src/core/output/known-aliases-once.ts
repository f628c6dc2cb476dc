import type { Diagnostic } from '../../shared/errors.js';
import { KNOWN_ALIASES, OTHER_WAYS } from '../alias/resolve-aliases.js';

/**
 * For one text report: the known aliases are said once (docs/reference.md#aliases). A workspace
 * with dozens of aliases has a known-aliases line of hundreds of characters, which a docs tree
 * with a dozen refs to an undefined alias would repeat a dozen times. The first unknown-alias
 * diagnostic that carries a given list keeps every line; a later one with the same list keeps
 * its first line (with its did-you-mean) and the `Define in` hint, and drops the list and the
 * other ways to define an alias. A different list (a workflow's own ALIAS lines) is said again.
 * JSON and GitHub annotations keep every line: each entry there is read on its own.
 */
export function knownAliasesOnce(): <D extends Diagnostic>(d: D) => D {
  const said = new Set<string>();
  return (d) => {
    if (d.code !== 'unknown_alias') return d;
    const list = d.details.find((line) => line.startsWith(KNOWN_ALIASES));
    if (list === undefined) return d;
    if (!said.has(list)) {
      said.add(list);
      return d;
    }
    return { ...d, details: d.details.filter((line) => line !== list && !line.startsWith(OTHER_WAYS)) };
  };
}
