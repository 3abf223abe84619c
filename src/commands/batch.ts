// Many ids in one invocation: bounded concurrency over one keep-alive pool, results in
// input order, failures reported as they happen while the rest go on. On a 429 the
// window of requests in flight halves and grows back slowly (AIMD), so a rate-limited
// batch slows down instead of failing ids.
import type { IdKind } from "../api-data/ids.js";
import { AuthError, BatchError, UsageError } from "../errors.js";
import { idList, parseField, strings } from "./input.js";
import { formatError } from "../output/error.js";
import { escapeControl } from "../text/escape.js";
import type { ApiClient, BatchRequestOptions } from "../api/client.js";
import type { Deps, InterruptReport } from "./deps.js";

export interface BatchOutcome<T> {
  id: string;
  value?: T;
  error?: unknown;
  /** Not sent: the API had refused the key for an earlier id. */
  skipped?: true;
}

/** The ids that went through: neither failed nor skipped. */
export function succeeded<T>(outcomes: BatchOutcome<T>[]): BatchOutcome<T>[] {
  return outcomes.filter((o) => o.error === undefined && !o.skipped);
}

export class Throttle {
  limit: number;
  private successes = 0;
  constructor(readonly max: number) {
    this.limit = max;
  }
  rateLimited(): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
  }
  succeeded(): void {
    if (this.limit >= this.max) return;
    if (++this.successes >= this.limit) {
      this.limit++;
      this.successes = 0;
    }
  }
}

/**
 * 429 answers each item of a batch may wait out (Retry-After) without using up --retries: a
 * rate limit slows a batch down rather than failing ids. One id alone keeps the plain rule,
 * and so does `--retries 0`, which disables retries of every kind: an id that meets a 429
 * then fails (and is reported) while the others go on.
 */
export function rateLimitWaits(total: number, retries: number): number {
  return total > 1 && retries > 0 ? 10 : 0;
}

/** How an interrupted batch says what it did: `verb` is the past tense of its work ("deleted"). */
export interface BatchInterrupt {
  verb: string;
  /** Deps.reportOnInterrupt. */
  report?: (report: () => InterruptReport | undefined) => void;
}

export async function runBatch<T>(
  ids: string[],
  concurrency: number,
  work: (id: string, onRateLimited: () => void) => Promise<T>,
  progress?: (done: number, total: number) => void,
  interrupt?: BatchInterrupt,
): Promise<BatchOutcome<T>[]> {
  const outcomes: BatchOutcome<T>[] = new Array(ids.length);
  const inFlightIds = new Set<number>();
  interrupt?.report?.(() => interruptReport(ids, outcomes, inFlightIds, interrupt.verb));
  const throttle = new Throttle(concurrency);
  let next = 0;
  let inFlight = 0;
  let done = 0;
  // A refused key (401/403) will be refused for every id: stop sending rather than spend
  // the rate limit on requests that cannot succeed.
  let refused = false;
  await new Promise<void>((resolve) => {
    const pump = () => {
      if (done === ids.length) return resolve();
      if (refused && inFlight === 0) {
        for (let i = next; i < ids.length; i++) outcomes[i] = { id: ids[i]!, skipped: true };
        return resolve();
      }
      while (!refused && inFlight < throttle.limit && next < ids.length) {
        const index = next++;
        const id = ids[index]!;
        inFlight++;
        inFlightIds.add(index);
        work(id, () => throttle.rateLimited())
          .then(
            (value) => {
              throttle.succeeded();
              outcomes[index] = { id, value };
            },
            (error: unknown) => {
              outcomes[index] = { id, error };
              if (error instanceof AuthError) refused = true;
            },
          )
          .finally(() => {
            inFlight--;
            inFlightIds.delete(index);
            done++;
            progress?.(done, ids.length);
            pump();
          });
      }
    };
    pump();
  });
  return outcomes;
}

/**
 * What an interrupted batch did: the ids done (their request answered with success) and the
 * rest, not done; an id whose request was in flight is not done, but may have been carried out.
 */
function interruptReport<T>(
  ids: string[],
  outcomes: BatchOutcome<T>[],
  inFlight: Set<number>,
  verb: string,
): InterruptReport | undefined {
  if (ids.length < 2) return undefined;
  const done: string[] = [];
  const notDone: string[] = [];
  ids.forEach((id, i) => {
    const o = outcomes[i];
    (o !== undefined && o.error === undefined && !o.skipped ? done : notDone).push(id);
  });
  const flying = [...inFlight].sort((a, b) => a - b).map((i) => ids[i]!);
  const maybe = flying.length
    ? `; ${flying.length} of them were in flight and may have been ${verb}: ${flying.join(", ")}`
    : "";
  const list = (label: string, list: string[]) => `${label} (${list.length}): ${list.map(escapeControl).join(" ")}`;
  return {
    message: escapeControl(`${done.length} of ${ids.length} ids ${verb}, ${notDone.length} not${maybe}`),
    lines: [list(verb, done), list(`not ${verb}`, notDone)],
    details: { done, not_done: notDone },
  };
}

/** Reports each failure on stderr; throws a BatchError (worst exit code) if any failed. */
export function reportFailures<T>(
  deps: Pick<Deps, "io" | "settings">,
  outcomes: BatchOutcome<T>[],
  verb: string,
): void {
  const failures = outcomes.filter((o) => o.error !== undefined).map((o) => ({ id: o.id, error: o.error }));
  const skipped = outcomes.filter((o) => o.skipped).length;
  if (failures.length === 0) return;
  const json = deps.settings.output === "json";
  if (outcomes.length === 1) throw failures[0]!.error;
  // People get a line per failed id; with -o json the one error object lists them all.
  if (!json) for (const f of failures) deps.io.stderr.write(formatError(f.error, { json, id: f.id }));
  const notTried = skipped ? `; ${skipped} not tried, since the API refused the key` : "";
  throw new BatchError(`${failures.length} of ${outcomes.length} ids could not be ${verb}${notTried}`, failures);
}

/** The ids get and delete act on, once read and checked. */
export interface IdsOptions {
  ids: string[];
  /** Several ids (or `-`): print a list even if one id came. */
  many: boolean;
  concurrency: number;
}

/**
 * A batch's `<id...>`: the argument as declared (ids, or `-` alone to read them from stdin,
 * checked once they are read) and `resolveIds`, the ids to act on, each checked as `kind`;
 * `many` when a list is wanted.
 */
export function batchIds(kind: IdKind, arg: `<${string}...>`, help: string) {
  return {
    idsArg: { arg, help, ...strings() },
    async resolveIds(args: string[], deps: Pick<Deps, "io" | "readStdin">): Promise<{ ids: string[]; many: boolean }> {
      const { ids, many } = await collectIds(args, deps);
      return { ids: parseField(idList(kind), ids, arg.replace("...", "")), many };
    },
  };
}

/** Ids from the arguments, or one per line from stdin when the only argument is `-`. */
export async function collectIds(
  args: string[],
  deps: Pick<Deps, "io" | "readStdin">,
): Promise<{ ids: string[]; many: boolean }> {
  if (args.length === 1 && args[0] === "-") {
    if (deps.io.stdin.isTTY)
      throw new UsageError("<id>: `-` reads ids from stdin, but stdin is a terminal; pipe the ids in");
    const text = await deps.readStdin("<id>");
    const ids = text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== "");
    if (ids.length === 0) throw new UsageError("<id>: no ids on stdin");
    return { ids, many: true };
  }
  if (args.includes("-")) throw new UsageError("<id>: `-` (ids from stdin) must be the only argument");
  return { ids: args, many: args.length > 1 };
}

/** A progress line on stderr, only on a terminal and only for big batches. */
export function progressLine(
  deps: Pick<Deps, "io">,
  label: string,
  total: number,
): ((done: number, total: number) => void) | undefined {
  if (!deps.io.stderr.isTTY || total <= 20) return undefined;
  return (done, all) => {
    deps.io.stderr.write(`\r\x1b[2K${label} ${done}/${all}`);
    if (done === all) deps.io.stderr.write("\r\x1b[2K");
  };
}

/**
 * One request per id, as every `<noun> get|delete <id>…` sends them: a client of its own with
 * at most `concurrency` in flight, rate-limit waits per id, a progress line on a terminal, and
 * an interrupt that says which ids were `verb` ("read", "deleted"). Outcomes in input order.
 */
export async function requestEach<T>(
  deps: Deps,
  ids: string[],
  concurrency: number,
  doing: { label: string; verb: string },
  request: (client: ApiClient, id: string, options: BatchRequestOptions) => Promise<T>,
): Promise<BatchOutcome<T>[]> {
  const client = deps.client({ maxSockets: concurrency });
  try {
    return await runBatch(
      ids,
      concurrency,
      (id, onRateLimited) =>
        request(client, id, { onRateLimited, rateLimitWaits: rateLimitWaits(ids.length, deps.settings.retries) }),
      progressLine(deps, doing.label, ids.length),
      { verb: doing.verb, report: (report) => deps.reportOnInterrupt?.(report) },
    );
  } finally {
    client.close();
  }
}

/**
 * What a batch prints, in one order for get and delete: one id → its failure is the command's
 * error, else `print(done)`; several ids or `-` → `print(done)` (in input order; nothing when
 * none went through, not even `[]`), then the failures reported.
 */
export async function printOutcomes<T, D>(
  deps: Deps,
  outcomes: BatchOutcome<T>[],
  many: boolean,
  verb: string,
  done: D[],
  print: (done: D[]) => void | Promise<void>,
): Promise<void> {
  if (!many) {
    reportFailures(deps, outcomes, verb);
    return await print(done);
  }
  if (done.length > 0) await print(done);
  reportFailures(deps, outcomes, verb);
}

/** `<noun> get <id>… | -`: each id read; `print` gets what was found, one (as typed) or a list. */
export async function getEach<T>(
  deps: Deps,
  options: IdsOptions,
  request: (client: ApiClient, id: string, options: BatchRequestOptions) => Promise<T>,
  print: (found: T[]) => void | Promise<void>,
): Promise<void> {
  const outcomes = await requestEach(
    deps,
    options.ids,
    options.concurrency,
    { label: "getting", verb: "read" },
    request,
  );
  const found = outcomes.filter((o) => o.value !== undefined).map((o) => o.value as T);
  await printOutcomes(deps, outcomes, options.many, "read", found, print);
}
