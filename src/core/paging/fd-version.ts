/**
 * `fd read alias:path` reads what extraction reads (docs/refs.md#what-each-command-reads): a
 * pinned alias at its pin, `alias@REV:path` at the revision. Nothing of the versions room loads
 * unless the source is a ref with an alias, not a path on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../../shared/context.js';
import { AliasResolver } from '../alias/resolve-aliases.js';
import { parseRef } from '../ref-spec/parse-ref-spec.js';
import type { Confinement } from '../safe-read/confinement.js';
import type { PreparedVersions } from '../versions/prepare-versions.js';

/** The versions a source reads and the aliases they were read with; null: it reads the disk. */
export interface SourceVersions {
  versions: PreparedVersions;
  aliases: AliasResolver;
}

/** Reads `source` from git first when it is a ref into an alias (pinned, or `alias@REV:`). */
export async function sourceVersions(source: string, ctx: Context, confine: Confinement | undefined): Promise<SourceVersions | null> {
  if (!source.includes(':')) return null;
  // A path on disk is read as it is, as fileOf() reads it.
  if (fs.existsSync(path.isAbsolute(source) ? source : ctx.cwd + path.sep + source)) return null;
  let spec;
  try {
    spec = parseRef(source);
  } catch {
    return null; // fd read reports it
  }
  if (!spec.alias) return null;
  const aliases = new AliasResolver(ctx);
  const { prepareVersions } = await import('../versions/prepare-versions.js');
  // A confined reader (refcat mcp) reads a revision only when a branch or tag reaches it.
  const versions = await prepareVersions([{ inputs: [source] }], ctx, { aliases, policy: { reachableOnly: confine !== undefined } });
  return versions ? { versions, aliases } : null;
}
