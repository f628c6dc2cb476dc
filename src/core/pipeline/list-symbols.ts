import fs from 'node:fs';
import type { Context } from '../../shared/context.js';
import { type Diagnostic, directoryError, isRefcatError, RefError, toDiagnostic } from '../../shared/errors.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { resolveFiles } from '../extract/extract.js';
import { readError } from '../extract/read-extraction.js';
import { formatRef, lineRange } from '../ref-spec/format-ref-spec.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import type { Declaration } from '../symbols/declaration.js';
import { declarationsOfText, loadFileDeclarationsRead, sourceText, symbolLanguageFor } from '../symbols/declaration-table.js';
import { MAX_SYMBOL_FILE_BYTES, symbolLanguageOf } from '../symbols/languages.js';
import type { ResolvedFile } from '../extract/extraction.js';
import type { PreparedVersions, VersionPolicy } from '../versions/prepare-versions.js';
import type { Confinement } from '../safe-read/confinement.js';
import { resolveSymbol } from '../symbols/resolve-symbol.js';
import { planEngine } from '../symbols/plan-engine.js';
import { namesSymbol } from '../symbols/outline.js';
import type { WalkWarning } from '../walk/glob.js';
import { SecretScanner } from '../secrets/secret-scan.js';
import { findingsOf, type SecretNames, secretNames } from '../secrets/secret-names.js';

/**
 * `refcat symbols` (docs/symbols.md#listing-refcat-symbols): the declarations of the files refs
 * name, each with the symbol ref that reads it. Files are found as extraction finds them (globs,
 * aliases, ignore rules); it lives here, beside the extraction pipeline, because it composes file
 * resolution with the declaration tables of src/core/symbols.
 */

export interface ListedDeclaration extends Declaration {
  /** The symbol ref that selects it: `@src/app.ts#Store.save`, `loop:A.swift#f~2`. */
  ref: string;
  /** Nesting depth among the listed declarations (0: outermost listed). */
  depth: number;
}

export interface SymbolFile {
  /** Path to show: relative, or `alias:relative`. */
  displayPath: string;
  /** Absolute path. */
  path: string;
  declarations: ListedDeclaration[];
}

export interface SymbolListing {
  files: SymbolFile[];
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

export interface ListSymbolsOptions {
  aliases?: AliasResolver;
  /** Do not skip .gitignore'd files, node_modules/ and .git/ in globs. */
  noIgnore?: boolean;
  /** Refuse files outside these places before they are read (an agent's root and alias targets). */
  confine?: Confinement;
  /**
   * `--worktree`/`--pinned`/`--at`: files are read at the version extraction reads them at
   * (a pinned alias at its pin, `alias@REV:`), docs/refs.md#refs-at-a-version.
   */
  versionPolicy?: VersionPolicy;
  /**
   * The secret check (docs/refs.md#secrets): a declaration whose name, or the name of one it is
   * in, is a secret is listed by its lines, name and path redacted; `allow` lists names as they
   * are. Default: redact.
   */
  secrets?: SecretScanner;
}

/**
 * List the declarations of every file `refs` name. A ref with a symbol selector lists that
 * declaration and what it holds; a range or pattern selector is an error. In a glob, files without
 * a grammar are skipped; a file named on its own without one is an error.
 */
export async function listSymbols(refs: readonly string[], ctx: Context, options: ListSymbolsOptions = {}): Promise<SymbolListing> {
  const aliases = options.aliases ?? new AliasResolver(ctx);
  const listing: SymbolListing = { files: [], errors: [], warnings: [] };
  const scanner = options.secrets ?? new SecretScanner('redact', ctx.cwd);
  const versions = await versionsOf(refs, ctx, aliases, options);
  // Every ref's files first: how much code the listing parses decides how tree-sitter is compiled.
  const found = refs.map((raw) => filesOf(raw, ctx, aliases, options, versions, listing.warnings));
  planEngine(() => found.flatMap((f) => ('files' in f ? f.files.filter((file) => !file.version?.bytes && symbolLanguageOf(file.path)).map((file) => file.path) : [])));
  for (const f of found) {
    if ('error' in f) {
      listing.errors.push(f.error);
      continue;
    }
    for (const file of f.files) {
      try {
        const bytes = file.version?.bytes ?? null;
        // A folder named on its own: the glob that lists it, not "no parser for its name".
        if (bytes === null && !file.glob && isFolder(file.path)) throw directoryError(file.refText);
        const { table, text } = bytes === null ? await loadFileDeclarationsRead(file.path, file.refText) : await versionDeclarations(bytes, file.path, file.refText);
        // A file read at a version is checked as that version holds it, apart from the disk's copy.
        const key = bytes && file.version?.commit ? `${file.path}@${file.version.commit}` : undefined;
        const secrets = secretNames({ path: file.path, relPath: file.relPath, text, key }, table, scanner);
        const declarations = listed(table, f.spec, listedHead(f.spec, file), file.refText, secrets);
        listing.files.push({ displayPath: file.displayPath, path: file.path, declarations });
        if (secrets) listing.warnings.push(...redactedWarnings(secrets, declarations, file));
      } catch (err) {
        listing.errors.push(asDiagnostic(err, file.refText));
      }
    }
  }
  return listing;
}

/** The files a listing of `raw` reads (a glob's files without a grammar left out), or why it cannot be listed; its warnings go to `warnings`. */
function filesOf(
  raw: string,
  ctx: Context,
  aliases: AliasResolver,
  options: ListSymbolsOptions,
  versions: PreparedVersions | null,
  warnings: Diagnostic[],
): { spec: RefSpec; files: ResolvedFile[] } | { error: Diagnostic } {
  try {
    const spec = parseRef(raw);
    if (spec.selector && spec.selector.kind !== 'symbol') {
      throw new RefError('not_a_symbol_ref', `refcat symbols lists files, globs and symbol refs, not line ranges or patterns: ${raw}`, raw);
    }
    const walked: WalkWarning[] = [];
    let files: ResolvedFile[];
    try {
      files = resolveFiles(spec, ctx, { aliases, noIgnore: options.noIgnore, confine: options.confine, versions: versions ?? undefined }, walked);
    } finally {
      // A pinned alias read at its pin warns once a run, as extraction does.
      if (versions) warnings.push(...versions.takeWarnings());
    }
    for (const w of walked) warnings.push({ code: w.code, message: `${w.message} in ${raw}`, details: [], ref: raw });
    return { spec, files: files.filter((file) => !file.glob || symbolLanguageOf(file.path) !== null) };
  } catch (err) {
    return { error: asDiagnostic(err, raw) };
  }
}

/**
 * The ref a listed file's names follow: as the ref wrote it, or, for a file `--at` read,
 * `.@<full sha>:path` as `--spec` names it (a plain path would read the checkout).
 */
function listedHead(spec: RefSpec, file: ResolvedFile): string {
  const at = !spec.rev && spec.alias === null && file.version?.revision ? (file.version.commit ?? null) : null;
  return formatRef({ alias: at === null ? spec.alias : '.', rev: at ?? spec.rev, path: file.relPath, selector: null });
}

/**
 * The declarations to list, each with its ref (`~N` where its path is not unique) and depth; one
 * named by a secret, or inside one so named, by its lines, its name and path as `secrets` has them.
 */
function listed(table: readonly Declaration[], spec: RefSpec, head: string, refText: string, secrets: SecretNames | null): ListedDeclaration[] {
  let from = 0;
  let to = table.length;
  if (spec.selector?.kind === 'symbol') {
    const top = resolveSymbol(table, spec.selector, refText);
    from = top.index;
    to = from + 1;
    while (to < table.length && isInside(table, table[to]!, top.index)) to++;
  }
  const counts = new Map<string, number>();
  for (const d of table) if (d.kind !== 'extension') counts.set(d.path, (counts.get(d.path) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out: ListedDeclaration[] = [];
  const depthOf = new Map<number, number>();
  for (let i = 0; i < table.length; i++) {
    const d = table[i]!;
    const depth = d.parent !== null && depthOf.has(d.parent) ? depthOf.get(d.parent)! + 1 : 0;
    depthOf.set(d.index, depth);
    let name = d.path;
    if (d.kind !== 'extension') {
      const n = (seen.get(d.path) ?? 0) + 1;
      seen.set(d.path, n);
      if ((counts.get(d.path) ?? 0) > 1) name = `${d.path}~${n}`;
    }
    if (i < from || i >= to) continue;
    const secret = secrets?.redacted.get(d.index);
    // A name no symbol ref can write (`#secret`, `[Symbol.dispose]`, `"http"`) is named by its lines, as an outline names it.
    const selector = !secret && namesSymbol(name, d.path) ? name : lineRange({ start: d.startLine, end: d.endLine });
    const ref = `${head}#${selector}`;
    out.push({ ...d, ...(secret ? { name: secret.name, path: secret.path } : {}), ref, depth: depth - (depthOf.get(from) ?? 0) });
  }
  return out;
}

/** One warning per secret a listed name held, as extraction words it (extract-secrets.ts). */
function redactedWarnings(secrets: SecretNames, declarations: readonly ListedDeclaration[], file: ResolvedFile): Diagnostic[] {
  const listed = declarations.flatMap((d) => secrets.redacted.get(d.index) ?? []);
  return findingsOf(secrets, listed).map((f) => ({ code: 'secret_redacted', message: `redacted ${f.kind} at ${file.displayPath}:${f.line}`, details: [], ref: file.refText }));
}

/**
 * The refs that read a version are read from git first, as extraction reads them
 * (run-extraction.ts): a listing names what `refcat REF#name` would extract. No ref holding a `:`
 * and no `--at`: no git process, nothing more loaded.
 */
async function versionsOf(refs: readonly string[], ctx: Context, aliases: AliasResolver, options: ListSymbolsOptions): Promise<PreparedVersions | null> {
  if (!refs.some((r) => r.includes(':')) && options.versionPolicy?.at === undefined) return null;
  const { prepareVersions } = await import('../versions/prepare-versions.js');
  // A confined reader (refcat mcp) reads a revision only when a branch or tag reaches it.
  const policy = { ...options.versionPolicy, reachableOnly: options.versionPolicy?.reachableOnly ?? options.confine !== undefined };
  return prepareVersions([{ inputs: refs }], ctx, { aliases, policy });
}

/** The declarations of a file's bytes at a version (its text is not on disk), and its text. */
async function versionDeclarations(bytes: Buffer, abs: string, refText: string): Promise<{ table: Declaration[]; text: string }> {
  const language = symbolLanguageFor(abs, refText);
  if (bytes.length > MAX_SYMBOL_FILE_BYTES) {
    throw new RefError('too_large', `${refText} is too large for symbol refs (${(bytes.length / (1024 * 1024)).toFixed(1)} MiB; at most 1 MiB)`, refText);
  }
  const text = sourceText(bytes, refText);
  return { table: await declarationsOfText(text, symbolLanguageOf(abs, text) ?? language), text };
}

function isFolder(abs: string): boolean {
  return fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

function isInside(table: readonly Declaration[], d: Declaration, ancestor: number): boolean {
  for (let p = d.parent; p !== null; p = table[p]!.parent) if (p === ancestor) return true;
  return false;
}

function asDiagnostic(err: unknown, ref: string): Diagnostic {
  if (isRefcatError(err)) return { ...toDiagnostic(err), ref: err.ref ?? ref };
  // Worded as extraction words it (a symlink loop, permission denied), not as the errno's message.
  if ((err as NodeJS.ErrnoException).code) return { ...toDiagnostic(readError(err, ref)), ref };
  throw err;
}
