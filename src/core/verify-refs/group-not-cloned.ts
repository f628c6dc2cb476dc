import type { Context } from '../../shared/context.js';
import { shownPath } from '../../shared/paths.js';
import { cloneHint, folderLookup, missingAlias, NOT_THERE, notClonedMessage } from '../alias/not-cloned.js';
import type { AliasEntry, AliasResolver } from '../alias/resolve-aliases.js';
import type { GroupedRef, RefFinding } from './ref-finding.js';

/**
 * Refs into an alias whose folder does not exist (an external repository not cloned yet) are one
 * error per alias, not one per ref (docs/reference.md#verify-refs): the folder, how many refs, and
 * how to clone it. The finding lists every ref in `refs`. A glob into such a folder is one of
 * them (it matched nothing because nothing is there). With `allowMissing` each group is a warning.
 * Other findings keep their order.
 */
export function groupNotCloned(
  findings: RefFinding[],
  aliases: AliasResolver,
  ctx: Context,
  options: { allowMissing?: boolean; exists?: (folder: string) => boolean } = {},
): RefFinding[] {
  const groups = new Map<string, { finding: RefFinding & { refs: GroupedRef[] }; aliases: AliasEntry[] }>();
  const out: RefFinding[] = [];
  // Whether each alias folder exists, looked up once: most refs of a workspace may point into one.
  const exists = options.exists ?? folderLookup();
  for (const f of findings) {
    const alias = f.severity === 'error' && NOT_THERE.has(f.code) && f.ref ? missingAlias(f.ref, aliases, exists) : null;
    if (!alias || f.line === null) {
      out.push(f);
      continue;
    }
    let group = groups.get(alias.target);
    if (!group) {
      const severity = options.allowMissing ? 'warning' : 'error';
      group = { finding: { severity, code: 'not_cloned', message: '', details: [], file: alias.target, line: null, refs: [] }, aliases: [] };
      groups.set(alias.target, group);
      out.push(group.finding);
    }
    group.finding.refs.push({ file: f.file, line: f.line, ref: f.ref! });
    // Several aliases may name one folder: the message names each.
    if (!group.aliases.some((a) => a.name === alias.name)) group.aliases.push(alias);
  }
  for (const { finding, aliases: named } of groups.values()) {
    const n = finding.refs.length;
    finding.message = notClonedMessage(named, ctx, `${n}${finding.severity === 'error' ? ' broken' : ''}`, n);
    // The hint reads the lockfile: once per folder, not once per ref; the lockfile's alias knows the url.
    finding.details = [cloneHint(named.find((a) => a.source === 'workspace') ?? named[0]!, shownPath(ctx.cwd, finding.file))];
    if (options.allowMissing) finding.details.push('Reported as a warning: --allow-missing');
  }
  return out;
}
