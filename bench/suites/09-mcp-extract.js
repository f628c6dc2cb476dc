// `refcat mcp` extract of a 60 MB file: the server's peak memory (target under 200 MiB) and its
// time against the CLI printing the same ref to /dev/null in the same run (without --tokens: the
// CLI would count all 60 MB, the answer counts only what it shows). The answer stops at its
// cap and the whole of it goes to the store, so the MCP figure includes writing 60 MB to disk.
// Also five such calls sent at once: two run, three wait their turn.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, ensureTmp, makeFile, median } from '../lib.js';

const tmp = path.join(ensureTmp(), 'mcp-extract');
fs.mkdirSync(path.join(tmp, 'home'), { recursive: true });
process.stdout.write('preparing a 60 MB file (once, kept in .bench-tmp/) ... ');
makeFile(path.join(tmp, 'big.txt'), 60 * 1000 * 1000);
console.log('done');
const env = { PATH: process.env.PATH ?? '', HOME: path.join(tmp, 'home'), REFCAT_STORE: path.join(tmp, 'store') };

function peakOf(pid) {
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
}

/** A fresh server, `calls` extract calls of `ref` sent at once; wall time and the server's peak RSS. */
async function mcp(ref, calls) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], cwd: tmp, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const t0 = process.hrtime.bigint();
  const answers = await Promise.all(
    Array.from({ length: calls }, () => client.callTool({ name: 'extract', arguments: { refs: [ref] } }, undefined, { timeout: 600_000 })),
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const peak = peakOf(transport.pid);
  for (const a of answers) if (a.isError) throw new Error(a.content[0].text);
  await client.close();
  fs.rmSync(env.REFCAT_STORE, { recursive: true, force: true });
  return { ms, peak };
}

function cli(ref) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('bash', ['-c', `${process.execPath} ${BIN} '${ref}' > /dev/null`], { cwd: tmp, env });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

for (const [label, ref, calls] of [
  ['whole file, 1 call', '@big.txt', 1],
  ['lines 2 to the end, 1 call', '@big.txt#L2-', 1],
  ['whole file, 5 calls at once', '@big.txt', 5],
]) {
  const ours = [];
  const base = [];
  let peak = 0;
  for (let i = 0; i < 3; i++) {
    const r = await mcp(ref, calls);
    ours.push(r.ms);
    peak = Math.max(peak, r.peak);
    base.push(cli(ref) * calls);
  }
  const [t, b] = [median(ours), median(base)];
  console.log(
    `${label.padEnd(30)} mcp ${(t / 1000).toFixed(2)} s   cli > /dev/null ${(b / 1000).toFixed(2)} s   ratio ${(t / b).toFixed(2)}x   peak ${peak.toFixed(0)} MiB (target < 200 MiB)`,
  );
}
