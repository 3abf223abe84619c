// The message of the UsageError a check throws; fails the test if the value was accepted.
import { expect } from "vitest";
import { UsageError } from "../../src/errors.js";

export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("expected a UsageError, but the value was accepted");
}
