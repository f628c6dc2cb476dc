/**
 * The read-and-judge stage of `verify refs` for a doc (docs/design/verify-refs.md#the-pipeline): each
 * ref found is resolved and read once, its errors become findings, its cited snippet is judged,
 * and its drift input is kept. The versions the refs need are ready before; a grammar is loaded
 * when a ref first needs it.
 */
import type { Finding } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { extract } from '../extract/extract.js';
import { addSnippetEntry, judgeSnippet } from '../snippets/judge-snippets.js';
import { loadGrammars } from '../symbols/grammar-loader.js';
import type { SymbolLanguage } from '../symbols/languages.js';
import { missingGrammars } from '../symbols/prepare-symbol-refs.js';
import { intoFolderNotCloned } from './group-not-cloned.js';
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
    const missing = checkFoundRef(file, r, run, true);
    if (missing) {
      await loadGrammars(missing);
      checkFoundRef(file, r, run, false);
    }
  }
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
 * Checks one ref. With `mayLoad`, a ref that needs a grammar not loaded yet adds nothing and
 * returns the grammars to load before it is checked again.
 */
function checkFoundRef(file: string, found: FoundRef, run: VerifyRun, mayLoad: boolean): SymbolLanguage[] | null {
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
  if (mayLoad && report.errors.some((e) => e.code === 'grammar_not_loaded')) {
    const missing = missingGrammars([ref]);
    if (missing.length > 0) return missing;
  }
  const at = (severity: Finding['severity']) => (d: (typeof report.errors)[number]) =>
    findings.push({ severity, code: d.code, message: d.message, details: d.details, ref: text, file, line });
  report.errors.forEach(at('error'));
  report.warnings.forEach(at('warning'));
  // A broken ref has no snippet verdict: its error says what is wrong.
  if (judging && report.errors.length === 0) {
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
