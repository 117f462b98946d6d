import { z } from "zod";

// What a share link is asked for with (POST /api/shares). Pure: the Share dialog reads it too.

export const SHARE_KINDS = ["run", "experiment", "link"] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

export const MAX_SHARE_DAYS = 365;
/** What the Share dialog offers first; the API's default when expiresInDays is left out. */
export const DEFAULT_SHARE_DAYS = 30;

export const CreateShareSchema = z.strictObject({
  kind: z.enum(SHARE_KINDS, { error: `must be one of ${SHARE_KINDS.join(", ")}` }),
  id: z
    .int({ error: "must be a whole number from 1 to 2147483647 (an id)" })
    .min(1, { error: "must be a whole number from 1 to 2147483647 (an id)" })
    .max(2_147_483_647, { error: "must be a whole number from 1 to 2147483647 (an id)" }),
  expiresInDays: z
    .int({ error: `must be a whole number of days from 1 to ${MAX_SHARE_DAYS}, or null for never` })
    .min(1, { error: `must be a whole number of days from 1 to ${MAX_SHARE_DAYS}, or null for never` })
    .max(MAX_SHARE_DAYS, { error: `must be a whole number of days from 1 to ${MAX_SHARE_DAYS}, or null for never` })
    .nullable()
    .default(DEFAULT_SHARE_DAYS),
  // Hidden unless asked otherwise, as the Share dialog offers it: a link left to its defaults is safe to post.
  hideAddresses: z.boolean({ error: "must be true or false" }).default(true),
});
export type CreateShareInput = z.input<typeof CreateShareSchema>;
