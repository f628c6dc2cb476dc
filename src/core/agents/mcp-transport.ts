import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** The largest JSON-RPC message `refcat mcp` reads (docs/reference.md#refcat-mcp); a longer line is answered with an error and skipped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

type Id = string | number;

interface RpcError {
  code: number;
  message: string;
}

/** JSON-RPC error codes (https://www.jsonrpc.org/specification#error_object). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/**
 * MCP over stdio, one JSON-RPC message a line, that answers what the SDK's stdio transport drops
 * or dies of (docs/reference.md#refcat-mcp): a line over MAX_MESSAGE_BYTES is skipped without
 * being held (its top-level `id` is picked out as it streams by) and answered -32600; a line that
 * is not JSON, -32700 with id null; a request without a method or with `params` that is no object,
 * -32600 / -32602; a schema error the SDK raises, one line instead of a zod dump. When stdin ends,
 * the calls in flight are answered before the transport closes.
 */
export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** Set while an oversized line streams by: it finds the line's id and keeps nothing else. */
  private skipping: TopLevelId | null = null;
  private readonly inFlight = new Set<string>();
  private ended = false;
  private closed = false;

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const out = 'error' in message ? { ...message, error: plainError(message.error) } : message;
    if ('id' in out && ('result' in out || 'error' in out)) this.inFlight.delete(key(out.id));
    const text = JSON.stringify(out) + '\n';
    await new Promise<void>((resolve) => (this.stdout.write(text) ? resolve() : this.stdout.once('drain', resolve)));
    this.closeIfDone();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onEnd);
    this.parts = [];
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a)) {
      this.take(buf.subarray(0, nl));
      this.endLine();
      buf = buf.subarray(nl + 1);
    }
    if (buf.length > 0) this.take(buf);
  };

  private readonly onEnd = (): void => {
    if (this.size > 0 || this.skipping) this.endLine();
    this.ended = true;
    this.closeIfDone();
  };

  private closeIfDone(): void {
    if (this.ended && this.inFlight.size === 0) void this.close();
  }

  private take(piece: Buffer): void {
    if (this.skipping) {
      this.skipping.feed(piece);
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
    if (this.size > this.maxMessageBytes) {
      this.skipping = new TopLevelId();
      for (const p of this.parts) this.skipping.feed(p);
      this.parts = [];
      this.size = 0;
    }
  }

  private endLine(): void {
    if (this.skipping) {
      const id = this.skipping.id();
      this.skipping = null;
      const mib = Math.round(this.maxMessageBytes / (1024 * 1024));
      this.reply(id, { code: INVALID_REQUEST, message: `Request too large: a message may hold at most ${mib} MiB (give a large file by its path)` });
      return;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      this.reply(null, { code: PARSE_ERROR, message: `Parse error: ${(err as Error).message}` });
      return;
    }
    const checked = checkMessage(parsed);
    if ('error' in checked) {
      // A notification (no id) is never answered.
      if (checked.id !== undefined) this.reply(checked.id, checked.error);
      else this.onerror?.(new Error(checked.error.message));
      return;
    }
    const message = checked.message;
    if ('method' in message && 'id' in message) this.inFlight.add(key(message.id));
    this.onmessage?.(message);
  }

  private reply(id: Id | null, error: RpcError): void {
    void this.send({ jsonrpc: '2.0', id, error } as unknown as JSONRPCMessage);
  }
}

/** A message the SDK can take, or the error to answer (id undefined: a notification, not answered). */
function checkMessage(msg: unknown): { message: JSONRPCMessage } | { error: RpcError; id: Id | null | undefined } {
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return { error: { code: INVALID_REQUEST, message: 'Invalid Request: expected a JSON-RPC object' }, id: null };
  }
  const m = msg as Record<string, unknown>;
  const validId = typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id));
  const id = validId ? (m.id as Id) : 'id' in m ? null : undefined;
  const isResponse = !('method' in m) && ('result' in m || 'error' in m);
  if (!isResponse) {
    if (typeof m.method !== 'string') {
      return { error: { code: INVALID_REQUEST, message: `Invalid Request: ${'method' in m ? 'method must be a string' : 'no method'}` }, id: id ?? null };
    }
    if ('params' in m && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) {
      return { error: { code: INVALID_PARAMS, message: `Invalid params: params of ${m.method} must be an object` }, id };
    }
  }
  const parsed = JSONRPCMessageSchema.safeParse(msg);
  if (!parsed.success) return { error: { code: INVALID_REQUEST, message: `Invalid Request: ${issueText(parsed.error.issues)}` }, id: isResponse ? undefined : (id ?? null) };
  return { message: parsed.data as JSONRPCMessage };
}

/** An SDK error whose message is a zod dump (`arguments: null`) becomes one line, -32602. */
function plainError(error: RpcError): RpcError {
  if (!error.message.startsWith('[')) return error;
  try {
    const issues = JSON.parse(error.message) as unknown;
    if (Array.isArray(issues) && issues.length > 0 && issues.every((i) => typeof i?.message === 'string')) {
      return { ...error, code: INVALID_PARAMS, message: `Invalid params: ${issueText(issues)}` };
    }
  } catch {
    // not a zod dump
  }
  return error;
}

function issueText(issues: readonly { message: string; path?: readonly PropertyKey[] }[]): string {
  const first = issues[0];
  if (!first) return 'not a JSON-RPC message';
  const at = first.path && first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
  return `${at}${first.message}`;
}

function key(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * The top-level `"id"` of a JSON object read a piece at a time, keeping only the id's own text:
 * an oversized request is answered with its id, so the client waiting for it is not left hanging.
 * Bytes of multi-byte UTF-8 characters are all >= 0x80, so scanning bytes is safe.
 */
export class TopLevelId {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private keyText: string | null = null;
  private lastKey: string | null = null;
  private valueBytes: number[] | null = null;
  private found: number[] | null = null;

  feed(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.inString) {
        if (this.valueBytes !== null) this.capture(c);
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.keyText !== null) {
            this.lastKey = this.keyText;
            this.keyText = null;
          }
        } else if (this.keyText !== null && this.keyText.length < 8) this.keyText += String.fromCharCode(c);
        continue;
      }
      if (this.depth === 1 && (c === COMMA || c === 0x7d) && this.valueBytes !== null) {
        this.found ??= this.valueBytes;
        this.valueBytes = null;
      }
      if (this.valueBytes !== null) this.capture(c);
      if (c === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.keyText = '';
      } else if (c === 0x7b || c === 0x5b) {
        this.depth++;
        if (this.depth === 1) this.expectKey = c === 0x7b;
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
      } else if (this.depth === 1 && c === COMMA) {
        this.expectKey = true;
      } else if (this.depth === 1 && c === COLON) {
        this.expectKey = false;
        if (this.lastKey === 'id' && this.found === null) this.valueBytes = [];
        this.lastKey = null;
      }
    }
  }

  /** The id if the object had a string or number one, else null. */
  id(): Id | null {
    const bytes = this.found ?? this.valueBytes;
    if (bytes === null) return null;
    try {
      const v = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
      return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : null;
    } catch {
      return null;
    }
  }

  private capture(c: number): void {
    if (this.valueBytes!.length < 1024) this.valueBytes!.push(c);
  }
}
