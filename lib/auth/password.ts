import "server-only";
import bcrypt from "bcryptjs";

// bcrypt (bcryptjs: pure JavaScript, no native build). Cost 12 takes a few hundred
// milliseconds here, and the asynchronous form keeps the server responsive meanwhile.
const COST = 12;

export async function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** A hash of nothing anyone can type, compared against when the user does not exist, so both answers take as long. */
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= bcrypt.hash("\u0000not-a-password\u0000", COST);
  await bcrypt.compare(password, await dummyHash);
  return false;
}
