import { createApiToken } from "@/lib/auth/tokens";
import { createUser } from "@/lib/auth/users";
import type { Role } from "@/lib/auth/roles";

/**
 * A user of `role`, created through lib/auth as the Users page does, with an API token of its own
 * as a script would hold it: the user, the token's secret and the token's id. The password is
 * "correct horse battery" and the token is named "<username>'s script" unless told.
 */
export async function userWithToken(
  username: string,
  role: Role,
  {
    password = "correct horse battery",
    tokenName = `${username}'s script`,
  }: { password?: string; tokenName?: string } = {},
) {
  const user = await createUser({ username, password, role });
  const { token, view } = await createApiToken(user.id, tokenName);
  return { user, token, tokenId: view.id };
}
