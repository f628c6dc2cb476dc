import type { BatchAnswer, ObjectBatch } from '../git/object-batch.js';

/** Where a path enters a submodule in a commit's tree: its folder, the commit recorded, the rest of the path. */
export interface GitlinkPath {
  prefix: string;
  commit: string;
  rest: string;
}

/**
 * The submodule a path of `commit` lies under, or null: its folders are looked up one tree at a
 * time (one round trip each, asked only for a path the commit does not hold as a file).
 */
export async function gitlinkAbove(batch: ObjectBatch, commit: string, repoRel: string): Promise<GitlinkPath | null> {
  const parts = repoRel.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    const dir = parts.slice(0, i).join('/');
    const tree = await batch.read(`${commit}:${dir}`);
    if (tree.kind !== 'object' || tree.type !== 'tree') return null;
    const entry = treeEntry(tree.data, parts[i]!, commit.length / 2);
    if (!entry) return null;
    if (entry.mode === '160000') return { prefix: parts.slice(0, i + 1).join('/'), commit: entry.oid, rest: parts.slice(i + 1).join('/') };
    if (entry.mode !== '40000') return null;
  }
  return null;
}

/**
 * The mode of `repoRel`'s entry in its folder's tree (`120000` a symbolic link, whose blob is the
 * link's target path), or null; `readTree` reads a tree through the run's batch (one round trip,
 * no extra process, shared by the files of one folder).
 */
export async function entryMode(readTree: (name: string) => Promise<BatchAnswer>, commit: string, repoRel: string): Promise<string | null> {
  return (await entryOf(readTree, commit, repoRel))?.mode ?? null;
}

/** The commit a submodule at `repoRel` itself is recorded at in `commit`'s tree, or null when the path is no submodule. */
export async function gitlinkAt(readTree: (name: string) => Promise<BatchAnswer>, commit: string, repoRel: string): Promise<string | null> {
  const entry = await entryOf(readTree, commit, repoRel.replace(/\/+$/, ''));
  return entry?.mode === '160000' ? entry.oid : null;
}

async function entryOf(readTree: (name: string) => Promise<BatchAnswer>, commit: string, repoRel: string): Promise<{ mode: string; oid: string } | null> {
  const slash = repoRel.lastIndexOf('/');
  const tree = await readTree(`${commit}:${slash === -1 ? '' : repoRel.slice(0, slash)}`);
  if (tree.kind !== 'object' || tree.type !== 'tree') return null;
  return treeEntry(tree.data, repoRel.slice(slash + 1), commit.length / 2);
}

/** One entry of a tree object (`<mode> <name>\0<oid bytes>`, repeated), or null. */
function treeEntry(data: Buffer, name: string, oidBytes: number): { mode: string; oid: string } | null {
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    const nul = data.indexOf(0, space);
    if (space === -1 || nul === -1) return null;
    if (data.toString('utf8', space + 1, nul) === name) return { mode: data.toString('latin1', at, space), oid: data.toString('hex', nul + 1, nul + 1 + oidBytes) };
    at = nul + 1 + oidBytes;
  }
  return null;
}
