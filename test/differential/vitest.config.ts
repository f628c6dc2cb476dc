import { defineConfig } from 'vitest/config';

// `npm run test:differential`: not part of `npm test`, since it reads repositories fetched
// outside this one (CONTRIBUTING.md#the-differential-test).
export default defineConfig({
  test: {
    include: ['test/differential/**/*.differential.ts'],
    testTimeout: 600_000,
  },
});
