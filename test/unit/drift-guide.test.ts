import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { refcatInProcess } from '../helpers/in-process.js';
import { tmpDir } from '../helpers/tmp.js';

// The worked example of docs/drift.md, run for real: the doc's `$ refcat ...` blocks must be what
// refcat prints (commit ids aside, which differ from run to run of the guide's story).
const GUIDE = fs.readFileSync(path.join(import.meta.dirname, '../../docs/drift.md'), 'utf8');

/** The fenced blocks of the guide, with their info string. */
function blocks(): { info: string; body: string }[] {
  return [...GUIDE.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ info: m[1]!, body: m[2]! }));
}

/** `$ cmd` lines of a block, each with the lines printed under it (up to a blank line). */
function transcript(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of body.split(/^(?=\$ )/m)) {
    const [cmd, ...printed] = part.replace(/\n+$/, '\n').split('\n');
    if (cmd?.startsWith('$ ')) out.set(cmd.slice(2), printed.join('\n'));
  }
  return out;
}

const hashes = (s: string) => s.replace(/\b[0-9a-f]{7,40}\b/g, '<sha>');

const V1 = `struct Dose {
  let units: Double
  let date: Date
}

extension Array where Element == Dose {
  var total: Double {
    reduce(0) { sum, dose in
      sum + dose.units
    }
  }
  var lastDose: Dose? {
    self.max { $0.date < $1.date }
  }
}
`;
const V2 = 'import HealthKit\n' + V1.replace('    self.max {', '    self.filter { $0.units > 0 }.max {');

describe('docs/drift.md: the worked example prints what the guide shows', () => {
  it('a lockfile re-pin, --drift, --fix, the git diff and --accept', async () => {
    const jsonBlock = blocks().find((b) => b.info === 'json')!.body;
    const docBlock = blocks().find((b) => b.info === 'markdown')!.body;
    const shown = blocks().flatMap((b) => [...transcript(b.body)]);
    const expected = new Map(shown);

    const root = tmpDir();
    const loop = GitRepo.init({ 'Sources/Dose.swift': V1 }, path.join(root, 'externals', 'loop'));
    const lock = (pin: string) => jsonBlock.replace(/"ref": "[0-9a-f]+"/, `"ref": "${pin.slice(0, 12)}"`);
    const ws = GitRepo.init({ '.gitignore': 'externals/\n', 'workspace.lock.json': lock(loop.head()), 'docs/dosing.md': docBlock }, root);
    loop.day = ws.day = 30;
    const pin2 = loop.commit('lastDose skips empty doses', { 'Sources/Dose.swift': V2 });
    ws.commit('Refresh external source reference pins', { 'workspace.lock.json': lock(pin2) });

    for (const cmd of ['refcat verify refs', 'refcat verify refs --drift', 'refcat verify refs --fix']) {
      if (cmd === 'refcat verify refs') {
        // "Plain verify refs passes here": both ranges still exist.
        expect((await refcatInProcess(['verify', 'refs'], { cwd: root })).code).toBe(0);
        continue;
      }
      expect(expected.has(cmd), `the guide shows \`$ ${cmd}\``).toBe(true);
      const r = await refcatInProcess(cmd.split(' ').slice(1), { cwd: root });
      expect(r.stderr).toBe('');
      expect(hashes(r.stdout)).toBe(hashes(expected.get(cmd)!));
    }
    expect(expected.has('git diff')).toBe(true);
    const changed = (diff: string) => diff.split('\n').filter((l) => /^[-+](?![-+])/.test(l));
    expect(changed(ws.git('diff'))).toEqual(changed(expected.get('git diff')!));
    // The changed ref, read and accepted (docs/drift.md#accepting-a-change).
    const accept = await refcatInProcess(['verify', 'refs', '--accept'], { cwd: root });
    expect(accept.code).toBe(0);
    expect(accept.stdout).toBe(expected.get('refcat verify refs --accept'));
    const recorded = JSON.parse(ws.read('refcat-accepted.json')) as { accepted: { doc: string; ref: string }[] };
    expect(recorded.accepted.map((a) => [a.doc, a.ref])).toEqual([['docs/dosing.md', 'loop:Sources/Dose.swift#L12-L14']]);
  });
});
