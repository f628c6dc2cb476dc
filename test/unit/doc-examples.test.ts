import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

/** The fenced block of `doc` that contains `marker`, without its fence lines and indent. */
function shownBlock(doc: string, marker: string): string {
  const blocks: string[][] = [];
  let open: { indent: number; lines: string[] } | null = null;
  for (const line of fs.readFileSync(path.join(REPO, doc), 'utf8').split('\n')) {
    const fence = /^( *)```/.exec(line);
    if (fence && !open) open = { indent: fence[1]!.length, lines: [] };
    else if (fence && open) {
      blocks.push(open.lines);
      open = null;
    } else if (open) open.lines.push(line.slice(open.indent));
  }
  const found = blocks.find((b) => b.some((l) => l.includes(marker)));
  if (!found) throw new Error(`no block with ${marker} in ${doc}`);
  return found.join('\n') + '\n';
}

// The validate output the docs show is what refcat prints for the workflow they describe (a
// REFCAT to a missing file, a PROMTP typo, no PROMPT): stderr's findings, then stdout's summary.
describe('the docs show what validate prints', () => {
  const workflow = 'MODEL gpt-4\nREFCAT @src/nope.py\nPROMTP explain\n';

  it.each<[string, string, string, string]>([
    ['README.md', 'flows/flow.conv', 'flows/', '/tmp/ex'],
    ['docs/workflows.md', 'flow.conv', 'flow.conv', '/home/me/project'],
  ])('%s', async (doc, file, arg, shownRoot) => {
    const dir = tmpDir({ [file]: workflow });
    const r = await refcatInProcess(['validate', arg], { cwd: dir });
    expect(r.code).toBe(1);
    expect((r.stderr + r.stdout).split(dir).join(shownRoot)).toBe(shownBlock(doc, "Unknown directive 'PROMTP'"));
  });
});
