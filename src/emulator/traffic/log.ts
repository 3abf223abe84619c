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

/**
 * The lines and JSON lines go out in batches: those of the requests finished in one turn of the
 * event loop are written together when the turn ends (setImmediate: before the next poll for
 * I/O, so a client in the same process sees its answer after its line), i.e. one write(2) per
 * turn, not per request. A line to stderr or /dev/null is a synchronous write(2) each, which on
 * a busy machine is most of the log's cost (~8 µs a request in a profile of the traffic bench).
 */
export class RequestLog {
  private readonly file: WriteStream | undefined;
  private lines = "";
  private json = "";
  private scheduled = false;

  constructor(
    private readonly line: ((text: string) => void) | undefined,
    path: string | undefined,
  ) {
    this.file = path === undefined ? undefined : createWriteStream(path, { flags: "a" });
    // A write that fails (a full disk) must not take the emulator down: the line on stderr remains.
    this.file?.on("error", () => undefined);
  }

  write(r: RequestRecord): void {
    if (this.line) this.lines += `${formatLine(r)}\n`;
    if (this.file) this.json += `${JSON.stringify(r)}\n`;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Writes what is pending now. */
  readonly flush = (): void => {
    this.scheduled = false;
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
