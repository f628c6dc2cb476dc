import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { UsageError } from '../../shared/errors.js';
import { displayRelative } from '../../shared/paths.js';
import type { Confinement } from '../safe-read/confinement.js';
import { MAX_RULE_CHARS, parseRule, readRules, type Rule } from './gitignore.js';
import { expandGlob, hasGlobChars } from './glob.js';

/** Folders never scanned (docs/reference.md#verify-refs). */
export const DEFAULT_SKIP_DIRS: readonly string[] = ['.git', 'node_modules', '.venv', 'venv', 'dist', 'build', '__pycache__'];

/** The ignore file read at the root of every folder scanned (docs/reference.md#verify-refs). */
export const IGNORE_FILE = '.sdqctlignore';

export interface CollectOptions {
  /** File name endings to keep when scanning folders and expanding globs (`.conv`, `.md`, ...). */
  extensions: readonly string[];
  /** `-e/--exclude` globs, gitignore-style; matched against paths relative to the folder scanned and to cwd. */
  exclude?: readonly string[];
  /**
   * A file named directly must have a wanted extension too (`validate src/app.py` is a mistake,
   * not a workflow); by default it is taken whatever its extension.
   */
  namedNeedExtension?: boolean;
  /**
   * Files named directly, and a glob's matches, are skipped too when the current folder's
   * `.sdqctlignore` lists them (or one of their folders): for pre-commit, which names every file a
   * commit touches (docs/workflows.md#pre-commit). By default a file named is always checked.
   */
  skipIgnored?: boolean;
  /**
   * A symlink leading outside this is never followed nor stat'ed: a glob collects it when it could
   * reach it, a folder scan when its name is wanted, for the caller to refuse or skip, so what is
   * collected does not depend on what it leads to (expandGlob).
   */
  confine?: Confinement;
}

/** A file with a wanted extension that an ignore rule kept out: a skip is never silent. */
export interface SkippedFile {
  /** Absolute path. */
  path: string;
  /** The ignore file whose rule matched (absolute), or `--exclude`. */
  by: string;
  /** Named directly (or by a glob) and kept out by skipIgnored: naming it again would not help. */
  named?: boolean;
}

export interface Collected {
  files: CollectedFile[];
  skipped: SkippedFile[];
}

export interface CollectedFile {
  /** Absolute path. */
  path: string;
  /** The folder whose scan found the file; cwd for files named directly or by a glob. */
  root: string;
}

/**
 * The files that `inputs` name: a file is taken as it is (whatever its extension, unless
 * namedNeedExtension), a folder is
 * scanned for files with the wanted extensions (skipping DEFAULT_SKIP_DIRS, symlinked folders and
 * what `<folder>/.sdqctlignore` and `exclude` match), a glob expands relative to cwd (kept: the
 * files with the wanted extensions). Sorted per input, in the order of the inputs, no file twice.
 * The files an ignore rule kept out are returned too, so that callers can say so. An input that
 * names nothing at all is a usage error.
 */
export function collectFiles(inputs: readonly string[], ctx: Context, options: CollectOptions): Collected {
  const exclude = excludeRules(options.exclude ?? []);
  const wanted = (file: string) => options.extensions.some((ext) => file.toLowerCase().endsWith(ext));
  const seen = new Set<string>();
  const out: CollectedFile[] = [];
  const skipped: SkippedFile[] = [];
  const cwdIgnoreFile = path.join(ctx.cwd, IGNORE_FILE);
  const cwdRules = options.skipIgnored ? readRules(cwdIgnoreFile) : [];
  /** Why a file named directly or by a glob is kept out, or null. */
  const keptOut = (file: string): string | null => {
    const rel = displayRelative(ctx.cwd, file);
    if (ignored(exclude, [rel], false)) return EXCLUDE_FLAG;
    return cwdRules.length > 0 && ignoredPath(cwdRules, [rel]) ? cwdIgnoreFile : null;
  };
  const add = (file: string, root: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push({ path: file, root });
  };

  for (const input of inputs) {
    // An empty argument (an unset variable, "$DOCS") would resolve to the whole working folder.
    if (input === '') throw new UsageError("No such file or folder: '' (an empty path; . names the current folder)");
    const abs = path.resolve(ctx.cwd, input);
    const stat = statOrNull(abs);
    if (stat?.isDirectory()) {
      const ignoreFile = path.join(abs, IGNORE_FILE);
      const own = readRules(ignoreFile);
      const rules = [...own, ...exclude];
      const kept = new Set(walkFiles(abs, ctx.cwd, rules, wanted, options.confine));
      for (const file of kept) add(file, abs);
      if (rules.length > 0) {
        for (const file of walkFiles(abs, ctx.cwd, [], wanted, options.confine)) {
          if (kept.has(file) || seen.has(file)) continue;
          const rels = [displayRelative(abs, file), displayRelative(ctx.cwd, file)];
          skipped.push({ path: file, by: ignoredPath(own, rels) ? ignoreFile : EXCLUDE_FLAG });
        }
      }
    } else if (stat) {
      if (options.namedNeedExtension && !wanted(abs)) {
        throw new UsageError(`Not a ${options.extensions.join(' or ')} file: ${input}`);
      }
      const by = keptOut(abs);
      if (by === null) add(abs, ctx.cwd);
      else skipped.push({ path: abs, by, named: true });
    } else if (hasGlobChars(input)) {
      const confine = options.confine;
      const matches = expandGlob(input, ctx.cwd, false, [], confine).filter((f) => wanted(f) || (confine !== undefined && !confine.allows(f)));
      if (matches.length === 0) throw new UsageError(`No files match ${input}`);
      for (const file of matches) {
        const by = keptOut(file);
        if (by === null) add(file, ctx.cwd);
        else skipped.push({ path: file, by, named: true });
      }
    } else {
      throw new UsageError(`No such file or folder: ${input}`);
    }
  }
  return { files: out, skipped };
}

/** The `--exclude` globs as ignore rules; a glob too long to match safely is a usage error. */
function excludeRules(globs: readonly string[]): Rule[] {
  return globs
    .map((glob) => {
      if (glob.length > MAX_RULE_CHARS) throw new UsageError(`--exclude: glob too long: ${glob.length} characters (at most ${MAX_RULE_CHARS})`, { code: 'glob_too_long' });
      return parseRule(glob);
    })
    .filter((r): r is Rule => r !== null);
}

/** SkippedFile.by for a file that an `-e/--exclude` glob kept out. */
export const EXCLUDE_FLAG = '--exclude';

/**
 * Whether `rules` ignore the file itself or one of its folders: the ignore file's own verdict, to
 * tell which of the two sources kept a file out.
 */
function ignoredPath(rules: readonly Rule[], rels: string[]): boolean {
  for (const rel of rels) {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      if (!rel.startsWith('..') && ignored(rules, [parts.slice(0, i).join('/')], i < parts.length)) return true;
    }
  }
  return false;
}

/**
 * Files below `root` (sorted, depth first) whose name `wanted` accepts, skipping DEFAULT_SKIP_DIRS,
 * symlinked folders and what `rules` ignore (matched relative to `root` and to `cwd`). A symlink
 * leading outside `confine` is taken by its name alone (CollectOptions.confine).
 */
export function walkFiles(root: string, cwd: string, rules: readonly Rule[], wanted: (name: string) => boolean, confine?: Confinement): string[] {
  const files: string[] = [];
  root = path.resolve(root);
  // Paths relative to root are built on the way down, and only when there are rules to match:
  // a path.relative per entry was most of the cost of walking a large tree.
  const rootFromCwd = displayRelative(cwd, root);
  const inCwd = rootFromCwd !== '..' && !rootFromCwd.startsWith('../') && !path.isAbsolute(rootFromCwd);
  const relsOf = (abs: string, rel: string) =>
    rules.length === 0 ? [] : [rel, inCwd ? (rootFromCwd === '.' ? rel : `${rootFromCwd}/${rel}`) : displayRelative(cwd, abs)];
  const visit = (dir: string, dirRel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable folder is skipped, as `find` would (with less noise)
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const isDir = e.isDirectory();
      if (!isDir && !wanted(e.name)) continue;
      // `dir` is a normal path (path.resolve'd, then names added): no path.join to normalize it again.
      const abs = dir.endsWith(path.sep) ? dir + e.name : dir + path.sep + e.name;
      const rel = dirRel === '' ? e.name : `${dirRel}/${e.name}`;
      if (isDir) {
        if (!DEFAULT_SKIP_DIRS.includes(e.name) && !ignored(rules, relsOf(abs, rel), true)) visit(abs, rel);
      } else if (e.isFile() || (e.isSymbolicLink() && ((confine !== undefined && !confine.allows(abs)) || statOrNull(abs)?.isFile()))) {
        if (!ignored(rules, relsOf(abs, rel), false)) files.push(abs);
      }
    }
  };
  visit(root, '');
  return files;
}

/** gitignore semantics: the last rule that matches wins; `!` re-includes. */
function ignored(rules: readonly Rule[], rels: string[], isDir: boolean): boolean {
  let result = false;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    if (rels.some((rel) => !rel.startsWith('..') && rule.match(rel))) result = !rule.negated;
  }
  return result;
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}
