#!/usr/bin/env node
// Why refcat counts tokens with gpt-tokenizer and not js-tiktoken (docs/design/tokens.md):
// both libraries, both encodings, each in fresh processes, on this repository's own files
// (src, test, docs, bench: .ts .js .md) copied in memory until they hold >= 4 MiB. Prints, per
// library and encoding, the median time to load the tokenizer (import + rank tables, measured from
// inside the process, so Node's own start-up is left out), the median time to count the corpus
// file by file, and the total, which must be the same for both libraries.
// Run: node bench/tokenizer-choice.js [runs]   (js-tiktoken is a dev dependency)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 7);

if (process.env.TOKENIZER_CHOICE_CHILD) {
  await child(process.env.TOKENIZER_CHOICE_CHILD, process.env.TOKENIZER_CHOICE_ENCODING);
} else {
  parent();
}

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|js|md)$/.test(e.name) ? [p] : [];
  });
}

function corpus() {
  const texts = ['src', 'test', 'docs', 'bench'].flatMap((d) => files(path.join(ROOT, d))).map((f) => fs.readFileSync(f, 'utf8'));
  const out = [];
  let bytes = 0;
  while (bytes < 4 * 1024 * 1024) {
    for (const t of texts) {
      out.push(t);
      bytes += Buffer.byteLength(t);
    }
  }
  return { texts: out, bytes };
}

async function child(lib, encoding) {
  const t0 = performance.now();
  let count;
  if (lib === 'gpt-tokenizer') {
    const m = await import(`gpt-tokenizer/encoding/${encoding}`);
    const options = { disallowedSpecial: new Set() };
    count = (t) => m.countTokens(t, options);
  } else {
    const { Tiktoken } = await import('js-tiktoken/lite');
    const ranks = (await import(`js-tiktoken/ranks/${encoding}`)).default;
    const enc = new Tiktoken(ranks);
    count = (t) => enc.encode(t, [], []).length;
  }
  count('warm up: the first call builds what is built lazily');
  const load = performance.now() - t0;
  const texts = JSON.parse(fs.readFileSync(process.env.TOKENIZER_CHOICE_CORPUS, 'utf8'));
  const t1 = performance.now();
  let total = 0;
  for (const t of texts) total += count(t);
  const counting = performance.now() - t1;
  process.stdout.write(JSON.stringify({ load, counting, total, rssMiB: process.memoryUsage().rss / 2 ** 20 }) + '\n');
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function parent() {
  // One snapshot for every child, so that all of them count the same text.
  const { texts, bytes } = corpus();
  const snapshot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-tokenizer-choice-')), 'corpus.json');
  fs.writeFileSync(snapshot, JSON.stringify(texts));
  try {
    measure(texts, bytes, snapshot);
  } finally {
    fs.rmSync(path.dirname(snapshot), { recursive: true, force: true });
  }
}

function measure(texts, bytes, snapshot) {
  console.log(`${texts.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB; ${runs} fresh processes per row, medians`);
  const libs = ['gpt-tokenizer', 'js-tiktoken'];
  for (const encoding of ['o200k_base', 'cl100k_base']) {
    const results = Object.fromEntries(libs.map((l) => [l, []]));
    // Interleaved, so that machine noise hits both libraries alike.
    for (let i = 0; i < runs; i++) {
      for (const lib of libs) {
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
          cwd: ROOT,
          encoding: 'utf8',
          env: { ...process.env, TOKENIZER_CHOICE_CHILD: lib, TOKENIZER_CHOICE_ENCODING: encoding, TOKENIZER_CHOICE_CORPUS: snapshot },
        });
        if (r.status !== 0) throw new Error(`${lib} ${encoding} failed: ${r.stderr}`);
        results[lib].push(JSON.parse(r.stdout));
      }
    }
    const totals = new Set(libs.flatMap((l) => results[l].map((r) => r.total)));
    for (const lib of libs) {
      const rs = results[lib];
      const load = median(rs.map((r) => r.load));
      const counting = median(rs.map((r) => r.counting));
      const rss = median(rs.map((r) => r.rssMiB));
      console.log(
        `${encoding.padEnd(12)} ${lib.padEnd(14)} load ${load.toFixed(0).padStart(5)} ms   count ${counting.toFixed(0).padStart(5)} ms   ` +
          `rss ${rss.toFixed(0)} MiB   tokens ${rs[0].total.toLocaleString('en-US')}`,
      );
    }
    console.log(totals.size === 1 ? `${encoding.padEnd(12)} same counts` : `${encoding.padEnd(12)} COUNTS DIFFER: ${[...totals].join(', ')}`);
  }
}
