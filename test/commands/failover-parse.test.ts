import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { create } from "../../src/commands/failover/create.js";
import { del } from "../../src/commands/failover/delete.js";
import { get } from "../../src/commands/failover/get.js";
import { list } from "../../src/commands/failover/list.js";
import { update } from "../../src/commands/failover/update.js";
import { parse, refusal } from "./parse.js";

describe("failover create argv → options", () => {
  it("concatenates comma lists and repeated --backends in order; absent flags are unset", async () => {
    const { options } = await parse(create, [
      "--backends",
      "bkdhr_a,bkdtg_b",
      "--backends",
      "bkdwd_c",
      "--description",
      "eu",
    ]);
    expect(options).toEqual({
      backends: ["bkdhr_a", "bkdtg_b", "bkdwd_c"],
      description: "eu",
      metadata: undefined,
      dryRun: false,
    });
  });

  it("refuses no --backends, naming the flag and the rule", async () => {
    const err = await refusal(create, ["--description", "eu"]);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe("--backends: needs at least one child backend id");
  });

  it("names the bad child id", async () => {
    expect((await refusal(create, ["--backends", "bkdhr_a,nope"])).message).toMatch(/^--backends: "nope" must be bkd/);
  });
});

describe("failover list argv → options", () => {
  it("reads --limit as a number and --all as a switch", async () => {
    expect((await parse(list, ["--limit", "20", "--all"])).options).toEqual({ limit: 20, all: true });
    expect((await parse(list, [])).options).toEqual({ limit: undefined, all: false });
  });

  it.each([
    [["--limit", "0"], "--limit: must be from 1 to 100"],
    [["--limit", "101"], "--limit: must be from 1 to 100"],
    [["--limit", "ten"], '--limit: "ten" must be a whole number from 1 to 100'],
    [["--limit", "-5"], '--limit: "-5" must be a whole number from 1 to 100'],
  ])("refuses %j", async (argv, message) => {
    expect((await refusal(list, argv)).message).toBe(message);
  });
});

describe("failover update argv → options", () => {
  it("sends only the fields given", async () => {
    const { options } = await parse(update, ["bkdfo_1", "--description", ""]);
    expect(options).toEqual({
      id: "bkdfo_1",
      backends: undefined,
      description: "",
      metadata: undefined,
      dryRun: false,
    });
  });

  it("refuses nothing to change", async () => {
    expect((await refusal(update, ["bkdfo_1", "--dry-run"])).message).toBe(
      "nothing to update: give at least one of --backends, --description, --metadata",
    );
  });

  it("names <id> for a bad id before anything else", async () => {
    expect((await refusal(update, ["bkdhr_1"])).message).toMatch(/^<id>: "bkdhr_1" must be bkdfo_/);
  });
});

describe("failover get and delete argv → options", () => {
  it("keeps the ids as typed (checked once stdin is read) with concurrency 8 by default", async () => {
    expect((await parse(get, ["bkdfo_1", "-"])).options).toEqual({ ids: ["bkdfo_1", "-"], concurrency: 8 });
    expect((await parse(del, ["bkdfo_1", "-y", "--concurrency", "64"])).options).toEqual({
      ids: ["bkdfo_1"],
      yes: true,
      concurrency: 64,
      dryRun: false,
    });
  });

  it.each(["0", "65", "eight", "1.5", "-1", "1000", " 8"])("refuses --concurrency %s", async (value) => {
    expect((await refusal(get, ["bkdfo_1", "--concurrency", value])).message).toBe(
      `--concurrency: "${value}" must be a whole number from 1 to 64`,
    );
  });
});
