import fs from 'node:fs';
import path from 'node:path';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/** Expand a leading `~` or `~/` to `home`; anything else is returned unchanged. */
export function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2));
  return p;
}

/** Resolve `p` (after `~` expansion) against `base` unless it is absolute. */
export function resolveFrom(base: string, p: string, home: string): string {
  return path.resolve(base, expandHome(p, home));
}

/** Path of `target` relative to `base` with forward slashes, for display. */
export function displayRelative(base: string, target: string): string {
  // Most targets are normal paths below a normal base: cut the base off (path.relative would
  // normalize both, a cost paid per file and ref).
  if (isPlainPosix(target) && target.length > base.length + 1 && target.charCodeAt(base.length) === 0x2f && target.startsWith(base) && isPlainPosix(base)) {
    return target.slice(base.length + 1);
  }
  const rel = path.relative(base, target);
  return (rel === '' ? '.' : rel).split(path.sep).join('/');
}

/** An absolute POSIX path that path.resolve leaves as it is: no `.` or `..` segment, no `//`, no trailing `/`. */
function isPlainPosix(p: string): boolean {
  return path.sep === '/' && p.charCodeAt(0) === 0x2f && p.length > 1 && !p.endsWith('/') && !p.includes('//') && !DOT_SEGMENT.test(p);
}
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/** Show a path with the home folder written as `~`, for messages. */
export function tildify(p: string, home: string): string {
  if (home && (p === home || p.startsWith(home + path.sep))) return '~' + p.slice(home.length);
  return p;
}

/** A path for messages: relative to `cwd` when inside it, else absolute; `/`-separated. */
export function shownPath(cwd: string, abs: string): string {
  const rel = displayRelative(cwd, abs);
  return rel === '..' || rel.startsWith('../') ? abs.split(path.sep).join('/') : rel;
}

/** `~/.sdqctl`, or `$SDQCTL_HOME` when set (docs/reference.md#aliases); the home of aliases.yaml and the fd store. */
export function sdqctlDir(ctx: Context): string {
  if (ctx.env.SDQCTL_HOME) return path.resolve(ctx.cwd, ctx.env.SDQCTL_HOME);
  // An empty HOME would put the store (and the trusted alias file) in whatever folder refcat runs in.
  if (!hasSdqctlDir(ctx)) throw new UsageError('No home folder (HOME is empty or not absolute): set HOME, or SDQCTL_HOME, or REFCAT_STORE / --store', { code: 'no_home' });
  return path.join(ctx.home, '.sdqctl');
}

/** Whether sdqctlDir() has a folder to give: SDQCTL_HOME, or an absolute home. */
export function hasSdqctlDir(ctx: Context): boolean {
  return Boolean(ctx.env.SDQCTL_HOME) || path.isAbsolute(ctx.home);
}

/**
 * The nearest `<dir>/<name>` that exists, from `start` up to the file system's root, or null.
 * `links`: a symlink counts even when what it names does not exist.
 */
export function findUp(start: string, name: string, options: { links?: boolean } = {}): string | null {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, name);
    if (options.links ? hasEntry(candidate) : fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function hasEntry(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** Whether `p` is a regular file (following links); false when it is missing or unreadable. */
export function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
