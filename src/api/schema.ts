// Turns a zod schema into the parse function ApiClient.requestJson takes; the thrown
// message names the offending field so "unexpected body" errors say what was wrong.
// A valid body is returned as the API sent it (zod would rebuild objects in schema order),
// so `-o json` prints the resource with the API's own field order.
import type * as z from "zod/mini";

export function schemaParser<S extends z.ZodMiniType>(schema: S): (data: unknown) => z.infer<S> {
  return (data) => {
    const result = schema.safeParse(data);
    if (result.success) return data as z.infer<S>;
    const issue = result.error.issues[0];
    const where = issue && issue.path.length ? issue.path.join(".") : "body";
    throw new Error(`${where}: ${issue?.message ?? "invalid"}`);
  };
}
