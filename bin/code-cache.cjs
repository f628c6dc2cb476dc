// `npm run build`'s last step: makes dist/bin/main.cjs.cache, the V8 code cache that bin/bundle.cjs
// compiles the CLI from (docs/design/cli.md#start-up-is-a-feature).
//
// A cache holds the bytecode of the functions that ran before it was made, so it is made after a
// few typical commands (a line ref, JSON, a glob, `verify refs` of a doc with fences, one in a
// list) run in one process on a small tree of their own in a temporary folder (also its HOME: the
// build writes nothing of the user's). None of them parses code: loading a grammar changes V8's
// flags (`--liftoff-only`), and V8 rejects a cache made under other flags. A second process then
// checks that V8 accepts the cache; one it rejects is removed, and the CLI compiles as it would
// without it.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cacheFileOf, loadBundle } = require('./bundle.cjs');

const bundle = path.join(__dirname, '..', 'dist', 'bin', 'main.cjs');
const cacheFile = `${bundle}.cache`;

/** The commands a cache is made after, run in `dir`. */
const TRAINING = [
  ['@a.ts#L2-L4'],
  ['@a.ts#L1-L3', '--json'],
  ['**/*.ts', '--list-files'],
  ['**/*.ts', '-q'],
  ['verify', 'refs', '.', '--format', 'text'],
];

async function train(dir) {
  let compiled;
  const { main } = loadBundle('main', { useCache: false, onCompiled: (c) => (compiled = c) });
  process.chdir(dir);
  for (const argv of TRAINING) await main(argv);
  process.exitCode = 0;
  // `verify refs` raised V8's interrupt budget (src/cli/tiering.ts); V8 stamps a cache with a hash
  // of its flags, so the default goes back before the cache is made.
  require('node:v8').setFlagsFromString('--interrupt-budget=67584');
  fs.writeFileSync(`${cacheFile}.tmp`, cacheFileOf(compiled.bundle, compiled.script.createCachedData()));
  fs.renameSync(`${cacheFile}.tmp`, cacheFile);
}

/** True when V8 in a fresh process takes the cache. */
function accepted() {
  const check = `process.exit(require(${JSON.stringify(path.join(__dirname, 'bundle.cjs'))}).cacheAccepted('main') ? 0 : 1)`;
  return spawnSync(process.execPath, ['-e', check], { stdio: 'ignore' }).status === 0;
}

function make() {
  fs.rmSync(cacheFile, { force: true });
  fs.rmSync(`${cacheFile}.tmp`, { force: true }); // left by a build stopped while writing it
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refcat-code-cache-'));
  try {
    const lines = Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    fs.writeFileSync(path.join(dir, 'a.ts'), `${lines}\n`);
    // A fence at column 0 and one in a list item (which markdown-it reads).
    fs.writeFileSync(
      path.join(dir, 'doc.md'),
      '# Doc\n\nSee @a.ts#L2-L4 and @a.ts#L9.\n\n```ts\nexport const v1 = 1;\n```\n\n- a step:\n\n  ```ts\n  export const v2 = 2;\n  ```\n',
    );
    const r = spawnSync(process.execPath, [__filename, '--train', dir], {
      stdio: 'ignore',
      env: { ...process.env, HOME: dir, SDQCTL_HOME: path.join(dir, '.sdqctl'), REFCAT_SYMBOL_CACHE: '0' },
    });
    if (r.status !== 0 || !fs.existsSync(cacheFile)) {
      console.error('refcat build: no code cache made (the CLI works without one, only starts slower)');
      fs.rmSync(cacheFile, { force: true });
    } else if (!accepted()) {
      console.error('refcat build: V8 rejected the code cache it made; removed (the CLI works without one)');
      fs.rmSync(cacheFile, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--train') train(process.argv[3]);
else make();
