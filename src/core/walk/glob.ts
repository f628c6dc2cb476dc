import fs from 'node:fs';
import path from 'node:path';
import { lazyRequire } from '../../shared/lazy.js';
import type { Confinement } from '../safe-read/confinement.js';
import { GitIgnore, type IgnoreScope, readRules } from './gitignore.js';
import { compileGlob } from './glob-match.js';

const picomatch = lazyRequire<typeof import('picomatch')>('picomatch');

const GLOB_CHARS = /[*?[{]/;

export function hasGlobChars(p: string): boolean {
  return GLOB_CHARS.test(p);
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
 */
export function expandGlob(pattern: string, base: string, noIgnore: boolean, warnings: WalkWarning[] = [], confine?: Confinement): string[] {
  const posix = pattern.split(path.sep).join('/');
  const scan = picomatch().scan(posix);
  const root = path.resolve(base, scan.base || '.');
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return [];
  }
  const glob = scan.glob || '*';
  const isMatch = compileGlob(glob, { dot: false, windows: false }).test;
  const maxDepth = glob.includes('**') ? Number.POSITIVE_INFINITY : glob.split('/').length;
  // As with `dot: false`, `**` and `*` do not enter dot folders; a glob that names one (`**/.github/*`) does.
  const dotFolders = /(^|\/)\./.test(glob);
  const entered = new Set<string>([realRoot]);
  const files: string[] = [];
  // Paths are built by joining names to normalized folders: no path operation per entry.
  const under = (dir: string, name: string) => (dir.endsWith(path.sep) ? dir + name : dir + path.sep + name);
  // Symlinked folders, entered once the walk has reached every folder it can without one.
  const linked: (() => void)[] = [];
  let mayHold: ((relPath: string) => boolean) | undefined;
  /** Whether the walk goes into a folder of this name at this depth, gitignore rules aside. */
  const enterable = (name: string, depth: number) =>
    depth + 1 < maxDepth && !(name.startsWith('.') && !dotFolders) && (noIgnore || (name !== 'node_modules' && name !== '.git'));

  const walk = (dir: string, rel: string, depth: number, ancestors: string[], outer: IgnoreScope | null) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      warnings.push({ code: 'unreadable_folder', message: `Cannot read folder ${dir} (${code}): skipped` });
      return;
    }
    // The folder's own .gitignore, read and compiled once, here (the top one by scope()).
    const scope = outer && depth > 0 && entries.some((e) => e.name === '.gitignore') ? outer.withRules(readRules(under(dir, '.gitignore'))) : outer;
    for (const e of entries) {
      const name = e.name;
      const relPath = rel === '' ? name : `${rel}/${name}`;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      const link = e.isSymbolicLink();
      if (link && confine && !confine.allows(under(dir, name))) {
        // Whether the glob could reach it decides, never what it leads to: it is not stat'ed.
        const asFile = isMatch(relPath) && !scope?.ignores(name, false);
        const asFolder = enterable(name, depth) && (mayHold ??= folderMayHold(glob))(relPath) && !scope?.ignores(name, true);
        if (asFile || asFolder) files.push(under(dir, name));
        continue;
      }
      if (link) {
        const st = statOrNull(under(dir, name));
        isDir = st?.isDirectory() ?? false;
        isFile = st?.isFile() ?? false;
      }
      if (isFile) {
        if (isMatch(relPath) && !scope?.ignores(name, false)) files.push(under(dir, name));
        continue;
      }
      if (!isDir || !enterable(name, depth) || scope?.ignores(name, true)) continue;
      const abs = under(dir, name);
      const enter = () => {
        let real: string;
        try {
          real = link ? fs.realpathSync(abs) : under(ancestors[ancestors.length - 1]!, name);
        } catch {
          return;
        }
        if (entered.has(real)) {
          if (ancestors.includes(real)) {
            warnings.push({ code: 'symlink_loop', message: `Symlink loop: ${abs} leads back to ${real}: not followed` });
          }
          return;
        }
        entered.add(real);
        walk(abs, relPath, depth + 1, [...ancestors, real], scope?.child(name) ?? null);
      };
      // A symlinked folder is followed once every folder reached without one has been walked: a
      // folder reached both ways is listed by its own path, however the link's name sorts.
      if (link) linked.push(enter);
      else enter();
    }
  };
  walk(root, '', 0, [realRoot], noIgnore ? null : new GitIgnore(root, base).scope());
  for (let i = 0; i < linked.length; i++) linked[i]!();
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

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

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}
