import type { z } from 'zod';
import type { AgentContext } from './tool-inputs.js';

/** What an MCP tool of refcat is (the table TOOLS in mcp-tools.ts); a tool in a file of its own imports this, not the table. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
  /** For a failed call: one line for the server's log, when the text does not start with one (a JSON report). */
  log?: string;
}

export interface ToolSpec {
  name: string;
  description: string;
  input: z.ZodRawShape;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  /** Calls that may read and write a lot wait their turn (see HeavyCalls). */
  heavy?: boolean;
  run: (args: any, agent: AgentContext) => Promise<ToolAnswer>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
