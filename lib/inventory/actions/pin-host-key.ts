"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { checkHost, type HostCheck } from "@/lib/hosts/check";
import { updateHost } from "@/lib/inventory/hosts";
import { HostKeyFingerprintSchema, IdSchema } from "@/lib/inventory/schemas";

const PinHostKeySchema = z.strictObject({ hostId: IdSchema, fingerprint: HostKeyFingerprintSchema });

/** Trusts the fingerprint the user compared with the host's own, then checks again (now logging in). */
export async function pinHostKeyAction(input: z.input<typeof PinHostKeySchema>): Promise<ActionResult<HostCheck>> {
  return runAction("pin-host-key", "credentials", async () => {
    const { hostId, fingerprint } = parseInput(PinHostKeySchema, input);
    await updateHost(hostId, { hostKeyFingerprint: fingerprint });
    const check = await checkHost(hostId);
    revalidatePath("/hosts");
    revalidatePath(`/hosts/${hostId}`);
    return check;
  });
}
