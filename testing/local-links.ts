type Db = typeof import("@/lib/db").db;

/**
 * `count` links between pairs of "local" hosts, written straight to the database, for tests whose
 * runs go through a scripted remote (testing/fake-run-remote.ts): hosts a<i> and b<i>, NIC eth1 each
 * with 198.18.<i>.1 and .2, link link<i>. `first` numbers them on from earlier calls on one database.
 */
export async function seedLocalLinks(
  db: Db,
  count: number,
  { first = 0, speedMbps = 10_000 }: { first?: number; speedMbps?: number } = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (let index = first; index < first + count; index += 1) {
    const nics = [];
    for (const side of ["a", "b"]) {
      const host = await db.host.create({
        data: { name: `${side}${index}`, address: "127.0.0.1", authMethod: "local", platform: "linux" },
      });
      nics.push(
        await db.nic.create({
          data: { hostId: host.id, name: "eth1", addresses: [`198.18.${index}.${side === "a" ? 1 : 2}/24`] },
        }),
      );
    }
    ids.push(
      (await db.link.create({ data: { name: `link${index}`, aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps } }))
        .id,
    );
  }
  return ids;
}
