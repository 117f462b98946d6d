// Which database a Prisma client talks to, from the provider every generated client records (its
// `_activeProvider`): a Prisma client is a proxy, so `instanceof` cannot tell the SQLite client from
// the Postgres one. Plain module: lib/db.ts and the secrets' scrub (which scripts load) both ask it.
export function isPostgresClient(client: object): boolean {
  return Reflect.get(client, "_activeProvider") === "postgresql";
}
