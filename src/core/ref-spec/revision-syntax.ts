/**
 * The revision of a ref at a version (`loop@v1.2:path`, docs/refs.md#refs-at-a-version): a name
 * of branch, tag or commit, then `~N`/`^N` steps. Nothing else of git's revision language
 * (`stash@{0}`, `:/text`, `A..B`, `HEAD:path`) is a version a ref can name, and a name beginning
 * with `-` would read as an option.
 */
const REVISION = /^[A-Za-z0-9._/-]+(?:[~^][0-9]*)*$/;

/** The longest revision a ref may name (git's own names are far shorter). */
export const MAX_REF_REVISION_CHARS = 1024;

/** Why `rev` is no revision a ref can name, or null when it is one. */
export function revisionProblem(rev: string): string | null {
  if (rev.length === 0) return "an empty revision after '@'";
  if (rev.startsWith('-')) return `the revision '${rev}' begins with '-'`;
  if (rev.length > MAX_REF_REVISION_CHARS) return `a revision of ${rev.length} characters (at most ${MAX_REF_REVISION_CHARS})`;
  if (rev.includes('@{')) return `the revision '${rev}' is a reflog entry ('@{'), not a branch, tag or commit`;
  if (!REVISION.test(rev)) return `the revision '${rev}' holds characters a branch, tag or commit name does not (letters, digits, . _ / -, then ~N or ^N)`;
  if (rev.includes('..') || rev.endsWith('.') || rev.endsWith('/') || rev.includes('//')) return `the revision '${rev}' is no branch, tag or commit name`;
  return null;
}

/** Why a path read at a version is refused (a line break or NUL would end the name git reads), or null. */
export function versionPathProblem(p: string): string | null {
  return /[\r\n\0]/.test(p) ? 'a path holding CR, LF or NUL is never read at a version' : null;
}
