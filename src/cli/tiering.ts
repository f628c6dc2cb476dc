import { lazyRequire } from '../shared/lazy.js';

const v8 = lazyRequire<typeof import('node:v8')>('node:v8');

/**
 * `verify refs` runs much code a little, and TurboFan's compiling costs it more than the compiled
 * code gains: four times the interrupt budget (Node 20's V8 default, 67,584) optimizes only what
 * runs long (figures: docs/design/cli.md#start-up-is-a-feature). Only in the CLI's process, and only on the V8
 * it was measured on: a glob's few hot functions lose by it, and other V8 versions tier otherwise.
 * `never`: the name of one function V8 is not to optimize at all (an outline's declaration walker,
 * read-declarations.ts), by `--turbo-filter`, which takes one name.
 */
export function optimizeOnlyLongRunningCode(options: { never?: string } = {}): void {
  if (!process.versions.v8.startsWith('11.3.')) return;
  v8().setFlagsFromString('--interrupt-budget=270336');
  // One function V8 is not to optimize at all, by its name (V8 takes one such name).
  if (options.never) v8().setFlagsFromString(`--turbo-filter=-${options.never}`);
}
