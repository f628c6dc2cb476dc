import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { RefError } from '../../shared/errors.js';
import { displayRelative, expandHome } from '../../shared/paths.js';
import type { AliasResolver } from '../alias/resolve-aliases.js';
import { formatRef } from '../ref-spec/format-ref-spec.js';
import type { RefSpec } from '../ref-spec/ref-spec.js';
import { outside } from '../safe-read/confinement.js';
import { expandGlob, hasGlobChars, type WalkWarning } from '../walk/glob.js';
import { WalkCache } from '../walk/walk-cache.js';
import type { ExtractOptions, ResolvedFile } from './extraction.js';

/**
 * The files a ref names, each made when it is asked for: a glob's thousands of ResolvedFiles are
 * never all held at once (they would outlive a few collections and grow the heap, page by page).
 */
export interface FileList {
  readonly length: number;
  at(i: number): ResolvedFile;
}

/**
 * The files a ref names: one for a plain path, every match for a glob. Throws RefError for an
 * unknown alias, a missing file (with every place searched) or a glob that matches nothing.
 */
export function resolveFiles(
  spec: RefSpec,
  ctx: Context,
  options: ExtractOptions & { aliases: AliasResolver },
  walkWarnings: WalkWarning[] = [],
): ResolvedFile[] {
  const files = fileList(spec, ctx, options, walkWarnings);
  return Array.from({ length: files.length }, (_, i) => files.at(i));
}

/** resolveFiles(), each file made when it is asked for. */
export function fileList(
  spec: RefSpec,
  ctx: Context,
  options: ExtractOptions & { aliases: AliasResolver },
  walkWarnings: WalkWarning[],
): FileList {
  const versioned = versionedFiles(spec, ctx, options);
  if (versioned) return versioned;
  const { dirs, displayBase } = searchPlaces(spec, ctx, options);
  const refPath = expandHome(spec.path, ctx.home);
  const isAbsoluteRef = !spec.alias && path.isAbsolute(refPath);
  const fileOf = fileMaker(spec, displayBase, isAbsoluteRef);

  // With `confine`, a place outside is refused before it is looked at: stat, walk or read.
  const confine = options.confine;
  let refused = false;
  const allowed = (abs: string) => {
    if (!confine || confine.allows(abs)) return true;
    refused = true;
    return false;
  };
  const refuse = () => outside(spec.raw, confine!.root);

  if (hasGlobChars(refPath)) {
    const walks = options.walkCache ?? new WalkCache();
    // A folder searched twice ([its folder, cwd] when they are one) would only count its ignored files twice.
    for (const dir of new Set(dirs)) {
      // A file literally named like a glob (`app/[id]/page.tsx`) is taken as it is.
      const literal = path.resolve(dir, refPath);
      if (!allowed(path.resolve(dir, globBase(refPath))) || !allowed(literal)) continue;
      if (fs.existsSync(literal)) return one(fileOf(literal, false));
      const matches = expandGlob(refPath, dir, options.noIgnore ?? false, walkWarnings, confine, walks);
      // A symlink leading out that the glob reaches refuses the whole ref, before any file is read;
      // the refusal names the ref as written, never a name from outside.
      if (confine && matches.some((abs) => !confine.allows(abs))) throw refuse();
      if (matches.length > 0) return { length: matches.length, at: (i) => fileOf(matches[i]!, true) };
    }
    if (refused) throw refuse();
    const ignored = options.noIgnore ? 0 : [...new Set(dirs)].reduce((n, dir) => n + expandGlob(refPath, dir, true, [], confine, walks).length, 0);
    const hint = ignored > 0 ? [`${ignored} ignored file(s) match (.gitignore, node_modules/, .git/): use --no-ignore to include them`] : [];
    throw new RefError('glob_no_match', `Glob matched no files: ${spec.raw}`, spec.raw, hint);
  }

  const candidates = [...new Set(dirs.map((d) => path.resolve(d, refPath)))];
  for (const candidate of candidates) {
    if (allowed(candidate) && (options.readCache ? options.readCache.exists(candidate, exists) : exists(candidate))) return one(fileOf(candidate, false));
  }
  if (refused) throw refuse();
  throw new RefError(
    'not_found',
    `REFCAT ref not found: ${spec.raw}`,
    spec.raw,
    candidates.map((c) => `Searched: ${c}`),
  );
}

/**
 * A ref read at a version (docs/refs.md#refs-at-a-version): the files the version holds, each
 * with its bytes or the word that the disk holds them; null for a ref read from the disk.
 */
function versionedFiles(spec: RefSpec, ctx: Context, options: ExtractOptions & { aliases: AliasResolver }): FileList | null {
  if (!options.versions && spec.rev === undefined) return null;
  // An unknown alias is that error here, as for any alias ref.
  const folder = spec.alias && spec.alias !== '.' ? options.aliases.resolve(spec.alias, spec.raw) : (options.searchDirs?.[0] ?? options.base ?? ctx.cwd);
  if (!options.versions) throw new RefError('unsupported', `A revision is read only where the refs were read from git first (prepareVersions): ${spec.raw}`, spec.raw);
  // A server's reads stay in its root: a revision is read only where it was checked that a branch
  // or tag reaches it (docs/agents.md#refs-at-a-version).
  if (options.confine && spec.rev !== undefined && !options.versions.policy.reachableOnly) {
    throw new RefError('unsupported', `A revision ref is read under a confined reader (refcat mcp) only when a branch or tag reaches it, which was not checked: ${spec.raw}`, spec.raw);
  }
  const found = options.versions.filesOf(spec, folder);
  if (!found) return null;
  if (options.confine && found.files.some((f) => !options.confine!.allows(f.abs))) throw outside(spec.raw, options.confine.root);
  const fileOf = fileMaker(spec, found.base, false);
  return { length: found.files.length, at: (i) => ({ ...fileOf(found.files[i]!.abs, found.glob), version: found.files[i]!.version }) };
}

/** The folders a ref is looked up in, and the folder its paths are shown from. */
function searchPlaces(spec: RefSpec, ctx: Context, options: ExtractOptions & { aliases: AliasResolver }): { dirs: string[]; displayBase: string } {
  const base = options.base ?? ctx.cwd;
  if (spec.alias) {
    const root = options.aliases.resolve(spec.alias, spec.raw);
    return { dirs: [root], displayBase: root };
  }
  return { dirs: options.searchDirs ?? [base], displayBase: base };
}

/** The ResolvedFile of each path a ref names: `glob` for a glob's match. */
function fileMaker(spec: RefSpec, displayBase: string, isAbsoluteRef: boolean): (abs: string, glob: boolean) => ResolvedFile {
  // A glob's matches are normalized paths: those inside a normalized base are shown by cutting it off.
  const inside = path.resolve(displayBase) === displayBase ? (displayBase.endsWith(path.sep) ? displayBase : displayBase + path.sep) : null;
  return (abs, glob) => {
    // An absolute ref stays absolute in what is shown: `../../tmp/x` would help nobody.
    const cut = glob && !isAbsoluteRef && inside !== null && abs.startsWith(inside) ? abs.slice(inside.length) : null;
    const relPath = isAbsoluteRef ? abs.split(path.sep).join('/') : cut !== null ? toSlashes(cut) : displayRelative(displayBase, abs);
    const displayPath = spec.alias && spec.alias !== '.' ? `${spec.alias}:${relPath}` : relPath;
    const refText = glob ? formatRef({ alias: spec.alias, rev: spec.rev, path: relPath, selector: spec.selector }) : spec.raw;
    return { ref: spec, refText, path: abs, relPath, displayPath, displayBase, glob };
  };
}

function one(file: ResolvedFile): FileList {
  return { length: 1, at: () => file };
}

/** The folder a glob walks from: its segments before the first with glob characters. */
function globBase(pattern: string): string {
  const segments = pattern.split(/[\\/]/);
  const first = segments.findIndex(hasGlobChars);
  return segments.slice(0, first).join('/') || '.';
}

function toSlashes(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

function exists(p: string): boolean {
  try {
    // No exception for the usual miss: a doc's ref is looked up in several folders.
    return fs.statSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch (err) {
    // Anything but "no such file" (a permission problem, say) is reported when the file is read.
    const code = (err as NodeJS.ErrnoException).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
