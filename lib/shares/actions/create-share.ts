"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/action";
import type { ShareJson } from "@/lib/shares/contract";
import { requestOrigin } from "@/lib/shares/origin";
import type { CreateShareInput } from "@/lib/shares/schemas";
import { createShare } from "@/lib/shares/store";

/** Makes a share link (the Share dialog of the run, experiment and link pages); validated by createShare. */
export async function createShareAction(input: CreateShareInput): Promise<ActionResult<ShareJson>> {
  return runAction("create-share", "share", async () => {
    const share = await createShare(input, { origin: await requestOrigin() });
    revalidatePath("/shares");
    return share;
  });
}
