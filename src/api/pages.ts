// The pages of a list: the first from `path`, the rest (with `all`) by the API's next_page_uri,
// of which only the query is taken, sent to the base URL and the list's own path
// (ApiClient.nextPage): the key goes nowhere else. A listing must end: a page that brings no
// item not seen before, or a next page already asked for, stops it (exit 3), and --timeout
// bounds all its pages together. An empty page ends the list. Without `all`, a first page the
// API says is not the last calls `more` (the list verbs then say `more: use --all`).
import { NetworkError } from "../errors.js";
import { escapeControl } from "../text/escape.js";
import type { ApiClient } from "./client.js";

export interface Page<T> {
  items: T[];
  next_page_uri?: string | null;
}

export async function listPages<T>(
  client: ApiClient,
  path: string,
  parsePage: (data: unknown) => Page<T>,
  opts: { all: boolean; onPage?: (items: readonly T[]) => void; more?: () => void } = { all: true },
): Promise<T[]> {
  const listPath = path.split("?")[0]!;
  const deadlineAt = client.listingDeadline();
  const items: T[] = [];
  const seenItems = new Set<string>();
  const seenPages = new Set<string>([path]);
  let pages = 1;
  let page = await client.requestJson("GET", path, parsePage, { deadlineAt });
  const fresh = (list: T[]) => {
    let added = 0;
    for (const item of list) {
      const key = itemKey(item);
      if (!seenItems.has(key)) {
        seenItems.add(key);
        added++;
      }
    }
    return added;
  };
  fresh(page.items);
  items.push(...page.items);
  opts.onPage?.(page.items);
  if (!opts.all && page.next_page_uri && page.items.length > 0) opts.more?.();
  while (opts.all && page.next_page_uri && page.items.length > 0) {
    const next = client.nextPage(page.next_page_uri, listPath);
    if (seenPages.has(next))
      throw new NetworkError(
        `the API's next_page_uri leads back to a page already read (${escapeControl(client.redact(next))}); stopped after ${pages} pages so as not to loop`,
      );
    seenPages.add(next);
    if (client.passed(deadlineAt))
      throw new NetworkError(
        `the listing did not finish within ${client.timeoutSeconds} s (--timeout bounds the whole listing); stopped after ${pages} pages`,
      );
    page = await client.requestJson("GET", next, parsePage, { deadlineAt });
    pages++;
    if (page.items.length > 0 && fresh(page.items) === 0)
      throw new NetworkError(
        `page ${pages} of the listing brought no item not seen before (the API's next_page_uri does not move on); stopped so as not to loop`,
      );
    items.push(...page.items);
    opts.onPage?.(page.items);
  }
  return items;
}

/** An item's identity: its id when it has one, else the whole item. */
function itemKey(item: unknown): string {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === "string" ? `id:${id}` : `json:${JSON.stringify(item)}`;
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
