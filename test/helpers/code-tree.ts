import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './cli.js';
import { tmpDir } from './tmp.js';

/** A temp tree of this repository's TypeScript (src/core), copied until it holds at least `bytes`; removed after the test. */
export function codeTree(bytes: number): string {
  const dir = tmpDir();
  const from = path.join(REPO, 'src/core');
  const sources = fs
    .readdirSync(from, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .sort();
  let held = 0;
  for (let copy = 0; held < bytes; copy++) {
    for (const f of sources) {
      const text = fs.readFileSync(path.join(from, f), 'utf8');
      const to = path.join(dir, `c${copy}`, f);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, text);
      held += text.length;
      if (held >= bytes) return dir;
    }
  }
  return dir;
}
