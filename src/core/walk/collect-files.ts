import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { UsageError } from '../../shared/errors.js';
import { displayRelative } from '../../shared/paths.js';
import { parseRule, readRules, type Rule } from './gitignore.js';
import { expandGlob, hasGlobChars } from './glob.js';

/** Folders never scanned (SPEC 5.3). */
export const DEFAULT_SKIP_DIRS: readonly string[] = ['.git', 'node_modules', '.venv', 'venv', 'dist', 'build', '__pycache__'];

/** The ignore file read at the root of every folder scanned (SPEC 5.3). */
export const IGNORE_FILE = '.sdqctlignore';

export interface CollectOptions {
  /** File name endings to keep when scanning folders and expanding globs (`.conv`, `.md`, ...). */
  extensions: readonly string[];
  /** `-e/--exclude` globs, gitignore-style; matched against paths relative to the folder scanned and to cwd. */
  exclude?: readonly string[];
}

export interface CollectedFile {
  /** Absolute path. */
  path: string;
  /** The folder whose scan found the file; cwd for files named directly or by a glob. */
  root: string;
}

/**
 * The files that `inputs` name: a file is taken as it is (whatever its extension), a folder is
 * scanned for files with the wanted extensions (skipping DEFAULT_SKIP_DIRS, symlinked folders and
 * what `<folder>/.sdqctlignore` and `exclude` match), a glob expands relative to cwd (kept: the
 * files with the wanted extensions). Sorted per input, in the order of the inputs, no file twice.
 * An input that names nothing at all is a usage error.
 */
export function collectFiles(inputs: readonly string[], ctx: Context, options: CollectOptions): CollectedFile[] {
  const exclude = (options.exclude ?? []).map(parseRule).filter((r): r is Rule => r !== null);
  const wanted = (file: string) => options.extensions.some((ext) => file.toLowerCase().endsWith(ext));
  const seen = new Set<string>();
  const out: CollectedFile[] = [];
  const add = (file: string, root: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push({ path: file, root });
  };

  for (const input of inputs) {
    const abs = path.resolve(ctx.cwd, input);
    const stat = statOrNull(abs);
    if (stat?.isDirectory()) {
      const rules = [...readRules(path.join(abs, IGNORE_FILE)), ...exclude];
      for (const file of walkFiles(abs, ctx.cwd, rules, wanted)) add(file, abs);
    } else if (stat) {
      if (!ignored(exclude, [displayRelative(ctx.cwd, abs)], false)) add(abs, ctx.cwd);
    } else if (hasGlobChars(input)) {
      const matches = expandGlob(input, ctx.cwd, false).filter(wanted);
      if (matches.length === 0) throw new UsageError(`No files match ${input}`);
      for (const file of matches) if (!ignored(exclude, [displayRelative(ctx.cwd, file)], false)) add(file, ctx.cwd);
    } else {
      throw new UsageError(`No such file or folder: ${input}`);
    }
  }
  return out;
}

/**
 * Files below `root` (sorted, depth first) whose name `wanted` accepts, skipping DEFAULT_SKIP_DIRS,
 * symlinked folders and what `rules` ignore (matched relative to `root` and to `cwd`).
 */
export function walkFiles(root: string, cwd: string, rules: readonly Rule[], wanted: (name: string) => boolean): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // an unreadable folder is skipped, as `find` would (with less noise)
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const rels = [displayRelative(root, abs), displayRelative(cwd, abs)];
      if (e.isDirectory()) {
        if (!DEFAULT_SKIP_DIRS.includes(e.name) && !ignored(rules, rels, true)) visit(abs);
      } else if ((e.isFile() || (e.isSymbolicLink() && statOrNull(abs)?.isFile())) && wanted(e.name)) {
        if (!ignored(rules, rels, false)) files.push(abs);
      }
    }
  };
  visit(root);
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
