// Runs refcat (the bundled CLI, as bin/refcat.js does) in this process and reports its peak RSS
// at exit (used by bench/lib.js peakMiB).
import fs from 'node:fs';
import { createRequire } from 'node:module';

process.on('exit', () => {
  fs.writeSync(2, `\nrefcat-peak-rss=${process.resourceUsage().maxRSS}\n`);
});
const { main } = createRequire(import.meta.url)('../dist/bin/main.cjs');
await main(process.argv.slice(2));
