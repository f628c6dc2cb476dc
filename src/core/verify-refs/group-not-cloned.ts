import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { shownPath } from '../../shared/paths.js';
import type { AliasEntry, AliasResolver } from '../alias/resolve-aliases.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { RefFinding } from './verify-refs.js';

/** One ref of a grouped finding. */
export interface GroupedRef {
  file: string;
  line: number | null;
  ref: string;
}

/**
 * Refs into an alias whose folder does not exist (an external repository not cloned yet) are one
 * error per alias, not one per ref (docs/reference.md#verify-refs): the folder, how many refs, and
 * how to clone it. The finding lists every ref in `refs`. Other findings keep their order.
 */
export function groupNotCloned(findings: RefFinding[], aliases: AliasResolver, ctx: Context): RefFinding[] {
  const groups = new Map<string, RefFinding & { refs: GroupedRef[] }>();
  const out: RefFinding[] = [];
  for (const f of findings) {
    const alias = f.severity === 'error' && f.code === 'not_found' && f.ref ? missingAlias(f.ref, aliases) : null;
    if (!alias || f.line === null) {
      out.push(f);
      continue;
    }
    let group = groups.get(alias.target);
    if (!group) {
      group = { severity: 'error', code: 'not_cloned', message: '', details: [], file: alias.target, line: null, refs: [] };
      groups.set(alias.target, group);
      out.push(group);
    }
    group.refs.push({ file: f.file, line: f.line, ref: f.ref! });
    const folder = shownPath(ctx.cwd, alias.target);
    const n = group.refs.length;
    group.message = `Not cloned: ${folder} does not exist (alias ${alias.name} from ${aliasOrigin(alias, ctx)}): ${n} broken reference${n === 1 ? '' : 's'} into it`;
    group.details = [cloneHint(alias, folder)];
  }
  return out;
}

/** The alias of an alias ref whose target folder does not exist, or null. */
function missingAlias(ref: string, aliases: AliasResolver): AliasEntry | null {
  try {
    const name = parseRef(ref.split('#')[0]!).alias;
    const alias = name ? aliases.lookup(name) : undefined;
    return alias && !fs.existsSync(alias.target) ? alias : null;
  } catch {
    return null;
  }
}

function aliasOrigin(alias: AliasEntry, ctx: Context): string {
  return alias.source === 'explicit' ? alias.origin : shownPath(ctx.cwd, alias.origin);
}

/** How the workspace clones the folder: the lockfile's `url` for it when it has one. */
function cloneHint(alias: AliasEntry, folder: string): string {
  if (alias.source === 'workspace') {
    try {
      const data = JSON.parse(fs.readFileSync(alias.origin, 'utf8')) as { repos?: Record<string, unknown>[] };
      const repo = (data.repos ?? []).find((r) => r.name === path.basename(alias.target));
      const url = repo && typeof repo.url === 'string' ? repo.url : null;
      const ref = repo && typeof repo.ref === 'string' ? repo.ref : null;
      if (url) return `Clone it: git clone ${url} ${folder}${ref ? ` && git -C ${folder} checkout ${ref}` : ''}`;
    } catch {
      // an unreadable lockfile was reported when the aliases were read
    }
    return `Clone the repository ${path.basename(alias.target)} of ${path.basename(alias.origin)} into ${folder}`;
  }
  return `Create ${folder}, or point the alias ${alias.name} at an existing folder`;
}
