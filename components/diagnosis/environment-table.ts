// The run page's environment table, without React: both ends' rows side by side, one row per
// thing read, marked where the two ends differ.
import { UNKNOWN, type EnvironmentRow } from "@/lib/diagnosis/format";

export type { EnvironmentRow };

export type PairedEnvironmentRow = {
  key: string;
  label: string;
  client: string | null;
  server: string | null;
  isDifferent: boolean;
};

/**
 * The rows of the two ends side by side, in the order the snapshots give them; a row that only
 * one end has sits after the row it follows there. Two values differ when both ends read one
 * and they are not the same text: what one end could not read ("unknown") is no difference.
 */
const isRead = (value: string | null): value is string => value !== null && value !== UNKNOWN;

export function pairEnvironmentRows(
  client: readonly EnvironmentRow[] | null,
  server: readonly EnvironmentRow[] | null,
): PairedEnvironmentRow[] {
  const order: EnvironmentRow[] = [...(client ?? [])];
  let after = -1;
  for (const row of server ?? []) {
    const at = order.findIndex((entry) => entry.key === row.key);
    if (at >= 0) {
      after = at;
      continue;
    }
    order.splice(after + 1, 0, row);
    after += 1;
  }
  const valueOf = (rows: readonly EnvironmentRow[] | null, key: string) =>
    rows?.find((row) => row.key === key)?.value ?? null;
  return order.map(({ key, label }) => {
    const clientValue = valueOf(client, key);
    const serverValue = valueOf(server, key);
    return {
      key,
      label,
      client: clientValue,
      server: serverValue,
      isDifferent: isRead(clientValue) && isRead(serverValue) && clientValue !== serverValue,
    };
  });
}
