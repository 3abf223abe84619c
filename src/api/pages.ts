// The pages of a list: the first from `path`, the rest (with `all`) only by the API's own next_page_uri,
// followed through ApiClient.followUrl (same origin as the base URL, so the key goes nowhere
// else). A next_page_uri seen before would loop for ever, and an empty page ends the list.
import { NetworkError } from "../errors.js";
import { escapeControl } from "../output/escape.js";
import type { ApiClient } from "./client.js";

export interface Page<T> {
  items: T[];
  next_page_uri?: string | null;
}

export async function listPages<T>(
  client: ApiClient,
  path: string,
  parsePage: (data: unknown) => Page<T>,
  opts: { all: boolean; onPage?: (items: readonly T[]) => void } = { all: true },
): Promise<T[]> {
  const items: T[] = [];
  let page = await client.requestJson("GET", path, parsePage);
  items.push(...page.items);
  opts.onPage?.(page.items);
  const seen = new Set<string>();
  while (opts.all && page.next_page_uri && page.items.length > 0) {
    const next = page.next_page_uri;
    if (seen.has(next))
      throw new NetworkError(
        `the API's next_page_uri points back to a page already read (${escapeControl(next)}); stopped after ${seen.size + 1} pages so as not to loop`,
      );
    seen.add(next);
    page = await client.requestJson("GET", client.followUrl(next), parsePage);
    items.push(...page.items);
    opts.onPage?.(page.items);
  }
  return items;
}

/** A page parser for a list whose items sit under `key`, from a schema parser of the whole page. */
export function pageOf<K extends string, T>(
  key: K,
  parse: (data: unknown) => { [P in K]: T[] } & { next_page_uri?: string | null },
): (data: unknown) => Page<T> {
  return (data) => {
    const page = parse(data);
    return { items: page[key], next_page_uri: page.next_page_uri };
  };
}
