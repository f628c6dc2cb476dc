import type { GitRunner } from './git-runner.js';

/** An object git read: its full name and its bytes (a blob's content, a commit's text). */
export interface GitObject {
  oid: string;
  data: Buffer;
}

/**
 * Objects read in one `git cat-file --batch`, by the name asked: `<rev>:<path>` for a file as a
 * revision holds it (`path` from the repository root, `/`-separated), or any revision expression
 * (`<pin>^{commit}`). Null for a name git cannot read (missing, ambiguous); a name holding a line
 * break is never asked (the batch reads one name a line). A failure of git itself (not a
 * repository) is a GitError naming the repository.
 */
export async function readObjects(git: GitRunner, repo: string, names: readonly string[]): Promise<Map<string, GitObject | null>> {
  const out = new Map<string, GitObject | null>();
  const wanted = [...new Set(names)].filter((n) => !n.includes('\n'));
  if (wanted.length === 0) return out;
  const buf = await git.run(repo, ['cat-file', '--batch'], wanted.join('\n') + '\n');
  let at = 0;
  for (const name of wanted) {
    const nl = buf.indexOf(10, at);
    if (nl === -1) break;
    const header = buf.subarray(at, nl).toString('utf8');
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.set(name, null); // missing, ambiguous
      at = nl + 1;
      continue;
    }
    const size = Number(m[3]);
    out.set(name, { oid: m[1]!, data: buf.subarray(nl + 1, nl + 1 + size) });
    at = nl + 1 + size + 1;
  }
  return out;
}
