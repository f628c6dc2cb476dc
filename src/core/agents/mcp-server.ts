import type { Readable, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { configureSymbolEngine } from '../symbols/grammar-loader.js';
import { type DeclarationWorkerOptions, MAX_WORKER_HEAP_BYTES, parseOffThread, stopParsingOffThread } from '../symbols/declaration-worker.js';
import { type AgentContext, runTool, TOOLS } from './mcp-tools.js';
import { McpStdioTransport } from './mcp-transport.js';

export interface McpServerOptions extends AgentContext {
  version: string;
  stdin: Readable;
  stdout: Writable;
  /** Log lines (stderr): stdout carries only the protocol. */
  log: (line: string) => void;
  /** The parser worker's heap threshold and module (docs/agents.md); defaults for a server. */
  parser?: Pick<DeclarationWorkerOptions, 'maxHeapBytes' | 'workerFile' | 'tierUp'>;
}

/**
 * `refcat mcp` (docs/reference.md#refcat-mcp): every tool of TOOLS on a stdio transport. Resolves
 * when the client closes the connection and every call it made is answered.
 */
export async function serveMcp(opts: McpServerOptions): Promise<void> {
  const server = new McpServer({ name: 'refcat', version: opts.version });
  const agent: AgentContext = { ctx: opts.ctx, store: opts.store, secrets: opts.secrets };
  // Symbol refs are parsed in a worker, replaced when its heap grows large (docs/symbols.md#cost);
  // without a built worker, here, optimized as a long-lived process may.
  const parser = parseOffThread({ ...opts.parser, onReplace: (bytes) => opts.log(`refcat mcp: parser worker replaced (heap ${Math.round(bytes / 2 ** 20)} MiB)`) });
  if (!parser) configureSymbolEngine({ tierUp: true });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      // Strict: an argument the tool does not have is refused, as a misspelt one should be.
      { title: tool.name, description: tool.description, inputSchema: z.object(tool.input).strict(), annotations: tool.annotations },
      async (args: unknown) => {
        const answer = await runTool(tool, args, agent);
        if (answer.isError) opts.log(`refcat mcp: ${tool.name}: ${answer.log ?? answer.text.split('\n', 1)[0]}`);
        return { content: [{ type: 'text' as const, text: answer.text }], isError: answer.isError };
      },
    );
  }
  // The transport closes once stdin has ended and every call in flight is answered.
  const transport = new McpStdioTransport(opts.stdin, opts.stdout);
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  server.server.onerror = (err) => opts.log(`refcat mcp: ${err.message}`);
  await server.connect(transport);
  opts.log(`refcat mcp: serving ${TOOLS.length} tools, root ${opts.ctx.cwd}`);
  opts.log(parser ? `refcat mcp: symbol refs are parsed in a worker, replaced past ${Math.round((opts.parser?.maxHeapBytes ?? MAX_WORKER_HEAP_BYTES) / 2 ** 20)} MiB of heap` : 'refcat mcp: symbol refs are parsed in this thread (no worker module built)');
  await closed;
  await server.close();
  stopParsingOffThread(parser);
}
