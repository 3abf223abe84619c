// Turns a zod schema into the parse function ApiClient.requestJson takes; the thrown
// message names the offending field so "unexpected body" errors say what was wrong.
import type * as z from "zod/mini";

export function schemaParser<S extends z.ZodMiniType>(schema: S): (data: unknown) => z.infer<S> {
  return (data) => {
    const result = schema.safeParse(data);
    if (result.success) return result.data as z.infer<S>;
    const issue = result.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join(".") : "body";
    throw new Error(`${where}: ${issue?.message ?? "invalid"}`);
  };
}
