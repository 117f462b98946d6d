import "server-only";
import { listLinks as listInventoryLinks, type LinkView } from "@/lib/inventory/links";

export type LinkListItem = LinkView;

/** Every link with the hosts and NICs at both ends. */
export async function listLinks(): Promise<LinkListItem[]> {
  return listInventoryLinks();
}
