/**
 * The MCP stdio framing (one JSON-RPC message per line) over a byte source or web streams, hardened: a line over the size
 * limit is skipped as it streams by (never buffered whole) and answered with a JSON-RPC error; a line that
 * is not JSON, nests too deep or is not JSON-RPC gets its error too; every refusal is logged with a short
 * excerpt; and the next line is served as usual. (The SDK's transport ends the session on an oversized
 * line without a word.) It also knows which requests are unanswered, so a shutdown can let them finish
 * and answer the rest with an error instead of leaving the client waiting.
 */
import type { Logger } from "../core/log.ts";
import { type JSONRPCMessage, parseJSONRPCMessage, ProtocolErrorCode, type Transport } from "../sdk.ts";
import { MAX_JSON_DEPTH, nestsDeeperThan, preview, recoverId } from "./json_limits.ts";

/** The SDK's limit too, so clients that worked before still work. */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Bytes of an oversized line kept to find its id and to quote in the log. */
const HEAD_BYTES = 4096;

/**
 * Bytes read straight from a file (the process's stdin: `Deno.stdin`), without a web stream around it:
 * `Deno.stdin.readable` loads and sets up the web-streams machinery, a tenth of what a cold start spends
 * beyond the SDK's own (tests pass streams).
 */
export interface ByteSource {
  /** Fills `buffer` with what arrived; the count, or null at the end. */
  read(buffer: Uint8Array): Promise<number | null>;
}

export interface StdioLinesOptions {
  input: ReadableStream<Uint8Array> | ByteSource;
  /**
   * Where messages go. A function is called on the first message that needs the stream (one too large, or
   * behind one, for `writeSync`), so a process whose answers all fit `writeSync` never builds it.
   */
  output: WritableStream<Uint8Array> | (() => WritableStream<Uint8Array>);
  /**
   * Writes to the same destination as `output`, synchronously (the process's stdout: `Deno.stdout.writeSync`).
   * Given, a message up to {@link SYNC_WRITE_BYTES} is written with it while no stream write is pending: an
   * answer costs one write call instead of a stream write handed to another thread (a third of a result-memo
   * hit's CPU). Larger messages, and any message behind one, go through `output` in order.
   */
  writeSync?: (bytes: Uint8Array) => number;
  log: Logger;
  maxMessageBytes?: number;
}

/** A pipe's buffer on Linux: a message this size fits an empty pipe without waiting for the reader. */
export const SYNC_WRITE_BYTES = 64 * 1024;

type Id = string | number | null;

/** Bytes read from a byte source at a time (a pipe's buffer). */
const READ_BYTES = 64 * 1024;

/** What the read loop needs of its input. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

/**
 * Reads a byte source into one reused buffer: each chunk is consumed (its lines copied out) before the
 * next read. A read still pending when the transport closes is left to the process's exit.
 */
function sourceReader(source: ByteSource): ChunkReader {
  const buffer = new Uint8Array(READ_BYTES);
  return {
    async read() {
      const n = await source.read(buffer);
      return n === null ? { done: true, value: undefined } : { done: false, value: buffer.subarray(0, n) };
    },
    cancel: () => Promise.resolve(),
  };
}

export class StdioLinesTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioLinesOptions;
  readonly #max: number;
  #streamWriter?: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ChunkReader;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  /** Where a message written synchronously is encoded. */
  readonly #scratch = new Uint8Array(3 * SYNC_WRITE_BYTES);
  /** Requests delivered to the server and not yet answered. */
  readonly #pending = new Set<string | number>();
  #settled = Promise.withResolvers<void>();
  /** Stream writes not yet done: while any is, messages queue behind it (order is the protocol's). */
  #streamWrites = 0;
  /** Set by a shutdown: requests that arrive now are answered with this error at once. */
  #refusing?: { code: number; message: string };
  #closed = false;

  constructor(options: StdioLinesOptions) {
    this.#options = options;
    this.#max = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
    const input = options.input;
    this.#reader = input instanceof ReadableStream ? input.getReader() : sourceReader(input);
  }

  /** The output stream's writer, made on first use. */
  get #writer(): WritableStreamDefaultWriter<Uint8Array> {
    const output = this.#options.output;
    return this.#streamWriter ??= (typeof output === "function" ? output() : output).getWriter();
  }

  start(): Promise<void> {
    this.#readLoop().catch((error) => this.onerror?.(error as Error)).finally(() => this.close());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    if ("id" in message && !("method" in message) && this.#pending.delete(message.id as string | number)) {
      if (this.#pending.size === 0) this.#settled.resolve();
    }
    const text = JSON.stringify(message) + "\n";
    const writeSync = this.#options.writeSync;
    let bytes: Uint8Array | undefined;
    if (writeSync && this.#streamWrites === 0 && text.length <= SYNC_WRITE_BYTES) {
      // Encoded into one reused buffer (3 bytes per UTF-16 unit at most): no allocation per answer.
      const { written } = this.#encoder.encodeInto(text, this.#scratch);
      bytes = this.#scratch.subarray(0, written);
      if (written <= SYNC_WRITE_BYTES) {
        try {
          while (bytes.length > 0) bytes = bytes.subarray(writeSync(bytes));
          return;
        } catch (error) {
          // A non-blocking descriptor that is full: the rest goes through the stream, which waits for room.
          if (!(error instanceof Deno.errors.WouldBlock)) throw error;
        }
      }
      bytes = bytes.slice(); // the stream keeps it: a copy, since the scratch buffer is reused
    }
    bytes ??= this.#encoder.encode(text);
    this.#streamWrites++;
    try {
      await this.#writer.write(bytes);
    } finally {
      this.#streamWrites--;
    }
  }

  /** Requests not yet answered. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Ends the session gracefully: new requests are refused with `message`, running ones get until
   * `grace` settles to finish, then each one left gets a JSON-RPC error, and the transport closes.
   */
  async shutdown(grace: Promise<unknown>, code: number, message: string): Promise<void> {
    this.#refusing = { code, message };
    if (this.#pending.size > 0) await Promise.race([this.#settled.promise, grace]);
    for (const id of [...this.#pending]) await this.send({ jsonrpc: "2.0", id, error: { code, message } });
    await this.close();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader.cancel().catch(() => {});
    this.onclose?.();
  }

  async #readLoop(): Promise<void> {
    const line = new LineBuffer(this.#max);
    while (!this.#closed) {
      const { value, done } = await this.#reader.read();
      if (done) break;
      let start = 0;
      for (;;) {
        const end = value.indexOf(0x0a, start);
        if (end < 0) {
          line.append(value.subarray(start));
          break;
        }
        line.append(value.subarray(start, end));
        await this.#dispatch(line.take());
        start = end + 1;
      }
    }
    const last = line.take();
    if (last.bytes.length > 0 || last.oversize > 0) await this.#dispatch(last);
  }

  async #dispatch(line: Line): Promise<void> {
    let bytes = line.bytes;
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    if (line.oversize > 0) {
      const mib = (line.oversize / 1024 ** 2).toFixed(1);
      return await this.#refuse(
        ProtocolErrorCode.InvalidRequest,
        `Invalid Request: the message is ${mib} MiB; stdio accepts at most ${this.#max} bytes per message.`,
        bytes,
        { bytes: line.oversize },
      );
    }
    if (bytes.every((b) => b === 0x20 || b === 0x09)) return;
    if (nestsDeeperThan(bytes)) {
      const message = `Parse error: the JSON nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`;
      return await this.#refuse(ProtocolErrorCode.ParseError, message, bytes);
    }
    let json: unknown;
    try {
      json = JSON.parse(this.#decoder.decode(bytes));
    } catch {
      return await this.#refuse(ProtocolErrorCode.ParseError, "Parse error: the line is not valid JSON.", bytes);
    }
    // The server package's own schema: `@modelcontextprotocol/core` would load a second copy at start.
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(json);
    } catch {
      const refusal = "Invalid Request: not a JSON-RPC 2.0 message (jsonrpc, method, id, params).";
      return await this.#refuse(ProtocolErrorCode.InvalidRequest, refusal, bytes);
    }
    if ("method" in message && "id" in message) {
      if (this.#refusing) return await this.#answer(message.id, this.#refusing.code, this.#refusing.message);
      if (this.#pending.size === 0) this.#settled = Promise.withResolvers<void>();
      this.#pending.add(message.id);
    }
    this.onmessage?.(message);
  }

  async #answer(id: Id, code: number, message: string): Promise<void> {
    await this.#writer.write(
      this.#encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n"),
    ).catch(() => {});
  }

  /** Answers a refused line (to its id when it can be read from the line's start) and logs it. */
  async #refuse(code: number, message: string, head: Uint8Array, fields: Record<string, unknown> = {}): Promise<void> {
    const id: Id = recoverId(head) ?? null;
    this.#options.log.warn("stdio message refused", {
      error: message,
      id,
      bytes: head.length,
      ...fields,
      excerpt: preview(new TextDecoder().decode(head.subarray(0, HEAD_BYTES))),
    });
    await this.#answer(id, code, message);
  }
}

interface Line {
  /** The whole line, or the first HEAD_BYTES of an oversized one. */
  bytes: Uint8Array;
  /** Total size of an oversized line; 0 when within the limit. */
  oversize: number;
}

/** Collects one line; past the limit it keeps only the head and counts the rest. */
class LineBuffer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  #overflow = false;

  constructor(readonly max: number) {}

  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#size += chunk.length;
    if (this.#overflow) return;
    if (this.#size > this.max) {
      this.#overflow = true;
      const head = concat(this.#chunks, Math.min(HEAD_BYTES, this.#size - chunk.length));
      this.#chunks = [head, chunk.slice(0, Math.max(0, HEAD_BYTES - head.length))];
      return;
    }
    this.#chunks.push(chunk.slice());
  }

  take(): Line {
    const line = { bytes: concat(this.#chunks, Infinity), oversize: this.#overflow ? this.#size : 0 };
    this.#chunks = [];
    this.#size = 0;
    this.#overflow = false;
    return line;
  }
}

function concat(chunks: Uint8Array[], limit: number): Uint8Array {
  const size = Math.min(limit, chunks.reduce((n, c) => n + c.length, 0));
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= size) break;
    const part = chunk.subarray(0, size - offset);
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
