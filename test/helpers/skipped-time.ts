// Time for in-process client tests: it moves only when the code under test sleeps, and every
// wait is recorded and skipped. Concurrent sleepers end together, at the latest one's end.
export interface SkippedTime {
  waits: number[];
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export function skippedTime(): SkippedTime {
  let offset = 0;
  const waits: number[] = [];
  const now = () => Date.now() + offset;
  return {
    waits,
    now,
    sleep: async (ms) => {
      waits.push(ms);
      const target = now() + ms;
      await Promise.resolve();
      offset = Math.max(offset, target - Date.now());
    },
  };
}
