// circuit_breaker → circuit-breaker: the error threshold, volume threshold, window and tripped
// duration within what the action takes; num_buckets is fixed at 10 by ngrok (a warning).
import { refused, seconds, translation, type Obj, type Translation } from "./translator.js";

const durationBad = (v: unknown) =>
  v !== undefined && v !== null && v !== 0 && !(typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 120);

export function translateCircuitBreaker(m: Obj): Translation {
  const threshold = m.error_threshold_percentage;
  if (typeof threshold !== "number" || threshold < 0 || threshold > 1)
    return refused("circuit_breaker", "error_threshold_percentage must be a fraction from 0 to 1");
  if (durationBad(m.rolling_window) || durationBad(m.tripped_duration))
    return refused(
      "circuit_breaker",
      "rolling_window and tripped_duration must be 1–120 seconds, which is all ngrok's circuit-breaker takes",
    );
  if (
    m.volume_threshold !== undefined &&
    m.volume_threshold !== null &&
    m.volume_threshold !== 0 &&
    !(
      typeof m.volume_threshold === "number" &&
      Number.isInteger(m.volume_threshold) &&
      m.volume_threshold >= 1 &&
      m.volume_threshold <= 2e9
    )
  )
    return refused("circuit_breaker", "volume_threshold must be a whole number from 1 to 2000000000");
  const out = translation();
  const config: Obj = { error_threshold: threshold };
  if (typeof m.volume_threshold === "number" && m.volume_threshold > 0) config.volume_threshold = m.volume_threshold;
  const window = seconds(m.rolling_window);
  const tripped = seconds(m.tripped_duration);
  if (window) config.window_duration = window;
  if (tripped) config.tripped_duration = tripped;
  if (m.num_buckets !== undefined && m.num_buckets !== null && m.num_buckets !== 0 && m.num_buckets !== 10)
    out.warnings.push({
      item: "circuit_breaker",
      message: `num_buckets ${String(m.num_buckets)} becomes 10, which ngrok fixes`,
    });
  out.steps.push({ actions: [{ type: "circuit-breaker", config }] });
  return out;
}
