// The glob bench's realistic tree (bench/suites/04-glob.js and 16-secrets.js build it from here, in the same
// place, with the same seed), for suites that measure other things on it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureTmp } from './lib.js';

/** A small deterministic random source (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['value', 'result', 'options', 'context', 'handler', 'request', 'response', 'items', 'index', 'config', 'state', 'error', 'buffer', 'token', 'path'];
const TEMPLATES = [
  (w, r) => `import { ${w()}, ${w()}Of } from './${w()}-${Math.floor(r() * 90)}.js';`,
  (w) => `export function ${w()}${w().toUpperCase()}(${w()}: string, ${w()}: number): Promise<void> {`,
  (w) => `  const ${w()} = await this.${w()}.get(${w()}, { ${w()}: true });`,
  (w) => `  if (${w()} === undefined || ${w()}.length === 0) return null;`,
  (w) => `  // Keep the ${w()} before the ${w()}: the order matters for callers.`,
  (w) => `  for (const ${w()} of ${w()}s) ${w()}.push(${w()});`,
  (w) => `  return \`\${${w()}}/\${${w()}}\`; // a template literal`,
  (w) => `/** The ${w()} of a ${w()} — café, naïve, 東京: text that is not ASCII. */`,
  () => '}',
  () => '',
];

/** TypeScript-like text of `lines` lines and about `size` bytes. */
function sourceText(r, lines, size) {
  const w = () => WORDS[Math.floor(r() * WORDS.length)];
  const width = Math.floor(size / lines) - 1;
  const out = [];
  for (let i = 0; i < lines; i++) {
    let line = TEMPLATES[Math.floor(r() * TEMPLATES.length)](w, r);
    while (line.length < width) line += ` // ${w()} ${w()}`;
    out.push(line.slice(0, Math.max(width, 1)).trimEnd());
  }
  return out.join('\n') + '\n';
}

/**
 * The tree of issue 19: src/m0..m49/d0..d6 (350 folders) holding 10,000 files; the root
 * .gitignore hides dist/ (20,000 small files), every file named *.gen.ts (a tenth) and the
 * modules m9, m19 ... m49 (another tenth, pruned); each module has a .gitignore of its own.
 */
export function makeRealTree() {
  const root = path.join(ensureTmp(), 'real-tree-10000');
  if (fs.existsSync(path.join(root, '.done'))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  const r = random(19);
  for (let m = 0; m < 50; m++) {
    fs.mkdirSync(path.join(root, 'src', `m${m}`), { recursive: true });
    fs.writeFileSync(path.join(root, 'src', `m${m}`, '.gitignore'), '*.local.ts\ncoverage/\n');
    for (let d = 0; d < 7; d++) fs.mkdirSync(path.join(root, 'src', `m${m}`, `d${d}`));
  }
  for (let i = 0; i < 10_000; i++) {
    const folder = i % 350;
    const dir = path.join(root, 'src', `m${Math.floor(folder / 7)}`, `d${folder % 7}`);
    const name = i % 10 === 3 ? `f${i}.gen.ts` : `f${i}.ts`;
    fs.writeFileSync(path.join(dir, name), sourceText(r, 60 + Math.floor(r() * 61), 5000 + Math.floor(r() * 3001)));
  }
  const small = 'export const x = 1;\n'.repeat(10);
  for (let i = 0; i < 20_000; i++) {
    const dir = path.join(root, 'dist', `b${Math.floor(i / 200)}`);
    if (i % 200 === 0) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `out${i}.d.ts`), small);
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'dist/\n*.gen.ts\n/src/m*9/\n');
  spawnSync('git', ['init', '-q'], { cwd: root });
  fs.writeFileSync(path.join(root, '.done'), '');
  return root;
}

