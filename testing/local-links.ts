type Db = typeof import("@/lib/db").db;

/**
 * A link `name` between two "local" hosts (127.0.0.1), written straight to the database: an eth1
 * NIC on each, with 198.18.<subnet>.1/24 on the first host and .2 on the second. The link's id.
 */
export async function insertLocalLink(
  db: Db,
  {
    hosts,
    subnet,
    name,
    speedMbps,
  }: { hosts: readonly [string, string]; subnet: number; name: string; speedMbps: number },
): Promise<number> {
  const nics = [];
  for (const [index, hostName] of hosts.entries()) {
    const host = await db.host.create({
      data: { name: hostName, address: "127.0.0.1", authMethod: "local", platform: "linux" },
    });
    nics.push(
      await db.nic.create({ data: { hostId: host.id, name: "eth1", addresses: [`198.18.${subnet}.${index + 1}/24`] } }),
    );
  }
  return (await db.link.create({ data: { name, aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps } })).id;
}

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
    ids.push(
      await insertLocalLink(db, { hosts: [`a${index}`, `b${index}`], subnet: index, name: `link${index}`, speedMbps }),
    );
  }
  return ids;
}
