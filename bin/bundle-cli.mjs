// `npm run bundle`: bundles the CLI and its two workers (dist/ as tsc wrote it) into one CommonJS
// file each in dist/bin/ (docs/design/cli.md#start-up-is-a-feature), with the tokenizer's rank
// tables as JSON beside them.
//
// - The dependencies stay outside the bundle and load on first use, except chalk: it is an ES
//   module only, and the bundle has no import(). bin/bundle.cjs compiles the CLI from a V8 code
//   cache, and Node 20 runs an import() of code compiled that way only under an experimental flag.
//   So esbuild writes each import() of a dependency as a require() (gpt-tokenizer has a CommonJS
//   build), and bundles chalk (a few KB) instead.
// - `import.meta.url` is the bundle's own URL.
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

const BUNDLED = new Set(['chalk']);

/** What the three bundles share: CommonJS for Node 20, dependencies outside but BUNDLED ones. */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outdir: 'dist/bin',
  entryNames: '[name]',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__refcatModuleUrl' },
  banner: { js: "const __refcatModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  plugins: [
    {
      name: 'dependencies-outside',
      setup(build) {
        build.onResolve({ filter: /^[^./#]/ }, (args) => {
          const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
          return BUNDLED.has(name) && !args.path.startsWith('node:') ? undefined : { path: args.path, external: true };
        });
      },
    },
  ],
};

/**
 * One namespace object per Node built-in module, not one per module that imports it. esbuild
 * writes each `import fs from 'node:fs'` as `__toESM(require("node:fs"), 1)`, which copies every
 * export of the built-in onto a new object as a getter: 130 of them in the CLI, `node:fs`'s 100
 * exports each time, as each module first runs. Made once per built-in instead: a plain
 * `refcat @file#L1` 0.93× the wall time, `--list-files` of 10,000 files 0.94× (docs/design/cli.md).
 * The same object for every importer is what an ES module namespace is anyway.
 */
function shareBuiltins(file) {
  const text = fs.readFileSync(file, 'utf8');
  const calls = text.split('__toESM(require("node:').length - 1;
  if (calls === 0) return;
  const helper = 'var __toESM = ';
  // esbuild's helper, as this version writes it: a bundle without it would call a name never defined.
  if (text.split(helper).length !== 2) throw new Error(`${file}: expected one "${helper}" to share the built-ins' namespaces`);
  const shared = [
    'var __builtinESMs = /* @__PURE__ */ new Map();',
    'var __builtinESM = (mod, isNodeMode) => {',
    '  let esm = __builtinESMs.get(mod);',
    '  if (esm === void 0) __builtinESMs.set(mod, (esm = __toESM(mod, isNodeMode)));',
    '  return esm;',
    '};',
  ].join('\n');
  fs.writeFileSync(file, text.replace(helper, `${shared}\n${helper}`).replaceAll('__toESM(require("node:', '__builtinESM(require("node:'));
}

// The CLI, compiled from the code cache: no import().
await esbuild.build({ ...common, entryPoints: ['dist/cli/main.js'], supported: { 'dynamic-import': false } });
// The workers load as any file does, and keep import(): the tokenizer's ES module build, as
// before the code cache (its CommonJS build measured a few MiB more in a server's 60 MB answer).
await esbuild.build({ ...common, entryPoints: ['dist/core/tokens/count-worker.js', 'dist/core/symbols/parse-worker.js'] });
for (const name of ['main', 'count-worker', 'parse-worker']) shareBuiltins(`dist/bin/${name}.cjs`);
// The tokenizer's rank tables as JSON beside the bundles, which load them faster than
// gpt-tokenizer's modules that hold them (src/core/tokens/rank-file.ts).
const rankFile = await import(new URL('../dist/core/tokens/rank-file.js', import.meta.url).href);
for (const encoding of ['o200k_base', 'cl100k_base']) {
  const { default: ranks } = await import(`gpt-tokenizer/bpeRanks/${encoding}`);
  fs.writeFileSync(`dist/bin/${rankFile.rankFileName(encoding)}`, rankFile.rankFileText(encoding, rankFile.installedVersion(import.meta.url), ranks));
}
// secretlint (its core, the core's profiler, the recommended preset and its rules) in one CommonJS
// file, with no dependency outside: loading it is one require() instead of Node 20's require() of
// 27 files, most of them ES modules (docs/design/secrets.md#loading-secretlint). The secret check
// loads it when it is there, and the packages when not (src/core/secrets/secret-rules.ts). The
// licenses of the packages it holds end the file.
//
// Two of the core's imports are left out: its profiler, whose marks the check turns off anyway (it
// would watch the process's performance timeline from its load on), and `debug`, whose log lines
// (`DEBUG=@secretlint/*`) refcat never prints. Both become the few lines below: 8-10 ms less.
const LEFT_OUT = {
  '@secretlint/profiler': 'export const secretLintProfiler = { mark() {} };',
  debug: 'export default function debug() { return function log() {}; }',
};
const secretlint = await esbuild.build({
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: 'dist/bin/secretlint.cjs',
  metafile: true,
  plugins: [
    {
      name: 'left-out',
      setup(build) {
        build.onResolve({ filter: /^(@secretlint\/profiler|debug)$/ }, (args) => ({ path: args.path, namespace: 'left-out' }));
        build.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({ contents: LEFT_OUT[args.path], loader: 'js' }));
      },
    },
  ],
  stdin: {
    contents: [
      "export { lintSource } from '@secretlint/core';",
      "export { secretLintProfiler } from '@secretlint/profiler';",
      "export { rules } from '@secretlint/secretlint-rule-preset-recommend';",
    ].join('\n'),
    // Where the core is: what it imports is found as it finds it, nested or not.
    resolveDir: path.dirname(require.resolve('@secretlint/core/package.json')),
    sourcefile: 'secretlint.mjs',
    loader: 'js',
  },
  logLevel: 'warning',
});
fs.appendFileSync('dist/bin/secretlint.cjs', licensesOf(Object.keys(secretlint.metafile.inputs)));

/** A comment with each package's name, version and license text, for the files `inputs` of a bundle. */
function licensesOf(inputs) {
  const dirs = new Set();
  for (const input of inputs) {
    const at = input.lastIndexOf('node_modules/');
    if (at === -1) continue;
    const rest = input.slice(at + 'node_modules/'.length).split('/');
    dirs.add(input.slice(0, at) + 'node_modules/' + rest.slice(0, rest[0].startsWith('@') ? 2 : 1).join('/'));
  }
  const parts = [...dirs].sort().map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const texts = fs
      .readdirSync(dir)
      .filter((f) => /^(licen[cs]e|copying)/i.test(f))
      .sort()
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').trim());
    return [`${pkg.name} ${pkg.version} (${pkg.license})`, ...texts].join('\n\n');
  });
  // ASCII only, like every bundle, and nothing that ends the comment.
  const text = parts.join('\n\n----\n\n').replace(/\*\//g, '* /').replace(/[^\x00-\x7f]/g, (c) => (c === '\u00a9' ? '(c)' : `\\u{${c.codePointAt(0).toString(16)}}`));
  return `\n/*\nThe packages bundled in this file, and their licenses:\n\n${text}\n*/\n`;
}
