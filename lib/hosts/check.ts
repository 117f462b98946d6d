import "server-only";
import { db } from "@/lib/db";
import { InventoryError } from "@/lib/inventory/errors";
import { installHint } from "@/lib/platforms";
import { connectHost, isSshError, readHostKey } from "@/lib/ssh";
import { detectHost, resolveAgent } from "./remote";
import { HOST_FOR_TARGET, hostTarget, requireLoggedIn } from "./target";

export type HostKeyStatus = "pinned" | "unconfirmed" | "mismatch" | "local";

export type HostCheck = {
  hostId: number;
  reachable: boolean;
  hostKey: { status: HostKeyStatus; presented: string | null; pinned: string | null };
  platform: string | null;
  os: string | null;
  iperf3: { path: string; version: string } | null;
  error: { kind: string; message: string; hint: string } | null;
};

const UNCONFIRMED_HINT =
  "Compare this fingerprint with the host's own (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` on the host); if they match, pin it, then check again.";

const SSH_HINTS: Record<string, string> = {
  "host-key":
    "The host presented another key than the pinned one. If it was reinstalled, pin the new fingerprint after checking it on the host.",
  auth: "Check the user name and the key or password.",
  unreachable: "Check that the host is up, that sshd runs there, and its address and SSH port.",
  timeout: "The host did not answer in time: check the network path and that sshd runs.",
};

async function loadHost(id: number) {
  const host = await db.host.findUnique({ where: { id }, ...HOST_FOR_TARGET });
  if (!host) throw new InventoryError("not-found", `no host has id ${id}`);
  return host;
}

/**
 * Reachability, host key, platform and iperf3 of a host. A host whose key is not
 * pinned yet only shows its key: the connection is refused during key exchange, so
 * no credential goes to a host the user has not confirmed. Detected facts are stored.
 */
export async function checkHost(id: number): Promise<HostCheck> {
  const host = await loadHost(id);
  requireLoggedIn(host);
  const result: HostCheck = {
    hostId: host.id,
    reachable: false,
    hostKey: {
      status: host.authMethod === "local" ? "local" : "pinned",
      presented: null,
      pinned: host.hostKeyFingerprint,
    },
    platform: null,
    os: null,
    iperf3: null,
    error: null,
  };
  try {
    // Inside: a jump host whose key is not pinned yet is this check's answer, naming that hop.
    const target = hostTarget(host, { allowUnpinned: true });
    if (host.authMethod !== "local") {
      if (!host.hostKeyFingerprint) {
        result.hostKey = { status: "unconfirmed", presented: await readHostKey(target), pinned: null };
        result.reachable = true;
        result.error = {
          kind: "host-key",
          message: `the host key of ${host.name} is not confirmed yet`,
          hint: UNCONFIRMED_HINT,
        };
        return result;
      }
      result.hostKey.presented = (await connectHost(target)).fingerprint;
    }
    result.reachable = true;
    const agent = await resolveAgent(target, host.platform);
    const detected = await detectHost(target, agent, host.iperf3Path);
    result.platform = detected.platform;
    result.os = detected.os;
    if (detected.iperf3Path && detected.version) {
      result.iperf3 = { path: detected.iperf3Path, version: detected.version.raw };
    } else {
      result.error = {
        kind: "not-found",
        message: `iperf3 was not found on ${host.name}${host.iperf3Path ? ` at ${host.iperf3Path}` : ""}`,
        hint: installHint(agent.platform),
      };
    }
    await db.host.update({
      where: { id: host.id },
      data: {
        platform: detected.platform,
        lastSeenAt: new Date(),
        ...(result.iperf3 ? { iperf3Path: result.iperf3.path, iperf3Version: result.iperf3.version } : {}),
      },
    });
  } catch (error) {
    if (!isSshError(error) && !(error instanceof Error && "kind" in error)) throw error;
    const kind = String((error as { kind: unknown }).kind);
    result.error = { kind, message: (error as Error).message, hint: SSH_HINTS[kind] ?? "" };
    // A jump host's refused key is that hop's error (it names it): this host's own key was never seen.
    const isOwnHostKey = kind === "host-key" && isSshError(error) && error.host === host.name;
    if (isOwnHostKey) {
      result.reachable = true;
      result.hostKey = {
        status: "mismatch",
        presented: (error as { presented?: string }).presented ?? null,
        pinned: host.hostKeyFingerprint,
      };
    }
  }
  // The outcome of this check is what wirespeed_host_reachable reports (lib/metrics).
  await db.host
    .update({ where: { id: host.id }, data: { reachable: result.reachable, checkedAt: new Date() } })
    .catch(() => undefined);
  return result;
}
