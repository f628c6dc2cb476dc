import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Language, Parser } from 'web-tree-sitter';
import type { SymbolLanguage } from './languages.js';
import { readPatterns, WalkQuery } from './query-walk.js';
import { compileDefinitions, type DefinitionsQuery } from './type-tests.js';
import { lazyRequire } from '../../shared/lazy.js';

/** Loaded when a grammar first loads: every plain extraction imports this module (with `node:worker_threads`, 2-3 ms of a start). */
const v8 = lazyRequire<typeof import('node:v8')>('node:v8');

/**
 * Loading tree-sitter and its grammars (docs/symbols.md#cost). Nothing here runs until a symbol
 * ref, `refcat symbols` or an outline asks: web-tree-sitter is imported on first use, and a
 * grammar when a file of its language is first read. Loading is asynchronous (WebAssembly
 * instantiation is); parsing, once a grammar is loaded, is not, so the synchronous extraction
 * path reads through `loadedGrammar()` after a caller has awaited `loadGrammars()`.
 */

export interface Grammar {
  language: SymbolLanguage;
  parser: Parser;
  definitions: DefinitionsQuery;
  /**
   * The definitions query read for walking (query-walk.ts), read on first use; null when it uses
   * what the walk does not read. A symbol ref matches it at the nodes its names are in
   * (named-nodes.ts), whatever the language.
   */
  walked(): WalkQuery | null;
}

export interface EngineOptions {
  /**
   * Let V8 optimize the grammars' WebAssembly (tier-up). Off by default: a command that runs once
   * would wait seconds at exit for the optimizing compiler (docs/symbols.md#cost); a long-running
   * server that parses many files may turn it on before the first load.
   */
  tierUp?: boolean;
}

let engine: Promise<typeof import('web-tree-sitter')> | null = null;
let tierUp = false;
/** tree-sitter's own WebAssembly may be optimized, the grammars' not: see tierUpRuntime(). */
let runtimeTiers = false;
/** tree-sitter's runtime compiled here (runtimeTiers), or by the thread that started this one. */
let runtimeModule: WasmModule | null = null;
/** This thread compiled the runtime for V8 to optimize (not a worker sharing its parent's). */
let tieredHere = false;
/**
 * The grammars' WebAssembly memory, made here so its size can be read: it grows with the largest
 * file parsed and is never given back (a server replaces the worker that holds it).
 */
let heap: WasmMemory | null = null;

/** The parts of WebAssembly used here (the compile target's lib has no WebAssembly types). */
interface WasmMemory {
  buffer: ArrayBuffer;
}
/** A compiled WebAssembly module: it can be sent to a worker, which then shares its code. */
export type WasmModule = object;
interface Wasm {
  Memory: new (d: { initial: number; maximum: number }) => WasmMemory;
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: unknown): Promise<unknown>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;
const grammars = new Map<string, Promise<Grammar>>();
const ready = new Map<string, Grammar>();
/** The grammar being linked: web-tree-sitter links one at a time (see loadGrammar()). */
let linking: Promise<unknown> = Promise.resolve();

/** Set before the first grammar loads; later calls have no effect on compiled grammars. */
export function configureSymbolEngine(options: EngineOptions): void {
  tierUp = options.tierUp ?? false;
}

/**
 * For a command that runs once but parses many files (an outline of a glob): V8 may optimize
 * tree-sitter's own WebAssembly, the parser and the query cursor that every file runs, while the
 * grammars stay on the baseline compiler (docs/design/symbols.md#the-runtime-optimized). Call
 * before the first grammar loads; no effect after, or when everything may be optimized already.
 */
export function tierUpRuntime(): void {
  runtimeTiers = true;
}

/** Whether tree-sitter is loaded (or loading) in this thread: the engine's options are settled. */
export function engineLoaded(): boolean {
  return engine !== null;
}

/**
 * The runtime this thread compiled under tierUpRuntime(), for a worker to share (its code and
 * what V8 optimized of it) rather than compile its own; null when there is none.
 */
export function compiledRuntime(): WasmModule | null {
  return runtimeModule;
}

/** Instantiate tree-sitter's runtime from `module` (compiledRuntime() of the thread that started this one). Before the first load. */
export function shareRuntime(module: WasmModule): void {
  runtimeModule = module;
}

function loadEngine(): Promise<typeof import('web-tree-sitter')> {
  engine ??= (async () => {
    // A runtime that may be optimized is compiled before the flag is set, and the grammars after.
    const ownRuntime = !tierUp && runtimeTiers && runtimeModule === null;
    // Baseline compiler only: set before the first WebAssembly compile this flag is meant for.
    if (!tierUp && !ownRuntime) v8().setFlagsFromString('--liftoff-only');
    // Its CommonJS build, through require: 15-20 ms less CPU than import() of its ES module from
    // the bundle, which starts Node's ES module loader for it (docs/design/symbols.md).
    const require = createRequire(import.meta.url);
    const ts = require('web-tree-sitter') as typeof import('web-tree-sitter');
    if (ownRuntime) {
      runtimeModule = await wasm.compile(fs.readFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm')));
      tieredHere = true;
    }
    // 32 MiB to start (the runtime's own default), up to the 2 GiB the runtime allows.
    heap = new wasm.Memory({ initial: 512, maximum: 32768 });
    const runtime = runtimeModule;
    if (runtime) {
      // Emscripten's hook: the runtime instantiated from the module compiled above, or from a
      // worker's parent's. The hook has no way to fail, so a failure ends the wait here.
      let fail: (err: unknown) => void = () => {};
      const failed = new Promise<never>((_, reject) => (fail = reject));
      const instantiateWasm = (imports: unknown, done: (instance: unknown, module: WasmModule) => void) => {
        wasm.instantiate(runtime, imports).then((instance) => done(instance, runtime), fail);
      };
      await Promise.race([ts.Parser.init({ wasmMemory: heap, instantiateWasm } as unknown as Parameters<typeof ts.Parser.init>[0]), failed]);
    } else {
      await ts.Parser.init({ wasmMemory: heap } as unknown as Parameters<typeof ts.Parser.init>[0]);
    }
    if (ownRuntime) v8().setFlagsFromString('--liftoff-only');
    return ts;
  })();
  return engine;
}

/** Load the grammars of these languages (each once per process). */
export async function loadGrammars(languages: Iterable<SymbolLanguage>): Promise<void> {
  await Promise.all([...new Set(languages)].map(loadGrammar));
}

export function loadGrammar(language: SymbolLanguage): Promise<Grammar> {
  let pending = grammars.get(language.id);
  if (!pending) {
    pending = (async () => {
      const ts = await loadEngine();
      // One link at a time: two grammars with external scanners in flight at once fail with "bad
      // export type for 'tree_sitter_<x>_external_scanner_create'".
      const load = linking.then(() => ts.Language.load(fs.readFileSync(wasmPath(language.wasm))));
      linking = load.catch(() => undefined);
      const lang: Language = await load;
      const parser = new ts.Parser();
      parser.setLanguage(lang);
      const source = readQuery(language.query ?? language.id);
      const grammar = withDefinitions(
        { language, parser },
        () => runOnce(() => compileDefinitions(ts, lang, source, language.moveTypeTests ?? false)),
        () => walkDefinitions(lang, source),
      );
      ready.set(language.id, grammar);
      return grammar;
    })();
    grammars.set(language.id, pending);
  }
  return pending;
}

/**
 * `compile()`, with the runtime's functions it is the first to call compiled for no later
 * optimization (docs/design/symbols.md#the-query-compiled-once): a query's compile runs its parser
 * and analysis once per thread, long enough for V8 to optimize them on its background threads
 * (80-130 ms of compiling there, beside the threads that parse), for nothing after. Only in the
 * thread that compiled the runtime to be optimized, and only on the V8 this was measured on.
 * `--wasm-tier-up-filter` names the one function that may be optimized; 0 is an import, which is
 * never compiled, so none may while it is set. It is read when a function is first compiled
 * (lazily, at its first call), so the functions the query's matching calls next are compiled as
 * before once it is set back.
 */
function runOnce<T>(compile: () => T): T {
  if (!tieredHere || !process.versions.v8.startsWith('11.3.')) return compile();
  v8().setFlagsFromString('--wasm-tier-up-filter=0');
  try {
    return compile();
  } finally {
    v8().setFlagsFromString('--wasm-tier-up-filter=-1');
  }
}

/** Bytes of WebAssembly memory tree-sitter holds in this thread (0 before the first load). */
export function symbolHeapBytes(): number {
  return heap?.buffer.byteLength ?? 0;
}

/**
 * Files a grammar reads with its definitions query walked (query-walk.ts) before the query is
 * compiled: compiling costs 30-120 ms once, and then matches each file faster than the walk
 * (docs/design/symbols.md#reading-a-query-without-compiling-it).
 */
const WALKED_FILES = 4;

/**
 * The definitions query: where the language says so (`walkQuery`), read without compiling it for
 * the grammar's first files (a symbol ref reads one), compiled once more files come (an outline, a
 * server); elsewhere compiled at once. Either way its matches are the same
 * (test/unit/query-walk.test.ts). Compiling comes after the first parse: it allocates and frees in
 * the WebAssembly heap, and a Swift parse after anything in that heap was freed is many times
 * slower (docs/symbols.md#cost).
 */
function withDefinitions(base: Omit<Grammar, 'definitions' | 'walked'>, compile: () => DefinitionsQuery, walk: () => WalkQuery | null): Grammar {
  let compiled: DefinitionsQuery | null = null;
  let read: WalkQuery | null | undefined;
  const walked = () => (read === undefined ? (read = walk()) : read);
  let reads = 0;
  const definitions: DefinitionsQuery = {
    matches(root) {
      if (base.language.walkQuery && compiled === null && reads++ < WALKED_FILES) {
        const query = walked();
        if (query) return query.matches(root);
      }
      return (compiled ??= compile()).matches(root);
    },
  };
  return { ...base, definitions, walked };
}

/** The query read for walking, or null when it uses what the walk does not read (then it is compiled). */
function walkDefinitions(language: Language, source: string): WalkQuery | null {
  const patterns = readPatterns(source);
  return patterns instanceof Error ? null : new WalkQuery(language, patterns);
}

/** The grammar if loadGrammars() has loaded it, else null. */
export function loadedGrammar(language: SymbolLanguage): Grammar | null {
  return ready.get(language.id) ?? null;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * What identifies the parser of `language` on disk, for tables kept between runs (table-cache.ts):
 * size and modification time of its grammar's file and of tree-sitter's own WebAssembly.
 */
export function grammarStamp(language: SymbolLanguage): string {
  const require = createRequire(import.meta.url);
  return [wasmPath(language.wasm), require.resolve('web-tree-sitter/tree-sitter.wasm')]
    .map((f) => {
      const s = fs.statSync(f);
      return `${f}:${s.size}:${s.mtimeMs}`;
    })
    .join('\n');
}

function wasmPath(file: string): string {
  // From the package, wherever node_modules is: the bundle's import.meta.url is its own file.
  const pkg = createRequire(import.meta.url).resolve('tree-sitter-wasms/package.json');
  return path.join(path.dirname(pkg), 'out', file);
}

/**
 * The definitions query: src/core/symbols/queries in the source tree and dist/core/symbols/queries
 * beside the compiled module; the bundle (dist/bin) looks in ../core/symbols/queries.
 */
export function readQuery(id: string): string {
  for (const dir of [path.join(here, 'queries'), path.join(here, '..', 'core', 'symbols', 'queries')]) {
    const file = path.join(dir, `${id}.scm`);
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  }
  throw new Error(`refcat is missing its definitions query for ${id} (queries/${id}.scm)`);
}
