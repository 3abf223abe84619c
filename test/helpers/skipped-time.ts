// Time for in-process client tests: it moves only when the code under test sleeps, and every
// wait is recorded and skipped. Concurrent sleepers end together, at the latest one's end.
// It does not move while a request is on the wire either: on a loaded machine a loopback
// answer can take 100 ms or more, which a test of what fits in --timeout must not depend on
// (a hang is still ended by the client's real timer, set from what this clock says is left).
export interface SkippedTime {
  waits: number[];
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export function skippedTime(): SkippedTime {
  const start = Date.now();
  let offset = 0;
  const waits: number[] = [];
  const now = () => start + offset;
  return {
    waits,
    now,
    sleep: async (ms) => {
      waits.push(ms);
      const target = offset + ms;
      await Promise.resolve();
      offset = Math.max(offset, target);
    },
  };
}
