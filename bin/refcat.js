#!/usr/bin/env node
// The refcat command. It runs the CLI bundled into one CommonJS file by `npm run build`
// (dist/bin/main.cjs): one file to load instead of dozens of ES modules, compiled from the code
// cache the build keeps beside it, keeps start-up close to a bare `node`
// (CONTRIBUTING.md#performance). bin/package.json makes this file CommonJS.
require('./bundle.cjs').loadBundle('main').main();
