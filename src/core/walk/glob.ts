import fs from 'node:fs';
import path from 'node:path';
import { lazyRequire } from '../../shared/lazy.js';
import { GitIgnore } from './gitignore.js';

const fastGlob = lazyRequire<typeof import('fast-glob')>('fast-glob');
const picomatch = lazyRequire<typeof import('picomatch')>('picomatch');

const GLOB_CHARS = /[*?[{]/;

export function hasGlobChars(p: string): boolean {
  return GLOB_CHARS.test(p);
}

/**
 * Expand a glob (docs/reference.md#globs) relative to `base`: absolute file paths, sorted, skipping what
 * `.gitignore` files ignore and anything under `node_modules/` or `.git/` unless `noIgnore`.
 * Decision: those folders are skipped when the glob walks into them; a glob that names one
 * (`node_modules/pkg/*.js`, `dist/*.js`) asked for it and gets it.
 */
export function expandGlob(pattern: string, base: string, noIgnore: boolean): string[] {
  const posix = pattern.split(path.sep).join('/');
  const scan = picomatch().scan(posix);
  const root = path.resolve(base, scan.base || '.');
  if (!fs.existsSync(root)) return [];
  const files = fastGlob().sync(scan.glob, {
    cwd: root,
    absolute: true,
    onlyFiles: true,
    dot: false,
    ignore: noIgnore ? [] : ['**/node_modules/**', '**/.git/**'],
  });
  const ignore = noIgnore ? null : new GitIgnore(root, base);
  const kept = files.map((f) => path.normalize(f)).filter((f) => !ignore?.ignores(f));
  return kept.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
