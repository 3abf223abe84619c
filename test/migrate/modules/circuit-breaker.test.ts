// circuit_breaker → circuit-breaker, within what the action takes.
import { describe } from "vitest";
import { translateCircuitBreaker } from "../../../src/migrate/modules/circuit-breaker.js";
import { action, refusal, table, type Case } from "./table.js";

const DOC = action("circuit-breaker");

const CASES: Case[] = [
  {
    name: "threshold, volume, window and tripped duration",
    doc: DOC,
    module: {
      enabled: true,
      error_threshold_percentage: 0.5,
      volume_threshold: 20,
      rolling_window: 10,
      tripped_duration: 120,
      num_buckets: 10,
    },
    out: {
      steps: [
        {
          actions: [
            {
              type: "circuit-breaker",
              config: { error_threshold: 0.5, volume_threshold: 20, window_duration: "10s", tripped_duration: "120s" },
            },
          ],
        },
      ],
    },
  },
  {
    name: "zeros are the defaults: left out",
    doc: DOC,
    module: { error_threshold_percentage: 0, volume_threshold: 0, rolling_window: 0, tripped_duration: 0 },
    out: { steps: [{ actions: [{ type: "circuit-breaker", config: { error_threshold: 0 } }] }] },
  },
  {
    name: "num_buckets is fixed at 10: a warning",
    doc: DOC,
    module: { error_threshold_percentage: 1, num_buckets: 5 },
    out: {
      steps: [{ actions: [{ type: "circuit-breaker", config: { error_threshold: 1 } }] }],
      warnings: [{ item: "circuit_breaker", message: "num_buckets 5 becomes 10, which ngrok fixes" }],
    },
  },
  {
    name: "error threshold over 1",
    doc: DOC,
    module: { error_threshold_percentage: 50 },
    out: refusal("circuit_breaker", "error_threshold_percentage must be a fraction from 0 to 1"),
  },
  {
    name: "a window over 2m",
    doc: DOC,
    module: { error_threshold_percentage: 0.5, rolling_window: 121 },
    out: refusal(
      "circuit_breaker",
      "rolling_window and tripped_duration must be 1–120 seconds, which is all ngrok's circuit-breaker takes",
    ),
  },
  {
    name: "a volume threshold over 2,000,000,000",
    doc: DOC,
    module: { error_threshold_percentage: 0.5, volume_threshold: 2e9 + 1 },
    out: refusal("circuit_breaker", "volume_threshold must be a whole number from 1 to 2000000000"),
  },
];

describe("circuit_breaker", () => table(CASES, translateCircuitBreaker));
