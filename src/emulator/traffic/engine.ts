// The one door between the traffic port and the Traffic Policy evaluator (src/policy/evaluate,
// INTERFACES.md "Evaluator"): `PolicyEngine` is the evaluator's evaluateRequest /
// evaluateResponse / createState and the webhook schemes verify-webhook checks with, so that
// the traffic port depends on that shape alone and a test can hand it an engine of its own
// (one that records what it is handed, or scripts an outcome). `loadEngine()` is the real one:
// the same evaluator as `policy test`, loaded only when the traffic port starts.
import type {
  EvalContext,
  EvalRequest,
  EvalResponse,
  EvalState,
  RequestResult,
  ResponseResult,
  VerifyingScheme,
} from "../../policy/evaluate/index.js";

export type {
  By,
  EvalContext,
  EvalRequest,
  EvalResponse,
  EvalState,
  Outcome,
  RequestResult,
  ResponseResult,
  TraceEntry,
} from "../../policy/evaluate/index.js";

/** verify-webhook's schemes by provider (src/webhooks' schemeFor), as the emulator is given them. */
export type SchemeLookup = (provider: string) => VerifyingScheme | undefined;

type MaybeAsync<T> = T | Promise<T>;

export interface PolicyEngine {
  createState(): EvalState;
  evaluateRequest(policy: unknown, req: EvalRequest, ctx: EvalContext): MaybeAsync<RequestResult>;
  evaluateResponse(policy: unknown, req: EvalRequest, res: EvalResponse, ctx: EvalContext): MaybeAsync<ResponseResult>;
  schemes: SchemeLookup;
}

/**
 * The evaluator, with the webhook schemes the emulator was started with. The schemes come from
 * outside because the emulator stands apart from the CLI's layers: `edgectl emulator` passes
 * src/commands/policy/schemes.ts' `loadSchemes()` (the one place that loads them, for
 * `policy test` and `migrate --verify` too); none given, verify-webhook's outcome is `unknown`.
 */
export async function loadEngine(schemes: SchemeLookup = () => undefined): Promise<PolicyEngine> {
  const { createState, evaluateRequest, evaluateResponse } = await import("../../policy/evaluate/index.js");
  return { createState, evaluateRequest, evaluateResponse, schemes };
}
