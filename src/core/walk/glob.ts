import fs from 'node:fs';
import path from 'node:path';
import { lazyRequire } from '../../shared/lazy.js';
import { GitIgnore } from './gitignore.js';

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
 * and is reported once in `warnings`, as is a folder that cannot be read.
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
  const isMatch = picomatch()(glob, { dot: false });
  const maxDepth = glob.includes('**') ? Number.POSITIVE_INFINITY : glob.split('/').length;
  // As with `dot: false`, `**` and `*` do not enter dot folders; a glob that names one (`**/.github/*`) does.
  const dotFolders = /(^|\/)\./.test(glob);
  const ignore = noIgnore ? null : new GitIgnore(root, base);
  const entered = new Set<string>([realRoot]);
  const files: string[] = [];

  const walk = (dir: string, rel: string, depth: number, ancestors: string[]) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      warnings.push({ code: 'unreadable_folder', message: `Cannot read folder ${dir} (${code}): skipped` });
      return;
    }
    for (const e of entries) {
      const abs = path.join(dir, e.name);
      const relPath = rel === '' ? e.name : `${rel}/${e.name}`;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const st = statOrNull(abs);
        isDir = st?.isDirectory() ?? false;
        isFile = st?.isFile() ?? false;
      }
      if (isFile) {
        if (isMatch(relPath) && !ignore?.ignores(abs)) files.push(abs);
        continue;
      }
      if (!isDir || depth + 1 >= maxDepth || (e.name.startsWith('.') && !dotFolders)) continue;
      if (!noIgnore && (e.name === 'node_modules' || e.name === '.git')) continue;
      if (ignore?.ignoresFolder(abs)) continue;
      let real: string;
      try {
        real = e.isSymbolicLink() ? fs.realpathSync(abs) : path.join(ancestors[ancestors.length - 1]!, e.name);
      } catch {
        continue;
      }
      if (entered.has(real)) {
        if (ancestors.includes(real)) {
          warnings.push({ code: 'symlink_loop', message: `Symlink loop: ${abs} leads back to ${real}: not followed` });
        }
        continue;
      }
      entered.add(real);
      walk(abs, relPath, depth + 1, [...ancestors, real]);
    }
  };
  walk(root, '', 0, [realRoot]);
  return files.map((f) => path.normalize(f)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(p);
  } catch {
    return null;
  }
}
