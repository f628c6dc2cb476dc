import fs from 'node:fs';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, isRefcatError, toDiagnostic } from '../../shared/errors.js';
import { confinementOf } from '../alias/alias-confinement.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { PatternBudget } from '../regex/pattern-search.js';
import type { Confinement } from '../safe-read/confinement.js';
import type { WalkWarning } from '../walk/glob.js';
import { WalkCache } from '../walk/walk-cache.js';
import type { Extraction, ExtractOptions, ExtractReport, ExtractStep, StreamOptions } from './extraction.js';
import { clampWarning, readExtraction } from './read-extraction.js';
import { secretDiagnostics } from './extract-secrets.js';
import { SecretScanner } from '../secrets/secret-scan.js';
import type { SelectWarning } from './select.js';
import { fileList, type FileList } from './resolve-files.js';
import { symbolLanguageOf } from '../symbols/languages.js';

// Extraction in three files, by what each does (docs/reference.md#reading-files): the files a ref
// names (resolve-files.ts), one file read and its lines selected (read-extraction.ts), and here
// every ref of a call in order. Their names are handed on from here, where callers look for them.
export type { Extraction, ExtractOptions, ExtractReport, ExtractStep, ResolvedFile, StreamOptions } from './extraction.js';
export { extractFile, extractFileWithWarnings } from './read-extraction.js';
export { resolveFiles } from './resolve-files.js';


/**
 * Extract every ref (docs/reference.md#reading-files and 4). Never throws for a bad ref: every ref is processed, each
 * failure becomes an entry of `errors` (a malformed alias file included, naming the file), each
 * clamp an entry of `warnings`, in the order given. Only a bug escapes.
 *
 * Decision: a pattern after a glob selects in the files it matches; files without a match are
 * skipped, and only a pattern that matches in none of them is an error.
 */
export function extract(refs: readonly (string | RefSpec)[], ctx: Context, given: ExtractOptions = {}): ExtractReport {
  const report: ExtractReport = { results: [], errors: [], warnings: [] };
  for (const step of extractSteps(refs, ctx, given)) {
    if (step.result) report.results.push(step.result);
    report.warnings.push(...step.warnings);
    report.errors.push(...step.errors);
  }
  return report;
}

/**
 * extract(), one step at a time, in the same order: for output that is written while the refs are
 * read. With `onDisk`, whole files and line ranges are measured, not read into memory: their
 * results carry `onDisk` (the file stays open until the next step is taken) instead of `lines`,
 * and no size cap applies to them (docs/reference.md#streaming-and-memory).
 */
export function* extractSteps(
  refs: readonly (string | RefSpec)[],
  ctx: Context,
  given: ExtractOptions & StreamOptions = {},
): Generator<ExtractStep> {
  const { options, aliases, quotable } = callOptions(ctx, given);
  for (const input of refs) {
    const refText = typeof input === 'string' ? input : input.raw;
    let spec: RefSpec;
    let files: FileList;
    const walked: WalkWarning[] = [];
    try {
      spec = typeof input === 'string' ? parseRef(input) : input;
      files = fileList(spec, ctx, { ...options, aliases }, walked);
    } catch (err) {
      yield { warnings: options.versions?.takeWarnings() ?? [], errors: [asDiagnostic(err, refText)] };
      continue;
    }
    // A version's warnings (a clone off its pin), with the first ref of its alias.
    const noted = options.versions?.takeWarnings();
    if (noted && noted.length > 0) yield { warnings: noted, errors: [] };
    // Mapped only when there are some: V8 compiles this generator for the arrays it has seen, and
    // an empty one beside a full one of another kind would throw the compiled code away.
    if (walked.length > 0) yield { warnings: walkDiagnostics(walked, spec.raw), errors: [] };
    let skipped = 0;
    // One options object for all the files of a glob, not a copy per file.
    const fileOptions = { ...options, quotable };
    for (let i = 0; i < files.length; i++) {
      const file = files.at(i);
      let found: { extraction: Extraction; warnings: SelectWarning[] };
      try {
        found = readExtraction(file, fileOptions);
      } catch (err) {
        // A pattern applied to a glob picks the files it matches: the others are not errors.
        if (file.glob && isRefcatError(err) && err.code === 'pattern_not_found') skipped++;
        else yield { warnings: [], errors: [asDiagnostic(err, file.refText)] };
        continue;
      }
      const step = fileStep(file.refText, found, options);
      const result = step.result;
      if (!result) {
        yield step;
        continue;
      }
      try {
        yield step;
      } finally {
        if (result.onDisk) {
          fs.closeSync(result.onDisk.fd);
          result.onDisk.release?.();
        }
      }
    }
    if (skipped > 0 && skipped === files.length && spec.selector?.kind === 'pattern') {
      const message = `Pattern /${spec.selector.source}/ not found in ${files.length === 1 ? 'the one file' : `any of the ${files.length} files`} of ${spec.raw}`;
      yield { warnings: [], errors: [{ code: 'pattern_not_found', message, details: [], ref: spec.raw }] };
    }
  }
}

/**
 * The files an outline of `refs` will parse, in the order it reads them: on disk (not at a
 * version), in a language with a grammar. A ref that does not resolve lists none (its extraction
 * reports it). The globs are walked through `given.walkCache`, which the extraction shares.
 */
export function outlineFiles(refs: readonly string[], ctx: Context, given: ExtractOptions): string[] {
  const options = { ...given, aliases: given.aliases ?? new AliasResolver(ctx) };
  const out: string[] = [];
  for (const ref of refs) {
    try {
      const files = fileList(parseRef(ref), ctx, options, []);
      for (let i = 0; i < files.length; i++) {
        const file = files.at(i);
        if (!file.version && symbolLanguageOf(file.path)) out.push(file.path);
      }
    } catch {
      // Reported by the extraction.
    }
  }
  return out;
}

/** The options every ref of one call shares: one pattern budget, one walk cache, one secret scanner, one alias resolver. */
function callOptions<T extends ExtractOptions>(ctx: Context, given: T): { options: T; aliases: AliasResolver; quotable: (abs: string) => boolean } {
  const aliases = given.aliases ?? new AliasResolver(ctx);
  // Built when a message would quote a line: the alias files are read only then.
  let quoting: Confinement | undefined;
  const quotable = given.quotable ?? ((abs: string) => (quoting ??= given.confine ?? confinementOf(ctx, aliases)).allows(abs));
  // One options object for the call, every ref and file of it (verify refs calls once per ref).
  const options: T = {
    ...given,
    patternBudget: given.patternBudget ?? new PatternBudget(),
    // The globs of all the refs of one call read each folder once (walk-cache.ts).
    walkCache: given.walkCache ?? new WalkCache(),
    // Secrets are redacted unless the caller says otherwise (docs/refs.md#secrets).
    secrets: given.secrets ?? new SecretScanner('redact', ctx.cwd),
    aliases,
    quotable,
  };
  return { options, aliases, quotable };
}

/**
 * One file's step: its extraction with its warnings (the selection's, a clamp, its secrets), or,
 * where its secrets keep it out, no result and what they say.
 */
function fileStep(refText: string, found: { extraction: Extraction; warnings: SelectWarning[] }, options: ExtractOptions): ExtractStep {
  const result = found.extraction;
  const warnings = found.warnings.map((w): Diagnostic => ({ ...w, message: `${w.message} in ${refText}`, ref: refText }));
  if (result.wasClamped) warnings.unshift(clampWarning(refText, result));
  if (result.secrets) {
    const checked = secretDiagnostics(result, options);
    warnings.push(...checked.warnings);
    if (!checked.keep) return { warnings, errors: checked.errors };
  }
  return { result, warnings, errors: [] };
}

/** What the walk of a glob skipped (a symlink loop, a folder it cannot read), as the ref's warnings. */
function walkDiagnostics(walked: readonly WalkWarning[], ref: string): Diagnostic[] {
  return walked.map((w) => ({ code: w.code, message: `${w.message} in ${ref}`, details: [], ref }));
}

/** A ref's failure as a diagnostic: every RefcatError (a malformed alias file too) stays with its ref. */
function asDiagnostic(err: unknown, ref: string): Diagnostic {
  if (isRefcatError(err)) return { ...toDiagnostic(err), ref: err.ref ?? ref };
  throw err;
}
