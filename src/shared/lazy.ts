import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A synchronous, load-on-first-use handle to a CommonJS dependency (yaml, picomatch).
 * Start-up time is a feature (STYLE 11): a plain extraction must not pay for modules it never uses.
 */
export function lazyRequire<T>(id: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(id) as T);
}
