import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import type { Finding } from '../../shared/errors.js';
import { shownPath } from '../../shared/paths.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { AliasEntry, AliasResolver } from './resolve-aliases.js';

/**
 * Refs into an alias whose folder does not exist: an external repository not cloned yet
 * (docs/workflows.md#externals-not-cloned-yet). What each command says of them: `verify refs` one
 * finding a folder (verify-refs/group-not-cloned.ts), `validate` and the editor one a ref.
 */

/**
 * `validate`'s form of the finding (docs/workflows.md#externals-not-cloned-yet): a workflow's
 * refs stay at their own lines, so each ref into a folder not cloned says `Not cloned` there, with
 * how to clone it (code `not_cloned`), instead of `not found`. Changes `findings` in place.
 */
export function markNotCloned(findings: Finding[], aliases: AliasResolver, ctx: Context): void {
  const exists = folderLookup();
  const said = new Map<string, NotCloned>();
  for (const f of findings) {
    if (f.severity !== 'error' || !NOT_THERE.has(f.code) || !f.ref) continue;
    const alias = missingAlias(f.ref, aliases, exists);
    if (!alias) continue;
    const key = `${alias.name}\0${alias.target}`;
    let diagnostic = said.get(key);
    if (!diagnostic) said.set(key, (diagnostic = notClonedOf(alias, ctx)));
    Object.assign(f, { ...diagnostic, details: [...diagnostic.details] });
  }
}

type NotCloned = { code: string; message: string; details: string[] };

function notClonedOf(alias: AliasEntry, ctx: Context): NotCloned {
  return { code: 'not_cloned', message: notClonedMessage([alias], ctx), details: [cloneHint(alias, shownPath(ctx.cwd, alias.target))] };
}

/** The codes of a ref whose file is not there: in a folder not cloned, every ref gets one of them. */
export const NOT_THERE: ReadonlySet<string> = new Set(['not_found', 'glob_no_match', 'context_no_match']);

/**
 * `Not cloned: externals/Trio does not exist (alias trio from workspace.lock.json)`, and `: 3 broken
 * references into it` with a count; aliases naming one folder: `(aliases trio from
 * workspace.lock.json, t from --alias)`.
 */
export function notClonedMessage(aliases: readonly AliasEntry[], ctx: Context, count?: string, n = 0): string {
  const named = aliases.map((a) => `${a.name} from ${aliasOrigin(a, ctx)}`).join(', ');
  const head = `Not cloned: ${shownPath(ctx.cwd, aliases[0]!.target)} does not exist (alias${aliases.length > 1 ? 'es' : ''} ${named})`;
  return count === undefined ? head : `${head}: ${count} reference${n === 1 ? '' : 's'} into it`;
}

/**
 * What the editor says for a ref into a folder not cloned (code `not_cloned`), as `verify refs`
 * says it for the folder, or null when the ref's alias folder exists.
 */
export function notClonedDiagnostic(ref: string, aliases: AliasResolver, ctx: Context): NotCloned | null {
  const alias = missingAlias(ref, aliases);
  return alias ? notClonedOf(alias, ctx) : null;
}

/**
 * Whether checking `ref` (as a doc writes it) can only find its file missing, which
 * groupNotCloned() folds into its folder's finding whatever the message: an alias ref into a
 * folder that does not exist, by a path that stays inside it (no `..`, not absolute, no `.git`).
 * `verify refs` then skips reading it (issue 37: most refs of a workspace may point there).
 */
export function intoFolderNotCloned(ref: string, aliases: AliasResolver, exists: (folder: string) => boolean): boolean {
  if (!missingAlias(ref, aliases, exists)) return false;
  const spec = parseRef(ref.split('#')[0]!);
  return !spec.path.split(/[\\/]/).some((part) => part === '..' || part.toLowerCase() === '.git') && !path.isAbsolute(spec.path) && !spec.path.startsWith('~');
}

/** Whether each alias folder exists, asked once per run (a Map of answers). */
export function folderLookup(): (folder: string) => boolean {
  const there = new Map<string, boolean>();
  return (folder) => {
    let found = there.get(folder);
    if (found === undefined) there.set(folder, (found = fs.existsSync(folder)));
    return found;
  };
}

/** The alias of an alias ref whose target folder does not exist, or null. */
export function missingAlias(ref: string, aliases: AliasResolver, exists: (folder: string) => boolean = fs.existsSync): AliasEntry | null {
  try {
    const name = parseRef(ref.split('#')[0]!).alias;
    const alias = name ? aliases.lookup(name) : undefined;
    return alias && !exists(alias.target) ? alias : null;
  } catch {
    return null;
  }
}

function aliasOrigin(alias: AliasEntry, ctx: Context): string {
  return alias.source === 'explicit' ? alias.origin : shownPath(ctx.cwd, alias.origin);
}

/**
 * How the workspace clones the folder: the lockfile's `url` (and `ref`) for it when it has one;
 * `"submodules": true` adds what brings the submodules too, since refs may point into them.
 */
export function cloneHint(alias: AliasEntry, folder: string): string {
  if (alias.source === 'workspace') {
    let submodules = false;
    try {
      const data = JSON.parse(fs.readFileSync(alias.origin, 'utf8')) as { repos?: Record<string, unknown>[] };
      const repo = (data.repos ?? []).find((r) => r.name === path.basename(alias.target));
      const url = repo && typeof repo.url === 'string' ? withoutCredentials(repo.url) : null;
      const ref = repo && typeof repo.ref === 'string' ? repo.ref : null;
      submodules = repo?.submodules === true;
      const clone = `git clone${submodules ? ' --recurse-submodules' : ''} ${url} ${folder}`;
      const update = submodules ? ` && git -C ${folder} submodule update --init --recursive` : '';
      if (url) return `Clone it: ${clone}${ref ? ` && git -C ${folder} checkout ${ref}${update}` : ''}`;
    } catch {
      // an unreadable lockfile was reported when the aliases were read
    }
    const withSubmodules = submodules ? ', with its submodules (git clone --recurse-submodules)' : '';
    return `Clone the repository ${path.basename(alias.target)} of ${path.basename(alias.origin)} into ${folder}${withSubmodules}`;
  }
  return `Create ${folder}, or point the alias ${alias.name} at an existing folder`;
}

/**
 * A lockfile's URL as refcat prints it: without the credentials a URL may carry
 * (`https://bot:TOKEN@host/...` prints `https://host/...`). An https URL's user alone is often a
 * token too (`https://TOKEN@github.com/...`), so its whole userinfo goes; an ssh URL keeps its user
 * (`ssh://git@host/...`), which ssh needs and which is no secret, unless a password follows it
 * (docs/reference.md#verify-refs).
 */
export function withoutCredentials(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i.exec(url);
  if (!m) return url;
  const scheme = m[1]!.toLowerCase();
  if (!m[2]!.includes(':') && !scheme.startsWith('http')) return url;
  return m[1]! + url.slice(m[0].length);
}
