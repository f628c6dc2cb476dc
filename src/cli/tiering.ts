import { setFlagsFromString } from 'node:v8';

/**
 * V8 compiles a function with its optimizing compiler (TurboFan) once the function has run for a
 * while: its interrupt budget, 67,584 bytes of bytecode by default. `verify refs` runs a great
 * deal of code a little: on a thousand docs TurboFan spent 0.6-1.0 s of CPU compiling, on a
 * second core, for a run of 0.6 s, and most of that code was done before its compiled version
 * was ready. Four times the budget optimizes only what runs long. Paired whole-process runs on
 * the 1,200 docs of `npm run bench -- 12`: 0.89× the wall time and 0.72× the CPU as set here; on
 * 6,000 docs the same wall time and 0.91× the CPU (CONTRIBUTING.md#benchmarks).
 *
 * A glob over 8,000 files is the opposite (its few functions run 8,000 times: 1.2-1.3× slower
 * with this budget), so only the command that gains sets it, in the CLI's own process, before
 * its code first runs. A program that imports refcat keeps V8's settings.
 */
export function optimizeOnlyLongRunningCode(): void {
  setFlagsFromString('--interrupt-budget=270336');
}
