// How an error reads on stderr: `error: …` for people, one JSON object with -o json.
import { ApiError, BatchError, EdgectlError, InterruptedError, NetworkError, UsageError } from "../errors.js";
import { escapeControl } from "../text/escape.js";
import { jsonLine } from "./json.js";

export interface ErrorView {
  kind: string;
  message: string;
  status_code?: number;
  error_code?: string;
  operation_id?: string;
  details?: Record<string, unknown>;
  id?: string;
}

export function errorView(err: unknown, id?: string): ErrorView {
  const view: ErrorView =
    err instanceof EdgectlError
      ? { kind: err.kind, message: err.message }
      : {
          kind: "internal",
          message: `internal error: ${err instanceof Error ? err.message : String(err)} (a bug in edgectl; --debug shows where)`,
        };
  if (err instanceof ApiError) {
    if (err.statusCode !== undefined) view.status_code = err.statusCode;
    if (err.errorCode) view.error_code = err.errorCode;
    if (err.operationId) view.operation_id = err.operationId;
    if (err.details) view.details = err.details;
    // A batch names each failed id itself: "bkdfo_x: not found", not "bkdfo_x: bkdfo_x not found".
    if (id !== undefined && err.subject === id && err.plainMessage !== undefined) view.message = err.plainMessage;
  } else if (err instanceof NetworkError && err.statusCode !== undefined) {
    view.status_code = err.statusCode;
  } else if ((err instanceof InterruptedError || err instanceof UsageError) && err.details) {
    view.details = err.details;
  }
  if (id !== undefined) view.id = id;
  // Kept under `details`, so the object has only the contract's keys.
  if (err instanceof BatchError) view.details = { failures: err.failures.map((f) => errorView(f.error, f.id)) };
  return view;
}

export function formatError(err: unknown, opts: { json: boolean; id?: string; warnings?: string[] }): string {
  const view = errorView(err, opts.id);
  // Warnings met on the way travel in the one error object, under `details` like the rest.
  if (opts.json && opts.warnings?.length) view.details = { ...view.details, warnings: opts.warnings };
  if (opts.json) return jsonLine({ error: view });
  const facts: string[] = [];
  if (view.status_code !== undefined && err instanceof ApiError) facts.push(`HTTP ${view.status_code}`);
  if (view.error_code) facts.push(view.error_code);
  if (view.operation_id) facts.push(`operation_id ${view.operation_id}`);
  const prefix = opts.id ? `${escapeControl(opts.id)}: ` : "";
  const suffix = facts.length ? ` (${facts.map(escapeControl).join(", ")})` : "";
  const below = err instanceof UsageError && err.lines ? err.lines.map((l) => `  ${escapeControl(l)}\n`).join("") : "";
  return `error: ${prefix}${escapeControl(view.message)}${suffix}\n${below}`;
}
