// `verify refs` over a tree like a real documentation workspace (docs/reference.md#verify-refs):
// 1,200 docs (.md, .txt, .yaml), about 17 MB of prose, tables, code blocks (some opening with a
// `// alias:path#Lx-Ly` citation comment), URLs, e-mails, decorators, host:port, version pins and
// about 700 refs to real files, plus a few large files. Baseline, in the same run: `node -e 0` plus
// one `rg` pass over the same files (targets: verify refs <= 5x with its cited snippets judged, the
// default; <= 4x with --no-snippets; peak memory <= 150 MiB). Measured
// as the machine is, then again beside one busy process (`yes > /dev/null`). Without rg installed
// the ratio is printed against `node -e 0` alone, and the suite says so.
// Beside it, in the same run and on the same terms, a tree shaped like the real workspace of
// issue 37 (bench/real-docs-tree.js: 1,100 docs, a third of the fences in list items or block
// quotes, 70% of refs into aliases not cloned, 20% broken): target <= 4x both ways.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateRealDocs, REAL_DOCS } from '../real-docs-tree.js';
import { compare, ensureTmp, fmt, peakMiB, refcatCmd, ROOT } from '../lib.js';
import { prose, WORDS } from '../prose.js';

const DOCS = 1200;
const SOURCES = 60;
const root = path.join(ensureTmp(), 'verify-refs-workspace');

const { rand, pick, sentence } = prose(0x2545f491);
/** Look-alikes real docs are full of: none of them is a ref. */
const NOISE = [
  () => `See https://github.com/nightscout/cgm-remote-monitor/blob/master/lib/api/entries.md#L${1 + Math.floor(rand() * 90)} for the API.`,
  () => 'Ask dev@example.com or <ops@nightscout.info> (mailto:team@example.org).',
  () => 'The handler takes `@param entries` and `@returns Promise<void>`; see @dataclass and @app.route("/api").',
  () => 'Run it on localhost:1337/api/v1/entries.json or mongodb://db.example.com:27017/ns.',
  () => 'Pinned: actions/checkout@v4, left-pad@1.3.0, npm i @types/node@20.',
  () => 'Note: times are HH:mm:ss (12:30:45), see key: value.txt and app.py:120.',
  () => 'Replace `@path/to/file.py#L10-L20` with your own `loop:path/to/x.swift` and `@example.md`.',
  () => '`refcat verify refs .` checks what the docs cite; `git show HEAD:lib/server.js` does not.',
];
const table = () => {
  const rows = ['| Field | Type | Loop | Trio | AAPS | Notes |', '|---|---|---|---|---|---|'];
  const n = 4 + Math.floor(rand() * 20);
  for (let i = 0; i < n; i++) rows.push(`| \`${pick(WORDS)}_${i}\` | ${pick(['string', 'number', 'Date', 'bool'])} | ✓ | ${pick(['✓', '✗', 'partial'])} | ${pick(WORDS)} | ${sentence()} |`);
  return rows.join('\n');
};
const srcRef = (k) => {
  const start = 1 + ((k * 37) % 170);
  return `src/m${k % SOURCES}.ts#L${start}-L${start + (k % 12)}`;
};
const extRef = (k) => {
  const alias = k % 2 ? 'alpha' : 'beta';
  const start = 1 + ((k * 53) % 170);
  return `${alias}:lib/${alias}${k % SOURCES}.js#L${start}-L${start + (k % 9)}`;
};
/** The source files refs point at: 200 lines, a function every 20. */
const source = (name, n) => {
  let text = '';
  for (let l = 1; l <= 200; l++) text += l % 20 === 1 ? `export function ${name}${n}_${l}(input) {\n` : `  const v${l} = step(${n}, ${l}); // ${name}\n`;
  return text;
};
const codeBlock = (k) => {
  const cited = k % 3 === 0;
  const lines = [cited ? '```js' : pick(['```bash', '```json', '```python', '```'])];
  if (cited) {
    // A cited snippet, as the code has it (docs/reference.md: cited snippets are checked verbatim).
    const ref = extRef(k);
    lines.push(`// ${ref}`);
    const [, alias, n, from, to] = /^(\w+):lib\/\w+?(\d+)\.js#L(\d+)-L(\d+)$/.exec(ref);
    lines.push(...source(alias, Number(n)).split('\n').slice(Number(from) - 1, Number(to)));
    lines.push('```');
    return lines.join('\n');
  }
  // An example, not a citation: its caption holds no ref (a fence after a one-ref caption is cited).
  lines.unshift(sentence(), '');
  const n = 6 + Math.floor(rand() * 30);
  for (let i = 0; i < n; i++) lines.push(`  const v${i} = await client.get('/api/v1/entries.json?count=${i}'); // ${pick(WORDS)}:${i}`);
  lines.push('```');
  return lines.join('\n');
};

/** One markdown doc of about `size` bytes holding `refs` refs. */
function markdownDoc(d, size, refs) {
  const parts = [`# ${sentence()}`, ''];
  let k = d * 7;
  let placed = 0;
  let bytes = 0;
  while (bytes < size) {
    const r = rand();
    let part;
    if (r < 0.5) part = Array.from({ length: 2 + Math.floor(rand() * 5) }, sentence).join(' ');
    else if (r < 0.62) part = pick(NOISE)();
    else if (r < 0.72) part = table();
    else if (r < 0.82) part = codeBlock(k++);
    else if (r < 0.9) part = `## ${sentence()}`;
    else part = Array.from({ length: 3 + Math.floor(rand() * 6) }, () => `- ${sentence()}`).join('\n');
    if (placed < refs && rand() < 0.3) {
      placed++;
      k++;
      // After a code block the ref goes on its own line: text after a closing fence keeps the block open.
      part += (part.endsWith('```') ? '\n' : '') + pick([
        ` See \`@${srcRef(k)}\`.`,
        ` The mapping lives in ${extRef(k)}, compare @${srcRef(k + 1)}.`,
        ` (details: [guide](@docs/guide.md#install)).`,
        ` Upstream: \`${extRef(k)}\`.`,
      ]);
    }
    parts.push(part, '');
    bytes += part.length + 1;
  }
  return parts.join('\n');
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function generate() {
  const marker = path.join(root, `.done-${DOCS}-verbatim3`);
  if (fs.existsSync(marker)) return;
  fs.rmSync(root, { recursive: true, force: true });
  for (let n = 0; n < SOURCES; n++) {
    write(path.join(root, 'src', `m${n}.ts`), source('m', n));
    for (const a of ['alpha', 'beta']) write(path.join(root, 'externals', a, 'lib', `${a}${n}.js`), source(a, n));
  }
  write(path.join(root, 'workspace.lock.json'), JSON.stringify({ repos: [{ alias: 'alpha', name: 'alpha' }, { alias: 'beta', name: 'beta' }] }, null, 2) + '\n');
  write(path.join(root, 'docs', 'guide.md'), '# Guide\n\n## Install\n\nnpm i\n');
  for (let d = 0; d < DOCS; d++) {
    const area = ['docs', 'mapping', 'specs', 'notes', 'reports'][d % 5];
    const dir = path.join(root, area, `topic${d % 40}`);
    if (d % 10 === 9) {
      // YAML specs: keys, URLs, and a few refs in values.
      let text = `name: spec-${d}\nversion: 1.${d % 7}.0\nsource: "@${srcRef(d)}"\nupstream: ${extRef(d)}\n`;
      for (let i = 0; i < 150; i++) text += `field_${i}:\n  type: ${pick(['string', 'number'])}\n  url: https://example.com/api/${i}.json\n  note: ${sentence()}\n`;
      write(path.join(dir, `spec${d}.yaml`), text);
    } else if (d % 10 === 4) {
      write(path.join(dir, `notes${d}.txt`), markdownDoc(d, 6_000, 1));
    } else {
      // A few large files, as real workspaces have (generated mapping tables, changelogs).
      const size = d % 300 === 150 ? 1_000_000 : 4_000 + Math.floor(rand() * 13_000);
      write(path.join(dir, `doc${d}.md`), markdownDoc(d, size, d % 300 === 150 ? 20 : d % 2));
    }
  }
  write(marker, '');
}

process.stdout.write(`preparing ${DOCS} docs (once, kept in .bench-tmp/verify-refs-workspace/) ... `);
generate();
console.log('done');
const realRoot = path.join(ensureTmp(), 'verify-refs-real');
process.stdout.write(`preparing ${REAL_DOCS} docs shaped like a real workspace (once, kept in .bench-tmp/verify-refs-real/) ... `);
generateRealDocs(realRoot);
console.log('done');

const { verifyRefs } = await import(path.join(ROOT, 'dist', 'index.js'));
const hasRg = spawnSync('rg', ['--version']).status === 0;
if (!hasRg) console.log('rg is not installed (apt-get install ripgrep): the baseline below is `node -e 0` alone, so the ratio reads high');
const globs = ['md', 'txt', 'yaml', 'yml', 'conv'].flatMap((e) => ['-g', `*.${e}`]);

/** A tree's report in this process, and the commands timed on it (refcat's two modes, node -e 0, rg). */
async function prepare(label, dir) {
  const report = await verifyRefs(['.'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, home: dir });
  const { files, bytes } = docFiles(dir);
  const notCloned = report.errors.filter((e) => e.code === 'not_cloned').reduce((n, e) => n + e.refs.length, 0);
  console.log(
    `${label}: ${report.filesScanned} files scanned, ${(bytes / 1e6).toFixed(1)} MB, ${report.refsFound} refs (${report.valid} valid, ${report.broken} broken` +
      `${notCloned ? `, ${notCloned} of them into aliases not cloned` : ''})`,
  );
  if (report.broken > notCloned) {
    const e = report.errors.find((f) => f.code !== 'not_cloned');
    console.log(`  first broken: ${e.ref} at ${e.file}:${e.line}: ${e.message}`);
  }
  if (hasRg && files !== report.filesScanned) console.log(`  note: rg's globs cover ${files} files, verify refs scanned ${report.filesScanned}`);
  // The floor: start a Node process, and read every scanned file once (rg counts lines holding a
  // ref's first character). Both modes, in turn with the baselines: cited snippets judged (the
  // default) and `--no-snippets` (citations' refs still checked, their lines not compared).
  const status = report.passed ? 0 : 1;
  const cmds = [
    Object.assign(refcatCmd('verify', 'refs', '.'), { status }),
    Object.assign(refcatCmd('verify', 'refs', '.', '--no-snippets'), { status }),
    [process.execPath, '-e', '0'],
  ];
  if (hasRg) cmds.push(['rg', '-c', '[@:]', ...globs, '.']);
  return { label, dir, bytes, cmds };
}

function measure(tree, load, targets) {
  const [ours, noSnippets, node, rg = 0] = compare(tree.cmds, 15, { cwd: tree.dir });
  const floor = node + rg;
  const baseline = hasRg ? `node -e 0 ${fmt(node)} + rg ${fmt(rg)} = ${fmt(floor)}` : `node -e 0 ${fmt(node)} (no rg)`;
  console.log(`${tree.label}, ${load} (load ${os.loadavg()[0].toFixed(2)}): ${baseline}`);
  console.log(`  verify refs . ${fmt(ours)} (${(tree.bytes / 1e6 / (ours / 1000)).toFixed(0)} MB/s)   ratio ${(ours / floor).toFixed(2)}x (target <= ${targets[0]}x)`);
  console.log(`  verify refs . --no-snippets ${fmt(noSnippets)}   ratio ${(noSnippets / floor).toFixed(2)}x (target <= ${targets[1]}x)`);
}
// The synthetic tree: refs to real files (targets 5x with snippets judged, 4x without). The
// real-shaped one: refs into folders not cloned, broken refs, fences in lists (4x both ways).
const trees = [
  [await prepare('synthetic tree', root), [5, 4]],
  [await prepare('real-shaped tree', realRoot), [4, 4]],
];
for (const [tree, targets] of trees) measure(tree, 'as the machine is', targets);
const busy = spawn('sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' });
try {
  for (const [tree, targets] of trees) measure(tree, 'beside one busy process', targets);
} finally {
  busy.kill();
}
console.log(`peak memory ${peakMiB(['verify', 'refs', '.'], { cwd: root }).toFixed(1)} MiB (target <= 150 MiB)`);
console.log(`peak memory, real-shaped tree: ${peakMiB(['verify', 'refs', '.'], { cwd: realRoot, status: 1 }).toFixed(1)} MiB`);

// The scanner alone, in this process: what finding refs costs per MB once the files are read.
const { findDocRefs } = await import(path.join(ROOT, 'dist', 'core', 'doc-refs', 'find-doc-refs.js'));
const texts = listDocs(root).map((f) => [f, fs.readFileSync(f, 'utf8')]);
const scanTimes = [];
for (let i = 0; i < 7; i++) {
  const t0 = process.cpuUsage();
  for (const [f, text] of texts) findDocRefs(text, { markdown: !f.endsWith('.yaml'), isKnownAlias: (n) => n === 'alpha' || n === 'beta' });
  const t = process.cpuUsage(t0);
  scanTimes.push((t.user + t.system) / 1000);
}
scanTimes.sort((a, b) => a - b);
console.log(`findDocRefs alone over the synthetic tree's ${(trees[0][0].bytes / 1e6).toFixed(1)} MB: ${fmt(scanTimes[3])} CPU (median of 7, min ${fmt(scanTimes[0])})`);

function listDocs(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listDocs(p));
    else if (/\.(md|txt|ya?ml|conv)$/.test(e.name)) out.push(p);
  }
  return out;
}
function docFiles(dir) {
  const list = listDocs(dir);
  return { files: list.length, bytes: list.reduce((n, f) => n + fs.statSync(f).size, 0) };
}
