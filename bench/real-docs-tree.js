// A docs workspace shaped like the real one issue 37 measured (bench 12 runs it beside its own
// tree): 1,100 markdown files, a third of their fences inside list items or block quotes (some
// in both, some tab-indented, some lazy), a few <details> and HTML comments; refs mostly into
// three aliases a workspace.lock.json declares and whose folders are not cloned (70%), broken
// refs (20%: missing files, lines past the end, missing headings) and refs that hold (10%: line
// ranges, symbol refs, and the lines of a script that holds a credential), in prose, in captions
// over fences and in fences' first-line comments; a tenth of the alias refs at a pinned version.
import fs from 'node:fs';
import path from 'node:path';
import { prose, WORDS } from './prose.js';

export const REAL_DOCS = 1100;
const SOURCES = 30;
const ALIASES = ['loop', 'trio', 'aaps'];
const ALIAS_FILES = {
  loop: ['Loop/Managers/DoseStore.swift', 'Loop/Managers/LoopDataManager.swift', 'LoopCore/Insulin/InsulinMath.swift'],
  trio: ['Trio/Sources/APS/OpenAPS.swift', 'Trio/Sources/Models/Preferences.swift', 'Trio/Sources/Services/Network/NightscoutAPI.swift'],
  aaps: ['core/main/src/main/kotlin/app/aaps/core/main/iob/IobCobCalculator.kt', 'plugins/aps/src/main/kotlin/app/aaps/plugins/aps/loop/LoopPlugin.kt'],
};

const { rand, pick, sentence } = prose(0x1b873593);
/** Fences written so far, across docs: every third one is nested. */
let fences = 0;
const paragraph = () => Array.from({ length: 2 + Math.floor(rand() * 5) }, sentence).join(' ');

/** The source files the valid refs point at: 120 lines, a function of 15 lines after another. */
const source = (n) => {
  let text = '';
  for (let l = 1; l <= 120; l++) text += l % 15 === 1 ? `export function m${n}_${l}(input) {\n` : l % 15 === 0 ? '}\n' : `  const v${l} = step(${n}, ${l});\n`;
  return text;
};

/** The k-th ref: 70% into an alias not cloned, 20% broken, 10% valid (deterministic in k). */
function ref(k) {
  const r = k % 10;
  if (r < 7) {
    const alias = ALIASES[k % 3];
    const start = 10 + ((k * 37) % 400);
    // One in ten at a pinned version (`alias@tag:`), as docs that cite a release do.
    const at = k % 10 === 3 ? `@v1.${k % 7}.0` : '';
    return { text: `${alias}${at}:${ALIAS_FILES[alias][k % ALIAS_FILES[alias].length]}#L${start}-L${start + (k % 15)}`, kind: 'alias' };
  }
  if (r < 9) {
    const broken = [`@src/old/m${k % SOURCES}.ts#L3-L9`, `@docs/gone-${k % 20}.md`, `@src/m${k % SOURCES}.ts#/function gone${k}/`, `@specs/missing-${k % 50}.md`];
    return { text: broken[k % broken.length], kind: 'broken' };
  }
  // Of the refs that hold: a third name a function (a symbol ref: the parser loads), a third read
  // the lines of a script that holds a credential (redacted), a third are line ranges.
  const file = k % SOURCES;
  if (k % 30 === 9) {
    const named = Math.floor(k / 30) % SOURCES;
    const line = 1 + 15 * (k % 8);
    return { text: `@src/m${named}.ts#m${named}_${line}`, kind: 'valid', file: named, start: line, end: line + 14 };
  }
  if (k % 30 === 19) return { text: '@scripts/deploy.sh#L1-L4', kind: 'secret' };
  const start = 1 + ((k * 13) % 100);
  return { text: `@src/m${file}.ts#L${start}-L${start + (k % 10)}`, kind: 'valid', file, start, end: start + (k % 10) };
}

/** A script that holds a (made-up) credential: refs to it read redacted lines. Built here, so that no file of this repository holds one. */
const deployScript = () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/+';
  const value = Array.from({ length: 40 }, (_, i) => alphabet[(i * 29 + 7) % alphabet.length]).join('');
  return `#!/bin/sh\nset -e\nexport AWS_${'SECRET'}_ACCESS_KEY="${value}"\naws s3 sync dist/ s3://example-bucket/\n`;
};

const codeLines = (n) => Array.from({ length: n }, (_, i) => `let v${i} = try await client.get("/api/v1/entries.json?count=${i}") // ${pick(WORDS)}`);

/** A fence's lines: a cited snippet when `cite` is set (its first line a ref comment), else an example. */
function fence(cite) {
  const lines = [pick(['```swift', '```kotlin', '```bash', '```json', '```', '~~~'])];
  if (cite) {
    lines[0] = '```swift';
    lines.push(`// ${cite.text}`);
    if (cite.kind === 'valid') lines.push(...source(cite.file).split('\n').slice(cite.start - 1, cite.end));
    else if (cite.kind === 'secret') lines.push(...deployScript().split('\n').slice(0, 4));
    else lines.push(...codeLines(3 + Math.floor(rand() * 8)));
  } else lines.push(...codeLines(3 + Math.floor(rand() * 20)));
  lines.push(lines[0].startsWith('~') ? '~~~' : '```');
  return lines;
}

/** A fence inside a container: a list item (tight or loose, bullets or numbers, tab-indented), a block quote, or both. */
function nestedFence(cite) {
  const lines = fence(cite);
  const shape = Math.floor(rand() * 7);
  if (shape === 0) return [`1. ${sentence()}`, '', ...lines.map((l) => `   ${l}`), `2. ${sentence()}`];
  if (shape === 1) return [`- ${sentence()}`, ...lines.map((l) => `  ${l}`), `- ${sentence()}`];
  if (shape === 2) return [`> **Note**: ${sentence()}`, '>', ...lines.map((l) => `> ${l}`)];
  if (shape === 3) return [`> - ${sentence()}`, '>', ...lines.map((l) => `>   ${l}`)];
  if (shape === 4) return [`* ${sentence()}`, '', ...lines.map((l) => `\t${l}`), ''];
  if (shape === 5) return [`- ${sentence()}`, `  - ${sentence()}`, '', ...lines.map((l) => `    ${l}`)];
  // A caption in the item, its fence under it.
  return [`- **Source**: \`${cite ? cite.text : ref(0).text}\``, '', ...lines.map((l) => `  ${l}`)];
}

function table() {
  const rows = ['| Field | Loop | Trio | AAPS | Notes |', '|---|---|---|---|---|'];
  for (let i = 0, n = 3 + Math.floor(rand() * 12); i < n; i++) rows.push(`| \`${pick(WORDS)}_${i}\` | ✓ | ${pick(['✓', '✗', 'partial'])} | ${pick(WORDS)} | ${sentence()} |`);
  return rows;
}

/** One doc: about `size` bytes, refs from `next()`, fences a third of them in containers. */
function doc(size, next, refsWanted) {
  const out = [`# ${sentence()}`, ''];
  let bytes = 0;
  let placed = 0;
  while (bytes < size) {
    const r = rand();
    let part;
    const wantRef = placed < refsWanted && rand() < 0.35;
    if (r < 0.45) part = [paragraph()];
    else if (r < 0.55) part = table();
    else if (r < 0.7) {
      // Every third fence sits in a container; a cited one carries one of the doc's refs.
      const cite = wantRef && rand() < 0.4 ? next() : null;
      if (cite) placed++;
      part = fences++ % 3 === 2 ? nestedFence(cite) : fence(cite);
    } else if (r < 0.78) part = [`## ${sentence()}`];
    else if (r < 0.9) part = Array.from({ length: 2 + Math.floor(rand() * 5) }, () => `- ${sentence()}`);
    else if (r < 0.93) part = ['<details>', `<summary>${sentence()}</summary>`, '', paragraph(), '', '</details>'];
    else if (r < 0.95) part = ['<!-- generated: do not edit -->'];
    else part = [`See https://github.com/LoopKit/Loop/blob/main/Loop/Managers/DoseStore.swift#L${1 + Math.floor(rand() * 500)} and dev@example.com, localhost:1337.`];
    if (wantRef && placed < refsWanted && rand() < 0.8) {
      placed++;
      part.push(pick([`The mapping lives in \`${next().text}\`.`, `Compare ${next().text} upstream.`, `(see ${next().text})`]));
    }
    out.push(...part, '');
    bytes += part.reduce((n, l) => n + l.length + 1, 1);
  }
  return out.join('\n');
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Writes the tree under `root` once (a marker file records the version). */
export function generateRealDocs(root) {
  const marker = path.join(root, `.done-${REAL_DOCS}-v5`);
  if (fs.existsSync(marker)) return;
  fs.rmSync(root, { recursive: true, force: true });
  for (let n = 0; n < SOURCES; n++) write(path.join(root, 'src', `m${n}.ts`), source(n));
  write(path.join(root, 'scripts', 'deploy.sh'), deployScript());
  // Declared, not cloned: externals/ holds none of them.
  const repos = ALIASES.map((a) => ({ alias: a, name: a[0].toUpperCase() + a.slice(1), url: `https://github.com/example/${a}.git`, ref: 'main' }));
  write(path.join(root, 'workspace.lock.json'), JSON.stringify({ externals_dir: 'externals', repos }, null, 2) + '\n');
  write(path.join(root, 'docs', 'guide.md'), '# Guide\n\n## Install\n\nnpm i\n');
  let k = 0;
  const next = () => ref(k++);
  for (let d = 0; d < REAL_DOCS; d++) {
    const area = ['docs', 'mapping/loop', 'mapping/trio', 'mapping/aaps', 'specs', 'reports', 'notes'][d % 7];
    const size = 2_000 + Math.floor(rand() * 12_000);
    write(path.join(root, area, `topic${d % 30}`, `doc${d}.md`), doc(size, next, d % 5 === 0 ? 0 : 1 + Math.floor(rand() * 1.2)));
  }
  write(marker, '');
}
