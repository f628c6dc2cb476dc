// `npm run bundle`: bundles the CLI and its two workers (dist/ as tsc wrote it) into one CommonJS
// file each in dist/bin/ (docs/design/cli.md#start-up-is-a-feature).
//
// - The dependencies stay outside the bundle and load on first use, except chalk: it is an ES
//   module only, and the bundle has no import(). bin/bundle.cjs compiles the CLI from a V8 code
//   cache, and Node 20 runs an import() of code compiled that way only under an experimental flag.
//   So esbuild writes each import() of a dependency as a require() (gpt-tokenizer has a CommonJS
//   build), and bundles chalk (a few KB) instead.
// - `import.meta.url` is the bundle's own URL.
import * as esbuild from 'esbuild';

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

// The CLI, compiled from the code cache: no import().
await esbuild.build({ ...common, entryPoints: ['dist/cli/main.js'], supported: { 'dynamic-import': false } });
// The workers load as any file does, and keep import(): the tokenizer's ES module build, as
// before the code cache (its CommonJS build measured a few MiB more in a server's 60 MB answer).
await esbuild.build({ ...common, entryPoints: ['dist/core/tokens/count-worker.js', 'dist/core/symbols/parse-worker.js'] });
