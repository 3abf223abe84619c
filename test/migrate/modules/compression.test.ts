// compression → compress-response, in the route's response rule.
import { describe } from "vitest";
import { translateCompression } from "../../../src/migrate/modules/compression.js";
import { action, edgeModule, table, type Case } from "./table.js";

const CASES: Case[] = [
  {
    name: "the module (no fields) becomes the action, in the response phase",
    doc: `${action("compress-response")}, ${edgeModule("edgeroutecompressionmodule")}`,
    module: { enabled: true },
    out: { response: [{ type: "compress-response" }] },
  },
];

describe("compression", () => table(CASES, () => translateCompression()));
