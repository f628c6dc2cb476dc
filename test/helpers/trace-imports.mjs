// `node --import ./test/helpers/trace-imports.mjs ...`: appends the URL of every ES module loaded,
// and at exit the file of every CommonJS module loaded and `node:<name>` for every Node built-in
// loaded since this hook ran, to the file named by REFCAT_TRACE_IMPORTS (the start-up test reads it).
import fs from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./trace-imports-hooks.mjs', import.meta.url);
const cache = createRequire(import.meta.url).cache;
const builtinsBefore = new Set(process.moduleLoadList);
process.on('exit', () => {
  const file = process.env.REFCAT_TRACE_IMPORTS;
  if (!file) return;
  const builtins = process.moduleLoadList.filter((m) => !builtinsBefore.has(m) && m.startsWith('NativeModule ') && !m.includes('internal/'));
  fs.appendFileSync(file, [...Object.keys(cache).map((f) => pathToFileURL(f).href), ...builtins.map((m) => `node:${m.slice('NativeModule '.length)}`)].map((l) => l + '\n').join(''));
});
