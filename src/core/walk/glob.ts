import path from 'node:path';
import { lazyRequire } from '../../shared/lazy.js';
import type { Confinement } from '../safe-read/confinement.js';
import type { IgnoreScope } from './gitignore.js';
import { compileGlob } from './glob-match.js';
import { WalkCache } from './walk-cache.js';

const picomatch = lazyRequire<typeof import('picomatch')>('picomatch');

const GLOB_CHARS = /[*?[{]/;
const EXTGLOB_OPEN = /[!@+]\(/;

/**
 * Whether a ref's path is a glob (docs/reference.md#globs): it has `*`, `?`, `[` or `{`, or an
 * extglob picomatch expands, `!(...)`, `@(...)`, `+(...)` (`*(...)` and `?(...)` have `*` and `?`).
 * picomatch reads a `(` never closed as a literal, so a `)` must follow (looked for once: linear).
 */
export function hasGlobChars(p: string): boolean {
  if (GLOB_CHARS.test(p)) return true;
  const open = EXTGLOB_OPEN.exec(p);
  return open !== null && p.indexOf(')', open.index + 2) >= 0;
}

/** What a walk skipped that the user should know about: a symlink loop, a folder it cannot read. */
export interface WalkWarning {
  code: 'symlink_loop' | 'unreadable_folder';
  message: string;
}

/**
 * Expand a glob (docs/reference.md#globs) relative to `base`: absolute file paths, sorted, skipping what
 * `.gitignore` files ignore and anything under `node_modules/` or `.git/` unless `noIgnore`.
 * Decision: those folders are skipped when the glob walks into them; a glob that names one
 * (`node_modules/pkg/*.js`, `dist/*.js`) asked for it and gets it.
 *
 * The walk prunes: an ignored folder is never entered, a glob without `**` goes no deeper than its
 * segments, and a folder is entered once by its real path, so a symlink loop (`src/up -> ..`) ends
 * and is reported once in `warnings`, as is a folder that cannot be read. Symlinked folders are
 * followed last, so a folder also reached through a link is listed under its own path.
 *
 * With `confine`, a symlink leading outside it is never followed nor stat'ed: when the glob could
 * reach it (its name matches, or a match could lie below it were it a folder) it is returned as a
 * match, for the caller to refuse, so the answer is the same whatever it leads to.
 *
 * `cache`: pass one to every walk of a command, so that many globs read the tree once
 * (walk-cache.ts); the matches are the same either way.
 */
export function expandGlob(pattern: string, base: string, noIgnore: boolean, warnings: WalkWarning[] = [], confine?: Confinement, cache = new WalkCache()): string[] {
  const posix = pattern.split(path.sep).join('/');
  const scan = picomatch().scan(posix);
  const root = path.resolve(base, scan.base || '.');
  const realRoot = cache.realpath(root);
  if (realRoot === null) return [];
  const glob = scan.glob || '*';
  const isMatch = compileGlob(glob, { dot: false, windows: false }).test;
  const maxDepth = glob.includes('**') ? Number.POSITIVE_INFINITY : glob.split('/').length;
  // As with `dot: false`, `**` and `*` do not enter dot folders; a glob that names one (`**/.github/*`) does.
  const dotFolders = /(^|\/)\./.test(glob);
  const walk: Walk = { root, realRoot, base, glob, noIgnore, maxDepth, dotFolders, cache };
  // Which folders a walk enters depends on the glob's depth and dot folders only, never on what it
  // matches: every glob of the same shape is matched against one listing of the tree. Not with
  // `confine` (which links leading out are returned depends on the glob), and not for a tree of
  // more than MAX_LISTED files (a listing would hold them all; such a glob walks on its own).
  const listing = confine
    ? null
    : cache.listing(`${root}\0${base}\0${noIgnore}\0${maxDepth}\0${dotFolders}`, () => {
        const found: WalkWarning[] = [];
        const all = walkTree(walk, () => true, found, undefined, MAX_LISTED);
        return all && { ...all, warnings: found };
      });
  let files: string[];
  if (listing) {
    warnings.push(...listing.warnings);
    files = [];
    for (let i = 0; i < listing.rels.length; i++) if (isMatch(listing.rels[i]!)) files.push(listing.files[i]!);
  } else {
    files = walkTree(walk, isMatch, warnings, confine)!.files;
  }
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What a walk of the tree depends on besides what it matches. */
interface Walk {
  root: string;
  realRoot: string;
  base: string;
  glob: string;
  noIgnore: boolean;
  maxDepth: number;
  dotFolders: boolean;
  cache: WalkCache;
}

/** Files a listing of one walk shape may hold. */
const MAX_LISTED = 100_000;

/**
 * The files of a walk that `isMatch` takes (absolute, and relative to the root), in walk order;
 * null as soon as they would be more than `limit`.
 */
function walkTree(w: Walk, isMatch: (relPath: string) => boolean, warnings: WalkWarning[], confine?: Confinement, limit = Number.POSITIVE_INFINITY): { files: string[]; rels: string[] } | null {
  const { root, realRoot, base, glob, noIgnore, maxDepth, dotFolders, cache } = w;
  const entered = new Set<string>([realRoot]);
  const files: string[] = [];
  const rels: string[] = [];
  // Paths are built by joining names to normalized folders: no path operation per entry.
  const under = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);
  const take = (dir: string, name: string, relPath: string) => {
    if (files.length >= limit) throw TOO_MANY;
    files.push(under(dir, name));
    rels.push(relPath);
  };
  // Symlinked folders, entered once the walk has reached every folder it can without one.
  const linked: (() => void)[] = [];
  let mayHold: ((relPath: string) => boolean) | undefined;
  /** Whether the walk goes into a folder of this name at this depth, gitignore rules aside. */
  const enterable = (name: string, depth: number) =>
    depth + 1 < maxDepth && !(name.startsWith('.') && !dotFolders) && (noIgnore || (name !== 'node_modules' && name !== '.git'));

  const walk = (dir: string, rel: string, depth: number, ancestors: string[], outer: IgnoreScope | null) => {
    const entries = cache.entries(dir);
    if (typeof entries === 'string') {
      warnings.push({ code: 'unreadable_folder', message: `Cannot read folder ${dir} (${entries}): skipped` });
      return;
    }
    // The folder's own .gitignore, read and compiled once, here (the top one by scope()).
    const scope = outer && depth > 0 && entries.some((e) => e.name === '.gitignore') ? cache.withOwnRules(outer, under(dir, '.gitignore')) : outer;
    const ignores = (name: string, isDir: boolean) => scope !== null && cache.ignores(scope, name, isDir);
    for (const e of entries) {
      const name = e.name;
      const relPath = rel === '' ? name : `${rel}/${name}`;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      const link = e.isSymbolicLink();
      if (link && confine && !confine.allows(under(dir, name))) {
        // Whether the glob could reach it decides, never what it leads to: it is not stat'ed.
        const asFile = isMatch(relPath) && !ignores(name, false);
        const asFolder = enterable(name, depth) && (mayHold ??= folderMayHold(glob))(relPath) && !ignores(name, true);
        if (asFile || asFolder) take(dir, name, relPath);
        continue;
      }
      if (link) {
        const st = cache.stat(under(dir, name));
        isDir = st?.isDirectory() ?? false;
        isFile = st?.isFile() ?? false;
      }
      if (isFile) {
        if (isMatch(relPath) && !ignores(name, false)) take(dir, name, relPath);
        continue;
      }
      if (!isDir || !enterable(name, depth) || ignores(name, true)) continue;
      const abs = under(dir, name);
      const enter = () => {
        const real = link ? cache.realpath(abs) : under(ancestors[ancestors.length - 1]!, name);
        if (real === null) return;
        if (entered.has(real)) {
          if (ancestors.includes(real)) {
            warnings.push({ code: 'symlink_loop', message: `Symlink loop: ${abs} leads back to ${real}: not followed` });
          }
          return;
        }
        entered.add(real);
        walk(abs, relPath, depth + 1, [...ancestors, real], scope ? cache.child(scope, name) : null);
      };
      // A symlinked folder is followed once every folder reached without one has been walked: a
      // folder reached both ways is listed by its own path, however the link's name sorts.
      if (link) linked.push(enter);
      else enter();
    }
  };
  try {
    walk(root, '', 0, [realRoot], noIgnore ? null : cache.scope(root, base));
    for (let i = 0; i < linked.length; i++) linked[i]!();
  } catch (err) {
    if (err === TOO_MANY) return null;
    throw err;
  }
  return { files, rels };
}

const TOO_MANY = Symbol('too many files');

/**
 * Whether a folder at a path relative to the walk's root could hold a match: each of its names
 * matches the glob's segment at that depth, up to a `**`. Braces may hide a `/`: then any could.
 */
function folderMayHold(glob: string): (relPath: string) => boolean {
  if (glob.includes('{')) return () => true;
  const segments = glob.split('/');
  const tests: ((name: string) => boolean)[] = [];
  return (relPath) => {
    const names = relPath.split('/');
    for (let i = 0; i < names.length; i++) {
      const segment = segments[i];
      if (segment === undefined) return false;
      if (segment.includes('**')) return true;
      if (!(tests[i] ??= compileGlob(segment, { dot: true }).test)(names[i]!)) return false;
    }
    return true;
  };
}
