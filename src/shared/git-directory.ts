import fs from 'node:fs';
import path from 'node:path';

/**
 * Git directories, found as git finds them (docs/fd-and-ref.md#git-directories). git takes a
 * folder for a repository's git directory when it holds a `HEAD` and `objects/` and `refs/` (or a
 * `commondir` naming the folder that holds them: a linked worktree's), whatever the folder's name:
 * `git status` in `vendor/lib` holding those reads `vendor/lib/config`, and runs what its
 * `core.fsmonitor` or hooks name. So a `.git` folder is not the only place a write runs commands,
 * and a file there (`.git/config`, a credential in `http.extraheader`) is no file of the project.
 */

/** The entries git looks for in a folder to call it a git directory. */
const MARKS = ['HEAD', 'objects', 'refs', 'commondir'] as const;

/**
 * Whether `dir` is a git directory now: `HEAD` and `commondir`, or `HEAD`, `objects` and `refs`.
 * Any entry of those names counts, whatever it holds: git's own test reads more (HEAD must name a
 * ref), and refusing a little more than git would is the safe side.
 */
export function isGitDirectory(dir: string): boolean {
  return wouldBeGitDirectory(dir, null) !== null;
}

/**
 * What makes `dir` a git directory, now or once `added` (one of its entries' names, or null)
 * exists too (`HEAD and commondir`, `HEAD, objects/ and refs/`), or null. Names are compared as a
 * case-insensitive file system would (`head` is `HEAD` on macOS).
 */
function wouldBeGitDirectory(dir: string, added: string | null): string | null {
  const adds = added?.toLowerCase();
  const has = (name: (typeof MARKS)[number]) => adds === name.toLowerCase() || exists(path.join(dir, name));
  if (!has('HEAD')) return null;
  if (has('commondir')) return 'HEAD and commondir';
  return has('objects') && has('refs') ? 'HEAD, objects/ and refs/' : null;
}

/**
 * Where the file `file` (an absolute real path) lies in a git directory: the folder, or null. A
 * path component named `.git` (in any case) counts, and any folder from the file's own up to, not
 * including, `top` (null: up to the file system's root) that is a git directory.
 */
export function gitDirectoryOf(file: string, top: string | null, isGitDir: (dir: string) => boolean = isGitDirectory): string | null {
  let dir = path.dirname(file);
  let below = file;
  for (;;) {
    if (path.basename(below).toLowerCase() === '.git') return below;
    // The top itself is the user's choice; only what lies below it is judged.
    if (top !== null && !strictlyInside(dir, top)) return null;
    if (isGitDir(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    below = dir;
    dir = parent;
  }
}

/**
 * The folder that writing the file `file` (an absolute real path, which may not exist yet, with
 * the folders it would be created in) would make a git directory, and the entries that would,
 * or null: a folder above it
 * holding, with the new file or folder, a `HEAD` and `objects/` and `refs/` (or `commondir`).
 * Writing `vendor/lib/refs/heads/main` where `vendor/lib` has `HEAD` and `objects/` is such a
 * write, whatever order the pieces come in: the last one is refused.
 */
export function gitDirectoryMadeBy(file: string): { dir: string; marks: string } | null {
  let below = file;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const name = path.basename(below);
    const marks = MARKS.some((m) => m.toLowerCase() === name.toLowerCase()) ? wouldBeGitDirectory(dir, name) : null;
    if (marks !== null) return { dir, marks };
    if (path.dirname(dir) === dir) return null;
    below = dir;
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function strictlyInside(p: string, dir: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
