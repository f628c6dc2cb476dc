// Runs refcat in this process and reports its peak RSS at exit (used by bench/lib.js peakMiB).
import fs from 'node:fs';

process.on('exit', () => {
  fs.writeSync(2, `\nrefcat-peak-rss=${process.resourceUsage().maxRSS}\n`);
});
const { main } = await import('../dist/cli/main.js');
await main(process.argv.slice(2));
