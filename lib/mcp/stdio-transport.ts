/**
 * The MCP server's stdio transport: newline-delimited JSON-RPC on stdin and
 * stdout, as the SDK's StdioServerTransport, with two differences.
 *
 * - A message longer than the limit (the SDK's own: 10 MB) is refused and
 *   the server goes on serving. The SDK's transport clears its buffer and
 *   closes, so one oversized message ended `ocm-run mcp` silently with exit 0
 *   and the agent lost its memory tools. Here the line is read to its end
 *   without keeping it (memory stays bounded), and the request it was, when
 *   its id can be read at either end of the line, gets a JSON-RPC error.
 * - A line that is not JSON-RPC is reported without its text: the JSON
 *   parser's message quotes the start of the input, which may be a secret
 *   (a key pasted into the wrong terminal). Only its length is told.
 */
import { deserializeMessage, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export interface LineTransportOptions {
  /** Longest message, in bytes (default: the SDK's limit, 10 MB). */
  maxMessageBytes?: number;
  /** Told about every message refused for its size (the server logs it). */
  onRefused?: (refused: RefusedMessage) => void;
}

export interface RefusedMessage {
  bytes: number;
  /** The request's id, when it could be read (it was answered with an error). */
  id?: RequestId;
}

/** How much of an oversized line's start and end is kept to find its id. */
const EDGE_BYTES = 512;
/** `{"jsonrpc":"2.0","id":7,` — the id first (or after jsonrpc), as most clients write it. */
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*,/;
/** `…,"jsonrpc":"2.0","id":7}` — the id last, as the SDK's client writes it (one closing brace: the top level). */
const ID_AT_END = /,\s*"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/;

function readId(head: string, tail: string): RequestId | undefined {
  const m = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  if (!m) return undefined;
  const raw = m[1]!;
  try {
    return JSON.parse(raw) as RequestId;
  } catch {
    return undefined;
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly max: number;
  private chunks: Buffer[] = [];
  private length = 0;
  /** Set while an oversized line is read to its end and dropped. */
  private dropping: { bytes: number; head: Buffer; tail: Buffer } | undefined;
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly options: LineTransportOptions = {},
  ) {
    this.max = options.maxMessageBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  }

  private readonly onData = (chunk: Buffer | string) => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (;;) {
      const newline = data.indexOf(10, start);
      this.take(data.subarray(start, newline === -1 ? data.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  async start(): Promise<void> {
    if (this.started) throw new Error('LineTransport already started.');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    const dropping = this.dropping;
    if (dropping) {
      dropping.bytes += part.length;
      dropping.tail =
        part.length >= EDGE_BYTES ? part.subarray(part.length - EDGE_BYTES) : Buffer.concat([dropping.tail, part]).subarray(-EDGE_BYTES);
      return;
    }
    if (this.length + part.length <= this.max) {
      this.chunks.push(part);
      this.length += part.length;
      return;
    }
    const kept = Buffer.concat([...this.chunks, part.subarray(0, EDGE_BYTES)]);
    this.dropping = {
      bytes: this.length + part.length,
      head: Buffer.from(kept.subarray(0, EDGE_BYTES)),
      tail: Buffer.from(
        part.length >= EDGE_BYTES ? part.subarray(part.length - EDGE_BYTES) : Buffer.concat([...this.chunks, part]).subarray(-EDGE_BYTES),
      ),
    };
    this.chunks = [];
    this.length = 0;
  }

  private endLine(): void {
    const dropping = this.dropping;
    if (dropping) {
      this.dropping = undefined;
      this.refuse(dropping.bytes, dropping.head.toString('utf8'), dropping.tail.toString('utf8'));
      return;
    }
    const bytes = this.length;
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.length = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      const what = error instanceof SyntaxError ? 'is not JSON' : 'is not a JSON-RPC message';
      this.onerror?.(
        new Error(`A line of ${bytes} bytes on stdin ${what}; it was skipped (its text is not logged: it may hold a secret).`),
      );
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(bytes: number, head: string, tail: string): void {
    const id = readId(head, tail);
    this.options.onRefused?.(id === undefined ? { bytes } : { bytes, id });
    if (id === undefined) return;
    const message = `The message is ${megabytes(bytes)}; OC-Memory's MCP server reads messages up to ${megabytes(this.max)}. It was not read; send a shorter one.`;
    void this.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message } }).catch((error: Error) =>
      this.onerror?.(error),
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.dropping = undefined;
    this.onclose?.();
  }
}
