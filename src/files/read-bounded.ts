// Bounded reads: what edgectl reads from a file or stdin (a policy, `api --input`, a webhook
// secret, ids) is at most MAX_INPUT_BYTES; one byte more is refused while reading, so
// `/dev/zero`, a huge file or an endless pipe costs at most that much memory and stops at once.
// Files are read asynchronously (node:fs's callbacks, on libuv's threads, not node:fs/promises,
// which loads a dozen more modules): a FIFO whose writer is slow, or a device, never blocks the
// main thread, so Ctrl-C and SIGTERM are heard while it is read.
//
// It imports only node:fs (and node:net for a FIFO): src/cli.ts reads a file on stdin with readSyncBounded.
import { close, constants, fstat, open, read, readSync, type Stats } from "node:fs";

/** The most edgectl reads from one file or stdin: 16 MiB (the contract's number). */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
export const MAX_INPUT_TEXT = "16 MiB";

/** The source gave more than `limit` bytes: the reading stopped there. */
export class InputTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit === MAX_INPUT_BYTES ? MAX_INPUT_TEXT : `${limit} bytes`}`);
  }
}

/** The message that names the source refused: `<file>: /dev/zero is more than 16 MiB, …`. */
export function tooLargeMessage(label: string | undefined, source: string): string {
  return `${label ? `${label}: ` : ""}${source} is more than ${MAX_INPUT_TEXT}, the most edgectl reads from a file or stdin`;
}

const CHUNK = 1024 * 1024;

const call = <T>(fn: (done: (err: NodeJS.ErrnoException | null, value: T) => void) => void) =>
  new Promise<T>((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));

/**
 * All of a file (a regular file, a FIFO, a device), at most `limit` bytes, else
 * InputTooLargeError. It is opened without blocking (a FIFO with no writer yet does not hold a
 * thread): a FIFO or a socket is then read as a stream, woken by the event loop as stdin's pipe
 * is, since a read blocked on one of libuv's threads would hold the process's exit until its
 * writer wrote (process.exit waits for those threads); a file or a device is read in chunks,
 * and a device with nothing to give yet (a terminal) is asked again a moment later.
 */
export async function readFileBounded(path: string, limit = MAX_INPUT_BYTES): Promise<Buffer> {
  const fd = await call<number>((done) => open(path, constants.O_RDONLY | constants.O_NONBLOCK, done));
  let stats: Stats;
  try {
    stats = await call<Stats>((done) => fstat(fd, done));
    // A folder opens; reading it says EISDIR, as readFileSync does.
    if (stats.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
  } catch (err) {
    close(fd, () => {});
    throw err;
  }
  if (stats.isFIFO() || stats.isSocket()) {
    const { Socket } = await import("node:net");
    // The socket owns the descriptor from here: it closes it when it ends or is let go.
    return readStreamBounded(new Socket({ fd, readable: true, writable: false }), limit);
  }
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
      let n: number;
      try {
        n = await call<number>((done) => read(fd, chunk, 0, chunk.length, null, done));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > limit) throw new InputTooLargeError(limit);
    }
    return Buffer.concat(chunks, total);
  } finally {
    close(fd, () => {});
  }
}

/** All of a stream, at most `limit` bytes, else InputTooLargeError (and the stream is let go). */
export async function readStreamBounded(stream: AsyncIterable<unknown>, limit = MAX_INPUT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buffer);
    total += buffer.length;
    // Leaving the loop destroys the stream: nothing more is read.
    if (total > limit) throw new InputTooLargeError(limit);
  }
  return Buffer.concat(chunks, total);
}

/** A descriptor's content read at once (a regular file on stdin): at most `limit` + 1 bytes. */
export function readSyncBounded(fd: number, limit = MAX_INPUT_BYTES): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= limit) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, limit + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}
