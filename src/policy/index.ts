// The Traffic Policy validator's interface (issue 18): pure data in, problems out. Used by
// `policy check`, the endpoint commands, the migration planner and the emulator alike.
// PLACEHOLDER until the validator lands: it checks only that the document is an object.

export type Protocol = "https" | "http" | "tls" | "tcp";

/** The endpoint a policy is checked for. */
export interface Target {
  protocol: Protocol;
  /** An internal endpoint (`*.internal`, binding `internal`). */
  internal: boolean;
}

/** The error code the emulator answers a problem with (400). */
export type ProblemCode = "ERR_NGROK_2201" | "ERR_NGROK_2202" | "ERR_NGROK_2207" | "ERR_NGROK_2230" | "ERR_NGROK_2235";

export interface Problem {
  /** Where: `on_http_request[2].actions[0].config.headers`, or "" for the whole document. */
  path: string;
  message: string;
  code: ProblemCode;
}

/** Every problem of a parsed policy document for that endpoint (none: valid). */
export function checkPolicy(document: unknown, target: Target): Problem[] {
  void target;
  if (document === null || typeof document !== "object" || Array.isArray(document))
    return [{ path: "", message: "a Traffic Policy must be an object", code: "ERR_NGROK_2201" }];
  return [];
}

/**
 * An endpoint URL (create/update) for that binding: its problems, and the target its policy is
 * checked for when the URL is valid.
 */
export function checkEndpointUrl(
  url: string,
  binding: "public" | "internal",
): { target?: Target; problems: Problem[] } {
  const scheme = /^(https|http|tls|tcp):\/\//.exec(url)?.[1] as Protocol | undefined;
  if (!scheme) return { problems: [{ path: "url", message: "not an endpoint URL", code: "ERR_NGROK_2201" }] };
  return { target: { protocol: scheme, internal: binding === "internal" }, problems: [] };
}
