import fs from 'node:fs';
import path from 'node:path';
import { lazyRequire } from '../../shared/lazy.js';
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
 */
export function expandGlob(pattern: string, base: string, noIgnore: boolean, warnings: WalkWarning[] = []): string[] {
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
      if (link) {
        const st = statOrNull(under(dir, name));
        isDir = st?.isDirectory() ?? false;
        isFile = st?.isFile() ?? false;
      }
      if (isFile) {
        if (isMatch(relPath) && !scope?.ignores(name, false)) files.push(under(dir, name));
        continue;
      }
      if (!isDir || depth + 1 >= maxDepth || (name.startsWith('.') && !dotFolders)) continue;
      if (!noIgnore && (name === 'node_modules' || name === '.git')) continue;
      if (scope?.ignores(name, true)) continue;
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

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}
