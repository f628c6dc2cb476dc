import { lazyRequire } from '../shared/lazy.js';

const v8 = lazyRequire<typeof import('node:v8')>('node:v8');

/**
 * `verify refs` runs much code a little, and TurboFan's compiling costs it more than the compiled
 * code gains: four times the interrupt budget (Node 20's V8 default, 67,584) optimizes only what
 * runs long (figures: docs/design/cli.md#start-up-is-a-feature). Only in the CLI's process, and only on the V8
 * it was measured on: a glob's few hot functions lose by it, and other V8 versions tier otherwise.
 */
export function optimizeOnlyLongRunningCode(): void {
  if (process.versions.v8.startsWith('11.3.')) v8().setFlagsFromString('--interrupt-budget=270336');
}
