import { describe, expect, it } from "vitest";
import { collectBackends } from "../../../src/commands/failover/fields.js";

describe("collectBackends", () => {
  it("splits a comma list", () => {
    expect(collectBackends("bkdhr_a,bkdtg_b", undefined)).toEqual(["bkdhr_a", "bkdtg_b"]);
  });

  it("concatenates repeated flags in the order given", () => {
    let acc = collectBackends("bkdhr_a,bkdtg_b", undefined);
    acc = collectBackends("bkdwd_c", acc);
    acc = collectBackends("bkdsc_d,bkdhr_e", acc);
    expect(acc).toEqual(["bkdhr_a", "bkdtg_b", "bkdwd_c", "bkdsc_d", "bkdhr_e"]);
  });

  it("keeps duplicates and their positions", () => {
    expect(collectBackends("bkdhr_a", collectBackends("bkdhr_a,bkdhr_b", undefined))).toEqual([
      "bkdhr_a",
      "bkdhr_b",
      "bkdhr_a",
    ]);
  });

  it("trims spaces around ids", () => {
    expect(collectBackends(" bkdhr_a , bkdtg_b ", undefined)).toEqual(["bkdhr_a", "bkdtg_b"]);
  });

  it("does not change the previous list", () => {
    const previous = ["bkdhr_a"];
    collectBackends("bkdtg_b", previous);
    expect(previous).toEqual(["bkdhr_a"]);
  });

  it("keeps an empty entry so validation can refuse it", () => {
    expect(collectBackends("bkdhr_a,,bkdtg_b", undefined)).toEqual(["bkdhr_a", "", "bkdtg_b"]);
  });
});
