/**
 * The read-and-judge stage of `verify refs` for a doc (docs/design/verify-refs.md#the-pipeline): each
 * ref found is resolved and read once, its errors become findings, its cited snippet is judged,
 * and its drift input is kept. The versions the refs need are ready before; a grammar is loaded
 * when a ref first needs it.
 */
import type { Diagnostic, Finding } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { extract } from '../extract/extract.js';
import { addSnippetEntry, judgeSnippet } from '../snippets/judge-snippets.js';
import { loadGrammars } from '../symbols/grammar-loader.js';
import type { SymbolLanguage } from '../symbols/languages.js';
import { missingGrammars } from '../symbols/prepare-symbol-refs.js';
import { intoFolderNotCloned } from '../alias/not-cloned.js';
import type { FoundRef } from './find-refs.js';
import { driftInput, type VerifyRun } from './verify-run.js';

/**
 * Checks a doc's refs, in order, adding what each yields to the run. A symbol ref is read without
 * its grammar when the file's table was kept by an earlier run (docs/symbols.md#the-table-cache);
 * one whose table must be parsed is checked again once the grammar is loaded, which each run does
 * once a language, and only when some table has to be parsed.
 */
export async function checkFoundRefs(file: string, refs: readonly FoundRef[], run: VerifyRun): Promise<void> {
  for (const r of refs) {
    const first = checkFoundRef(file, r, run, null);
    if (first) {
      await loadGrammars(first.missing);
      checkFoundRef(file, r, run, first.before);
    }
  }
}

/** A ref's first check, given up for a grammar to load: what to load, and what else it found. */
interface GivenUp {
  missing: SymbolLanguage[];
  /**
   * Its other errors and its warnings. Some are given once a run (an alias's pin read at a
   * version): the second check would not see them again.
   */
  before: { errors: readonly Diagnostic[]; warnings: readonly Diagnostic[] };
}

/**
 * Whether a ref is recorded without being read: an alias's whose folder is not there (not cloned),
 * its one possible finding folded into the folder's. Nothing is made ready for it either: no
 * grammar, no version read from git.
 */
export function readsNothing(found: FoundRef, run: VerifyRun): boolean {
  if (run.confine || found.text !== found.ref) return false;
  // Asked for each ref twice (what to make ready, then its check), and docs repeat refs: once a run.
  let answer = run.notCloned.get(found.ref);
  if (answer === undefined) run.notCloned.set(found.ref, (answer = intoFolderNotCloned(found.ref, run.aliases, run.folderThere)));
  return answer;
}

/**
 * Checks one ref. On a first check (`before` null), a ref that needs a grammar not loaded yet adds
 * nothing and returns what to load before it is checked again, with `before` what the first check
 * found: what the second does not find again is the ref's too.
 */
function checkFoundRef(file: string, found: FoundRef, run: VerifyRun, before: GivenUp['before'] | null): GivenUp | null {
  const { line, text, ref, dirs, citation } = found;
  const { ctx, aliases, findings, driftRefs, snippets, bareRefs, confine } = run;
  if (readsNothing(found, run)) {
    // Its one possible finding, folded into the folder's by groupNotCloned(); nothing to read.
    findings.push({ severity: 'error', code: 'not_found', message: `Not cloned: ${ref}`, details: [], ref: text, file, line });
    if (citation?.bare) bareRefs.add(`${file}\0${line}\0${text}`);
    if (driftRefs) driftRefs.push(driftInput(file, line, text, ref, aliases, dirs));
    return null;
  }
  const judging = citation !== undefined && snippets !== undefined;
  const report = extract([ref], ctx, {
    searchDirs: dirs,
    aliases,
    checkOnly: !judging,
    unjudgedOutside: true,
    quotable: run.quotable,
    patternBudget: run.budget,
    confine,
    readCache: run.readCache,
    secrets: run.secrets,
    walkCache: run.walkCache,
    versions: run.versions.prepared,
  });
  if (before === null && report.errors.some((e) => e.code === 'grammar_not_loaded')) {
    const missing = missingGrammars([ref]);
    const others = report.errors.filter((e) => e.code !== 'grammar_not_loaded');
    if (missing.length > 0) return { missing, before: { errors: others, warnings: report.warnings } };
  }
  const at = (severity: Finding['severity']) => (d: Diagnostic) =>
    findings.push({ severity, code: d.code, message: d.message, details: d.details, ref: text, file, line });
  const errors = before ? [...notIn(before.errors, report.errors), ...report.errors] : report.errors;
  const warnings = before ? [...notIn(before.warnings, report.warnings), ...report.warnings] : report.warnings;
  errors.forEach(at('error'));
  warnings.forEach(at('warning'));
  // A broken ref has no snippet verdict: its error says what is wrong.
  if (judging && errors.length === 0) {
    const away = report.results.find((r) => !run.comparable!.allows(r.path));
    if (away) {
      const message = `Snippet not compared: ${shownPath(ctx.cwd, away.path)} is outside the root ${ctx.cwd} and every alias target`;
      findings.push({ severity: 'warning', code: 'snippet_outside', message, details: [], ref: text, file, line });
    } else addSnippetEntry(snippets!, judgeSnippet(file, citation!, report.results, dirs, run.snippetFiles));
  }
  if (citation?.bare) bareRefs.add(`${file}\0${line}\0${text}`);
  const input = driftRefs && !report.errors.some((e) => e.code === 'outside_root') && driftInput(file, line, text, ref, aliases, dirs);
  if (input) driftRefs!.push(input);
  return null;
}

/** The diagnostics of `first` that `again` does not hold. */
function notIn(first: readonly Diagnostic[], again: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.code}\0${d.message}\0${d.details.join('\0')}`;
  const seen = new Set(again.map(key));
  return first.filter((d) => !seen.has(key(d)));
}
