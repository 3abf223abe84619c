// Every long local computation (reading, checking, masking, planning) hears SIGINT and SIGTERM
// at once. The handlers of src/cli.ts are JavaScript, which runs only when the event loop turns:
// a long synchronous loop holds a signal until it ends, and then prints its result (`ok` after a
// Ctrl-C, and exit 0). Running with no JavaScript handler until the first request is sent was
// not chosen: the default action kills the process without the `interrupted` message, -o json's
// error object or a batch's report. Instead long work yields to the event loop:
// - a loop that grows with the input awaits a checkpoint every N items (`every`);
// - a command awaits `turn` between its stages (read, parse, check, plan, mask) and before it
//   writes its result, so nothing is printed once a signal has come;
// - files and stdin are read without blocking the main thread (src/files/read-bounded.ts).
// setImmediate runs after the loop's poll, where libuv hears a signal: the handler runs there,
// and exits (130, kind `interrupted`).

/** Lets the event loop turn once. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A checkpoint for a loop: every `n`th call lets the event loop turn; the others cost nothing. */
export function every(n = 200): () => Promise<void> | undefined {
  let count = 0;
  return () => (++count % n === 0 ? turn() : undefined);
}
