// Cloud Endpoints: the replacement for Edges. A Traffic Policy goes in as text (JSON or YAML).
import * as z from "zod/mini";
import type { ApiClient } from "./client.js";
import { listPages, pageOf } from "./pages.js";
import { schemaParser } from "./schema.js";

export const Endpoint = z.looseObject({
  id: z.string(),
  url: z.string(),
  traffic_policy: z.optional(z.nullable(z.string())),
});
export type Endpoint = z.infer<typeof Endpoint>;

export interface EndpointCreate {
  type: "cloud";
  url: string;
  traffic_policy: string;
  description?: string;
  metadata?: string;
}

const EndpointList = z.looseObject({ endpoints: z.array(Endpoint), next_page_uri: z.optional(z.nullable(z.string())) });

export const endpointsPath = "/endpoints";

export function createEndpoint(client: ApiClient, body: EndpointCreate): Promise<Endpoint> {
  return client.requestJson("POST", endpointsPath, schemaParser(Endpoint), {
    body,
    checkWith: "`edgectl api GET /endpoints`",
  });
}

/** Every endpoint, all pages. */
export function listAllEndpoints(client: ApiClient): Promise<Endpoint[]> {
  return listPages(client, `${endpointsPath}?limit=100`, pageOf("endpoints", schemaParser(EndpointList)));
}
