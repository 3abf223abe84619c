// How a Failover backend looks in a table.
import type { FailoverBackend } from "../../api/failover.js";
import { renderRecord, renderRows, type TableStyle } from "../../output/table.js";

export function failoverRecord(fb: FailoverBackend, style: boolean | TableStyle): string {
  return renderRecord(
    [
      ["ID", fb.id],
      ["DESCRIPTION", fb.description ?? ""],
      ["METADATA", fb.metadata ?? ""],
      ["BACKENDS", fb.backends.join(", ")],
      ["CREATED", fb.created_at],
      ["URI", fb.uri],
    ],
    style,
  );
}

export function failoverRows(list: FailoverBackend[], style: boolean | TableStyle): string {
  return renderRows(
    ["ID", "DESCRIPTION", "BACKENDS", "CREATED"],
    list.map((fb) => [fb.id, fb.description ?? "", fb.backends.join(", "), fb.created_at]),
    style,
  );
}
