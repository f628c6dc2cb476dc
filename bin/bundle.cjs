// Loads a bundle of dist/bin/ (the CLI, `main`) as require() would, but compiled with the V8 code
// cache that `npm run build` keeps beside it (`main.cjs.cache`, made by bin/code-cache.cjs): V8
// then reuses the bytecode of the functions a run needs instead of parsing and compiling them
// again: a one-line ref takes 0.84x the time (docs/design/cli.md#start-up-is-a-feature).
//
// The cache is only ever written by the build, in the folder that holds the bundle itself, so it
// is as trusted as the code. V8 rejects a cache made by another V8 or under other flags, and the
// bundle then compiles as it would without one: never an error, only slower. V8 checks neither
// the source (only its length) nor, in a release build, the cache's own bytes, and a damaged cache
// crashes the process: so the file starts with the SHA-256 of the bundle and the cache together
// (2 ms), and a cache that does not match it is not used.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

/** `file`'s code cache: its digest line, then V8's bytes. */
function cacheFileOf(bundle, cachedData) {
  return Buffer.concat([Buffer.from(`${digest(bundle, cachedData)}\n`), cachedData]);
}

function digest(bundle, cachedData) {
  return crypto.createHash('sha256').update(bundle).update(cachedData).digest('hex');
}

/** V8's bytes of the cache kept for `bundle`, when the file is there and matches it; else undefined. */
function cachedDataFor(file, bundle) {
  let kept;
  try {
    kept = fs.readFileSync(`${file}.cache`);
  } catch {
    return undefined; // a build without one: compile as require() would
  }
  const cachedData = kept.subarray(65);
  return kept.length > 65 && kept[64] === 10 && kept.toString('latin1', 0, 64) === digest(bundle, cachedData) ? cachedData : undefined;
}

/** The script of a bundle's bytes, compiled from `cachedData` when given. */
function scriptOf(file, bundle, cachedData) {
  // No importModuleDynamically: the bundle holds no import() (bin/bundle-cli.mjs).
  return new vm.Script(Module.wrap(bundle.toString('utf8')), { filename: file, cachedData });
}

/** The compiled wrapper of a bundle, and its script (to make a cache from). */
function compile(file, useCache) {
  const bundle = fs.readFileSync(file);
  const script = scriptOf(file, bundle, useCache ? cachedDataFor(file, bundle) : undefined);
  return { script, bundle, wrapper: script.runInThisContext() };
}

/** Whether V8 takes the code cache kept for `dist/bin/<name>.cjs` (the build asks a new process). */
function cacheAccepted(name) {
  const file = bundlePath(name);
  const bundle = fs.readFileSync(file);
  const cachedData = cachedDataFor(file, bundle);
  return cachedData !== undefined && scriptOf(file, bundle, cachedData).cachedDataRejected === false;
}

function bundlePath(name) {
  return path.join(__dirname, '..', 'dist', 'bin', `${name}.cjs`);
}

/**
 * Runs the bundle `dist/bin/<name>.cjs` once per process and returns its exports; compiled from
 * its code cache unless `useCache` is false.
 */
function loadBundle(name, { useCache = true, onCompiled } = {}) {
  const file = bundlePath(name);
  if (Module._cache[file]) return Module._cache[file].exports;
  let compiled;
  try {
    compiled = compile(file, useCache);
  } catch {
    return require(file); // its own error, as without the cache (a bundle missing: run the build)
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  Module._cache[file] = mod;
  if (onCompiled) onCompiled(compiled);
  compiled.wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}

module.exports = { loadBundle, cacheAccepted, cacheFileOf, cachedDataFor };
