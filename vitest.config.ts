import { defineConfig } from 'vitest/config';

// CI runs on a busy 2-core machine: a spawned bin can take seconds to start there, so tests get a
// budget that a loaded machine meets. Nothing asserts on time; these only stop a real hang.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
