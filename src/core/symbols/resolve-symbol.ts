import { RefError } from '../../shared/errors.js';
import { editDistance } from '../../shared/did-you-mean.js';
import type { LineSpan, SymbolSelector } from '../ref-spec/ref-spec.js';
import type { Declaration } from './declaration.js';

const MAX_SUGGESTIONS = 5;

/**
 * The declaration a symbol selector names in a declaration table (docs/symbols.md#resolution).
 * Throws RefError: not found (with up to 5 near names), or several with the same path and no `~N`
 * (each listed with its lines and kind).
 */
export function resolveSymbol(table: readonly Declaration[], sel: SymbolSelector, refText: string): Declaration {
  const same = table.filter((d) => d.path === sel.path);
  // `#Foo` is the type's own declaration; its extensions only when the file has nothing else.
  const own = same.filter((d) => d.kind !== 'extension');
  const candidates = own.length > 0 ? own : same;
  const shown = sel.index === null ? sel.path : `${sel.path}~${sel.index}`;
  if (candidates.length === 0) {
    const near = nearPaths(table, sel.path);
    const hint = near.length > 0 ? ` (did you mean ${near.join(', ')}?)` : '';
    throw new RefError('symbol_not_found', `Symbol '${shown}' not found in ${refText}${hint}`, refText);
  }
  if (sel.index !== null) {
    const picked = candidates[sel.index - 1];
    if (!picked) {
      const n = candidates.length;
      throw new RefError('symbol_not_found', `Symbol '${shown}' not found in ${refText} (there ${n === 1 ? 'is 1 declaration' : `are ${n} declarations`} of ${sel.path})`, refText, candidateLines(candidates, sel.path));
    }
    return picked;
  }
  if (candidates.length > 1) {
    throw new RefError(
      'symbol_ambiguous',
      `Symbol '${sel.path}' names ${candidates.length} declarations in ${refText}; pick one with ~N`,
      refText,
      candidateLines(candidates, sel.path),
    );
  }
  return candidates[0]!;
}

/** The lines a symbol selector selects: the declaration's, widened by its `:relative` window. */
export function symbolSpan(decl: Declaration, sel: SymbolSelector, totalLines: number): LineSpan {
  if (!sel.window) return { start: decl.startLine, end: decl.endLine };
  return {
    start: Math.max(1, decl.startLine - sel.window.before),
    end: sel.window.after === null ? totalLines : Math.min(totalLines, decl.endLine + sel.window.after),
  };
}

function candidateLines(candidates: readonly Declaration[], path: string): string[] {
  return candidates.map((d, i) => `#${path}~${i + 1}  L${d.startLine}-L${d.endLine}  ${d.kind}`);
}

/**
 * Up to 5 paths close to `wanted`: the same last name under another parent (`save` for
 * `Store.save`), then typos of the path or of the last name, nearest first; with none, the deepest
 * declaration it goes through (`Store.save` for `Store.save.member`). A last name of one or two
 * characters is matched whole: one edit from `x` is every other one-letter name.
 */
function nearPaths(table: readonly Declaration[], wanted: string): string[] {
  const last = wanted.slice(wanted.lastIndexOf('.') + 1);
  const scored: { path: string; score: number }[] = [];
  const seen = new Set<string>();
  const limit = typos(last);
  for (const d of table) {
    if (seen.has(d.path)) continue;
    seen.add(d.path);
    const whole = editDistance(wanted, d.path);
    const named = editDistance(last, d.name);
    if (whole <= limit || named <= limit) scored.push({ path: d.path, score: Math.min(whole, named) });
  }
  scored.sort((a, b) => a.score - b.score || a.path.length - b.path.length);
  if (scored.length > 0) return scored.slice(0, MAX_SUGGESTIONS).map((s) => s.path);
  const through = deepestThrough(table, wanted);
  return through === null ? [] : [through];
}

/** Edits a name of this length may be away and still be suggested (none for one or two characters). */
function typos(name: string): number {
  return name.length <= 2 ? 0 : name.length <= 4 ? 1 : name.length <= 8 ? 2 : 3;
}

/** The longest path of the table that `wanted` continues (`Store.save` of `Store.save.x`), or null. */
function deepestThrough(table: readonly Declaration[], wanted: string): string | null {
  const paths = new Set(table.map((d) => d.path));
  for (let cut = wanted.lastIndexOf('.'); cut > 0; cut = wanted.lastIndexOf('.', cut - 1)) {
    if (paths.has(wanted.slice(0, cut))) return wanted.slice(0, cut);
  }
  return null;
}
