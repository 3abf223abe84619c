// One record per request on the traffic port: a line on stderr for a person, and with
// --log-requests <file> the same as one JSON object a line, for a CI job to read.
import { createWriteStream, type WriteStream } from "node:fs";
import type { By } from "./engine.js";

export interface RequestRecord {
  time: string;
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

export class RequestLog {
  private readonly file: WriteStream | undefined;

  constructor(
    private readonly line: ((text: string) => void) | undefined,
    path: string | undefined,
  ) {
    this.file = path === undefined ? undefined : createWriteStream(path, { flags: "a" });
    // A write that fails (a full disk) must not take the emulator down: the line on stderr remains.
    this.file?.on("error", () => undefined);
  }

  write(r: RequestRecord): void {
    this.line?.(`${formatLine(r)}\n`);
    this.file?.write(`${JSON.stringify(r)}\n`);
  }

  close(): Promise<void> {
    const file = this.file;
    return file ? new Promise((resolve) => file.end(resolve)) : Promise.resolve();
  }
}
