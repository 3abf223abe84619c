// Typed errors. Commands throw these; only src/app.ts maps them to exit codes (EXIT_CODES below).

export type ErrorKind = "api" | "usage" | "network" | "auth" | "interrupted" | "internal" | "check";

export abstract class EdgectlError extends Error {
  abstract readonly kind: ErrorKind;
}

/** Invalid usage or input. Guarantees nothing was sent. */
export class UsageError extends EdgectlError {
  readonly kind = "usage";
  /**
   * `details`: facts for `-o json`'s error `details` (a policy's problems, each with its place).
   * `lines`: what people are shown below the error line (the choices, wrapped); with -o json
   * the details say it.
   */
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
    readonly lines?: string[],
  ) {
    super(message);
  }
}

export interface ApiErrorFields {
  statusCode: number | undefined;
  errorCode?: string;
  operationId?: string;
  details?: Record<string, unknown>;
  /** Raw response body text, for `edgectl api`, which prints it on stdout. */
  body?: string;
  /**
   * The id a 404 was about, when the message names it; `plainMessage` is the message without
   * it, for a batch's line, which names the id already.
   */
  subject?: string;
  plainMessage?: string;
}

/** The API answered with an error status (after any retries). */
export class ApiError extends EdgectlError {
  readonly kind: ErrorKind = "api";
  readonly statusCode: number | undefined;
  readonly errorCode?: string;
  readonly operationId?: string;
  readonly details?: Record<string, unknown>;
  readonly body?: string;
  readonly subject?: string;
  readonly plainMessage?: string;
  constructor(message: string, fields: ApiErrorFields) {
    super(message);
    this.subject = fields.subject;
    this.plainMessage = fields.plainMessage;
    this.statusCode = fields.statusCode;
    this.errorCode = fields.errorCode;
    this.operationId = fields.operationId;
    this.details = fields.details;
    this.body = fields.body;
  }
}

/** No API key, or the API refused it (401/403); without fields nothing was sent. */
export class AuthError extends ApiError {
  override readonly kind = "auth";
  constructor(message: string, fields?: ApiErrorFields) {
    super(message, fields ?? { statusCode: undefined });
  }
}

/** No usable answer: connect failure, timeout, unreadable success response. */
export class NetworkError extends EdgectlError {
  readonly kind = "network";
  readonly statusCode?: number;
  constructor(message: string, opts: { statusCode?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.statusCode = opts.statusCode;
  }
}

/** Ctrl-C or SIGTERM; `details` says what an interrupted batch had done. */
export class InterruptedError extends EdgectlError {
  readonly kind = "interrupted";
  constructor(
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * A failure inside edgectl, not an answer from the API: a bug (an unexpected exception), or
 * output that could not be written. Exit 1, so a script that retries on 3 does not retry it.
 */
export class InternalError extends EdgectlError {
  readonly kind = "internal";
}

/**
 * A check edgectl ran did not pass, its result already printed: `webhook verify` (not verified),
 * `policy test --cases` (a case failed), `migrate edge --verify` (the plan lets through or
 * reroutes what the edge did not). Exit 1, as a test runner's; `-o json` kind "check".
 */
export class CheckFailedError extends EdgectlError {
  readonly kind = "check";
}

export const EXIT_CODES: Record<ErrorKind, number> = {
  api: 1,
  check: 1,
  internal: 1,
  usage: 2,
  network: 3,
  auth: 4,
  interrupted: 130,
};

/** Some items of a batch failed; each was already reported. Carries the worst one's kind. */
export class BatchError extends EdgectlError {
  readonly kind: ErrorKind;
  constructor(
    message: string,
    readonly failures: { id: string; error: unknown }[],
  ) {
    super(message);
    let worst: ErrorKind | undefined;
    for (const { error } of failures) {
      const kind = error instanceof EdgectlError ? error.kind : "internal";
      if (worst === undefined || EXIT_CODES[kind] > EXIT_CODES[worst]) worst = kind;
    }
    this.kind = worst ?? "api";
  }
}
