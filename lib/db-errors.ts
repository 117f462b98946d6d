// Which Prisma error a write met, for the messages of every feature's writes. Pure.

// Duck-typed on the error code: a Prisma class seen through another copy of the client fails `instanceof`.
function prismaCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const { code } = error as { code: unknown };
  return typeof code === "string" ? code : undefined;
}

/** A unique constraint failed (P2002): a name already taken. */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === "P2002";
}

/** The row to update or delete is gone (P2025): deleted by another request meanwhile. */
export function isRecordMissing(error: unknown): boolean {
  return prismaCode(error) === "P2025";
}
