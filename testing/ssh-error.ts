// The SshError a promise rejects with, for tests that check its kind and message; anything
// else (another error, or no rejection at all) fails the test.
import { SshError } from "@/lib/ssh";

export async function sshErrorOf(promise: Promise<unknown>): Promise<SshError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof SshError) return err;
    throw err;
  }
  throw new Error("expected the promise to reject with an SshError");
}
