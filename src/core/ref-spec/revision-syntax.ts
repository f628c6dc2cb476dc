/**
 * The revision of a ref at a version (`loop@v1.2:path`, docs/refs.md#refs-at-a-version): a name
 * of branch, tag or commit, then `~N`/`^N` steps. Nothing else of git's revision language
 * (`stash@{0}`, `:/text`, `A..B`, `HEAD:path`) is a version a ref can name, and a name beginning
 * with `-` would read as an option.
 */
const REVISION = /^[A-Za-z0-9._/-]+(?:[~^][0-9]*)*$/;

/** The longest revision a ref may name (git's own names are far shorter). */
export const MAX_REF_REVISION_CHARS = 1024;

/** Past this many characters a revision or pin is cut short in messages. */
const QUOTED_CHARS = 60;

/** A revision or pin for a message, unquoted: a long one cut short, with its length. */
export function shortRevision(rev: string): string {
  return rev.length <= QUOTED_CHARS ? rev : `${rev.slice(0, QUOTED_CHARS)}… (${rev.length} characters)`;
}

/** `'rev'` for a message: a long one cut short, with its length (a message stays one readable line). */
export function quotedRevision(rev: string): string {
  return rev.length <= QUOTED_CHARS ? `'${rev}'` : `'${rev.slice(0, QUOTED_CHARS)}…' (${rev.length} characters)`;
}

/** Why `rev` is no revision a ref can name, or null when it is one; `empty` says what an empty one is. */
export function revisionProblem(rev: string, empty = "an empty revision after '@'"): string | null {
  if (rev.length === 0) return empty;
  const q = quotedRevision(rev);
  if (rev.startsWith('-')) return `the revision ${q} begins with '-'`;
  if (rev.length > MAX_REF_REVISION_CHARS) return `a revision of ${rev.length} characters (at most ${MAX_REF_REVISION_CHARS})`;
  if (rev.includes('@{')) return `the revision ${q} is a reflog entry ('@{'), not a branch, tag or commit`;
  if (!REVISION.test(rev)) return `the revision ${q} holds characters a branch, tag or commit name does not (letters, digits, . _ / -, then ~N or ^N)`;
  if (rev.includes('..') || rev.endsWith('.') || rev.endsWith('/') || rev.includes('//')) return `the revision ${q} is no branch, tag or commit name`;
  return null;
}

/** Why a path read at a version is refused (a line break or NUL would end the name git reads), or null. */
export function versionPathProblem(p: string): string | null {
  return /[\r\n\0]/.test(p) ? 'A path holding CR, LF or NUL is never read at a version' : null;
}
