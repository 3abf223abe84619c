// One record per request on the traffic port: a line on stderr for a person, and with
// --log-requests <file> the same as one JSON object a line, for a CI job to read.
import { createWriteStream, type WriteStream } from "node:fs";
import type { By } from "./engine.js";

export interface RequestRecord {
  /** When it arrived; JSON.stringify writes it as toISOString() does. */
  time: Date;
  method: string;
  /** The URL as the endpoint saw it: scheme://host/path?query */
  url: string;
  client_ip: string;
  /** The endpoints it went through, in order (the agent endpoint of an --upstream included). */
  endpoints: string[];
  /** The rules that ran, in order, over every endpoint and phase. */
  rules: string[];
  outcome: string;
  by?: By;
  status: number;
  error_code?: string;
  /** Where it was proxied to (the local server), if anywhere. */
  upstream?: string;
  ms: number;
}

export function formatLine(r: RequestRecord): string {
  const by = r.by ? ` by ${r.by.rule} (${r.by.action})` : "";
  return (
    `traffic: ${r.method} ${r.url} from ${r.client_ip}` +
    ` → ${r.endpoints.length ? r.endpoints.join(" → ") : "no endpoint"}` +
    `${r.upstream ? ` → ${r.upstream}` : ""}` +
    `; rules: ${r.rules.length ? r.rules.join(", ") : "none"}` +
    `; ${r.outcome}${by}; ${r.status}${r.error_code ? ` ${r.error_code}` : ""}; ${r.ms.toFixed(1)} ms`
  );
}

/** How long a line may wait for others while requests are in flight (a person at a terminal does not see 10 ms). */
export const MAX_WAIT_MS = 10;
/** Pending text (UTF-16 code units: about bytes for these lines) past which it is written at once. */
const MAX_PENDING = 64 * 1024;

/**
 * The lines and JSON lines go out in batches. When a request finishes and no other is in flight
 * (`busy()` false), what is pending is written at the end of that turn of the event loop
 * (setImmediate: before the next poll for I/O, so a client waiting for its answer, in this
 * process or another, finds its line written); while others are in flight (begun and not yet
 * answering: a long streamed answer does not hold the lines back), lines wait for them, at most
 * MAX_WAIT_MS or MAX_PENDING. A line to stderr or a file is a synchronous write(2), and
 * one per request was a twentieth of the traffic port's cost under load (BENCHMARKS.md, "The
 * traffic port, third pass").
 */
export class RequestLog {
  private readonly file: WriteStream | undefined;
  private lines = "";
  private json = "";
  private scheduled = false;
  /** When the oldest pending line was written (performance.now()), undefined when none is. */
  private since: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly line: ((text: string) => void) | undefined,
    path: string | undefined,
    private readonly busy: () => boolean = () => false,
    private readonly maxWaitMs = MAX_WAIT_MS,
  ) {
    this.file = path === undefined ? undefined : createWriteStream(path, { flags: "a" });
    // A write that fails (a full disk) must not take the emulator down: the line on stderr remains.
    this.file?.on("error", () => undefined);
  }

  write(r: RequestRecord): void {
    if (this.line) this.lines += `${formatLine(r)}\n`;
    if (this.file) this.json += `${JSON.stringify(r)}\n`;
    this.since ??= performance.now();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.turnEnded);
    }
  }

  private readonly turnEnded = (): void => {
    this.scheduled = false;
    if (this.since === undefined) return;
    const waited = performance.now() - this.since;
    if (this.busy() && waited < this.maxWaitMs && this.lines.length + this.json.length < MAX_PENDING) {
      // The timer is the bound; a turn that ends with nothing in flight writes sooner.
      this.timer ??= setTimeout(this.flush, this.maxWaitMs - waited);
      return;
    }
    this.flush();
  };

  /** Writes what is pending now. */
  readonly flush = (): void => {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = this.since = undefined;
    const { lines, json } = this;
    this.lines = this.json = "";
    if (lines !== "") this.line?.(lines);
    if (json !== "") this.file?.write(json);
  };

  close(): Promise<void> {
    this.flush();
    const file = this.file;
    return file ? new Promise((resolve) => file.end(resolve)) : Promise.resolve();
  }
}
