/**
 * Which fields a server's bulk items take ("Item fields … not shown": interface § Bulk Update Cases, § Bulk Update
 * Customers), decided by the one rule of kit/bulk.ts aloneRefused: a field is not one the items take when an item
 * carrying an ordinary value of it, sent alone (a batch of one), is refused by the answer (a 4xx, or the item
 * reported failed). A value answered as taken is a field the items take, and must then be applied wherever it is
 * sent: a check that finds it not applied still fails.
 */
import type { JsonObject } from '../base/json.ts';
import type { ReceivedResponse } from '../client/transport.ts';
import { aloneRefused } from './bulk.ts';
import type { BulkRequestItem } from './bulk-report.ts';
import type { Harness } from './context.ts';

/** How a check sends a field alone: the item carrying an ordinary value of it, its endpoint, what names it. */
export interface FieldProbe {
  /** An item naming a record the check may change, carrying an ordinary value of `field` (and nothing else it sets). */
  item(field: string): JsonObject;
  /** Sends an item alone (a batch of one) to the endpoint. */
  sendAlone(item: JsonObject): Promise<ReceivedResponse>;
  /** What names the item's record in a bulk report (its id, or external_id). */
  key(item: JsonObject): BulkRequestItem;
}

/** What the items were found to take, of the fields tried. */
export interface ItemFields {
  /** The fields an item sent alone was answered as taking, in the order tried. */
  taken: string[];
  /** The fields refused alone, each with how: `HTTP 422`, `HTTP 200, the item reported failed`. */
  refused: { field: string; answer: string; res: ReceivedResponse }[];
}

/** Sends each field alone in an item, in order: which the answers refuse (the one rule), and which they take. */
export async function itemFields(t: Harness, fields: readonly string[], probe: FieldProbe): Promise<ItemFields> {
  const found: ItemFields = { taken: [], refused: [] };
  for (const field of fields) {
    const item = probe.item(field);
    const res = await probe.sendAlone(item);
    if (!aloneRefused(t, res, probe.key(item))) found.taken.push(field);
    else
      found.refused.push({
        field,
        answer: res.status >= 400 ? `HTTP ${res.status}` : `HTTP ${res.status}, the item reported failed`,
        res,
      });
  }
  return found;
}

/** `webhook_url (HTTP 422), delete_after (HTTP 200, the item reported failed)`: the refusals, for messages. */
export function describeRefused(found: Pick<ItemFields, 'refused'>): string {
  return found.refused.map((r) => `${r.field} (${r.answer})`).join(', ');
}
