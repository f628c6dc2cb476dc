import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, type Finding, isRefcatError, RefError } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { closest } from '../../shared/did-you-mean.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { PatternBudget } from '../regex/pattern-search.js';
import { extract, resolveFiles } from '../extract/extract.js';
import { SELECTS_NOTHING } from '../extract/extract-batches.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import { ALLOWED_VALUES, STEP_DIRECTIVES } from './conv-directives.js';
import { type ConvReader, loadConv } from './load-conv.js';
import type { Confinement } from '../safe-read/confinement.js';
import { compileGlob, type GlobMatcher, globTooLong, MAX_GLOB_CHARS } from '../walk/glob-match.js';
import { WalkCache } from '../walk/walk-cache.js';
import { convRefs } from './conv-refs.js';
import { validationTargets } from './workflow-parts.js';
import { markNotCloned } from '../alias/not-cloned.js';
import type { ConvDirective, ConversationFile } from './conv-types.js';
import { prepareSymbolRefs } from '../symbols/prepare-symbol-refs.js';
import { readTextFile } from '../safe-read/read-text-file.js';
import type { PreparedVersions } from '../versions/prepare-versions.js';
import { READ_AT_PIN, RunVersions } from '../versions/run-versions.js';
import type { VersionMode } from '../versions/version-reader.js';

export interface ValidateConvOptions {
  /** Missing files, unknown aliases and unmatched CONTEXT are warnings (docs/reference.md#validate). */
  allowMissing?: boolean;
  /** Warnings count as errors. */
  strict?: boolean;
  /**
   * Aliases of the command line and config files; each workflow gets a fork with its ALIAS
   * directives added. Passing one resolver for many workflows reads the config files once.
   */
  aliases?: AliasResolver;
  /** Injectable file reader for the workflow and its INCLUDEs. */
  readFile?: ConvReader;
  /** Globs: do not skip .gitignore'd files, node_modules/ and .git/. */
  noIgnore?: boolean;
  /** The CPU-time budget of every pattern; pass one to share it across the workflows of a call. */
  patternBudget?: PatternBudget;
  /** Refs to files this does not allow are refused before they are looked at (ExtractOptions.confine). */
  confine?: Confinement;
  /** `--worktree`, `--pinned` (docs/refs.md#refs-at-a-version). */
  versionMode?: VersionMode;
  /** Refs at a version read for the whole run (validateWorkflows makes one); without it, validateConv reads pinned aliases' checkouts. */
  versions?: RunVersions;
}

export interface ConvValidation {
  /** Absolute path of the workflow. */
  path: string;
  valid: boolean;
  errors: Finding[];
  warnings: Finding[];
  /** How many refs were checked (REFCAT refs and CONTEXT patterns). */
  refs: number;
  /** The parsed workflow, or null when it could not be read. */
  conv: ConversationFile | null;
  /** Files named in the run that this workflow INCLUDEs, checked as part of it (validateWorkflows). */
  parts?: string[];
}

/** Codes that --allow-missing (and VALIDATION-MODE lenient/exploratory) turn into warnings. */
export const MISSING_CODES: ReadonlySet<string> = new Set(['not_found', 'not_cloned', 'unknown_alias', 'glob_no_match', 'context_no_match']);

/**
 * Validate one `.conv` workflow (docs/reference.md#validate): its structure, directive values and every ref, each
 * finding with its file and line. Never throws for a problem of the workflow; only a malformed
 * config file (ConfigError) escapes. `VALIDATION-MODE lenient` acts like --allow-missing (relaxedBy).
 */
export function validateConv(file: string, ctx: Context, options: ValidateConvOptions = {}): ConvValidation {
  return validateLoaded(loadWorkflow(file, ctx, options), ctx, options);
}

/**
 * validateConv(), the grammars its symbol refs need loaded first (docs/symbols.md#cost): symbol
 * refs are resolved synchronously, and loading a grammar is not. The workflow is read once.
 */
export async function validateConvWithSymbols(file: string, ctx: Context, options: ValidateConvOptions = {}): Promise<ConvValidation> {
  const loaded = loadWorkflow(file, ctx, options);
  if ('conv' in loaded) {
    const { conv } = loaded;
    await prepareSymbolRefs(convRefs(conv).map((r) => r.ref));
    if (options.versions) {
      const aliases = workflowAliases(conv, ctx, options.aliases, (p) => p, []);
      await options.versions.prepare(convRefs(conv).map((r) => ({ ref: r.ref, dirs: searchDirsFor(r.directive, ctx) })), aliases);
    }
  }
  return validateLoaded(loaded, ctx, options);
}

/** A workflow read and parsed, or the finding that says why it could not be. */
type LoadedWorkflow = { abs: string; conv: ConversationFile } | { abs: string; failed: Finding };

function loadWorkflow(file: string, ctx: Context, options: ValidateConvOptions): LoadedWorkflow {
  const abs = path.resolve(ctx.cwd, file);
  try {
    return { abs, conv: loadConv(abs, { readFile: options.readFile, display: (p) => shownPath(ctx.cwd, p) }) };
  } catch (err) {
    if (!(err instanceof RefError)) throw err;
    return { abs, failed: { severity: 'error', code: err.code, message: err.message, details: [], file: abs, line: null } };
  }
}

function validateLoaded(loaded: LoadedWorkflow, ctx: Context, options: ValidateConvOptions): ConvValidation {
  const { abs } = loaded;
  if ('failed' in loaded) return finish(abs, null, [loaded.failed], 0, options.strict ?? false, null);
  const { conv } = loaded;
  const display = (p: string) => shownPath(ctx.cwd, p);
  const findings: Finding[] = conv.problems.map((p) => ({ ...p }));
  const resolver = workflowAliases(conv, ctx, options.aliases, display, findings);
  const refs = checkConvRefs(conv, ctx, resolver, findings, options.noIgnore ?? false, options.patternBudget ?? new PatternBudget(), options.confine, undefined, options.versions?.prepared);
  markNotCloned(findings, resolver, ctx);
  checkValues(conv, findings);
  checkElideChains(conv, findings);
  checkRequire(conv, ctx, resolver, findings, options.confine);
  if (!conv.directives.some((d) => d.name === 'PROMPT')) {
    findings.push({ severity: 'error', code: 'no_prompt', message: 'No PROMPT directives found', details: [], file: abs, line: null });
  }

  return finish(abs, conv, findings, refs, options.strict ?? false, relaxedBy(conv, options.allowMissing ?? false));
}

/**
 * `refcat validate` of many files (docs/workflows.md#parts-included-files): a file another
 * workflow INCLUDEs is checked as part of each top-level workflow that includes it, also when only
 * the part is named; each workflow is validated once, and says which named parts it stands for.
 */
export async function validateWorkflows(files: readonly string[], ctx: Context, options: ValidateConvOptions = {}): Promise<ConvValidation[]> {
  const abs = files.map((f) => path.resolve(ctx.cwd, f));
  // The include graph and the checks read the same files: one read each, for the whole run.
  const readOnce = options.readFile ?? ((p: string) => readTextFile(p));
  const texts = new Map<string, { text: string } | { failed: unknown }>();
  const readFile = (p: string) => {
    let read = texts.get(p);
    if (read === undefined) {
      try {
        read = { text: readOnce(p) };
      } catch (err) {
        read = { failed: err };
      }
      texts.set(p, read);
    }
    if ('failed' in read) throw read.failed;
    return read.text;
  };
  const results: ConvValidation[] = [];
  // Refs at a version are read from git once a run (docs/refs.md#refs-at-a-version).
  const versions = options.versions ?? new RunVersions(ctx, { mode: options.versionMode, reachableOnly: options.confine !== undefined });
  try {
    for (const t of validationTargets(abs, ctx, { readFile, confine: options.confine })) {
      const result = await validateConvWithSymbols(t.path, ctx, { ...options, readFile, versions });
      results.push(t.parts.length > 0 ? { ...result, parts: t.parts } : result);
    }
  } finally {
    if (!options.versions) versions.close();
  }
  return results;
}

/**
 * What turns a workflow's missing files, unknown aliases and unmatched CONTEXT into warnings:
 * `--allow-missing`, or the workflow's last VALIDATION-MODE when it is lenient or exploratory
 * (sdqctl's "warn only"); null when nothing does. `verify refs` applies it too, so both commands
 * give a workflow's refs one verdict (docs/reference.md#verify-refs).
 */
export function relaxedBy(conv: ConversationFile, allowMissing: boolean): string | null {
  if (allowMissing) return '--allow-missing';
  const mode = [...conv.directives].reverse().find((d) => d.name === 'VALIDATION-MODE');
  return mode && (mode.value === 'lenient' || mode.value === 'exploratory') ? `VALIDATION-MODE ${mode.value}` : null;
}

/** Makes the missing-file findings warnings that say what relaxed them (relaxedBy). */
export function relaxMissing(findings: readonly Finding[], by: string | null): void {
  if (by === null) return;
  for (const f of findings) {
    if (f.severity !== 'error' || !MISSING_CODES.has(f.code)) continue;
    f.severity = 'warning';
    f.details = [...f.details, `Reported as a warning: ${by}`];
  }
}

function finish(
  abs: string,
  conv: ConversationFile | null,
  findings: Finding[],
  refs: number,
  strict: boolean,
  relaxed: string | null,
): ConvValidation {
  relaxMissing(findings, relaxed);
  for (const f of findings) {
    // A pinned alias read at its pin is judged right: the warning that says so is no error.
    if (strict && f.severity === 'warning' && f.code !== READ_AT_PIN) {
      f.severity = 'error';
      f.details = [...f.details, 'Reported as an error: --strict'];
    }
  }
  const sorted = sortFindings(findings, conv?.files ?? []);
  const errors = sorted.filter((f) => f.severity === 'error');
  const warnings = sorted.filter((f) => f.severity === 'warning');
  return { path: abs, valid: errors.length === 0, errors, warnings, refs, conv };
}

/** Findings by file (the workflow first, then its INCLUDEs as met), then line; stable. */
export function sortFindings(findings: readonly Finding[], files: readonly string[]): Finding[] {
  const key = (f: Finding) => [Math.max(files.indexOf(f.file), 0), f.line ?? Infinity] as const;
  return findings
    .map((f, i) => ({ f, i, k: key(f) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.i - b.i)
    .map((x) => x.f);
}

/** A directive's value as a message quotes it: redacted (docs/refs.md#secrets). */
function shown(d: ConvDirective): string {
  return d.shownValue ?? d.value;
}

function at(d: ConvDirective, severity: Finding['severity'], code: string, message: string, details: string[] = [], ref?: string): Finding {
  const f: Finding = { severity, code, message, details, file: d.file, line: d.line };
  if (ref !== undefined) f.ref = ref;
  return f;
}

/**
 * A resolver for the workflow: `base` (command line and config files) plus the workflow's ALIAS
 * NAME=PATH directives, paths relative to the file that holds the ALIAS. A bad ALIAS is a finding.
 */
export function workflowAliases(
  conv: ConversationFile,
  ctx: Context,
  base: AliasResolver | undefined,
  display: (p: string) => string,
  findings: Finding[],
): AliasResolver {
  const resolver = (base ?? new AliasResolver(ctx)).fork();
  for (const d of conv.directives) {
    if (d.name !== 'ALIAS') continue;
    const eq = d.value.indexOf('=');
    const name = d.value.slice(0, Math.max(eq, 0)).trim();
    const target = d.value.slice(eq + 1).trim();
    if (eq <= 0 || target === '') {
      findings.push(at(d, 'error', 'invalid_alias', `Invalid ALIAS value '${shown(d)}' (expected NAME=PATH)`));
      continue;
    }
    try {
      resolver.addExplicit({ name, path: target, base: path.dirname(d.file), origin: `ALIAS at ${display(d.file)}:${d.line}` });
    } catch (err) {
      if (!isRefcatError(err)) throw err;
      findings.push(at(d, 'error', 'invalid_alias', err.message));
    }
  }
  return resolver;
}

/** Folders a workflow's relative refs are looked up in (docs/reference.md#validate): its own folder, then cwd. */
export function searchDirsFor(d: ConvDirective, ctx: Context): string[] {
  return [path.dirname(d.file), ctx.cwd];
}

/**
 * Check every REFCAT ref (file, alias, selector; clamped ranges are warnings) and every CONTEXT /
 * CONTEXT-OPTIONAL pattern (must match a file; optional ones only warn). Patterns that a
 * CONTEXT-EXCLUDE glob matches are not checked. Returns how many refs were checked.
 */
export function checkConvRefs(
  conv: ConversationFile,
  ctx: Context,
  aliases: AliasResolver,
  findings: Finding[],
  noIgnore: boolean,
  patternBudget: PatternBudget,
  confine?: Confinement,
  walkCache = new WalkCache(),
  /** Refs at a version, read before (RunVersions). */
  versions?: PreparedVersions,
): number {
  const excluded = contextExcluder(conv, findings);
  let count = 0;
  for (const r of convRefs(conv)) {
    const d = r.directive;
    const opts = { searchDirs: searchDirsFor(d, ctx), aliases, noIgnore, checkOnly: true, unjudgedOutside: true, patternBudget, confine, walkCache, versions };
    if (r.kind === 'REFCAT') {
      count++;
      const report = extract([r.ref], ctx, opts);
      for (const e of report.errors) findings.push(fromDiagnostic(d, 'error', e, r.ref));
      for (const w of report.warnings) findings.push(fromDiagnostic(d, 'warning', w, r.ref));
      continue;
    }
    if (excluded(r.ref)) continue;
    count++;
    const optional = r.kind === 'CONTEXT-OPTIONAL';
    try {
      const spec = parseRef(r.ref);
      const [first] = resolveFiles(spec, ctx, opts);
      // sdqctl injects the files a CONTEXT pattern finds, never a folder: one named matches nothing.
      if (first && !first.glob && isFolder(first.path)) {
        throw new RefError('not_found', `Is a folder: ${r.ref}`, r.ref, [`${first.path} is a folder; CONTEXT takes files (a glob such as ${r.ref.replace(/\/?$/, '/*')} takes the files in it)`]);
      }
      // A selector (`#/regex/`, `#Name`) is checked as --from-workflow applies it: optional, it only warns.
      if (spec.selector) {
        const report = extract([r.ref], ctx, opts);
        for (const e of report.errors) {
          if (optional && SELECTS_NOTHING.has(e.code)) findings.push(at(d, 'warning', 'context_no_match', `${r.kind} selects nothing: ${e.message}`, e.details, r.ref));
          else findings.push(fromDiagnostic(d, optional ? 'warning' : 'error', e, r.ref));
        }
        for (const w of report.warnings) findings.push(fromDiagnostic(d, 'warning', w, r.ref));
      }
    } catch (err) {
      if (!isRefcatError(err)) throw err;
      const missing = err.code === 'not_found' || err.code === 'glob_no_match';
      const severity = optional && err.code !== 'invalid_ref' ? 'warning' : 'error';
      if (missing) {
        findings.push(at(d, severity, 'context_no_match', `${r.kind} pattern matches nothing: ${r.ref}`, err.details, r.ref));
      } else {
        findings.push(at(d, severity, err.code, err.message, err.details, r.ref));
      }
    }
  }
  return count;
}

function isFolder(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function fromDiagnostic(d: ConvDirective, severity: Finding['severity'], diag: Diagnostic, ref: string): Finding {
  return at(d, severity, diag.code, diag.message, diag.details, diag.ref ?? ref);
}

/** Whether a CONTEXT-EXCLUDE glob leaves a ref out; a glob that cannot be compiled is an error at its line and excludes nothing. */
function contextExcluder(conv: ConversationFile, findings: Finding[]): (ref: string) => boolean {
  const globs = conv.directives.filter((d) => d.name === 'CONTEXT-EXCLUDE' && d.value !== '');
  if (globs.length === 0) return () => false;
  const matchers: GlobMatcher[] = [];
  for (const d of globs) {
    const glob = d.value.replace(/^@/, '');
    if (glob.length > MAX_GLOB_CHARS) {
      const err = globTooLong(glob);
      findings.push(at(d, 'error', err.code, err.message, [], err.ref));
    } else matchers.push(compileGlob(glob, { dot: true }));
  }
  return (ref) => matchers.some((m) => m.test(ref.replace(/^@/, '')));
}

/** Value checks of docs/reference.md#validate: numbers, percentages, enumerations, MODEL and REFCAT with no value. */
function checkValues(conv: ConversationFile, findings: Finding[]): void {
  for (const d of conv.directives) {
    const invalid = (expected: string) =>
      findings.push(at(d, 'error', 'invalid_value', `Invalid ${d.name} value '${shown(d)}' (expected ${expected})`));
    const allowed = ALLOWED_VALUES[d.name];
    if (allowed && !allowed.includes(d.value)) {
      findings.push(noEffect(d, allowed));
    } else if (d.name === 'MAX-CYCLES' && !(/^\d+$/.test(d.value) && Number(d.value) > 0)) {
      invalid('a whole number > 0');
    } else if (d.name === 'CONTEXT-LIMIT' && !validPercent(d.value)) {
      invalid('a percentage from 1% to 100%, like 80%');
    } else if (d.name === 'MODEL' && d.value === '') {
      findings.push(at(d, 'error', 'missing_model', 'Missing MODEL directive', ['MODEL needs a model name, like MODEL gpt-4']));
    } else if (d.name === 'REFCAT' && d.value === '') {
      findings.push(at(d, 'error', 'invalid_value', 'REFCAT needs at least one ref, like REFCAT @src/app.py#L10-L20'));
    }
  }
}

/**
 * A value outside the set of an enumerated directive: sdqctl stores it and it selects nothing, so
 * the directive is silently a no-op (`CHECKPOINT-AFTER 2` takes no checkpoint). That is a warning,
 * not an error, since the workflow runs (docs/reference.md#validate); `--strict` makes it an error.
 */
function noEffect(d: ConvDirective, allowed: readonly string[]): Finding {
  const expected = `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}`;
  const meant = d.value === '' ? null : closest(d.value.toLowerCase(), allowed);
  const message = meant
    ? `${d.name} '${shown(d)}' has no effect (did you mean ${meant}?)`
    : `${d.name} '${shown(d)}' has no effect (expected ${expected})`;
  const details = [meant ? `expected ${expected}; sdqctl ignores any other value` : 'sdqctl ignores any other value'];
  return at(d, 'warning', 'invalid_value', message, details);
}

function validPercent(value: string): boolean {
  const m = /^(\d+(?:\.\d+)?)%?$/.exec(value);
  return m !== null && Number(m[1]) >= 1 && Number(m[1]) <= 100;
}

/**
 * ELIDE merges the step before it and the step after it into one AI turn. A RUN in such a chain
 * cannot have RUN-RETRY or an ON-FAILURE/ON-SUCCESS block: those need turns of their own.
 * Steps are counted per scope (top level, or inside one block).
 */
function checkElideChains(conv: ConversationFile, findings: Finding[]): void {
  const steps = new Map<number | null, ConvDirective[]>();
  for (const d of conv.directives) {
    if (!STEP_DIRECTIVES.has(d.name)) continue;
    const list = steps.get(d.block) ?? [];
    list.push(d);
    steps.set(d.block, list);
  }
  const elided = (run: ConvDirective): boolean => {
    const list = steps.get(run.block) ?? [];
    const i = list.indexOf(run);
    return list[i - 1]?.name === 'ELIDE' || list[i + 1]?.name === 'ELIDE';
  };
  const explain = (run: ConvDirective, what: string) =>
    `ELIDE merges the RUN of line ${run.line} with its neighbours into one AI turn; ${what} needs turns of its own`;

  const lastRun = new Map<number | null, ConvDirective>();
  for (const d of conv.directives) {
    if (d.name === 'RUN') lastRun.set(d.block, d);
    if (d.name !== 'RUN-RETRY') continue;
    const run = lastRun.get(d.block);
    if (run && elided(run)) {
      findings.push(at(d, 'error', 'elide_conflict', 'RUN-RETRY cannot be used inside an ELIDE chain', [explain(run, 'RUN-RETRY')]));
    }
  }
  conv.blocks.forEach((b) => {
    if (!b.run || !elided(b.run)) return;
    const marker = conv.directives.find((d) => d.file === b.file && d.line === b.line)!;
    findings.push(at(marker, 'error', 'elide_conflict', `${b.kind} block cannot be used inside an ELIDE chain`, [explain(b.run, b.kind)]));
  });
}

/** REQUIRE @file (looked up like refs) and REQUIRE cmd:name (on the PATH of ctx.env). */
function checkRequire(conv: ConversationFile, ctx: Context, aliases: AliasResolver, findings: Finding[], confine?: Confinement): void {
  for (const d of conv.directives) {
    if (d.name !== 'REQUIRE') continue;
    const items = d.value.split(/\s+/).filter(Boolean);
    if (items.length === 0) findings.push(at(d, 'error', 'invalid_value', 'REQUIRE needs @file or cmd:name'));
    for (const item of items) {
      if (item.startsWith('cmd:')) {
        const name = item.slice(4);
        if (!findCommand(name, ctx)) {
          findings.push(at(d, 'error', 'require_missing', `REQUIRE not satisfied: command '${name}' not found on PATH`, [], item));
        }
        continue;
      }
      const ref = item.startsWith('@') ? item : `@${item}`;
      try {
        resolveFiles(parseRef(ref), ctx, { searchDirs: searchDirsFor(d, ctx), aliases, confine });
      } catch (err) {
        if (!isRefcatError(err)) throw err;
        const missing = err.code === 'not_found' || err.code === 'glob_no_match';
        const message = missing ? `REQUIRE not satisfied: ${item} not found` : err.message;
        findings.push(at(d, 'error', missing ? 'require_missing' : err.code, message, err.details, item));
      }
    }
  }
}

function findCommand(name: string, ctx: Context): boolean {
  if (name === '') return false;
  const exts = ctx.env.PATHEXT ? ['', ...ctx.env.PATHEXT.split(';').filter(Boolean)] : [''];
  const dirs = name.includes('/') ? [ctx.cwd] : (ctx.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = path.resolve(dir, name + ext);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return true;
      } catch {
        // not here
      }
    }
  }
  return false;
}
