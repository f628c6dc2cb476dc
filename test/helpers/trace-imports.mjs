// `node --import ./test/helpers/trace-imports.mjs ...`: appends the URL of every ES module loaded,
// and at exit the file of every CommonJS module loaded, to the file named by REFCAT_TRACE_IMPORTS
// (the start-up test reads it).
import fs from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./trace-imports-hooks.mjs', import.meta.url);
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  const file = process.env.REFCAT_TRACE_IMPORTS;
  if (file) fs.appendFileSync(file, Object.keys(cache).map((f) => pathToFileURL(f).href + '\n').join(''));
});
