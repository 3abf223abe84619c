// The shape of every module translator's table of cases: an edge module's config in, the
// Translation out (rules, or the fail-closed reason), each row citing the ngrok doc it comes
// from (a path in github.com/ngrok/ngrok-docs; the site serves it at ngrok.com/docs/<path>).
import { expect, it } from "vitest";
import { translation, type Obj, type Translation } from "../../../src/migrate/modules/translator.js";

export interface Case {
  /** What the row shows. */
  name: string;
  /** The ngrok doc the row's rule comes from, where one says it. */
  doc?: string;
  /** The edge module's config, as the API shows it. */
  module: Obj;
  /** What the translator gives (fields left out are empty). */
  out: Partial<Translation>;
}

/** A doc of a Traffic Policy action. */
export const action = (name: string) => `traffic-policy/actions/${name}.mdx`;
/** A doc of an edge module of the API (retired with the edges). */
export const edgeModule = (name: string) => `api-reference/${name}/replace.mdx`;

/** A row's expected output: refused for `item`, with `reason`. */
export const refusal = (item: string, reason: string): Partial<Translation> => ({ refused: [{ item, reason }] });

/** One test per row: the translator's whole output equals the row's. */
export function table(cases: readonly Case[], translate: (module: Obj) => Translation): void {
  it.each(cases.map((c) => [`${c.name}${c.doc ? ` (${c.doc})` : ""}`, c] as const))("%s", (_title, c) => {
    expect(translate(c.module)).toEqual({ ...translation(), ...c.out });
  });
}
